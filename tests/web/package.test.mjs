// Tests of the *built* npm package, installed into tests/web/node_modules from `npm pack`
// (scripts/test-npm.sh). Every exported function, with good and bad input.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as logicmd from "logicmd";

const repo = new URL("../../", import.meta.url);
const read = (path) => readFileSync(new URL(path, repo), "utf8");
const analyst = read("examples/competitive-analyst.logic.md");
const retryDefaults = read("examples/shared/retry-defaults.logic.md");
const debate = read("tests/drtl/debate-protocol.drtl.yaml");
const files = { "shared/retry-defaults.logic.md": retryDefaults };

const TREE = `---
spec_version: "1.0"
name: router
decision_trees:
  route:
    root: size
    nodes:
      size:
        condition: "{{ input.pages > 100 }}"
        branches:
          - value: true
            next: big
          - default: true
            next: small
    terminals:
      big: { action: summarize_first }
      small: { action: read_all }
---
`;

const MALFORMED = '---\nspec_version: "1.0"\nname: [unclosed\n---\n';

/** Every function either returns a result with `diagnostics` or throws an `Error` with a message. */
function assertThrowsMessage(call, pattern) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof Error, `threw ${error}, not an Error`);
    assert.match(error.message, pattern);
    return true;
  });
}

function assertPlain(value) {
  if (value instanceof Map) assert.fail("a result contains a Map");
  if (Array.isArray(value)) value.forEach(assertPlain);
  else if (value && typeof value === "object") Object.values(value).forEach(assertPlain);
}

test("version and supportedSpecVersions", () => {
  assert.match(logicmd.version(), /^\d+\.\d+\.\d+/);
  assert.deepEqual(logicmd.supportedSpecVersions(), ["1.0"]);
});

