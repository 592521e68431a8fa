// Parse + validate throughput of the built npm package in Node (issue #17), and — when js-yaml
// and ajv are installed — of the reference pipeline (js-yaml + ajv on the same schema) in the
// same process, on the same documents:
// - the corpus: tests/fixtures, examples and the shared conformance suite (`*.logic.md`), without
//   the fixtures built to hit a limit (alias bombs, deep nesting);
// - the generated 1,000- and 5,000-step documents of core/benches/support/generate.rs.
//
//   scripts/build-npm.sh
//   cargo run --release -p logicmd --example throughput_probe -- write target/bench-docs
//   LOGICMD_REFERENCE_MODULES=/path/with/node_modules node wasm/bench/throughput.mjs [rounds]
//
// Prints the median over `rounds` rounds (MB = 10^6 bytes). `LOGICMD_PKG` (a path to another
// build's `node.js`) measures that build instead, to compare two builds interleaved.
// The corpus is 423 small documents, most written to fail on a path no other one takes: V8 tiers
// a wasm function up to its optimising compiler only after it has run a while, so the first
// 10-20 rounds measure that warm-up (2-3x slower); 60 rounds give the steady state
// (docs/decisions.md, Throughput, round three).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const { validate } = await import(
  process.env.LOGICMD_PKG ? pathToFileURL(process.env.LOGICMD_PKG).href : "../pkg/node.js"
);

const repo = fileURLToPath(new URL("../../", import.meta.url));
const conformance = process.env.LOGICMD_CONFORMANCE_DIR ?? nearestConformance();
const roots = [join(repo, "tests/fixtures"), join(repo, "examples"), conformance].filter(Boolean);
const docs = process.env.LOGICMD_BENCH_DOCS ?? join(repo, "target/bench-docs");
const rounds = Number(process.argv[2] ?? 15);

function nearestConformance() {
  let dir = join(repo, "..");
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, "shared/conformance");
    try {
      if (statSync(candidate).isDirectory()) return candidate;
    } catch {}
    dir = join(dir, "..");
  }
  return null;
}

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
    else if (name.endsWith(".logic.md")) found.push({ path, text: readFileSync(path, "utf8") });
  }
  return found;
}

/** The reference pipeline: frontmatter split, js-yaml, ajv (draft-07) on the embedded schema. */
function reference() {
  const modules = process.env.LOGICMD_REFERENCE_MODULES;
  if (!modules) return null;
  const require = createRequire(join(modules, "node_modules", "x.js"));
  const yaml = require("js-yaml");
  const Ajv = require("ajv");
  const schema = JSON.parse(readFileSync(join(repo, "core/src/schema/logic-md-schema-v1.0.json"), "utf8"));
  const check = new Ajv({ allErrors: true, strict: false }).compile(schema);
  return (text) => {
    const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)^---[ \t]*\r?$/m.exec(text);
    if (!match) return false;
    try {
      return check(yaml.load(match[1]));
    } catch {
      return false;
    }
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** MB/s of `run` over `texts`, the median of `rounds` rounds after one warm-up round. */
function measure(run, texts) {
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  for (const text of texts) run(text);
  const rates = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    for (const text of texts) run(text);
    rates.push(bytes / ((performance.now() - started) / 1000) / 1e6);
  }
  return { bytes, rate: median(rates) };
}

const typical = roots
  .flatMap((root) => files(root))
  .filter(({ path }) => !/alias-bomb|\/deep-/.test(path))
  .map((f) => f.text);
const sets = [["corpus", typical]];
for (const steps of [1000, 5000]) {
  try {
    sets.push([`steps-${steps}`, [readFileSync(join(docs, `steps-${steps}.logic.md`), "utf8")]]);
  } catch {
    console.error(`no ${docs}/steps-${steps}.logic.md: run the throughput_probe write command above`);
  }
}
const ours = (text) => validate(text).valid;
const theirs = reference();
console.log(`median of ${rounds} rounds, parse + validate, MB/s`);
for (const [label, texts] of sets) {
  const mine = measure(ours, texts);
  let line = `${label}: ${texts.length} files, ${(mine.bytes / 1e6).toFixed(3)} MB: logicmd ${mine.rate.toFixed(2)} MB/s`;
  if (theirs) {
    const ref = measure(theirs, texts);
    line += `, js-yaml + ajv ${ref.rate.toFixed(2)} MB/s (ratio ${(mine.rate / ref.rate).toFixed(2)})`;
  }
  console.log(line);
}
