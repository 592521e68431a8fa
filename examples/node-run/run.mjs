// A Flowise/Dify-style builder keeps its own model calls and keys; logicmd keeps the semantics.
// This runs a LOGIC.md document with a plain function as the provider and prints the trace.
//
//   node run.mjs FILE [INPUT_JSON]
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

import { createRun } from "logicmd";

import { drive, offline } from "./drive.mjs";

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2] ?? "../competitive-analyst.logic.md";
  const input = JSON.parse(process.argv[3] ?? '{"market_segment": "note-taking apps", "our_product": {"name": "Quill"}}');
  const root = dirname(file);
  const files = (path) => readFileSync(join(root, path), "utf8");
  const run = createRun(readFileSync(file, "utf8"), input, { path: relative(root, file), files });
  if (run.diagnostics.length > 0) {
    for (const d of run.diagnostics) console.error(`${file}:${d.line}:${d.column}: ${d.message}`);
    process.exit(1);
  }
  const { status, trace, ending } = await drive(run, offline(run));
  for (const event of trace) console.log(JSON.stringify(event));
  console.error(`${status}${ending?.action === "complete" ? "" : `: ${JSON.stringify(ending ?? {})}`}`);
  run.free();
  process.exit(status === "completed" ? 0 : 1);
}
