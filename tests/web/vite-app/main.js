import init, { compile, encodeShareLink, decodeShareLink, nextAction } from "logicmd";

await init();
const text = '---\nspec_version: "1.0"\nname: bundled\nsteps:\n  a: {}\n  b: { needs: [a] }\n---\n';
const workflow = compile(text, null, null, null).workflow;
const engineFetched = () =>
  performance.getEntriesByType("resource").some((entry) => /split_engine.*\.wasm$/.test(entry.name));
const fetchedBeforeUse = engineFetched();
// nextAction is asynchronous: it loads the run engine by itself (no loadRun() first).
const decided = await nextAction(
  { user_input: "What next?" },
  { provider: () => '{"action": "complete_task", "final_message": "done"}' },
);
document.getElementById("out").textContent = JSON.stringify({
  order: workflow.order,
  roundTrip: decodeShareLink(encodeShareLink(text)).text === text,
  fetchedBeforeUse,
  decided: decided.action?.action ?? decided.problems,
  fetchedAfterUse: engineFetched(),
});
