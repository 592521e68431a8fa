// `logicmd/xyflow`: the document's graph as React Flow (@xyflow/react, @xyflow/svelte) nodes and
// edges, and canvas changes back into the document as core's edits. Framework-neutral: no React
// import, plain objects in, plain objects out. Every graph, rule, edit and diagnostic is core's
// (through the wasm functions below); this module only maps names and shapes.
import { applyEdit, graph as documentGraph, lint } from "./logicmd.js";

const NODE_SIZE = { width: 180, height: 64 };
const GROUP_PADDING = 24;
const SEVERITY_ORDER = ["error", "warning", "info"];

/** The document as React Flow nodes (groups first, so they draw behind) and edges. */
export function toFlow(text, options = {}) {
  const drawn = documentGraph(text);
  const diagnostics = lint(text, options.path, options.files).diagnostics;
  if (!drawn.graph) {
    return { kind: drawn.kind, graph: null, nodes: [], edges: [], diagnostics: drawn.diagnostics, byNode: {} };
  }
  const size = { ...NODE_SIZE, ...options.nodeSize };
  const byNode = diagnosticsByNode(drawn.graph, diagnostics);
  const nodes = drawn.graph.nodes.map((node) => flowNode(node, byNode[node.id] ?? [], options));
  const groups = drawn.graph.groups.map((group) => groupNode(group, drawn.graph, size)).filter(Boolean);
  return {
    kind: drawn.kind,
    graph: drawn.graph,
    nodes: [...groups, ...nodes],
    edges: drawn.graph.edges.map(flowEdge),
    diagnostics,
    byNode,
  };
}

function flowNode(node, diagnostics, options) {
  return {
    id: node.id,
    type: options.nodeType ?? "logicmd",
    position: { x: node.x, y: node.y },
    // Only nodes core can remove (steps, DRTL nodes) are deletable on the canvas.
    deletable: removable(node),
    data: {
      label: node.label,
      kind: node.kind,
      name: node.name,
      inputs: node.inputs,
      outputs: node.outputs,
      color: node.color,
      icon: node.icon,
      pinned: node.pinned,
      diagnostics,
      severity: worstSeverity(diagnostics),
      node,
    },
  };
}

function flowEdge(edge) {
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    sourceHandle: edge.source_port,
    targetHandle: edge.target_port,
    label: edge.label ?? undefined,
    deletable: disconnectable(edge),
    className: `logicmd-edge logicmd-edge-${edge.kind}${edge.compatible ? "" : " logicmd-edge-incompatible"}`,
    data: { kind: edge.kind, compatible: edge.compatible, back: edge.back, edge },
  };
}

/** A group as a non-interactive box around its members' positions. */
function groupNode(group, graph, size) {
  const members = group.members.map((id) => findNode(graph, id)).filter(Boolean);
  if (members.length === 0) return null;
  const left = Math.min(...members.map((n) => n.x)) - GROUP_PADDING;
  const top = Math.min(...members.map((n) => n.y)) - GROUP_PADDING;
  const right = Math.max(...members.map((n) => n.x + size.width)) + GROUP_PADDING;
  const bottom = Math.max(...members.map((n) => n.y + size.height)) + GROUP_PADDING;
  return {
    id: `group:${group.id}`,
    type: "group",
    position: { x: left, y: top },
    width: right - left,
    height: bottom - top,
    style: { width: right - left, height: bottom - top },
    draggable: false,
    selectable: false,
    deletable: false,
    connectable: false,
    zIndex: -1,
    data: { label: group.label, kind: group.kind, members: group.members, group },
  };
}

/** Diagnostics keyed by node id: each goes to the node whose JSON Pointer is the longest prefix of
 *  its path (a step's diagnostics to the step, not to the document). */
export function diagnosticsByNode(graph, diagnostics) {
  const byNode = {};
  for (const diagnostic of diagnostics) {
    let best = null;
    for (const node of graph.nodes) {
      const pointer = node.pointer;
      if (!pointer) continue;
      const within = diagnostic.path === pointer || diagnostic.path.startsWith(`${pointer}/`);
      if (within && (!best || pointer.length > best.pointer.length)) best = node;
    }
    if (best) (byNode[best.id] ??= []).push(diagnostic);
  }
  return byNode;
}

function worstSeverity(diagnostics) {
  for (const severity of SEVERITY_ORDER) {
    if (diagnostics.some((d) => d.severity === severity)) return severity;
  }
  return null;
}

function removable(node) {
  return node.kind === "step" || node.id.startsWith("drtl:");
}

function disconnectable(edge) {
  return edge.kind === "needs" || edge.kind === "edge";
}

/** The connect edit a React Flow connection asks for, or the reason there is none. */
function connectEdit(graph, connection) {
  const source = findNode(graph, connection.source);
  const target = findNode(graph, connection.target);
  if (!source || !target) return { reason: `there is no node \`${!source ? connection.source : connection.target}\`` };
  return {
    edit: {
      op: "connect",
      from: source.name,
      to: target.name,
      from_port: connection.sourceHandle ?? null,
      to_port: connection.targetHandle ?? null,
    },
  };
}

/** Whether core's connect rules allow `connection` on `text`, and if not, their reason. */
export function checkConnection(text, connection) {
  const drawn = documentGraph(text).graph;
  if (!drawn) return { valid: false, reason: "the document does not parse" };
  const { edit, reason } = connectEdit(drawn, connection);
  if (!edit) return { valid: false, reason };
  const result = applyEdit(text, edit);
  return { valid: result.applied, reason: result.applied ? null : refusal(result) };
}

