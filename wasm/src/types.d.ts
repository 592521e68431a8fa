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
  valid: boolean;
  diagnostics: Diagnostic[];
}

export interface LintResult {
  valid: boolean;
  diagnostics: Diagnostic[];
}

export interface CompiledStep {
  name: string;
  /** Position in the DAG: 0 for steps that need nothing. */
  level: number;
  needs: string[];
  /** The prompt scaffold of this step (Markdown). */
  scaffold: string;
  output_schema: Json | null;
  allowed_tools: string[];
  denied_tools: string[];
}

export interface CompiledWorkflow {
  name: string;
  description: string | null;
  strategy: string | null;
  /** Steps grouped by level; steps on one level may run in parallel. */
  levels: string[][];
  order: string[];
  steps: CompiledStep[];
  global_rules: string[];
  scaffold: string;
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
}

export interface CheckResult {
  findings: Finding[];
  diagnostics: Diagnostic[];
}

/** One structural edit. Paths are JSON Pointers (`/steps/a/needs`) or dotted (`steps.a.needs`). */
export type Edit =
  | { op: "set"; path: string; value: Json }
  | { op: "remove"; path: string }
  | { op: "insert"; path: string; index?: number | null; value: Json }
  | { op: "replace_text"; start: number; end: number; text: string }
  | { op: "add_step"; name: string; after?: string | null; step?: Json }
  | { op: "remove_step"; name: string }
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
