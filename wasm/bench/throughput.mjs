// Throughput of the built npm package in Node: validate + compile over the fixture corpus
// (tests/fixtures and, when present, the shared conformance suite).
//   scripts/build-npm.sh && node wasm/bench/throughput.mjs [rounds]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { compile, validate } from "../pkg/node.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const roots = [join(repo, "tests/fixtures"), process.env.LOGICMD_CONFORMANCE_DIR ?? join(repo, "../shared/conformance")];

function files(dir, found = []) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, found);
    else if (/\.(md|ya?ml)$/.test(name)) found.push({ path, text: readFileSync(path, "utf8") });
  }
  return found;
}

const rounds = Number(process.argv[2] ?? 20);

/** Validates every file and compiles the valid LOGIC.md ones, `rounds` times; prints the rate. */
function measure(label, corpus) {
  const bytes = corpus.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  for (const text of corpus) validate(text); // warm-up
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const text of corpus) {
      if (validate(text).valid && text.startsWith("---")) compile(text, null, null, null);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${label}: ${corpus.length} files (${(bytes / 1024).toFixed(1)} KiB) x ${rounds}: ` +
      `${((corpus.length * rounds) / seconds).toFixed(0)} files/s, ${((bytes * rounds) / seconds / 1e6).toFixed(2)} MB/s (validate + compile)`,
  );
}

const all = roots.flatMap((root) => files(root));
// The fixtures built to hit a limit (alias bombs, deep nesting) cost what reaching the limit costs.
const typical = all.filter(({ path }) => !/alias-bomb|\/deep-/.test(path));
measure("typical fixtures", typical.map((f) => f.text));
measure("all fixtures (with the limit-hitting ones)", all.map((f) => f.text));

// One large document: parse + validate + compile of a 1,000-step chain.
const steps = Array.from({ length: 1000 }, (_, i) => `  s${i}:\n    description: step ${i}${i ? `\n    needs: [s${i - 1}]` : ""}`);
const large = `---\nspec_version: "1.0"\nname: big\nsteps:\n${steps.join("\n")}\n---\n`;
const time = (call) => {
  call();
  const started = performance.now();
  for (let round = 0; round < 10; round++) call();
  return (performance.now() - started) / 10;
};
const validateMs = time(() => validate(large));
const compileMs = time(() => compile(large, null, null, null));
console.log(
  `1,000-step document (${(Buffer.byteLength(large) / 1024).toFixed(1)} KiB): validate ${validateMs.toFixed(1)} ms ` +
    `(${(Buffer.byteLength(large) / validateMs / 1e3).toFixed(2)} MB/s), compile (parse, imports, lint, scaffolds, result to JS) ${compileMs.toFixed(1)} ms`,
);
