// The run engine of the *built* npm package (tests/web/node_modules/logicmd) is a wasm of its own,
// read on first use (issue #38): each case runs in a fresh Node process, whose reads of the
// package's files are counted (node:fs's readFileSync wrapped before the package is imported).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

/** Runs `body` (an async function's statements, given `logicmd`, `reads` and `failNext`) in a
 * fresh process that imports the package after wrapping readFileSync; returns what it returns. */
function inFreshProcess(body) {
  const script = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const reads = {};
let failNext = false;
const read = fs.readFileSync;
fs.readFileSync = (path, ...rest) => {
  const name = String(path).split("/").pop();
  reads[name] = (reads[name] ?? 0) + 1;
  if (name === "split_engine.wasm" && failNext) {
    failNext = false;
    throw new Error("ENOENT: simulated");
  }
  return read(path, ...rest);
};
syncBuiltinESMExports();
console.error = () => {}; // the loader logs why a load failed; the case checks the error
const logicmd = await import("logicmd");
const result = await (async () => { ${body} })();
process.stdout.write(JSON.stringify(result));
`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: here, encoding: "utf8" });
  return JSON.parse(out);
}

const TEXT = '---\nspec_version: "1.0"\nname: lazy\nsteps:\n  a: {}\n  b: { needs: [a] }\n---\n';

test("importing and the document tools read no engine; the first run function reads it once", () => {
  const result = inFreshProcess(`
    const text = ${JSON.stringify(TEXT)};
    const afterImport = reads["split_engine.wasm"] ?? 0;
    logicmd.validate(text); logicmd.lint(text); logicmd.graph(text); logicmd.check(text);
    logicmd.compile(text, null, null, null); logicmd.format(text);
    const afterTools = reads["split_engine.wasm"] ?? 0;
    const run = logicmd.createRun(text, {}, { synthetic: true });
    let actions = run.next();
    while (actions.length > 0 && run.status() === "running") {
      for (const a of actions) { const o = run.synthetic(a); if (o) run.feed(a.id, o); }
      actions = run.next();
    }
    const status = run.status();
    run.free();
    const trace = logicmd.checkTrace([]).rules.length;
    await logicmd.loadRun();
    return { afterImport, afterTools, status, trace, main: reads["logicmd_bg.wasm"], engine: reads["split_engine.wasm"] };
  `);
  assert.deepEqual(result, { afterImport: 0, afterTools: 0, status: "completed", trace: 5, main: 1, engine: 1 });
});

test("every run function loads the engine by itself, synchronously (no loadRun in Node)", () => {
  const calls = {
    exampleInput: `logicmd.exampleInput(text).diagnostics.length`,
    checkInput: `logicmd.checkInput(text, {}).rejects`,
    checkTrace: `logicmd.checkTrace([]).violations.length`,
    resumeRun: `(() => { try { logicmd.resumeRun({}); return "resumed"; } catch (e) { return e.message.includes("loads on first use") ? "not loaded" : "threw"; } })()`,
    nextAction: `(await logicmd.nextAction({ user_input: "x" }, { provider: () => '{"action": "ask_user", "question": "?"}' })).action.action`,
  };
  for (const [name, call] of Object.entries(calls)) {
    const result = inFreshProcess(`const text = ${JSON.stringify(TEXT)}; return { value: ${call}, engine: reads["split_engine.wasm"] };`);
    assert.equal(result.engine, 1, `${name} read the engine's module`);
    assert.notEqual(result.value, "not loaded", name);
  }
});

test("an engine that fails to load is a clear error, and the next call loads it", () => {
  const result = inFreshProcess(`
    const text = ${JSON.stringify(TEXT)};
    failNext = true;
    let first;
    try { logicmd.createRun(text, {}, { synthetic: true }); } catch (error) { first = error.message; }
    const run = logicmd.createRun(text, {}, { synthetic: true });
    const status = run.status();
    run.free();
    return { first, status, engine: reads["split_engine.wasm"] };
  `);
  assert.match(result.first, /^the run engine's module \(split_engine\.wasm, beside logicmd_bg\.wasm\) did not load/);
  assert.equal(result.status, "running");
  assert.equal(result.engine, 2);
});

test("CommonJS code that require()s the package (Node's require of ES modules) runs too", () => {
  const script = `
const logicmd = require("logicmd");
const text = ${JSON.stringify(TEXT)};
const run = logicmd.createRun(text, {}, { synthetic: true });
process.stdout.write(JSON.stringify({ valid: logicmd.validate(text).valid, status: run.status() }));
run.free();
`;
  const out = execFileSync(process.execPath, ["-e", script], { cwd: here, encoding: "utf8" });
  assert.deepEqual(JSON.parse(out), { valid: true, status: "running" });
});
