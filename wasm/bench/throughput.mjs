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
    else if (/\.(md|ya?ml)$/.test(name)) found.push(readFileSync(path, "utf8"));
  }
  return found;
}

const corpus = roots.flatMap((root) => files(root));
const bytes = corpus.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
const rounds = Number(process.argv[2] ?? 20);
for (const text of corpus) validate(text); // warm-up
const started = performance.now();
for (let round = 0; round < rounds; round++) {
  for (const text of corpus) {
    if (validate(text).valid && text.startsWith("---")) compile(text, null, null, null);
  }
}
const seconds = (performance.now() - started) / 1000;
const perSecond = (corpus.length * rounds) / seconds;
console.log(
  `${corpus.length} files (${(bytes / 1024).toFixed(1)} KiB) x ${rounds}: ` +
    `${perSecond.toFixed(0)} files/s, ${((bytes * rounds) / seconds / 1e6).toFixed(2)} MB/s (validate + compile)`,
);

// One large document: parse + validate + compile of a 1,000-step chain.
const steps = Array.from({ length: 1000 }, (_, i) => `  s${i}:\n    description: step ${i}${i ? `\n    needs: [s${i - 1}]` : ""}`);
const large = `---\nspec_version: "1.0"\nname: big\nsteps:\n${steps.join("\n")}\n---\n`;
const largeStarted = performance.now();
const largeRounds = 10;
for (let round = 0; round < largeRounds; round++) compile(large, null, null, null);
const largeMs = (performance.now() - largeStarted) / largeRounds;
console.log(
  `1,000-step document (${(Buffer.byteLength(large) / 1024).toFixed(1)} KiB): validate + compile ${largeMs.toFixed(1)} ms, ` +
    `${(Buffer.byteLength(large) / largeMs / 1e3).toFixed(2)} MB/s`,
);
