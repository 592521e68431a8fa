// Compiled with `tsc --noEmit` against the built package: the declarations must describe every
// function and result precisely enough for this file, and must not contain `any`.
import init, {
  applyEdit,
  check,
  checkInput,
  checkTrace,
  createRun,
  exampleInput,
  nextAction,
  resumeRun,
  compile,
  decodeShareLink,
  discover,
  encodeShareLink,
  evalTree,
  evaluate,
  format,
  graph,
  lint,
  loadRun,
  parse,
  supportedSpecVersions,
  validate,
  version,
  type Diagnostic,
  type Edit,
  type EditResult,
  type GraphNode,
  type NodeDefinition,
  type Observation,
  type RunAction,
  type TraceEvent,
  type TraceCheckResult,
  type TraceViolation,
} from "logicmd";

/** Asks a model (here a stand-in) for the next action of an agent. */
export async function decide(): Promise<string> {
  const result = await nextAction(
    { user_input: "Go", available_tools: [{ name: "search", parameters: { query: "string" } }] },
    { provider: async () => '{"action": "ask_user", "question": "What should I search for?"}', maxAttempts: 2 },
  );
  return result.action?.action ?? result.problems.join("; ");
}

/** In a browser: the run engine's module, loaded once before the first synchronous run function. */
export async function runInBrowser(text: string): Promise<TraceEvent[]> {
  await init();
  const ready: Promise<void> = loadRun();
  await ready;
  return runOffline(text);
}

/** Runs `text` offline to its end and returns the trace: the engine API as a builder uses it. */
export function runOffline(text: string): TraceEvent[] {
  const run = createRun(text, { topic: "x" }, { maxParallelism: 2, seed: 1 });
  const trace: TraceEvent[] = [];
  for (let round = 0; round < 10_000; round++) {
    const actions: RunAction[] = run.next();
    trace.push(...run.events());
    const pending = actions.filter((a) => a.action === "call_model" || a.action === "wait");
    if (pending.length === 0) break;
    for (const action of pending) {
      const answer: Observation | null = run.synthetic(action);
      if (answer !== null) run.feed(action.id, answer);
    }
  }
  const checked: TraceCheckResult = checkTrace(trace, ["G !run_finished(status=\"failed\")"], { builtins: true });
  const broken: TraceViolation[] = checked.violations;
  if (broken.length > 0) throw new Error(`${broken[0].rule} fails at event ${broken[0].index}`);
  const again = resumeRun(run.snapshot());
  again.free();
  run.free();
  const example = exampleInput(text).input;
  const checkedInput = checkInput(text, example, { path: "agent.logic.md" });
  if (checkedInput.rejects) throw new Error(checkedInput.problems.join("; "));
  const scripted = createRun(text, example, { script: "[]", clock: "fixed", waits: "instant", facts: ["Notion"] });
  for (const action of scripted.next()) if (action.action === "call_model") scripted.unanswered(action.id, "no model");
  resumeRun(scripted.snapshot(), { script: "[]" }).free();
  scripted.free();
  return trace;
}

export async function tour(text: string): Promise<string[]> {
  await init();
  const lines: string[] = [`logicmd ${version()} (spec ${supportedSpecVersions().join(", ")})`];
  const parsed = parse(text);
  const name: string | undefined = typeof parsed.frontmatter?.name === "string" ? parsed.frontmatter.name : undefined;
  lines.push(`name: ${name ?? "?"}; body ${parsed.body?.length ?? 0} chars`);

  const report = validate(text);
  const kind: "logic" | "drtl" = report.kind;
  const first: Diagnostic | undefined = report.diagnostics[0];
  if (first) lines.push(`${kind} ${first.line}:${first.column} ${first.severity} ${first.code} ${first.path}`);

  lint(text, "agent.logic.md", { "shared.logic.md": "---\n---\n" });
  lint(text, null, (path: string) => (path.endsWith(".logic.md") ? "" : undefined));

  const compiled = compile(text, null, null, null);
  for (const level of compiled.workflow?.levels ?? []) lines.push(level.join(" | "));
  const step = compile(text, "first", null, null).step;
  if (step) lines.push(`${step.name} level ${step.level}: ${step.needs.join(", ")}`);

  const model = graph(text).graph;
  const nodes: GraphNode[] = model?.nodes ?? [];
  for (const node of nodes) {
    const ports = node.inputs.map((p) => `${p.name}:${p.type}${p.required ? "!" : ""}`);
    lines.push(`${node.id} at ${node.x.toFixed(0)},${node.y.toFixed(0)} ${ports.join(" ")}`);
  }
  for (const edge of model?.edges ?? []) lines.push(`${edge.source} -${edge.kind}-> ${edge.target} ${edge.label ?? ""}`);

  for (const finding of check(text, null, null).findings) lines.push(`${finding.rule}: ${finding.path.join(" > ")}`);

  const edit: Edit = { op: "set", path: "/reasoning/max_iterations", value: 3 };
  const applied: EditResult = applyEdit(text, edit);
  for (const patch of applied.patches) lines.push(`${patch.start_utf16}..${patch.end_utf16} ${patch.text}`);
  if (applied.inverse) applyEdit(applied.text, applied.inverse);
  applyEdit(text, { op: "connect", from: "a", to: "b" });
  applyEdit(text, { op: "add_node", node: { id: "n", type: "claim" }, after: null });

  lines.push(format(text).changed ? "needs formatting" : "formatted");
  const value = evaluate("a + 1", { a: 1 }).value;
  if (typeof value === "number") lines.push(String(value + 1));
  const outcome = evalTree(text, "route", { pages: 3 }, null, null).result;
  if (outcome) lines.push(`${outcome.kind} ${outcome.reached} via ${outcome.path.join(">")}`);

  const link: string = encodeShareLink(text);
  const back: string | null = decodeShareLink(link).text;
  lines.push(back === text ? "round-trip" : "lost");

  const palette: NodeDefinition[] = discover([{ path: "a.logic.md", text }]).nodes;
  for (const node of palette) {
    lines.push(`${node.category}/${node.name} ${node.color ?? ""} ${node.inspector.map((f) => f.type).join(",")}`);
  }
  return lines;
}
