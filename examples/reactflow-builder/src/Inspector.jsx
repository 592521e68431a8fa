// The selected node's fields as core lists them (`visual.inspector` and the built-in fields),
// each change one `set` edit at the field's JSON Pointer.
export function Inspector({ node, onChange, onRename }) {
  if (!node) return <aside className="inspector" aria-label="Inspector"><p>Select a node.</p></aside>;
  const { node: graphNode } = node.data;
  return (
    <aside className="inspector" aria-label="Inspector">
      <h2>{graphNode.label}</h2>
      {graphNode.kind === "step" && (
        <label>
          name
          <input data-testid="rename" defaultValue={graphNode.name} key={graphNode.id}
            onKeyDown={(e) => e.key === "Enter" && onRename(e.currentTarget.value)} />
        </label>
      )}
      {graphNode.inspector.map((field) => (
        <label key={`${graphNode.id}:${field.pointer}`}>
          {field.label}
          <Field field={field} onChange={(value) => onChange(field, value)} />
        </label>
      ))}
      {node.data.diagnostics.map((d, i) => <p key={i} className={`problem ${d.severity}`}>{d.message}</p>)}
    </aside>
  );
}

function Field({ field, onChange }) {
  const value = field.value ?? field.default ?? "";
  if (field.type === "select") {
    return (
      <select value={String(value)} onChange={(e) => onChange(e.target.value)}>
        {(field.options ?? []).map((o) => <option key={String(o)} value={String(o)}>{String(o)}</option>)}
      </select>
    );
  }
  if (field.type === "boolean") return <input type="checkbox" checked={Boolean(value)} onChange={(e) => onChange(e.target.checked)} />;
  if (field.type === "number" || field.type === "slider") {
    return (
      <input type={field.type === "slider" ? "range" : "number"} min={field.min} max={field.max} step={field.step ?? "any"}
        defaultValue={value} onBlur={(e) => e.target.value !== "" && onChange(Number(e.target.value))} />
    );
  }
  return <input defaultValue={String(value)} onBlur={(e) => e.target.value !== String(value) && onChange(e.target.value)} />;
}
