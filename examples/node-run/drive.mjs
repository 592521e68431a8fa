// The loop a JavaScript builder writes around the engine: carry out each action, feed the result.
// (No import of `logicmd` here: the run object comes from the caller.)

/** Drives `run` to its end: `provider(request, node)` answers model calls with the model's text
 * (or a whole observation, e.g. with token usage). */
export async function drive(run, provider, { answerTool, answerReview } = {}) {
  const trace = [];
  for (;;) {
    const actions = run.next();
    trace.push(...run.events());
    if (actions.length === 0) return { status: run.status(), trace };
    for (const action of actions) {
      switch (action.action) {
        case "call_model": {
          const answer = await provider(action.request, action.node, action);
          run.feed(action.id, typeof answer === "string" ? { observation: "model_response", text: answer } : answer);
          break;
        }
        case "wait":
          // A real driver sleeps `action.ms` here (a server's backoff); the run's clock moves by it.
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

/** A stand-in for a real model: the engine's synthetic provider (schema-valid answers, usage). */
export const offline = (run) => async (_request, _node, action) => run.synthetic(action);
