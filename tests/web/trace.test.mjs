// `checkTrace` in the npm package: the built-in obligations and the caller's formulas over a run's
// trace, as `logicmd trace check` gives them for the same trace.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import * as logicmd from "logicmd";

import { drive, offline } from "../../examples/node-run/drive.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const cli = join(process.env.CARGO_TARGET_DIR ?? join(repo, "target"), "debug/logicmd");
const read = (path) => readFileSync(join(repo, path), "utf8");
const analyst = read("examples/competitive-analyst.logic.md");
const files = { "shared/retry-defaults.logic.md": read("examples/shared/retry-defaults.logic.md") };
const input = { market_segment: "note-taking apps", our_product: { name: "Quill" } };
const builtins = ["needs-before-start", "verified-output", "reviews-answered", "terminates", "retries-bounded"];

async function analystTrace() {
  const run = logicmd.createRun(analyst, input, { path: "competitive-analyst.logic.md", files });
  const { status, trace } = await drive(run, offline(run));
  run.free();
  assert.equal(status, "completed");
  return trace;
}

const jsonl = (events) => events.map((e) => JSON.stringify(e)).join("\n") + "\n";

/** `logicmd trace check --format json` on the same events, violations only. */
function cliViolations(events, rules) {
  const dir = mkdtempSync(join(tmpdir(), "logicmd-trace-"));
  try {
    writeFileSync(join(dir, "run.jsonl"), jsonl(events));
    const args = ["trace", "check", "run.jsonl", "--format", "json", ...rules.flatMap((r) => ["--rule", r])];
    let out;
    try {
      out = execFileSync(cli, args, { cwd: dir });
    } catch (failed) {
      out = failed.stdout; // exit status 1: a rule is violated
    }
    return JSON.parse(out).violations.map(({ rule, index, message }) => ({ rule, index, message }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a finished run's trace holds every built-in, read as events or as JSON Lines", async () => {
  const trace = await analystTrace();
  const expected = { violations: [], notChecked: [], rules: builtins, events: trace.length, diagnostics: [] };
  assert.deepEqual(logicmd.checkTrace(trace), expected);
  assert.deepEqual(logicmd.checkTrace(jsonl(trace), []), expected);
});

test("a paused trace leaves `terminates` not checked, as the CLI says", async () => {
  const trace = await analystTrace();
  const last = trace.at(-2);
  // The run stops at a review nobody has answered yet: its end is still to come.
  const paused = trace.slice(0, -1).concat([
    { seq: trace.length - 1, event: "review_requested", t: last.t, node: last.node, message: "m", actions: ["accept"], input: null },
  ]);
  const result = logicmd.checkTrace(paused);
  assert.deepEqual(result.notChecked, [
    { rule: "terminates", reason: "the run is paused for a review: its end is still to come" },
  ]);
  assert.ok(!result.violations.some((v) => v.rule === "terminates"));
});

test("a broken trace and the caller's formulas give the violations the CLI gives", async () => {
  const trace = await analystTrace();
  const first = trace.findIndex((e) => e.event === "node_finished");
  const finished = trace[first].node;
  // The first step's end is lost, and the run's end comes twice.
  const broken = trace.filter((_, i) => i !== first).concat([trace.at(-1)]).map((e, seq) => ({ ...e, seq }));
  const rules = [
    `never_first=G !node_started(node="${finished}")`,
    `F node_finished(node="${finished}")`,
  ];
  const result = logicmd.checkTrace(jsonl(broken), rules);
  assert.deepEqual(result.rules, [...builtins, "never_first", `F node_finished(node="${finished}")`]);
  assert.deepEqual(result.diagnostics, []);
  assert.deepEqual(result.violations, cliViolations(broken, rules));
  assert.deepEqual(
    result.violations.map((v) => v.rule),
    ["needs-before-start", "terminates", "never_first", `F node_finished(node="${finished}")`],
  );
  const onlyFormulas = logicmd.checkTrace(broken, rules, { builtins: false });
  assert.deepEqual(onlyFormulas.rules, ["never_first", rules[1]]);
  assert.deepEqual(onlyFormulas.violations, result.violations.filter((v) => !builtins.includes(v.rule)));
});

test("a formula that does not parse and an unreadable trace are diagnostics naming the place", () => {
  const bad = logicmd.checkTrace('{"seq":0,"event":"run_started","t":0}\n', ["G (node_started"]);
  assert.deepEqual(bad.violations, []);
  assert.deepEqual(bad.rules, []);
  assert.equal(bad.diagnostics.length, 1);
  assert.deepEqual(
    { ...bad.diagnostics[0], message: bad.diagnostics[0].message.replace(/: .*/, ": …") },
    { severity: "error", code: "trace-rule-invalid", message: "rule 1: …", path: "/0", keyword: null, line: 0, column: 0, help: "G (node_started\n" + " ".repeat(15) + "^" },
  );
  const unreadable = logicmd.checkTrace('{"seq":0,"event":"run_started","t":0}\nnot json\n');
  assert.equal(unreadable.diagnostics.length, 1);
  assert.equal(unreadable.diagnostics[0].code, "trace-unreadable");
  assert.equal(unreadable.diagnostics[0].line, 2);
  const notEvents = logicmd.checkTrace([{ seq: 0, event: "run_started", t: 0 }, 7]);
  assert.deepEqual(
    notEvents.diagnostics.map(({ code, message, path }) => ({ code, message, path })),
    [{ code: "trace-unreadable", message: "event 1 is not an object", path: "/1" }],
  );
});

test("arguments of the wrong type throw, naming the argument", () => {
  assert.throws(() => logicmd.checkTrace("", "G true"), /rules must be an array of formula strings/);
  assert.throws(() => logicmd.checkTrace("", [1]), /rules\[0\] must be a formula string/);
});
