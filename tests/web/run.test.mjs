// The engine in the npm package (`createRun`, `resumeRun`): the same semantics as the CLI's runs,
// driven from JavaScript with the caller's own provider.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as logicmd from "logicmd";

import { drive, offline } from "../../examples/node-run/drive.mjs";

const repo = new URL("../../", import.meta.url);
const read = (path) => readFileSync(new URL(path, repo), "utf8");
const analyst = read("examples/competitive-analyst.logic.md");
const files = { "shared/retry-defaults.logic.md": read("examples/shared/retry-defaults.logic.md") };
const input = { market_segment: "note-taking apps", our_product: { name: "Quill" } };

test("a document runs to completion with a JavaScript provider, and its trace is well formed", async () => {
  const run = logicmd.createRun(analyst, input, { path: "competitive-analyst.logic.md", files });
  assert.deepEqual(run.diagnostics, []);
  const { status, trace, ending } = await drive(run, offline(run));
  assert.equal(status, "completed", JSON.stringify(ending));
  assert.equal(ending.action, "complete");
  assert.deepEqual(trace.map((e) => e.seq), trace.map((_, i) => i));
  assert.equal(trace[0].event, "run_started");
  assert.equal(trace.at(-1).event, "run_finished");
  const started = trace.filter((e) => e.event === "node_started").map((e) => e.node);
  assert.ok(started.includes("identify_competitors"), started.join(", "));
  run.free();
});

test("a model's answer that breaks the step's schema is retried with the errors as feedback", async () => {
  const run = logicmd.createRun(analyst, input, { path: "competitive-analyst.logic.md", files });
  let calls = 0;
  const stubborn = async (_request, _node, action) => {
    calls += 1;
    return calls === 1 ? "not json at all" : run.synthetic(action);
  };
  const { status, trace } = await drive(run, stubborn);
  assert.equal(status, "completed");
  const invalid = trace.filter((e) => e.event === "output_invalid");
  assert.equal(invalid.length, 1);
  const retried = trace.find((e) => e.event === "retried");
  assert.match(retried.feedback, /not JSON/);
  run.free();
});

test("a snapshot resumes the run exactly: same trace, no call repeated", async () => {
  const full = logicmd.createRun(analyst, input, { path: "competitive-analyst.logic.md", files, seed: 3 });
  const whole = await drive(full, offline(full));

  const first = logicmd.createRun(analyst, input, { path: "competitive-analyst.logic.md", files, seed: 3 });
  const [call] = first.next();
  first.feed(call.id, first.synthetic(call));
  const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
  assert.equal(snapshot.format, "logicmd-run");
  first.free();
  const resumed = logicmd.resumeRun(snapshot);
  let repeated = 0;
  const provider = async (_request, node, action) => {
    repeated += node === call.node ? 1 : 0;
    return resumed.synthetic(action);
  };
  const rest = await drive(resumed, provider);
  assert.equal(repeated, 0, "the answered call is not asked again");
  assert.deepEqual(rest.trace, whole.trace);
  full.free();
  resumed.free();
});

test("a document with errors that stop a run gives its diagnostics and a run that fails at once", () => {
  const cyclic = '---\nspec_version: "1.0"\nname: b\nsteps:\n  a:\n    needs: [b]\n  b:\n    needs: [a]\n---\n';
  const run = logicmd.createRun(cyclic, {}, null);
  assert.deepEqual(run.diagnostics.map((d) => d.code), ["step-cycle"]);
  const [ending] = run.next();
  assert.equal(ending.action, "fail");
  assert.match(ending.error, /a -> b -> a/);
  assert.deepEqual(run.next(), []);
  assert.equal(run.status(), "failed");
  run.free();
});