/** An `isValidConnection` for React Flow, answered by core's rules for `text` (remembered per
 *  wire while the user drags; make a new one when the text changes). `onRefused` hears each
 *  refusal's reason, for a tooltip. */
export function connectionValidator(text, onRefused) {
  const answers = new Map();
  return (connection) => {
    const key = [connection.source, connection.sourceHandle, connection.target, connection.targetHandle].join("\u0000");
    let answer = answers.get(key);
    if (!answer) {
      answer = checkConnection(text, connection);
      answers.set(key, answer);
    }
    if (!answer.valid && onRefused) onRefused(answer.reason, connection);
    return answer.valid;
  };
}

/** `onConnect`: a wire drawn from an output port to an input port. */
export function connect(text, connection, options) {
  const drawn = documentGraph(text).graph;
  if (!drawn) return unchanged(text, "the document does not parse", options);
  const { edit, reason } = connectEdit(drawn, connection);
  return edit ? change(text, [edit], options) : unchanged(text, reason, options);
}

/** `onDelete({nodes, edges})` (or `onNodesDelete` / `onEdgesDelete`): removes the steps or DRTL
 *  nodes and the wires, as one change. Wires that touch a removed node go with it. */
export function remove(text, { nodes = [], edges = [] }, options) {
  const drawn = documentGraph(text).graph;
  if (!drawn) return unchanged(text, "the document does not parse", options);
  const removed = new Set(nodes.map((n) => n.id));
  const edits = [];
  const steps = [];
  for (const { id } of nodes) {
    const node = findNode(drawn, id);
    if (!node) return unchanged(text, `there is no node \`${id}\``, options);
    if (node.kind === "step") steps.push(node.name);
    else if (id.startsWith("drtl:")) edits.push({ op: "remove_node", id: node.name });
    else return unchanged(text, `\`${node.label}\` is a ${node.kind}: remove it in the text`, options);
  }
  if (steps.length > 0) edits.unshift({ op: "remove_steps", names: steps });
  for (const { id } of edges) {
    const edge = drawn.edges.find((e) => e.id === id);
    if (!edge) return unchanged(text, `there is no edge \`${id}\``, options);
    if (removed.has(edge.source) || removed.has(edge.target)) continue;
    if (!disconnectable(edge)) {
      return unchanged(text, `a \`${edge.kind}\` edge is written in its node's fields: change it there`, options);
    }
    edits.push({ op: "disconnect", from: findNode(drawn, edge.source).name, to: findNode(drawn, edge.target).name });
  }
  return change(text, edits, options);
}

/** `onNodeDragStop`: stores the node's new position in the document. */
export function move(text, node, options) {
  const drawn = documentGraph(text).graph;
  const found = drawn && findNode(drawn, node.id);
  if (!found) return unchanged(text, `there is no node \`${node.id}\``, options);
  return change(text, [{ op: "set_position", node: found.name, x: node.position.x, y: node.position.y }], options);
}

/** A palette drop: a new step named `name` (or `name-2`, `name-3`, … when taken) with `step` as
 *  its body, stored at `position`. */
export function addStep(text, { name, step = {}, position }, options) {
  const drawn = documentGraph(text).graph;
  if (!drawn) return unchanged(text, "the document does not parse", options);
  const taken = new Set(drawn.nodes.filter((n) => n.kind === "step").map((n) => n.name));
  let free = name;
  for (let n = 2; taken.has(free); n += 1) free = `${name}-${n}`;
  const edits = [{ op: "add_step", name: free, step }];
  if (position) edits.push({ op: "set_position", node: free, x: position.x, y: position.y });
  return change(text, edits, options);
}

/** Renames a step and every reference to it. */
export function rename(text, nodeId, name, options) {
  const drawn = documentGraph(text).graph;
  const found = drawn && findNode(drawn, nodeId);
  if (!found) return unchanged(text, `there is no node \`${nodeId}\``, options);
  if (found.kind !== "step") return unchanged(text, `only steps are renamed on the canvas, not a ${found.kind}`, options);
  return change(text, [{ op: "rename_step", from: found.name, to: name }], options);
}

/** An inspector field's new value (`field` from `node.data.node.inspector`). */
export function setField(text, field, value, options) {
  return change(text, [{ op: "set", path: field.pointer, value }], options);
}

function findNode(graph, id) {
  return graph.nodes.find((n) => n.id === id) ?? null;
}

/** Applies `edits` in turn; all or nothing. Each `patches` entry is against the text before it. */
function change(text, edits, options) {
  let current = text;
  const patches = [];
  const notes = [];
  for (const edit of edits) {
    const result = applyEdit(current, edit);
    if (!result.applied) return unchanged(text, refusal(result), options, result.diagnostics);
    current = result.text;
    patches.push(result.patches);
    notes.push(...result.notes);
  }
  return { applied: edits.length > 0, text: current, patches, notes, reason: null, flow: toFlow(current, options) };
}

function unchanged(text, reason, options, diagnostics = []) {
  return { applied: false, text, patches: [], notes: [], reason, refusal: diagnostics, flow: toFlow(text, options) };
}

function refusal(result) {
  return result.diagnostics.map((d) => d.message).join("; ") || "the edit was refused";
}
