// Node entry: instantiates the WebAssembly synchronously from the file beside this one, so that
// `import { validate } from "logicmd"` works without an init call. Calling `init()` is harmless.
import { readFileSync } from "node:fs";
import { initSync } from "./logicmd.js";

initSync({ module: readFileSync(new URL("./logicmd_bg.wasm", import.meta.url)) });

export * from "./logicmd.js";
export { default } from "./logicmd.js";
