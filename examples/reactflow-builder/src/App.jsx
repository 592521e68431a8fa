// The builder: palette, canvas, inspector, source text and a Run button. The text is the only
// state; the canvas is `toFlow(text)`, and every canvas gesture becomes a logicmd/xyflow change
// that returns the new text (core's minimal edit, comments kept) or core's reason for refusing.
import { useCallback, useEffect, useMemo, useState } from "react";
import { Background, Controls, ReactFlow, ReactFlowProvider, useEdgesState, useNodesState, useReactFlow } from "@xyflow/react";
import { addStep, connect, connectionValidator, move, remove, rename, setField, toFlow } from "logicmd/xyflow";

import { Inspector } from "./Inspector.jsx";
import { LogicNode } from "./LogicNode.jsx";
import { DRAG_TYPE, Palette } from "./Palette.jsx";
import { loadPalette, stepFor } from "./palette.js";
import { runDocument } from "./run.js";
import { STARTER } from "./starter.js";

const nodeTypes = { logicmd: LogicNode };

export function App() {
  return (
    <ReactFlowProvider>
      <Builder />
    </ReactFlowProvider>
  );
}

function Builder() {
  // After `init()` (main.jsx): nothing calls logicmd while modules are still loading.
  const [palette] = useState(loadPalette);
  const [text, setText] = useState(STARTER);
  const [message, setMessage] = useState("");
  const [run, setRun] = useState(null);
  const [selectedId, setSelectedId] = useState(null);
  const flow = useMemo(() => toFlow(text), [text]);
  const [nodes, setNodes, onNodesChange] = useNodesState(flow.nodes);
  const [edges, setEdges, onEdgesChange] = useEdgesState(flow.edges);
  const { screenToFlowPosition, fitView } = useReactFlow();

  // The canvas follows the text (typed in the source pane or written by a change).
  useEffect(() => {
    setNodes(flow.nodes.map((n) => ({ ...n, selected: n.id === selectedId })));
    setEdges(flow.edges);
  }, [flow]); // eslint-disable-line react-hooks/exhaustive-deps

  // When nodes come or go (core lays the unpinned ones out again), keep them all in view.
  const nodeIds = flow.nodes.map((n) => n.id).join(" ");
  useEffect(() => {
    const frame = requestAnimationFrame(() => fitView({ padding: 0.15 }));
    return () => cancelAnimationFrame(frame);
  }, [nodeIds, fitView]);

  const apply = useCallback((change) => {
    if (change.applied) setText(change.text);
    setMessage(change.applied ? change.notes.join(" ") : change.reason ?? "");
    return change.applied;
  }, []);

  const isValidConnection = useMemo(() => connectionValidator(text, (reason) => setMessage(reason ?? "")), [text]);
  const onConnect = useCallback((connection) => apply(connect(text, connection)), [text, apply]);
  // React Flow asks before deleting; the text's change (or refusal) redraws the canvas itself.
  const onBeforeDelete = useCallback(async (deleted) => {
    apply(remove(text, deleted));
    return false;
  }, [text, apply]);
  const onNodeDragStop = useCallback((_event, _node, dragged) => {
    let current = text;
    for (const node of dragged) {
      const change = move(current, node);
      if (!change.applied) return apply(change);
      current = change.text;
    }
    setText(current);
  }, [text, apply]);
  const onDrop = useCallback((event) => {
    const payload = event.dataTransfer.getData(DRAG_TYPE);
    if (!payload) return;
    event.preventDefault();
    const definition = JSON.parse(payload);
    const position = screenToFlowPosition({ x: event.clientX, y: event.clientY });
    apply(addStep(text, { name: definition.name, step: stepFor(definition), position }));
  }, [text, apply, screenToFlowPosition]);

  const selected = nodes.find((n) => n.id === selectedId && n.type === "logicmd") ?? null;

  return (
    <div className="builder">
      <Palette palette={palette} />
      <main className="canvas" onDragOver={(e) => { e.preventDefault(); e.dataTransfer.dropEffect = "copy"; }} onDrop={onDrop}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          isValidConnection={isValidConnection}
          onConnect={onConnect}
          onBeforeDelete={onBeforeDelete}
          onNodeDragStop={onNodeDragStop}
          onNodeClick={(_e, node) => setSelectedId(node.id)}
          onPaneClick={() => setSelectedId(null)}
          fitView
        >
          <Background />
          <Controls />
        </ReactFlow>
        <p className="message" role="status" data-testid="message">{message}</p>
      </main>
      <Inspector
        node={selected}
        onChange={(field, value) => apply(setField(text, field, value))}
        onRename={(name) => apply(rename(text, selected.id, name)) && setSelectedId(`step:${name}`)}
      />
      <section className="source">
        <div className="toolbar">
          <h2>Source</h2>
          <button type="button" data-testid="run" onClick={async () => setRun(await runDocument(text))}>Run</button>
        </div>
        <textarea data-testid="source" aria-label="Source" spellCheck={false} value={text} onChange={(e) => setText(e.target.value)} />
        <p data-testid="problems">{flow.diagnostics.filter((d) => d.severity === "error").length} errors, {flow.diagnostics.filter((d) => d.severity === "warning").length} warnings</p>
        {run && (
          <div className="run" data-testid="run-result">
            <strong data-testid="run-status">{run.status}</strong>
            {run.problems.map((p, i) => <p key={i}>{p}</p>)}
            <ol>{run.events.map((e) => <li key={e.seq}>{e.event}{e.node ? ` · ${e.node}` : ""}</li>)}</ol>
          </div>
        )}
      </section>
    </div>
  );
}
