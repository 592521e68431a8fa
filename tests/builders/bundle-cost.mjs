// What a builder's bundle pays per logicmd entry point: Vite (the example app's) builds three tiny
// apps — the document tools, the same plus logicmd/xyflow, and logicmd/xyflow alone — and prints
// each one's JavaScript and WebAssembly, raw and gzipped. Run after scripts/test-builders.sh has
// installed examples/reactflow-builder:  node tests/builders/bundle-cost.mjs
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const app = fileURLToPath(new URL("../../examples/reactflow-builder/", import.meta.url));
const { build } = await import(join(app, "node_modules/vite/dist/node/index.js"));

const entries = {
  "logicmd (validate, lint, graph, applyEdit)": `import init, { validate, lint, graph, applyEdit } from "logicmd";
await init(); globalThis.out = [validate, lint, graph, applyEdit];`,
  "logicmd + logicmd/xyflow": `import init, { validate, lint, graph, applyEdit } from "logicmd";
import { toFlow, connect, remove, move, connectionValidator } from "logicmd/xyflow";
await init(); globalThis.out = [validate, lint, graph, applyEdit, toFlow, connect, remove, move, connectionValidator];`,
  "logicmd/xyflow alone": `import init from "logicmd";
import { toFlow, connect, remove, move, connectionValidator } from "logicmd/xyflow";
await init(); globalThis.out = [toFlow, connect, remove, move, connectionValidator];`,
};

const root = mkdtempSync(join(tmpdir(), "logicmd-bundle-"));
symlinkSync(join(app, "node_modules"), join(root, "node_modules"));
const rows = [];
for (const [name, code] of Object.entries(entries)) {
  writeFileSync(join(root, "main.js"), code);
  writeFileSync(join(root, "index.html"), '<script type="module" src="./main.js"></script>');
  const outDir = join(root, "dist");
  await build({ root, logLevel: "silent", build: { outDir, emptyOutDir: true, target: "es2022" } });
  // The run engine's wasm (`split_engine-<hash>.wasm`) is emitted too but fetched on first use.
  const sizes = { js: [0, 0], wasm: [0, 0], engine: [0, 0] };
  const assets = join(outDir, "assets");
  for (const file of readdirSync(assets)) {
    const kind = file.startsWith("split_engine") ? "engine" : file.endsWith(".wasm") ? "wasm" : file.endsWith(".js") ? "js" : null;
    if (!kind) continue;
    const bytes = readFileSync(join(assets, file));
    sizes[kind][0] += bytes.length;
    sizes[kind][1] += gzipSync(bytes, { level: 9 }).length;
  }
  rows.push([name, ...sizes.js, ...sizes.wasm, ...sizes.engine]);
}
rmSync(root, { recursive: true, force: true });
console.log("entry | JS raw | JS gzip | wasm raw | wasm gzip | engine wasm raw (on first use) | gzip");
for (const row of rows) console.log(row.join(" | "));
