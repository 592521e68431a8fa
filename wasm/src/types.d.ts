/** JSON data as the package accepts and returns it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A problem found in a document. `line`/`column` are 1-based (0 when it has no place). */
export interface Diagnostic {
  severity: "error" | "warning" | "info";
  /** Stable code, e.g. `schema-unknown-property`, `yaml-syntax`, `needs-cycle`. */
  code: string;
  message: string;
  /** JSON Pointer into the frontmatter (or topology); `""` for the whole document. */
  path: string;
  /** The JSON Schema keyword that failed, for schema diagnostics. */
  keyword: string | null;
  line: number;
  column: number;
  /** A hint on how to fix it. */
  help?: string;
}

/** Imported files: an object `{path: text}` or a function returning the text (or `undefined`). */
export type Files = Record<string, string> | ((path: string) => string | undefined | null);

export type DocumentKind = "logic" | "drtl";

export interface ParseResult {
  /** The YAML frontmatter as JSON, `null` when it does not parse. */
  frontmatter: { [key: string]: Json } | null;
  /** The Markdown after the frontmatter. */
  body: string | null;
  diagnostics: Diagnostic[];
}

export interface ValidateResult {
  kind: DocumentKind;
  /** The document parsed and its schema accepts it (the canonical LOGIC.md schema, or DRTL's). */
  valid: boolean;
  diagnostics: Diagnostic[];
}

export interface LintResult {
  kind: DocumentKind;
  /** As for `validate`: the schema's verdict. Semantic rules add diagnostics, never change it. */
  valid: boolean;
  diagnostics: Diagnostic[];
}

export interface CompiledStep {
  name: string;
  /** Execution level over every edge kind (needs, branches, decision trees): 0 runs first. */
  level: number;
  needs: string[];
  /** Steps whose branches choose this one, and `tree:NAME` for decision trees routing to it. */
  chosen_by: string[];
  /** The prompt scaffold of this step (Markdown). */
  scaffold: string;
  /** Its own `output_schema`, or the document's output contract when it produces the output. */
  output_schema: Json | null;
  allowed_tools: string[];
  denied_tools: string[];
}

export interface CompiledWorkflow {
  name: string;
  description: string | null;
  strategy: string | null;
  /** Steps (workflow nodes, for a multi-agent workflow) grouped by level; one level may run in parallel. */
  levels: string[][];
  order: string[];
  /** Branches that go back to a step that ran before. */
  loops: { from: string; to: string }[];
  /** The steps nothing runs after: they produce the document's output. */
  final_steps: string[];
  steps: CompiledStep[];
  /** The nodes of a multi-agent workflow, in edge order. */
  nodes: CompiledNode[];
  global_rules: string[];
  scaffold: string;
}

export interface CompiledNode {
  name: string;
  level: number;
  logic_ref: string | null;
  /** Every node this one runs after. */
  after: string[];
  inputs: { from: string; contract: Json | null; on_contract_violation: string | null }[];
  /** The node's own document, overrides applied, compiled; null when it could not be loaded. */
  workflow: CompiledWorkflow | null;
  problem: string | null;
}

export interface CompileResult {
  workflow: CompiledWorkflow | null;
  /** The chosen step when `step` was given. */
  step: CompiledStep | null;
  /** The workflow (or the chosen step) as Markdown. */
  markdown: string | null;
  diagnostics: Diagnostic[];
}

export interface Port {
  name: string;
  /** The port's value type (`string`, `object`, `array`, `any`, ...). */
  type: string;
  required: boolean;
}

export interface InspectorField {
  key: string;
  label: string;
  type: "select" | "number" | "boolean" | "slider" | "text" | string;
  options?: Json[];
  min?: number;
  max?: number;
  step?: number;
  default?: Json;
  /** The current value in the document (or the default). */
  value: Json;
  /** JSON Pointer the value is written to. */
  pointer: string;
}

