// `logicmd/xyflow`: the document's graph as React Flow nodes/edges, canvas changes as core's edits.
// The shapes are structurally those of @xyflow/react's `Node`, `Edge` and `Connection`, so they are
// passed to <ReactFlow> as they are; this module imports nothing from React Flow.
import type { Diagnostic, DocumentKind, Files, Graph, GraphEdge, GraphNode, Group, Json, Port, TextPatch, InspectorField } from "./logicmd.js";

export interface FlowOptions {
  /** The node `type` given to document nodes (your custom node component's key); `"logicmd"` by default. */
  nodeType?: string;
  /** The size groups are drawn around (each member's box); 180 × 64 by default. */
  nodeSize?: { width: number; height: number };
  /** For lint's import checks, as `lint(text, path, files)`. */
  path?: string;
  files?: Files;
}

export interface LogicNodeData {
  [key: string]: unknown;
  label: string;
  /** `step`, `decision`, `terminal`, `agent`, or the DRTL node type. */
  kind: string;
  name: string;
  /** Input ports: one target handle each, `id` = the port's name. */
  inputs: Port[];
  /** Output ports: one source handle each, `id` = the port's name. */
  outputs: Port[];
  color: string | null;
  icon: string | null;
  /** The position is stored in the document. */
  pinned: boolean;
  /** lint's diagnostics placed on this node (for a badge). */
  diagnostics: Diagnostic[];
  /** The worst of them, or `null`. */
  severity: "error" | "warning" | "info" | null;
  /** The graph node as core gives it (inspector fields, span, pointer). */
  node: GraphNode;
}

export interface GroupNodeData {
  [key: string]: unknown;
  label: string;
  kind: string;
  members: string[];
  group: Group;
}

export interface LogicFlowNode {
  id: string;
  type: string;
  position: { x: number; y: number };
  deletable: boolean;
  data: LogicNodeData;
}

/** A group, drawn as a box (React Flow's built-in `group` type) behind its members. */
export interface GroupFlowNode {
  id: string;
  type: "group";
  position: { x: number; y: number };
  width: number;
  height: number;
  style: { width: number; height: number };
  draggable: false;
  selectable: false;
  deletable: false;
  connectable: false;
  zIndex: number;
  data: GroupNodeData;
}

export type FlowNode = LogicFlowNode | GroupFlowNode;

export interface LogicEdgeData {
  [key: string]: unknown;
  kind: string;
  compatible: boolean;
  back: boolean;
  edge: GraphEdge;
}

export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle: string | null;
  targetHandle: string | null;
  label?: string;
  /** Only `needs` (LOGIC.md) and DRTL `edge`s are removed by deleting the wire. */
  deletable: boolean;
  /** `logicmd-edge logicmd-edge-KIND`, plus `logicmd-edge-incompatible` when the port types do not fit. */
  className: string;
  data: LogicEdgeData;
}

export interface Flow {
  kind: DocumentKind;
  /** `null` when the text does not parse. */
  graph: Graph | null;
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** lint's diagnostics of the whole document. */
  diagnostics: Diagnostic[];
  /** The same, keyed by node id (those placed on a node). */
  byNode: Record<string, Diagnostic[]>;
}

/** What React Flow hands `isValidConnection` and `onConnect`. */
export interface FlowConnection {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

export interface FlowChange {
  /** The document changed. */
  applied: boolean;
  /** The new text (the original when refused). */
  text: string;
  /** Each edit's patches, in order, each against the text before that edit. */
  patches: TextPatch[][];
  notes: string[];
  /** Why nothing changed, in core's words; `null` when applied. */
  reason: string | null;
  /** The flow of `text`. */
  flow: Flow;
}

export interface ConnectionCheck {
  valid: boolean;
  reason: string | null;
}

export declare function toFlow(text: string, options?: FlowOptions): Flow;
export declare function diagnosticsByNode(graph: Graph, diagnostics: Diagnostic[]): Record<string, Diagnostic[]>;
export declare function checkConnection(text: string, connection: FlowConnection): ConnectionCheck;
export declare function connectionValidator(
  text: string,
  onRefused?: (reason: string | null, connection: FlowConnection) => void,
): (connection: FlowConnection) => boolean;
export declare function connect(text: string, connection: FlowConnection, options?: FlowOptions): FlowChange;
export declare function remove(
  text: string,
  deleted: { nodes?: { id: string }[]; edges?: { id: string }[] },
  options?: FlowOptions,
): FlowChange;
export declare function move(text: string, node: { id: string; position: { x: number; y: number } }, options?: FlowOptions): FlowChange;
export declare function addStep(
  text: string,
  step: { name: string; step?: { [key: string]: Json }; position?: { x: number; y: number } },
  options?: FlowOptions,
): FlowChange;
export declare function rename(text: string, nodeId: string, name: string, options?: FlowOptions): FlowChange;
export declare function setField(text: string, field: Pick<InspectorField, "pointer">, value: Json, options?: FlowOptions): FlowChange;
