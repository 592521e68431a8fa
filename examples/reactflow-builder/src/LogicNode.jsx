// A document node: its label, a diagnostics badge, one target handle (top) per input port and one
// source handle (bottom) per output port, as core lays flows out top to bottom (handle id = port
// name, which logicmd/xyflow maps back to core's ports).
// A step without declared ports still takes `needs` wires: one unnamed handle on that side (a wire
// to it names no port, and core takes the node's default).
import { Handle, Position } from "@xyflow/react";

const spread = (index, count) => `${((index + 1) * 100) / (count + 1)}%`;

export function LogicNode({ data, selected }) {
  const { label, kind, inputs, outputs, diagnostics, severity, color } = data;
  return (
    <div
      className={`logic-node${selected ? " selected" : ""}`}
      style={color ? { borderColor: color } : undefined}
      data-testid={`node-${data.node.id}`}
    >
      <div className="logic-node-kind">{kind}</div>
      <div className="logic-node-label">{label}</div>
      {severity && (
        <span className={`badge badge-${severity}`} title={diagnostics.map((d) => d.message).join("\n")}>
          {diagnostics.length}
        </span>
      )}
      {inputs.length === 0 && <Handle type="target" position={Position.Top} />}
      {outputs.length === 0 && <Handle type="source" position={Position.Bottom} />}
      {inputs.map((port, i) => (
        <Handle key={`in-${port.name}`} id={port.name} type="target" position={Position.Top}
          style={{ left: spread(i, inputs.length) }} title={`${port.name}: ${port.type}`} />
      ))}
      {outputs.map((port, i) => (
        <Handle key={`out-${port.name}`} id={port.name} type="source" position={Position.Bottom}
          style={{ left: spread(i, outputs.length) }} title={`${port.name}: ${port.type}`} />
      ))}
    </div>
  );
}