export interface SourceSpan {
  /** Byte offsets in the text. */
  start: number;
  end: number;
  line: number;
  column: number;
}

export interface GraphNode {
  /** Stable id: `step:NAME`, `tree:TREE/NODE`, `terminal:TREE/NAME`, `agent:NAME`, `drtl:ID`. */
  id: string;
  /** `step`, `decision`, `terminal`, `agent`, or the DRTL node type. */
  kind: string;
  label: string;
  name: string;
  pointer: string;
  span: SourceSpan | null;
  inputs: Port[];
  outputs: Port[];
  inspector: InspectorField[];
  color: string | null;
  icon: string | null;
  x: number;
  y: number;
  /** The position is stored in the document. */
  pinned: boolean;
}

export interface GraphEdge {
  id: string;
  /** `needs`, `branch`, `parallel`, `decision`, `route`, `depends_on`, `flow`, `pass`, `fail`, `action`, `edge`. */
  kind: string;
  source: string;
  target: string;
  source_port: string | null;
  target_port: string | null;
  label: string | null;
  compatible: boolean;
  /** Drawn against the flow (a loop back). */
  back: boolean;
}

export interface Group {
  id: string;
  kind: string;
  label: string;
  members: string[];
}

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  groups: Group[];
}

export interface GraphResult {
  kind: DocumentKind;
  /** `null` when the text does not parse. */
  graph: Graph | null;
  diagnostics: Diagnostic[];
}

export interface Finding {
  rule: string;
  severity: "error" | "warning" | "info";
  message: string;
  /** Node ids (or step names) along the offending path. */
  path: string[];
  /** JSON Pointer of the place in the file the finding is about. */
  pointer: string;
  /** How to fix it. */
  help?: string;
}

export interface CheckResult {
  kind: DocumentKind;
  /** The schema's verdict, as for `validate`. */
  valid: boolean;
  /** As `logicmd check` prints them: the document's errors when it is not sound (does not parse,
   * validate or lint cleanly), else every finding placed in the file. */
  diagnostics: Diagnostic[];
  /** The findings with the node path each concerns; empty when the analysis did not run. */
  findings: Finding[];
}

/** One structural edit. Paths are JSON Pointers (`/steps/a/needs`) or dotted (`steps.a.needs`). */
export type Edit =
  | { op: "set"; path: string; value: Json }
  | { op: "remove"; path: string }
  | { op: "insert"; path: string; index?: number | null; value: Json }
  | { op: "replace_text"; start: number; end: number; text: string }
  | { op: "add_step"; name: string; after?: string | null; step?: Json }
  | { op: "remove_step"; name: string }
  | { op: "remove_steps"; names: string[] }
  | { op: "rename_step"; from: string; to: string }
  /** Refused (with the reason) for a node wired to itself, anything but steps in LOGIC.md, ports
   *  whose types do not fit, or a `needs` cycle. Ports default to the nodes' first ones. */
  | { op: "connect"; from: string; to: string; from_port?: string | null; to_port?: string | null }
  | { op: "disconnect"; from: string; to: string }
  | { op: "set_position"; node: string; x: number; y: number }
  | { op: "add_node"; node: { [key: string]: Json }; after?: string | null }
  | { op: "remove_node"; id: string }
  | { op: "set_route"; node: string; route: string; target: string };

/** A change to the original text, in bytes and in UTF-16 code units (JavaScript string offsets). */
export interface TextPatch {
  start: number;
  end: number;
  start_utf16: number;
  end_utf16: number;
  text: string;
}

export interface EditResult {
  applied: boolean;
  /** The new text (the original when the edit was refused). */
  text: string;
  patches: TextPatch[];
  /** The edit that restores the original text byte for byte. */
  inverse: Edit | null;
  notes: string[];
  diagnostics: Diagnostic[];
}

export interface FormatResult {
  changed: boolean;
  text: string;
  diagnostics: Diagnostic[];
}