test("parse returns the frontmatter as plain objects and the body", () => {
  const result = logicmd.parse(analyst);
  assertPlain(result);
  assert.equal(result.frontmatter.name, "competitive-analyst");
  assert.equal(result.frontmatter.reasoning.max_iterations, 12);
  assert.match(result.body, /# Competitive analyst/);
  assert.deepEqual(result.diagnostics, []);
});

test("parse of malformed YAML gives a located diagnostic", () => {
  const result = logicmd.parse(MALFORMED);
  assert.equal(result.frontmatter, null);
  const [first] = result.diagnostics;
  assert.equal(first.severity, "error");
  assert.ok(first.line >= 3 && first.line <= 4, `line ${first.line}`);
  assert.ok(first.column > 0);
  assert.ok(first.message.length > 0);
});

test("validate names the place of a schema error and suggests a fix", () => {
  assert.deepEqual(logicmd.validate(analyst), { kind: "logic", valid: true, diagnostics: [] });
  const typo = analyst.replace("max_iterations: 12", "max_iteration: 12");
  const result = logicmd.validate(typo);
  assert.equal(result.valid, false);
  const unknown = result.diagnostics.find((d) => d.code === "schema-unknown-property");
  assert.equal(unknown.path, "/reasoning");
  assert.equal(unknown.line, 13);
  assert.equal(unknown.help, "did you mean `max_iterations`?");
});

test("validate recognises DRTL topologies", () => {
  const result = logicmd.validate(debate);
  assert.equal(result.kind, "drtl");
  assert.equal(result.valid, true, JSON.stringify(result.diagnostics));
});

test("lint resolves imports through a map and through a callback", () => {
  const withMap = logicmd.lint(analyst, "competitive-analyst.logic.md", files);
  assert.equal(withMap.valid, true, JSON.stringify(withMap.diagnostics));
  const asked = [];
  const withCallback = logicmd.lint(analyst, "competitive-analyst.logic.md", (path) => {
    asked.push(path);
    return files[path];
  });
  assert.deepEqual(asked, ["shared/retry-defaults.logic.md"]);
  assert.equal(withCallback.valid, true);
  const missing = logicmd.lint(analyst, "competitive-analyst.logic.md", {});
  assert.ok(missing.diagnostics.some((d) => d.severity === "error" && /retry-defaults/.test(d.message)));
  const throwing = logicmd.lint(analyst, "competitive-analyst.logic.md", () => {
    throw new Error("disk on fire");
  });
  assert.ok(throwing.diagnostics.some((d) => /disk on fire/.test(d.message)));
});

test("compile gives the workflow or one step", () => {
  const whole = logicmd.compile(analyst, null, files, "competitive-analyst.logic.md");
  assert.deepEqual(whole.diagnostics.filter((d) => d.severity === "error"), []);
  assert.deepEqual(whole.workflow.order.slice(0, 2), ["identify_competitors", "analyze_features"]);
  assert.deepEqual(whole.workflow.levels[0], ["identify_competitors"]);
  assert.match(whole.markdown, /identify_competitors/);
  const one = logicmd.compile(analyst, "synthesize", files, "competitive-analyst.logic.md");
  assert.equal(one.step.name, "synthesize");
  assert.deepEqual(one.step.needs, ["analyze_features"]);
  assert.equal(one.markdown, one.step.scaffold);
  const unknown = logicmd.compile(analyst, "nope", files);
  assert.equal(unknown.workflow, null);
  assert.match(unknown.diagnostics.at(-1).message, /no step `nope`/);
});

test("graph lays out nodes and typed edges", () => {
  const { kind, graph, diagnostics } = logicmd.graph(analyst);
  assertPlain(graph);
  assert.equal(kind, "logic");
  assert.deepEqual(diagnostics, []);
  const steps = graph.nodes.filter((n) => n.kind === "step").map((n) => n.name);
  assert.deepEqual(steps.sort(), ["analyze_features", "identify_competitors", "prioritize", "synthesize"]);
  const needs = graph.edges.filter((e) => e.kind === "needs");
  assert.ok(needs.some((e) => e.source === "step:identify_competitors" && e.target === "step:analyze_features"));
  assert.ok(graph.nodes.every((n) => Number.isFinite(n.x) && Number.isFinite(n.y)));
  const drtl = logicmd.graph(debate);
  assert.equal(drtl.kind, "drtl");
  assert.ok(drtl.graph.nodes.length >= 2 && drtl.graph.edges.length >= 1, JSON.stringify(drtl.graph.nodes.map((n) => n.id)));
  assert.equal(logicmd.graph(MALFORMED).graph, null);
});

test("check reports unmet obligations", () => {
  const unverified = read("tests/drtl/unverified-publish.drtl.yaml");
  const result = logicmd.check(unverified);
  assert.ok(result.findings.some((f) => f.rule === "unverified-output"), JSON.stringify(result));
  assert.deepEqual(logicmd.check(read("tests/drtl/verified-publish.drtl.yaml")).findings.filter((f) => f.severity === "error"), []);
});

test("applyEdit changes the text minimally, with UTF-16 patches and an exact inverse", () => {
  const text = analyst.replace("Maps the competitive", "Maps — the competitive");
  const edit = logicmd.applyEdit(text, { op: "set", path: "reasoning.max_iterations", value: 20 });
  assert.equal(edit.applied, true);
  assert.match(edit.text, /max_iterations: 20/);
  assert.match(edit.text, /# A research agent that maps a market/);
  const [patch] = edit.patches;
  assert.equal(text.slice(0, patch.start_utf16) + patch.text + text.slice(patch.end_utf16), edit.text);
  assert.ok(patch.start > patch.start_utf16, "bytes differ from UTF-16 after the em dash");
  const undone = logicmd.applyEdit(edit.text, edit.inverse);
  assert.equal(undone.text, text);
  const connect = logicmd.applyEdit(analyst, { op: "connect", from: "identify_competitors", to: "synthesize" });
  assert.match(connect.text, /needs: \[analyze_features, identify_competitors\]/);
  const cycle = logicmd.applyEdit(analyst, { op: "connect", from: "synthesize", to: "identify_competitors" });
  assert.equal(cycle.applied, false);
  assert.equal(cycle.text, analyst);
  assert.match(cycle.diagnostics[0].message, /cycle/);
});

test("applyEdit refuses a malformed edit with an Error", () => {
  assertThrowsMessage(() => logicmd.applyEdit(analyst, { op: "explode" }), /not an edit/);
  assertThrowsMessage(() => logicmd.applyEdit(analyst, "set"), /not an edit/);
});

test("format orders keys and keeps comments", () => {
  const shuffled = '---\nname: x # the name\nspec_version: "1.0"\n---\n';
  const result = logicmd.format(shuffled);
  assert.equal(result.changed, true);
  assert.equal(result.text, '---\nspec_version: "1.0"\nname: x # the name\n---\n');
  assert.equal(logicmd.format(result.text).changed, false);
  assert.equal(logicmd.format(MALFORMED).diagnostics[0].severity, "error");
});

test("evaluate runs expressions with or without braces", () => {
  assert.equal(logicmd.evaluate("output.items.length >= 2", { output: { items: [1, 2] } }).value, true);
  assert.equal(logicmd.evaluate("{{ a + 1 }}", { a: 41 }).value, 42);
  const bad = logicmd.evaluate("a +", {});
  assert.equal(bad.value, null);
  assert.equal(bad.diagnostics[0].line, 1);
  assert.ok(bad.diagnostics[0].column >= 1);
});

test("evalTree routes input to a terminal", () => {
  assert.deepEqual(logicmd.evalTree(TREE, "route", { pages: 500 }).result, {
    path: ["size"],
    reached: "big",
    kind: "terminal",
  });
  assert.equal(logicmd.evalTree(TREE, "route", { pages: 5 }).result.reached, "small");
  assert.match(logicmd.evalTree(TREE, "missing", {}).diagnostics[0].message, /missing/);
});

// Issue #30: evalTree goes through the front door as `logicmd eval-tree` does: an input that is
// not an object, or a document lint fails, is refused with diagnostics; imports resolve through
// `files`.
test("evalTree takes an object and refuses what lint refuses", () => {
  for (const input of [[], null, "x"]) {
    const refused = logicmd.evalTree(TREE, "route", input);
    assert.equal(refused.result, null);
    assert.equal(refused.diagnostics[0].code, "eval-tree-input");
  }
  const bare = TREE.replace(/"\{\{ ([^}]*) \}\}"/, '"$1"');
  assert.notEqual(bare, TREE);
  const lintFails = logicmd.evalTree(bare, "route", { pages: 5 });
  assert.equal(lintFails.result, null);
  assert.deepEqual(lintFails.diagnostics.map((d) => d.code), ["unbraced-condition"]);
  const importer = '---\nspec_version: "1.0"\nname: main\nimports:\n  - ref: ./trees.logic.md\n    as: lib\n---\n';
  const imported = logicmd.evalTree(importer, "lib.route", { pages: 500 }, { "trees.logic.md": TREE }, "main.logic.md");
  assert.deepEqual(imported.diagnostics, []);
  assert.equal(imported.result.reached, "big");
});

// Issue #30: a path segment may be quoted, so §9.1's dotted override keys can be set.
test("applyEdit takes quoted path segments and refuses a conflicting nested write", () => {
  const workflow = read("examples/research-workflow.logic.md");
  const set = logicmd.applyEdit(workflow, { op: "set", path: 'nodes.researcher.overrides["reasoning.max_iterations"]', value: 3 });
  assert.deepEqual(set.diagnostics.filter((d) => d.severity === "error"), []);
  assert.match(set.text, /reasoning\.max_iterations: 3/);
  const conflicting = logicmd.applyEdit(workflow, { op: "set", path: "nodes.researcher.overrides.reasoning.max_iterations", value: 3 });
  assert.equal(conflicting.applied, false);
  assert.match(conflicting.diagnostics[0].message, /overrides\["reasoning\.max_iterations"\]/);
});

test("share links round-trip and corrupted ones give a diagnostic", () => {
  const link = logicmd.encodeShareLink(analyst);
  assert.match(link, /^lm1\.[A-Za-z0-9_-]+$/);
  assert.ok(link.length < analyst.length, "compressed");
  assert.equal(logicmd.decodeShareLink(link).text, analyst);
  assert.equal(logicmd.decodeShareLink(`https://studio.example/#share=${link}`).text, analyst);
  for (const corrupt of [link.slice(0, -7) + "AAAAAAA", "lm1.!!!", "lm9." + link.slice(4), ""]) {
    const result = logicmd.decodeShareLink(corrupt);
    assert.equal(result.text, null, corrupt);
    assert.equal(result.diagnostics[0].code, "share-link");
  }
});

test("a share link that would expand beyond the limit is refused", () => {
  const bomb = logicmd.encodeShareLink("a".repeat(4 << 20));
  assert.ok(bomb.length < 20000);
  assert.match(logicmd.decodeShareLink(bomb).diagnostics[0].message, /expands beyond 1 MiB/);
});

test("discover builds palette nodes for *.logic.md files only", () => {
  const result = logicmd.discover([
    { path: "nodes/competitive-analyst.logic.md", text: analyst },
    { path: "README.md", text: "# not a node" },
    { path: "broken.logic.md", text: MALFORMED },
  ]);
  assert.equal(result.nodes.length, 1);
  const [node] = result.nodes;
  assert.equal(node.category, "research");
  assert.equal(node.icon, "radar");
  assert.deepEqual(node.ports.inputs, [{ name: "market_segment", type: "string", required: true }]);
  assert.deepEqual(node.inspector.map((f) => f.type), ["select", "number", "slider"]);
  assert.equal(node.inspector[1].value, 12);
  assert.ok(result.diagnostics.every((d) => d.message.startsWith("broken.logic.md: ")));
  assertThrowsMessage(() => logicmd.discover([{ path: 1 }]), /files\[0\]/);
  assertThrowsMessage(() => logicmd.discover("nodes"), /array/);
});

test("non-string arguments throw an Error naming the argument", () => {
  for (const [name, call] of [
    ["parse", () => logicmd.parse(42)],
    ["validate", () => logicmd.validate(undefined)],
    ["lint", () => logicmd.lint({})],
    ["compile", () => logicmd.compile(null)],
    ["graph", () => logicmd.graph([])],
    ["check", () => logicmd.check(true)],
    ["format", () => logicmd.format(Symbol.iterator)],
    ["applyEdit", () => logicmd.applyEdit(1, { op: "remove", path: "/name" })],
    ["evaluate", () => logicmd.evaluate(1n)],
    ["evalTree", () => logicmd.evalTree(TREE, 5, {})],
    ["encodeShareLink", () => logicmd.encodeShareLink(3)],
    ["decodeShareLink", () => logicmd.decodeShareLink({})],
  ]) {
    assertThrowsMessage(call, /must be a string/);
    assert.ok(name);
  }
  assertThrowsMessage(() => logicmd.compile(analyst, 7), /step must be a string/);
  assertThrowsMessage(() => logicmd.lint(analyst, null, 5), /files must be/);
  assertThrowsMessage(() => logicmd.lint(analyst, null, { "a.logic.md": 1 }), /must be a string/);
});

/** A seeded generator (mulberry32): the same strings on every run, so a failure reproduces. */
function generator(seed) {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * below;
  };
}

/** UTF-16 units of every UTF-8 length, newlines, and lone surrogates on either side. */
const UNITS = ["a", "Z", " ", "\n", "#", "é", "ß", "—", "中", "語", "😀", "𝔘", "\ud800", "\udfff"];

/** A random text of `length` pieces, mostly of one kind so that some overflow a guess made from
 * ASCII and some are ASCII throughout. */
function randomText(next, length) {
  const mostly = UNITS[Math.floor(next(UNITS.length))];
  let text = "";
  for (let i = 0; i < length; i++) {
    text += next(3) < 2 ? mostly : UNITS[Math.floor(next(UNITS.length))];
  }
  return text;
}

test("text arguments reach the package as the UTF-8 the engine's TextEncoder writes", () => {
  const utf8 = (text) => new TextDecoder().decode(new TextEncoder().encode(text));
  const head = '---\nspec_version: "1.0"\nname: text\n---\n';
  const next = generator(17);
  const lengths = [0, 1, 3, 4, 5, 15, 16, 17, 63, 64, 65, 200, 1000, 5000];
  for (let round = 0; round < 300; round++) {
    const body = randomText(next, round < lengths.length ? lengths[round] : Math.floor(next(700)));
    const result = logicmd.parse(head + body);
    assert.deepEqual(result.diagnostics, [], JSON.stringify(body));
    assert.equal(result.body, utf8(body), JSON.stringify(body));
  }
  // Characters past the first guess of the buffer's size, in every width.
  for (const unit of ["é", "中", "😀", "\ud800"]) {
    const body = unit.repeat(20000);
    assert.equal(logicmd.parse(head + body).body, utf8(body));
  }
  // Positions are counted in the text as read: a schema error after wide characters.
  const wide = '---\nspec_version: "1.0"\nname: "😀中é"\nsteps: 5\n---\n';
  const [error] = logicmd.validate(wide).diagnostics;
  assert.equal(error.path, "/steps");
  assert.equal(error.line, 4);
});

test("huge and deeply nested inputs give diagnostics, not traps or hangs", () => {
  const huge = `---\nspec_version: "1.0"\nname: big\ndescription: "${"x".repeat(9 << 20)}"\n---\n`;
  for (const fn of [logicmd.parse, logicmd.validate, logicmd.graph, logicmd.check, logicmd.format]) {
    const result = fn(huge);
    assert.ok(result.diagnostics.some((d) => d.severity === "error" && /large|size|limit/i.test(d.message)), fn.name);
  }
  const deep = `---\nspec_version: "1.0"\nname: deep\nmetadata: ${"[".repeat(5000)}${"]".repeat(5000)}\n---\n`;
  assert.ok(logicmd.validate(deep).diagnostics.some((d) => /deep|depth|nest/i.test(d.message)));
  const aliases = `---\nspec_version: "1.0"\nname: bomb\nmetadata:\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 12 }, (_, i) => `  b${i}: &b${i} [${Array(10).fill(i === 0 ? "*a" : `*b${i - 1}`).join(", ")}]`).join("\n")}\n---\n`;
  assert.equal(logicmd.validate(aliases).valid, false);
  const loopy = logicmd.evaluate("a.b.c.d.e.f", { a: null });
  assert.ok(loopy.diagnostics.length > 0 || loopy.value === null);
});

test("the package still works after errors (no poisoned instance)", () => {
  assertThrowsMessage(() => logicmd.parse(42), /must be a string/);
  logicmd.validate(MALFORMED);
  assert.equal(logicmd.validate(analyst).valid, true);
});

test("the TypeScript declarations have no `any`", () => {
  const declarations = readFileSync(new URL("./node_modules/logicmd/logicmd.d.ts", import.meta.url), "utf8");
  const exported = declarations.split("\n").filter((line) => /^export (declare )?function/.test(line));
  assert.ok(exported.length >= 15, `found ${exported.length} functions`);
  // The public part: everything before wasm-bindgen's raw `InitOutput` export table.
  const publicPart = declarations.slice(0, declarations.indexOf("export type InitInput"));
  assert.ok(publicPart.length > 1000);
  const anys = publicPart.split("\n").filter((line) => /\bany\b/.test(line.replace(/\/\/.*|\/\*.*?\*\/|^\s*\*.*/g, "")));
  assert.deepEqual(anys, []);
});

test("the node-registry example prints the palette of examples/", async () => {
  const { palette, scan, describe } = await import("../../examples/node-registry/palette.mjs");
  const result = palette(scan(new URL("../../examples", import.meta.url).pathname), logicmd.discover);
  assert.deepEqual(result.diagnostics, []);
  assert.ok("research" in result.categories, Object.keys(result.categories).join());
  const names = Object.values(result.categories).flat().map((n) => n.name);
  assert.ok(names.includes("competitive-analyst") && names.includes("researcher"), names.join());
  const text = describe(result);
  assert.match(text, /^research$/m);
  assert.match(text, /radar competitive-analyst {2}\(competitive-analyst\.logic\.md\) #0EA5E9/);
  assert.match(text, /in: {2}market_segment: string \(required\)/);
  assert.match(text, /⚙ Max iterations <number 1\.\.50> = 12/);
});
