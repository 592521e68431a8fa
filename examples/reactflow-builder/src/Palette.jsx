// Palette entries are dragged onto the canvas (HTML drag and drop); the drop adds a step.
export const DRAG_TYPE = "application/x-logicmd-node";

export function Palette({ palette }) {
  return (
    <aside className="palette" aria-label="Palette">
      <h2>Palette</h2>
      {Object.entries(palette.categories).map(([category, nodes]) => (
        <section key={category}>
          <h3>{category}</h3>
          {nodes.map((node) => (
            <div
              key={node.path}
              className="palette-item"
              draggable
              data-testid={`palette-${node.name}`}
              onDragStart={(event) => {
                event.dataTransfer.setData(DRAG_TYPE, JSON.stringify(node));
                event.dataTransfer.effectAllowed = "copy";
              }}
              title={node.description ?? ""}
            >
              <strong>{node.name}</strong>
              <small>{node.ports.inputs.map((p) => p.name).join(", ") || "—"} → {node.ports.outputs.map((p) => p.name).join(", ") || "—"}</small>
            </div>
          ))}
        </section>
      ))}
      {palette.diagnostics.map((d, i) => <p key={i} className="problem">{d.message}</p>)}
    </aside>
  );
}