export interface EvaluateResult {
  value: Json;
  diagnostics: Diagnostic[];
}

export interface TreeOutcome {
  /** The nodes visited, from the root. */
  path: string[];
  /** The terminal or step reached. */
  reached: string;
  kind: "terminal" | "step";
}

export interface EvalTreeResult {
  result: TreeOutcome | null;
  diagnostics: Diagnostic[];
}

export interface DecodeShareLinkResult {
  text: string | null;
  diagnostics: Diagnostic[];
}

export interface SourceFile {
  path: string;
  text: string;
}

export interface PortDefinition {
  name: string;
  type?: string;
  required?: boolean;
  description?: string;
  [key: string]: Json | undefined;
}

/** A node a visual builder registers for one `*.logic.md` file (spec §10.1, §13). */
export interface NodeDefinition {
  path: string;
  name: string;
  description: string | null;
  category: string;
  icon: string | null;
  color: string | null;
  inspector: InspectorField[];
  ports: { inputs: PortDefinition[]; outputs: PortDefinition[] };
  strategy: string | null;
}

export interface DiscoverResult {
  nodes: NodeDefinition[];
  diagnostics: Diagnostic[];
}

/** Options of `createRun`. */
export interface CreateRunOptions {
  /** The document's path: its kind, and what its imports, workflow nodes and prompt files resolve against. */
  path?: string | null;
  /** Other files the document reads (imports, `logic_ref`, `prompt_ref`). */
  files?: Files | null;
  /** Most model and tool calls handed out at once (default 4; the document's `global.max_parallelism` when lower). */
  maxParallelism?: number;
  /** The clock at the start, in milliseconds (default 0). */
  startMs?: number;
  /** Seed of the synthetic provider (`run.synthetic(action)`, `synthetic: true`). */
  seed?: number;
  /** `fixed` (default): the clock moves only by waits and reported latencies, so the same answers
   * give the same trace; `real`: the wall clock (`Date.now()`). */
  clock?: "fixed" | "real";
  /** Who carries out waits (backoffs, `Retry-After`): `caller` hands them out as `wait` actions to
   * sleep through; `instant` passes them at once (the clock still moves). Default: `instant` for
   * a script or synthetic answers on a fixed clock, else `caller`. */
  waits?: "instant" | "caller";
  /** Answers from a script (YAML list or JSON Lines, or a trace), as `logicmd run --provider
   * scripted:FILE`: the run hands out no model call; one the script does not answer fails with
   * `ProviderError`. */
  script?: string | null;
  /** Synthetic answers for every model call, as `logicmd run --dry-run`. */
  synthetic?: boolean;
  /** Known entities for `std.check_existence` / `std.check_citation`: `{target: [names]}` or
   * `[names]`, as `logicmd run --facts`. */
  facts?: Json;
}

/** Options of `resumeRun`: who answers, as the run was created with. */
export interface ResumeRunOptions {
  waits?: "instant" | "caller";
  script?: string | null;
  synthetic?: boolean;
  facts?: Json;
}

/** `exampleInput(text, options?)`: a value of each declared type of `contracts.inputs`. */
export interface ExampleInputResult {
  input: Json;
  diagnostics: Diagnostic[];
}

/** `checkInput(text, input, options?)`: the input against `contracts.inputs`, and what the
 * document's `contracts.validation` makes of the problems. */
