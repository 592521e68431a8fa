// `logicmd validate` gives the canonical schema's verdict: checked against an independent draft-07
// validator (ajv, allErrors) on the conformance documents, the examples, the schema fixtures and
// deterministic mutations of them. Both validators see the same JSON: each document goes to
// logicmd as JSON frontmatter (JSON is YAML 1.2), written from the very object ajv validates.
// The original YAML texts are also validated as they are, and must give the same findings.
// Run after building the CLI: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, basename } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";
import { parse as parseYaml } from "yaml";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const binary = join(process.env.CARGO_TARGET_DIR ?? join(root, "target"), "debug/logicmd");

/** The conformance suite: $LOGICMD_CONFORMANCE_DIR, else shared/conformance in the nearest
 * ancestor of the checkout that has one (as tests/support/lib.rs finds it); required under CI. */
function conformanceDir() {
  if (process.env.LOGICMD_CONFORMANCE_DIR) return process.env.LOGICMD_CONFORMANCE_DIR;
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "shared/conformance"))) return join(dir, "shared/conformance");
    if (dirname(dir) === dir) break;
  }
  assert.notEqual(process.env.CI, "true", "conformance suite not found (set LOGICMD_CONFORMANCE_DIR)");
  console.error("conformance suite not found: its documents are left out");
  return null;
}
const conformance = conformanceDir();
const schema = JSON.parse(readFileSync(join(root, "core/src/schema/logic-md-schema-v1.0.json"), "utf8"));
const ajvCheck = new Ajv({ allErrors: true, strict: false }).compile(schema);

function files(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return files(path, suffix);
      return entry.name.endsWith(suffix) ? [path] : [];
    })
    .sort();
}

/** The frontmatter of a LOGIC.md text as an object (YAML 1.2 core schema), or null. */
function frontmatter(text) {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0].trimEnd() !== "---") return null;
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  if (close < 0) return null;
  try {
    const value = parseYaml(lines.slice(1, close).join("\n"), { version: "1.2", schema: "core", uniqueKeys: true });
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

const originals = [
  ...(conformance ? files(conformance, ".logic.md") : []),
  ...files(join(root, "examples"), ".logic.md"),
  ...files(join(root, "tests/fixtures/schema"), ".logic.md"),
]
  .map((path) => ({ path, text: readFileSync(path, "utf8") }))
  .map((file) => ({ ...file, value: frontmatter(file.text) }))
  .filter((file) => file.value !== null);

// ---- Mutations: every place of every document, changed in the ways documents go wrong ----

const clone = (value) => JSON.parse(JSON.stringify(value));
const escape = (token) => String(token).replaceAll("~", "~0").replaceAll("/", "~1");

/** Every [tokens, value] in `value`, parents before children. */
function places(value, tokens = []) {
  const here = [[tokens, value]];
  if (Array.isArray(value)) value.forEach((item, i) => here.push(...places(item, [...tokens, i])));
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) here.push(...places(item, [...tokens, key]));
  }
  return here;
}

/** A copy of `document` with the value at `tokens` replaced by `change(value)` (undefined deletes). */
function changed(document, tokens, change) {
  const copy = clone(document);
  if (tokens.length === 0) return change(copy);
  const parent = tokens.slice(0, -1).reduce((node, token) => node[token], copy);
  const last = tokens[tokens.length - 1];
  const next = change(parent[last]);
  if (next === undefined) {
    if (Array.isArray(parent)) parent.splice(last, 1);
    else delete parent[last];
  } else parent[last] = next;
  return copy;
}

/** The ways a value at one place is changed: [label, change]. */
function changes(value, tokens) {
  if (Array.isArray(value)) return [["empty list", () => []], ["list as a string", () => "x"]];
  if (value && typeof value === "object") {
    const keys = Object.keys(value);
    const ways = [
      ["unknown key", (v) => ({ ...v, unknown_key: 1 })],
      ...keys.map((key) => [`without ${key}`, (v) => { const c = { ...v }; delete c[key]; return c; }]),
    ];
    if (tokens.length > 0) ways.push(["empty object", () => ({})], ["object as a string", () => "x"]);
    if (keys.length > 0) {
      const key = keys[0];
      ways.push([`typo in key ${key}`, (v) => {
        const c = {};
        for (const [k, item] of Object.entries(v)) c[k === key ? key.slice(0, -1) || "x" : k] = item;
        return c;
      }]);
    }
    return ways;
  }
  if (typeof value === "number") {
    return [0, -1, 3, 2.5, 1e12, String(value)].map((n) => [`number ${JSON.stringify(n)}`, () => n]);
  }
  if (typeof value === "string") {
    return [["empty string", () => ""], ["string as a number", () => 42], ["typo", (s) => `${s}x`], ["deleted", () => undefined]];
  }
  if (typeof value === "boolean") return [["boolean as a string", () => "yes"], ["boolean as a number", () => 1]];
  return [["null as a string", () => "x"]];
}

function mutations(document) {
  return places(document).flatMap(([tokens, value]) =>
    changes(value, tokens).map(([label, change]) => ({
      label: `${label} at /${tokens.map(escape).join("/")}`,
      value: changed(document, tokens, change),
    })),
  );
}

// Every third mutation of the conformance documents and examples (the richest documents), and
// every tenth of the fixtures (they add the shapes they exercise), keep the run short; the
// choice is fixed, so every run checks the same documents. The same JSON is checked once.
const seen = new Set();
const mutated = [];
for (const file of originals) {
  const stride = file.path.includes("tests/fixtures") ? 10 : 3;
  mutations(file.value).forEach((mutation, i) => {
    if (i % stride !== 0) return;
    const json = JSON.stringify(mutation.value, null, 2);
    if (seen.has(json)) return;
    seen.add(json);
    mutated.push({ name: `${basename(file.path)}: ${mutation.label}`, value: mutation.value, json });
  });
}

