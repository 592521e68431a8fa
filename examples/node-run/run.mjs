// A Flowise/Dify-style builder keeps its own model calls and keys; logicmd keeps the semantics.
// This runs a LOGIC.md document with a plain function as the provider and prints the trace.
//
//   node run.mjs FILE [INPUT_JSON]
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

import { createRun } from "logicmd";

/** Drives `run` to its end: `provider(request, node)` answers model calls with text. */
export async function drive(run, provider, { answerTool, answerReview } = {}) {
  const trace = [];
  for (;;) {
    const actions = run.next();
    trace.push(...run.events());
    if (actions.length === 0) return { status: run.status(), trace };
    for (const action of actions) {
      switch (action.action) {
        case "call_model":
          run.feed(action.id, { observation: "model_response", text: await provider(action.request, action.node) });
          break;
        case "wait":
          run.setClock(/* the driver sleeps here, or not */ 0);
          run.feed(action.id, { observation: "waited" });
          break;
        case "call_tool":
          run.feed(action.id, { observation: "tool_result", ...(answerTool?.(action) ?? { passed: false, unverifiable: true }) });
          break;
        case "ask_review": {
          const choice = answerReview?.(action);
          if (!choice) return { status: run.status(), trace: [...trace, ...run.events()], pausedAt: action };
          run.feed(action.id, { observation: "review_answer", action: choice });
          break;
        }
        default:
          // complete, refuse or fail: the run is over.
          return { status: run.status(), ending: action, trace: [...trace, ...run.events()] };
      }
    }
  }
}

/** A stand-in for a real model: answers with the synthetic provider's schema-valid values. */
export const offline = (run) => async (request, node) => run.synthetic({ id: "preview", action: "call_model", node, attempt: 1, request }).text;

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? "../competitive-analyst.logic.md";
  const input = JSON.parse(process.argv[3] ?? '{"market_segment": "note-taking apps", "our_product": {"name": "Quill"}}');
  const root = dirname(file);
  const files = (path) => readFileSync(join(root, path), "utf8");
  const run = createRun(readFileSync(file, "utf8"), input, { path: relative(root, file), files });
  if (run.diagnostics.length > 0) {
    for (const d of run.diagnostics) console.error(`${file}:${d.line}:${d.column}: ${d.message}`);
    process.exit(1);
  }
  const { status, trace, ending } = await drive(run, offline(run));
  for (const event of trace) console.log(JSON.stringify(event));
  console.error(`${status}${ending?.action === "complete" ? "" : `: ${JSON.stringify(ending ?? {})}`}`);
  run.free();
  process.exit(status === "completed" ? 0 : 1);
}
