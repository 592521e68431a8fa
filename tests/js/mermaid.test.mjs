// Every graph `logicmd graph --format mermaid` prints parses with Mermaid's own parser.
// Run after building the CLI: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { JSDOM } from "jsdom";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const binary = join(process.env.CARGO_TARGET_DIR ?? join(root, "target"), "debug/logicmd");
const dom = new JSDOM("<!doctype html><html><body></body></html>");
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import("mermaid");

function files(dir, suffixes) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path, suffixes);
    return suffixes.some((s) => entry.name.endsWith(s)) ? [path] : [];
  });
}

const conformance = process.env.LOGICMD_CONFORMANCE_DIR ?? join(root, "../shared/conformance");
const inputs = [
  ...files(join(root, "tests/drtl"), [".drtl.yaml"]),
  ...files(join(root, "examples"), [".logic.md"]),
  ...files(join(conformance, "valid"), [".logic.md"]),
  ...files(join(conformance, "edge-cases"), [".logic.md"]),
];

test("there are graphs to check", () => {
  assert.ok(inputs.length >= 13, `${inputs.length} inputs`);
});

for (const input of inputs) {
  test(`mermaid parses ${input.slice(root.length + 1)}`, async () => {
    const text = execFileSync(binary, ["graph", input, "--format", "mermaid"], { encoding: "utf8" });
    const result = await mermaid.parse(text);
    assert.equal(result.diagramType, "flowchart-v2");
  });
}

test("mermaid rejects broken text (the check can fail)", async () => {
  await assert.rejects(mermaid.parse("flowchart TD\n  a --> |bad"));
});
