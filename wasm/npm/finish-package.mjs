// Turns wasm-bindgen's `--target web` output in wasm/pkg into the `logicmd` npm package: the
// first-load wasm and its glue, the run engine's module with its loader (`__wasm_split.js`, the
// name the split step gives the loader's import), and conditional exports — Node loads both
// modules from the files beside it (node.js: the engine synchronously on first use), browsers and
// bundlers call `await init()` (the web glue, which fetches the wasm beside it) and
// `await loadRun()` before the first synchronous run function.
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = process.argv[2] ?? join(here, "..", "pkg");
const metadata = JSON.parse(
  execFileSync("cargo", ["metadata", "--no-deps", "--format-version", "1", "--manifest-path", join(here, "..", "Cargo.toml")], {
    encoding: "utf8",
  }),
);
const crate = metadata.packages.find((p) => p.name === "logicmd-wasm");

for (const file of ["node.js", "xyflow.js", "xyflow-node.js", "xyflow.d.ts"]) {
  copyFileSync(join(here, file), join(pkg, file));
}
copyFileSync(join(here, "engine-loader.js"), join(pkg, "__wasm_split.js"));
copyFileSync(join(here, "..", "README.md"), join(pkg, "README.md"));
writeFileSync(join(pkg, ".gitignore"), "*\n");
writeFileSync(join(pkg, "node.d.ts"), 'export * from "./logicmd.js";\nexport { default } from "./logicmd.js";\n');

const manifest = {
  name: "logicmd",
  version: crate.version,
  description: crate.description,
  license: crate.license,
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
    "./split_engine.wasm": "./split_engine.wasm",
    "./package.json": "./package.json",
  },
  files: [
    "logicmd.js",
    "logicmd.d.ts",
    "logicmd_bg.wasm",
    "logicmd_bg.wasm.d.ts",
    "__wasm_split.js",
    "split_engine.wasm",
    "node.js",
    "node.d.ts",
    "xyflow.js",
    "xyflow-node.js",
    "xyflow.d.ts",
    "README.md",
  ],
  sideEffects: ["./node.js", "./xyflow-node.js", "./snippets/*"],
  keywords: ["logic.md", "drtl", "agents", "reasoning", "wasm", "visual-builder"],
};
writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
console.log(`finished ${manifest.name}@${manifest.version} in ${pkg}`);
