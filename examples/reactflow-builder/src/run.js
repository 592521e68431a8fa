// The Run button: the document through `createRun` with the engine's synthetic provider (no model,
// no key), tools unverifiable, the first review action taken. A builder plugs its model in here.
// The run engine is a wasm of its own, fetched on the first Run (`loadRun()`; later calls return
// at once): the canvas's first load carries only the document tools.
import { createRun, exampleInput, loadRun } from "logicmd";

export async function runDocument(text) {
  await loadRun();
  const { input } = exampleInput(text);
  const run = createRun(text, input ?? {}, { synthetic: true });
  try {
    if (run.diagnostics.some((d) => d.severity === "error")) {
      return { status: "not started", events: [], problems: run.diagnostics.map((d) => d.message) };
    }
    const events = [];
    for (let round = 0; round < 10_000; round += 1) {
      const actions = run.next();
      events.push(...run.events());
      const ending = actions.find((a) => ["complete", "refuse", "fail"].includes(a.action));
      if (actions.length === 0 || ending) break;
      for (const action of actions) {
        if (action.action === "call_model") run.feed(action.id, run.synthetic(action));
        else if (action.action === "wait") run.feed(action.id, { observation: "waited" });
        else if (action.action === "call_tool") run.feed(action.id, { observation: "tool_result", passed: false, unverifiable: true });
        else if (action.action === "ask_review") run.feed(action.id, { observation: "review_answer", action: action.actions?.[0] ?? "approve" });
      }
    }
    events.push(...run.events());
    return { status: run.status(), events, problems: [] };
  } finally {
    run.free();
  }
}
