// Node entry: instantiates the WebAssembly synchronously from the file beside this one, so that
// `import { validate } from "logicmd"` works without an init call, and hands the run engine's
// loader a synchronous reader of its module: the first `createRun` (or `checkTrace`, …) loads it
// within the call. Calling `init()` or `loadRun()` is harmless.
import { readFileSync } from "node:fs";
import { initSync } from "./logicmd.js";
import { readEngineWith } from "./__wasm_split.js";

initSync({ module: readFileSync(new URL("./logicmd_bg.wasm", import.meta.url)) });
readEngineWith(() => readFileSync(new URL("./split_engine.wasm", import.meta.url)));

export * from "./logicmd.js";
export { default } from "./logicmd.js";