test("a document lint fails is refused as the CLI refuses it: its errors listed, the run failed before any step", () => {
  const broken = '---\nspec_version: "1.0"\nname: b\nsteps:\n  a:\n    needs: [ghost]\n---\n';
  const run = logicmd.createRun(broken, {}, null);
  assert.deepEqual(run.diagnostics.map((d) => [d.code, d.line, d.column]), [["unknown-need", 6, 13]]);
  assert.deepEqual(run.next(), [
    { id: "a1", action: "fail", error: "the document cannot run: 6:13: `needs` names `ghost`, which is not a step" },
  ]);
  assert.equal(run.status(), "failed");
  assert.deepEqual(run.events(), []);
  run.free();
});

test("feeding what no action waits for, or the wrong kind of answer, throws with the reason", () => {
  const run = logicmd.createRun(analyst, input, { path: "competitive-analyst.logic.md", files });
  const [call] = run.next();
  assert.throws(() => run.feed("a999", { observation: "waited" }), /no action `a999`/);
  assert.throws(() => run.feed(call.id, { observation: "waited" }), /does not answer/);
  assert.throws(() => run.feed(call.id, { nonsense: true }), /not an observation/);
  assert.throws(() => logicmd.createRun(analyst, {}, { maxParallelism: -1 }), /maxParallelism/);
  run.free();
});

test("answers given in any order are fed in the order the actions were handed out: the same trace", async () => {
  const inOrder = logicmd.createRun(analyst, input, { path: "competitive-analyst.logic.md", files });
  const whole = await drive(inOrder, offline(inOrder));
  const shuffled = logicmd.createRun(analyst, input, { path: "competitive-analyst.logic.md", files });
  const trace = [];
  let ending;
  while (!ending) {
    const actions = shuffled.next();
    trace.push(...shuffled.events());
    assert.ok(actions.length > 0, "every batch is answered before the next");
    for (const action of [...actions].reverse()) {
      if (["complete", "refuse", "fail"].includes(action.action)) ending = action;
      else shuffled.feed(action.id, action.action === "wait" ? { observation: "waited" } : shuffled.synthetic(action));
    }
  }
  trace.push(...shuffled.events());
  assert.equal(ending.action, "complete");
  assert.deepEqual(trace, whole.trace);
  inOrder.free();
  shuffled.free();
});

test("a model call nobody answers fails with ProviderError, as in the CLI and the studio", () => {
  const doc = '---\nspec_version: "1.0"\nname: s\nsteps:\n  first:\n    description: One\n  second:\n    description: Two\n    needs: [first]\n---\n';
  const scripted = logicmd.createRun(doc, {}, { script: "- {node: first, text: fine}\n" });
  const [ending] = scripted.next();
  assert.equal(ending.action, "fail");
  const failure = scripted.events().find((e) => e.event === "model_responded" && e.node === "second");
  assert.deepEqual(failure.error, { kind: "ProviderError", message: "the script has no answer for `second` attempt 1", retryable: false });
  scripted.free();

  const caller = logicmd.createRun(doc, {}, null);
  const [call] = caller.next();
  caller.unanswered(call.id, "my model is down");
  caller.next();
  const answered = caller.events().find((e) => e.event === "model_responded");
  assert.deepEqual(answered.error, { kind: "ProviderError", message: "my model is down", retryable: false });
  caller.free();
});

test("the example input and the input check are the CLI's", () => {
  const doc = '---\nspec_version: "1.0"\nname: c\ncontracts:\n  inputs:\n    - name: topic\n      type: string\n      required: true\n    - name: depth\n      type: integer\n  validation:\n    mode: strict\nsteps:\n  main:\n    description: Main\n---\n';
  assert.deepEqual(logicmd.exampleInput(doc), { input: { topic: "example topic", depth: 1 }, diagnostics: [] });
  assert.deepEqual(logicmd.checkInput(doc, { depth: 1.5 }), {
    problems: ["missing required property `topic`", "at `/depth`: expected an integer, found a number `1.5`"],
    enforcement: "reject",
    rejects: true,
    diagnostics: [],
  });
  assert.deepEqual(logicmd.checkInput(doc.replace("mode: strict", "mode: warn"), { depth: 1 }).rejects, false);
});
