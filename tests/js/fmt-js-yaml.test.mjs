// `logicmd fmt` output loads to the same data as its input under js-yaml (the reference
// implementation's reader, default schema: YAML 1.2 core plus timestamps, `<<`, `_` in numbers).
// Issue #13: a quote js-yaml needs must never be dropped.
// Run after building the CLI: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync, mkdtempSync, existsSync, rmSync } from "node:fs";
import { join, dirname, basename } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import yaml from "js-yaml";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const binary = join(process.env.CARGO_TARGET_DIR ?? join(root, "target"), "debug/logicmd");
const conformance = process.env.LOGICMD_CONFORMANCE_DIR ?? join(root, "../shared/conformance");

function files(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path, suffix);
    return entry.name.endsWith(suffix) ? [path] : [];
  });
}

/** The YAML between the opening `---` line and the next one. */
function frontmatter(text) {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const end = lines.findIndex((line, i) => i > 0 && /^---[ \t]*$/.test(line));
  return lines.slice(1, end).join("\n");
}

/** Formats a copy of `text` with the CLI and returns the result. */
function formatted(text, name) {
  const dir = mkdtempSync(join(tmpdir(), "logicmd-fmt-js-"));
  try {
    const file = join(dir, name.endsWith(".logic.md") ? name : `${name}.logic.md`);
    writeFileSync(file, text);
    try {
      execFileSync(binary, ["fmt", file], { encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      // A refused file is left as it is; that keeps its meaning too.
      assert.match(String(error.stderr), /left unchanged|does not parse|invalid YAML|frontmatter/);
    }
    return readFileSync(file, "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const TRICKY = [
  "2026-03-31", "2026-03-31T10:00:00Z", "2026-3-1 10:00:00", "1:30", "12:30:45", "190:20:30.15",
  "1_000", "1_0.5", "0b101", "0o17", "0x1F", "017", "09", ".5", "1.", "1e3", "+12", "-0",
  "yes", "No", "ON", "off", "y", "N", "true", "False", "null", "~", "", "=", "<<", ".inf", "-.Inf",
  ".NaN", "x #y", "a: b", "- x", "it's", "[x]", "{y}", "#h", "café ☕", "1.2.3", "2026-3-1",
  "v1.0", "30s", "1:60", "y2k", "yes please", "plain words", "_1",
];

/** A document with every tricky string as a value, a list item and a key, double and single quoted. */
function trickyDocument() {
  const double = (s) => JSON.stringify(s);
  const single = (s) => `'${s.replace(/'/g, "''")}'`;
  const lines = ["---", 'spec_version: "1.0"', 'name: "tricky scalars"', "metadata:"];
  TRICKY.forEach((s, i) => {
    lines.push(`  d${i}: ${double(s)}  # double ${i}`);
    lines.push(`  s${i}: ${single(s)}`);
  });
  lines.push("  items:");
  for (const s of TRICKY) lines.push(`    - ${double(s)}`);
  lines.push("  keys:");
  TRICKY.forEach((s, i) => lines.push(`    ${double(s)}: ${i}`));
  lines.push("---", "# Body", "");
  return lines.join("\n");
}

const inputs = [
  ...files(join(root, "examples"), ".logic.md").map((path) => [path.slice(root.length + 1), readFileSync(path, "utf8")]),
  ...["valid", "edge-cases"].flatMap((kind) =>
    files(join(conformance, kind), ".logic.md").map((path) => [`${kind}/${basename(path)}`, readFileSync(path, "utf8")]),
  ),
  ["tricky scalars", trickyDocument()],
];

test("there are documents to format", () => {
  assert.ok(inputs.length >= 6, `${inputs.length} inputs`);
});

for (const [name, text] of inputs) {
  test(`js-yaml reads fmt's output of ${name} as it reads the input`, () => {
    const output = formatted(text, basename(name).replace(/ /g, "-"));
    assert.deepEqual(yaml.load(frontmatter(output)), yaml.load(frontmatter(text)));
  });
}

test("the tricky document is reformatted (quotes are dropped where safe), not left as it is", () => {
  const text = trickyDocument();
  const output = formatted(text, "tricky");
  assert.notEqual(output, text);
  assert.match(output, /\n {2}d\d+: plain words # double \d+\n/);
  assert.match(output, /\n {2}d0: "2026-03-31" # double 0\n/);
});

test("the check can fail: js-yaml reads an unquoted date and number differently", () => {
  assert.notDeepEqual(yaml.load("a: 2026-03-31\nb: 1_000"), yaml.load('a: "2026-03-31"\nb: "1_000"'));
});
