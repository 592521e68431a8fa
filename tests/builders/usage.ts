// logicmd/xyflow's declarations against @xyflow/react's own types: what toFlow returns is what
// <ReactFlow> takes, and the callbacks have the signatures React Flow calls them with.
import type { Connection, Edge, IsValidConnection, Node, OnBeforeDelete, OnConnect, OnNodeDrag } from "@xyflow/react";
import { addStep, connect, connectionValidator, move, remove, rename, setField, toFlow } from "logicmd/xyflow";
import type { FlowChange, LogicFlowNode } from "logicmd/xyflow";

declare let text: string;
const flow = toFlow(text, { nodeType: "logicmd" });
const nodes: Node[] = flow.nodes;
const edges: Edge[] = flow.edges;
const isValidConnection: IsValidConnection = connectionValidator(text, (reason: string | null) => void reason);
const onConnect: OnConnect = (connection: Connection) => void connect(text, connection).text;
const onBeforeDelete: OnBeforeDelete = async (deleted) => remove(text, deleted).applied;
const onNodeDragStop: OnNodeDrag = (_event, node) => void move(text, node).flow;
const dropped: FlowChange = addStep(text, { name: "step", step: { description: "d" }, position: { x: 1, y: 2 } });
const renamed: string | null = rename(text, "step:a", "b").reason;
const first = flow.nodes.find((n): n is LogicFlowNode => n.type !== "group");
const field = first?.data.node.inspector[0];
if (field) setField(text, field, field.value);
// @ts-expect-error a position is needed to move a node
move(text, { id: "step:a" });
export { dropped, edges, isValidConnection, nodes, onBeforeDelete, onConnect, onNodeDragStop, renamed };
