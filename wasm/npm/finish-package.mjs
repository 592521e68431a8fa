// Turns wasm-pack's `--target web` output into the `logicmd` npm package: one wasm, one glue
// module, and conditional exports — Node loads it synchronously (node.js), browsers and
// bundlers call `await init()` (the web glue, which fetches the wasm beside it).
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = process.argv[2] ?? join(here, "..", "pkg");
const manifestPath = join(pkg, "package.json");
const built = JSON.parse(readFileSync(manifestPath, "utf8"));

for (const file of ["node.js", "xyflow.js", "xyflow-node.js", "xyflow.d.ts"]) {
  copyFileSync(join(here, file), join(pkg, file));
}
writeFileSync(join(pkg, "node.d.ts"), 'export * from "./logicmd.js";\nexport { default } from "./logicmd.js";\n');

const manifest = {
  name: "logicmd",
  version: built.version,
  description: built.description,
  license: built.license,
  type: "module",
  main: "./logicmd.js",
  types: "./logicmd.d.ts",
  exports: {
    ".": {
      types: "./logicmd.d.ts",
      node: "./node.js",
      default: "./logicmd.js",
    },
    // The React Flow adapter (framework-neutral): browsers call the main entry's `init()` first.
    "./xyflow": {
      types: "./xyflow.d.ts",
      node: "./xyflow-node.js",
      default: "./xyflow.js",
    },
    "./logicmd_bg.wasm": "./logicmd_bg.wasm",
    "./package.json": "./package.json",
  },
  files: ["logicmd.js", "logicmd.d.ts", "logicmd_bg.wasm", "logicmd_bg.wasm.d.ts", "node.js", "node.d.ts", "xyflow.js", "xyflow-node.js", "xyflow.d.ts", "README.md"],
  sideEffects: ["./node.js", "./xyflow-node.js", "./snippets/*"],
  keywords: ["logic.md", "drtl", "agents", "reasoning", "wasm", "visual-builder"],
};
writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + "\n");
console.log(`finished ${manifest.name}@${manifest.version} in ${pkg}`);
