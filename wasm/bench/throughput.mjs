// Parse + validate throughput of the built npm package in Node (issue #17), and — when js-yaml
// and ajv are installed — of the reference pipeline (js-yaml + ajv on the same schema) in the
// same process, on the same documents:
// - the corpus: tests/fixtures, examples and the shared conformance suite (`*.logic.md`), without
//   the fixtures built to hit a limit (alias bombs, deep nesting); and its documents that validate;
// - the generated 1,000- and 5,000-step documents of core/benches/support/generate.rs.
//
//   scripts/build-npm.sh
//   cargo run --release -p logicmd --example throughput_probe -- write target/bench-docs
//   LOGICMD_REFERENCE_MODULES=/path/with/node_modules node wasm/bench/throughput.mjs [rounds]
//
// Prints, per set and pipeline, the median over `rounds` rounds after a warm-up (MB = 10^6
// bytes), and the first (cold) round's rate. `LOGICMD_PKG` (a path to another build's `node.js`)
// measures that build instead, to compare two builds interleaved.
// Natively: when the release probe is built (`cargo build --release -p logicmd --example
// throughput_probe`; `LOGICMD_NATIVE_PROBE` names another build's), each set is also measured by
// its `rate` mode in a child process — the same documents, the same cold round, warm-up and
// median — and its ratio to the warmed reference of this run is printed (issue #38).
// Warm-up: V8 compiles a wasm function with its baseline compiler first and tiers it up to its
// optimising compiler on background threads only after it has run a while; the corpus is 423
// small documents, most written to fail on a path no other one takes, so it took 30-70 rounds
// (0.3-1 s on 2 busy cores) to reach the steady state. Both pipelines therefore run rounds for
// `LOGICMD_BENCH_WARMUP_MS` (default 2000) before the measured ones; the cold round is printed
// beside the steady state, not hidden (docs/decisions.md, Throughput, "npm: opt-level 2").
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
const warmUpMs = Number(process.env.LOGICMD_BENCH_WARMUP_MS ?? 2000);

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

/** MB/s of one round of `run` over `texts` (`bytes` long in all). */
function round(run, texts, bytes) {
  const started = performance.now();
  for (const text of texts) run(text);
  return bytes / ((performance.now() - started) / 1000) / 1e6;
}

/**
 * MB/s of `run` over `texts`: `cold`, the first round's; `rate`, the median of `rounds` rounds
 * after rounds for `warmUpMs` (at least one more).
 */
function measure(run, texts) {
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  const cold = round(run, texts, bytes);
  const warmingUntil = performance.now() + warmUpMs;
  do round(run, texts, bytes);
  while (performance.now() < warmingUntil);
  const rates = [];
  for (let measured = 0; measured < rounds; measured++) rates.push(round(run, texts, bytes));
  return { bytes, cold, rate: median(rates) };
}

const typical = roots
  .flatMap((root) => files(root))
  .filter(({ path }) => !/alias-bomb|\/deep-/.test(path))
  .map((f) => f.text);
// The reference corpus was real documents, which validate; most of ours are fixtures
// written to fail, which js-yaml + ajv give up on early: both sets are reported.
const sets = [
  ["corpus", typical],
  ["corpus, valid documents", typical.filter((text) => validate(text).valid)],
];
for (const steps of [1000, 5000]) {
  try {
    sets.push([`steps-${steps}`, [readFileSync(join(docs, `steps-${steps}.logic.md`), "utf8")]]);
  } catch {
    console.error(`no ${docs}/steps-${steps}.logic.md: run the throughput_probe write command above`);
  }
}
/** The native probe's `measure` of `texts`, or null when no release probe is built. */
function native(texts) {
  const probe = process.env.LOGICMD_NATIVE_PROBE ?? join(repo, "target/release/examples/throughput_probe");
  try {
    statSync(probe);
  } catch {
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), "logicmd-bench-"));
  try {
    const file = join(dir, "texts.json");
    writeFileSync(file, JSON.stringify(texts));
    const out = execFileSync(probe, ["rate", file, String(rounds), String(warmUpMs)], { encoding: "utf8" });
    return JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ours = (text) => validate(text).valid;
const theirs = reference();
console.log(
  `parse + validate, MB/s: median of ${rounds} rounds after ${warmUpMs} ms of warm-up (the first, cold round in brackets)`,
);
const figures = ({ rate, cold }) => `${rate.toFixed(2)} MB/s (cold ${cold.toFixed(2)})`;
for (const [label, texts] of sets) {
  const mine = measure(ours, texts);
  let line = `${label}: ${texts.length} files, ${(mine.bytes / 1e6).toFixed(3)} MB: logicmd ${figures(mine)}`;
  if (theirs) {
    const ref = measure(theirs, texts);
    line += `, js-yaml + ajv ${figures(ref)} (ratio ${(mine.rate / ref.rate).toFixed(2)})`;
    const natively = native(texts);
    if (natively) {
      line += `; native ${figures(natively)} (ratio ${(natively.rate / ref.rate).toFixed(2)})`;
    }
  }
  console.log(line);
}
