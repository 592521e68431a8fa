// The seed's next-action API in the npm package: the caller's model client decides, the engine
// builds the prompt, validates the answer and asks again with the reason when it is not valid.
import assert from "node:assert/strict";
import { test } from "node:test";

import { nextAction } from "logicmd";

const state = {
  user_input: "What is the next step?",
  current_task: { id: "I-3.1.1", title: "Implement the Methodology Engine", status: "In Progress" },
  available_tools: [
    { name: "file_system_manager.create_file", description: "Creates a new file at a specified path.", parameters: { file_path: "string", content: "string" } },
  ],
  short_term_memory: [{ role: "user", content: "Let's start the implementation." }],
};

/** A provider that answers from a list, recording the requests. */
function scripted(answers) {
  const requests = [];
  const provider = async (request) => {
    requests.push(request);
    return answers[requests.length - 1];
  };
  return { provider, requests };
}

test("each action kind comes back as the seed's structured action", async () => {
  const cases = [
    ['{"action": "execute_tool", "tool_name": "file_system_manager.create_file", "parameters": {"file_path": "src/main.py", "content": "# Start"}}', "execute_tool"],
    ['{"action": "ask_user", "question": "I have created the file. What should be the next step?"}', "ask_user"],
    ['{"action": "complete_task", "final_message": "The implementation is complete."}', "complete_task"],
  ];
  for (const [answer, kind] of cases) {
    const { provider, requests } = scripted([answer]);
    const result = await nextAction(state, { provider });
    assert.equal(result.action.action, kind);
    assert.equal(result.attempts, 1);
    assert.match(requests[0].system, /file_system_manager\.create_file/);
    assert.equal(requests[0].messages.at(-1).content, "What is the next step?");
  }
});

test("invalid answers are asked again with the reason, and give up after maxAttempts", async () => {
  const { provider, requests } = scripted([
    "Let me create the file.",
    '{"action": "execute_tool", "tool_name": "rm_rf", "parameters": {}}',
    '{"action": "execute_tool", "tool_name": "file_system_manager.create_file", "parameters": {"file_path": 1}}',
  ]);
  const result = await nextAction(state, { provider, maxAttempts: 3 });
  assert.equal(result.action, null);
  assert.equal(result.attempts, 3);
  assert.ok(result.problems.some((p) => p.includes("parameters")), result.problems.join("; "));
  assert.match(requests[1].messages.at(-1).content, /not JSON/);
  assert.match(requests[2].messages.at(-1).content, /there is no tool `rm_rf`; the tools are: file_system_manager\.create_file/);
});

test("a LOGIC.md document's strategy and gates apply to the decision", async () => {
  const spec = '---\nspec_version: "1.0"\nname: careful-agent\nreasoning:\n  strategy: plan-execute\nquality_gates:\n  pre_output:\n    - name: no_questions\n      check: "{{ output.action != \'ask_user\' }}"\n      message: Decide without asking the user\n      severity: error\n---\n';
  const { provider, requests } = scripted(['{"action": "ask_user", "question": "Which file?"}', '{"action": "complete_task", "final_message": "Nothing left."}']);
  const result = await nextAction(state, { provider, spec });
  assert.deepEqual(result.action, { action: "complete_task", final_message: "Nothing left." });
  assert.match(requests[0].system, /Reasoning strategy: plan-execute/);
  assert.match(requests[1].messages.at(-1).content, /Decide without asking the user/);
});

test("a provider that fails, or a state that cannot be used, is an error naming why", async () => {
  await assert.rejects(nextAction(state, { provider: () => Promise.reject(new Error("network down")) }), /network down/);
  await assert.rejects(nextAction(state, { provider: () => 42 }), /must return the model's text/);
  await assert.rejects(nextAction(state, {}), /provider must be a function/);
  const broken = { ...state, available_tools: [{ name: "t", parameters: { path: "filename" } }] };
  await assert.rejects(nextAction(broken, { provider: () => "" }), /`path`/);
});