// ---- Both validators on the same JSON ----

const documents = [
  ...originals.map((file) => ({ name: basename(file.path), value: file.value, json: JSON.stringify(file.value, null, 2) })),
  ...mutated,
];

/** logicmd's result for each text, in order: { valid, diagnostics }. */
function logicmd(texts) {
  const dir = mkdtempSync(join(tmpdir(), "logicmd-ajv-"));
  try {
    const names = texts.map((text, i) => {
      const name = join(dir, `${String(i).padStart(6, "0")}.logic.md`);
      writeFileSync(name, text);
      return name;
    });
    const run = spawnSync(binary, ["validate", "--format", "json", dir], { encoding: "utf8", maxBuffer: 1 << 30 });
    assert.ok(run.status === 0 || run.status === 1, `logicmd failed (${run.status}): ${run.stderr}`);
    const byFile = new Map(JSON.parse(run.stdout).map((result) => [result.file, result]));
    return names.map((name) => byFile.get(name));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const inBranch = (error) => /\/(anyOf|oneOf)\/\d+\//.test(error.schemaPath);
const pair = (path, keyword) => `${path} ${keyword}`;

const ours = logicmd(documents.map((d) => `---\n${d.json}\n---\n`));
const results = documents.map((document, i) => {
  const valid = ajvCheck(document.value);
  const errors = valid ? [] : ajvCheck.errors;
  return { document, ajv: { valid, errors }, ours: ours[i] };
});

function disagreements(describe) {
  return results.flatMap(({ document, ajv, ours }) => {
    const problem = describe(ajv, ours);
    return problem ? [`${document.name}: ${problem}`] : [];
  });
}

const summary = (list) => `${list.length} disagreement(s):\n${list.slice(0, 25).join("\n")}`;

test("the comparison covers the documents and at least 400 mutations of them", (t) => {
  const invalid = results.filter((r) => !r.ajv.valid).length;
  t.diagnostic(`${originals.length} documents, ${mutated.length} mutations; ${invalid} invalid, ${results.length - invalid} valid`);
  assert.ok(originals.length >= 300, `${originals.length} documents`);
  assert.ok(mutated.length >= 400, `${mutated.length} mutations`);
  assert.ok(invalid >= 200 && results.length - invalid >= 200, "both verdicts are well represented");
  assert.ok(results.every((r) => r.ours !== undefined), "logicmd answered for every document");
});

test("the verdict is the canonical schema's on every document", (t) => {
  const found = disagreements((ajv, ours) =>
    ajv.valid === ours.valid ? null : `ajv valid=${ajv.valid}, logicmd valid=${ours.valid}: ${JSON.stringify(ajv.errors)} ${JSON.stringify(ours.diagnostics)}`,
  );
  t.diagnostic(`agreement: ${results.length - found.length}/${results.length} documents`);
  assert.deepEqual(found, [], summary(found));
});

test("every place and keyword logicmd reports, the schema reports", () => {
  const found = disagreements((ajv, ours) => {
    const theirs = new Set(ajv.errors.map((e) => pair(e.instancePath, e.keyword)));
    const extra = ours.diagnostics.filter((d) => !d.keyword || !theirs.has(pair(d.path, d.keyword)));
    return extra.length ? `not in ajv's list: ${JSON.stringify(extra)}` : null;
  });
  assert.deepEqual(found, [], summary(found));
});

test("every place the schema reports (outside anyOf/oneOf branches), logicmd reports", () => {
  const found = disagreements((ajv, ours) => {
    const mine = new Set(ours.diagnostics.map((d) => d.path));
    const missed = ajv.errors.filter((e) => !inBranch(e) && !mine.has(e.instancePath));
    return missed.length ? `not reported: ${JSON.stringify(missed)}` : null;
  });
  assert.deepEqual(found, [], summary(found));
});

test("the YAML originals give the findings their JSON gives", () => {
  const asWritten = logicmd(originals.map((file) => file.text));
  const findings = (result) => result.diagnostics.map((d) => pair(d.path, d.keyword ?? d.code)).sort();
  const found = originals.flatMap((file, i) => {
    const a = findings(asWritten[i]);
    const b = findings(results[i].ours);
    return JSON.stringify(a) === JSON.stringify(b) ? [] : [`${basename(file.path)}: ${a} vs ${b}`];
  });
  assert.deepEqual(found, [], summary(found));
});

test("the issue's examples get the canonical verdict", () => {
  const base = { spec_version: "1.0", name: "t" };
  const cases = [
    [{ ...base, reasoning: { strategy: "cot", max_iterations: 0 } }, true],
    [{ ...base, reasoning: { strategy: "cot", temperature: 3 } }, true],
    [{ ...base, visual: { ports: { inputs: [{ name: "q", type: "date" }] } } }, true],
    [{ ...base, steps: { a: { branches: [{ if: "{{ true }}", then: "" }] } } }, true],
    [{ ...base, reasoning: {} }, false],
    [{ ...base, visual: { ports: { inputs: [{ name: "q" }] } } }, false],
  ];
  const verdicts = logicmd(cases.map(([value]) => `---\n${JSON.stringify(value)}\n---\n`)).map((r) => r.valid);
  assert.deepEqual(verdicts, cases.map(([value]) => ajvCheck(value)));
  assert.deepEqual(verdicts, cases.map(([, valid]) => valid));
});
