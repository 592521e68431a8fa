// What a Flowise/Dify-style builder registers for a folder of LOGIC.md files: the files are
// found by the spec's naming rules (§13) and turned into node definitions by `discover`.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file under `root` (skipping node_modules and dot-directories other than `.logic`). */
export function scan(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || (entry.name.startsWith(".") && entry.name !== ".logic")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push({ path: relative(root, path).split("\\").join("/"), text: readFileSync(path, "utf8") });
    }
  };
  walk(root);
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

/** The palette grouped by category: `{category: NodeDefinition[]}` plus the problems found. */
export function palette(files, discover) {
  const { nodes, diagnostics } = discover(files);
  const categories = {};
  for (const node of nodes) (categories[node.category] ??= []).push(node);
  return { categories, diagnostics };
}

const port = (p) => `${p.name}: ${p.type}${p.required ? " (required)" : ""}`;

function field(f) {
  const range = f.min !== undefined || f.max !== undefined ? ` ${f.min ?? ""}..${f.max ?? ""}` : "";
  const options = f.options ? ` [${f.options.join(", ")}]` : "";
  return `${f.label} <${f.type}${range}${options}> = ${JSON.stringify(f.value ?? f.default ?? null)}`;
}

/** The palette as the text `registry.mjs` prints. */
export function describe({ categories, diagnostics }) {
  const lines = [];
  for (const category of Object.keys(categories).sort()) {
    lines.push(`${category}`);
    for (const node of categories[category]) {
      lines.push(`  ${node.icon ?? "·"} ${node.name}  (${node.path})${node.color ? ` ${node.color}` : ""}`);
      if (node.description) lines.push(`      ${node.description}`);
      lines.push(`      in:  ${node.ports.inputs.map(port).join(", ") || "—"}`);
      lines.push(`      out: ${node.ports.outputs.map(port).join(", ") || "—"}`);
      for (const f of node.inspector) lines.push(`      ⚙ ${field(f)}`);
    }
  }
  for (const d of diagnostics) lines.push(`! ${d.message} (line ${d.line})`);
  return lines.join("\n");
}
