// Node entry of `logicmd/xyflow`: the package's Node entry instantiates the WebAssembly first.
import "./node.js";

export * from "./xyflow.js";