export interface CheckInputResult {
  problems: string[];
  enforcement: "reject" | "record" | "off" | null;
  /** The run cannot start on this input (it would fail before any step). */
  rejects: boolean;
  diagnostics: Diagnostic[];
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** What a model call sends: the compiled scaffold as the system prompt, the task as messages. */
export interface ModelRequest {
  system: string;
  messages: ChatMessage[];
  response_schema?: Json;
  temperature?: number;
  max_tokens?: number;
  allowed_tools?: string[];
  model?: string;
  /** The answer must be JSON. */
  json?: boolean;
}

/** An obligation the run could not discharge. */
export interface Unmet {
  node: string;
  rule: string;
  target?: string;
  reason: string;
}

/** What the engine asks its driver to do; feed the result back under `id`. */
export type RunAction = { id: string } & (
  | { action: "call_model"; node: string; attempt: number; request: ModelRequest; timeout_ms?: number }
  | { action: "call_tool"; node: string; name: string; arguments: Json }
  | { action: "ask_review"; node: string; input: Json; message?: string; actions: string[] }
  | { action: "wait"; node: string; ms: number }
  | { action: "complete"; output: Json }
  | { action: "refuse"; unmet: Unmet[] }
  | { action: "fail"; error: string }
);

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

/** What happened when the driver carried out an action. */
export type Observation =
  | { observation: "model_response"; text: string; usage?: Usage; latency_ms?: number }
  | { observation: "model_error"; kind: string; message: string; retryable: boolean; retry_after_ms?: number }
  | { observation: "tool_result"; passed: boolean; evidence?: Json; unverifiable?: boolean }
  | { observation: "review_answer"; action: string; note?: string }
  | { observation: "waited" };

/** One line of a run's trace. */
export interface TraceEvent {
  seq: number;
  event:
    | "run_started" | "node_started" | "model_requested" | "model_responded" | "output_validated"
    | "output_invalid" | "retried" | "gate_evaluated" | "obligation_updated" | "review_requested"
    | "review_answered" | "node_skipped" | "node_finished" | "refused" | "run_finished";
  /** Milliseconds since the run started. */
  t: number;
  node?: string;
  [field: string]: Json | undefined;
}

export type RunStatus = "running" | "paused" | "completed" | "refused" | "failed";

/** A run as versioned JSON (`format: "logicmd-run"`), for `resumeRun`. */
export interface RunSnapshot {
  format: "logicmd-run";
  version: number;
  [field: string]: Json;
}

/** A tool the agent may use (logic-engine-v2-design §3.2). */
export interface AgentTool {
  name: string;
  description?: string;
  /** A JSON Schema, or the shorthand `{"file_path": "string"}`. */
  parameters?: Json;
}

/** The seed's state: what the next action is decided from. */
export interface AgentState {
  user_input?: string;
  current_task?: Json;
  available_tools?: AgentTool[];
  short_term_memory?: Json[];
}

/** The seed's structured action. */
export type NextAction =
  | { action: "execute_tool"; tool_name: string; parameters: { [key: string]: Json } }
  | { action: "ask_user"; question: string }
  | { action: "complete_task"; final_message: string };

export interface NextActionOptions {
  /** The caller's model client: the request in, the model's text out. */
  provider: (request: ModelRequest) => string | Promise<string>;
  /** A LOGIC.md text whose reasoning strategy and gates apply to the decision. */
  spec?: string;
  /** Model calls for one action, the first included (default 3). */
  maxAttempts?: number;
}

export interface NextActionResult {
  /** The decided action; `null` when no valid answer came within `maxAttempts`. */
  action: NextAction | null;
  attempts: number;
  /** Why the last answer was refused, when no action was decided. */
  problems: string[];
}

export interface TraceCheckOptions {
  /** Check the five built-in obligations as well as the given rules (default true). */
  builtins?: boolean;
}

/** A rule that does not hold on the trace, and the event (0-based index) where it fails. */
export interface TraceViolation {
  rule: string;
  index: number;
  message: string;
}

export interface TraceCheckResult {
  /** Empty when every rule holds. */
  violations: TraceViolation[];
  /** Rules the trace cannot settle yet (`terminates` on a paused trace): neither held nor violated. */
  notChecked: { rule: string; reason: string }[];
  /** The names of the rules checked, built-ins first. */
  rules: string[];
  /** How many events were read. */
  events: number;
  /** An unreadable trace or a formula that does not parse (then nothing was checked). */
  diagnostics: Diagnostic[];
}
