#!/usr/bin/env node
// Prints the node palette a visual builder would register for a folder of *.logic.md files.
//   node registry.mjs [folder] [--json]
import { resolve } from "node:path";
import { discover } from "logicmd";

import { describe, palette, scan } from "./palette.mjs";

const args = process.argv.slice(2);
const folder = resolve(args.find((a) => !a.startsWith("--")) ?? new URL("..", import.meta.url).pathname);
const result = palette(scan(folder), discover);
console.log(args.includes("--json") ? JSON.stringify(result, null, 2) : describe(result));
process.exitCode = result.diagnostics.some((d) => d.severity === "error") ? 1 : 0;
