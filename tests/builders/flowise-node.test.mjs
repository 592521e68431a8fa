// examples/flowise-node as Flowise meets it: `require` of the compiled node (CommonJS), `nodeClass`
// constructed with no arguments, `init`/`run` called with node data whose `model` input is the
// host's chat model (here a stub answering LangChain's `invoke(messages)`).
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";

const require = createRequire(import.meta.url);
const { nodeClass, nodeClassFor } = require("../../examples/flowise-node/dist/LogicMd.js");

/** A stub chat model: records each call, answers with `answer(messages)`. */
function stubModel(answer) {
  const calls = [];
  return { calls, invoke: async (messages) => (calls.push(messages), { content: answer(messages) }) };
}

const nodeData = (inputs) => ({ id: "logicmd_0", label: "", name: "", type: "", icon: "", version: 1, category: "", baseClasses: [], inputs });

test("the node exposes the document's contract inputs after the chat model", () => {
  const node = new nodeClass();
  assert.equal(node.label, "LOGIC.md: support-answer");
  assert.equal(node.name, "logicmd_support_answer");
  assert.equal(node.description, "Answers a support question in two checked steps");
  assert.deepEqual(node.inputs, [
    { label: "Chat Model", name: "model", type: "BaseChatModel" },
    { label: "question", name: "question", type: "string", description: undefined, optional: false },
    { label: "product", name: "product", type: "string", description: undefined, optional: true },
  ]);
});

test("run: each step's model call goes to the host's model; the chat message fills `question`", async () => {
  const model = stubModel((messages) => `answered: ${messages.at(-1).content.length} chars`);
  const node = new nodeClass();
  const answer = await node.run(nodeData({ model, product: "Quill" }), "How do I export notes?");
  assert.equal(model.calls.length, 2, "one call per step");
  const [system, ...task] = model.calls[0];
  assert.equal(system.role, "system");
  assert.ok(system.content.length > 0);
  assert.ok(task.some((m) => m.role === "user" && m.content.includes("How do I export notes?")), JSON.stringify(task));
  const last = model.calls[1].at(-1).content.length;
  assert.equal(answer, `answered: ${last} chars`, "a text output is the node's answer");

  // `init` hands back the whole outcome (status, output, the trace).
  const outcome = await node.init(nodeData({ model, question: "Why?" }), "");
  assert.equal(outcome.status, "completed");
  assert.deepEqual(outcome.events.map((e) => e.event).filter((e) => e.startsWith("run_")), ["run_started", "run_finished"]);
});

test("a run that cannot meet its contract throws, naming it, instead of answering", async () => {
  const strict = nodeClassFor(`---
spec_version: "1.0"
name: strict
contracts:
  inputs:
    - {name: topic, type: string, required: true}
steps:
  answer:
    description: Answer in JSON
    output_schema:
      type: object
      required: [answer]
---
`);
  const model = stubModel(() => "not JSON at all");
  await assert.rejects(() => new strict().run(nodeData({ model, topic: "x" }), ""), (error) => {
    assert.match(error.message, /^LOGIC\.md node (refused|failed): /);
    assert.match(error.message, /answer/);
    return true;
  });
  assert.ok(model.calls.length >= 1);
});

test("bad host input is a clear error", async () => {
  await assert.rejects(() => new nodeClass().run(nodeData({}), "hi"), /connect a chat model to `model`/);
  const model = stubModel(() => "ok");
  // The document rejects input that breaks its contract (`on_input_violation: reject`).
  await assert.rejects(() => new nodeClass().run(nodeData({ model }), ""), /question/);
  assert.equal(model.calls.length, 0, "no model call for a rejected input");
});
