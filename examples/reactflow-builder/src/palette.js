// The palette: the node definitions `discover` finds in examples/nodes/*.logic.md (spec §10.1,
// §13), grouped by category as the node-registry example does. A builder loads its own folder.
import { discover } from "logicmd";

const sources = import.meta.glob("../../nodes/*.logic.md", { query: "?raw", import: "default", eager: true });

export function loadPalette() {
  const files = Object.entries(sources).map(([path, text]) => ({ path: path.replace("../../", ""), text }));
  const { nodes, diagnostics } = discover(files);
  const categories = {};
  for (const node of nodes) (categories[node.category] ??= []).push(node);
  return { categories, diagnostics };
}

/** The body of the step a palette node becomes when dropped: its description, and its first input
 *  and output port's types as the step's `input_schema` / `output_schema` (a step's ports). */
export function stepFor(definition) {
  const step = {};
  if (definition.description) step.description = definition.description;
  const [input] = definition.ports.inputs;
  const [output] = definition.ports.outputs;
  if (input?.type) step.input_schema = { type: input.type };
  if (output?.type) step.output_schema = { type: output.type };
  return step;
}
