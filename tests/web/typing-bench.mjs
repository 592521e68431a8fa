// Typing and start-up as a user feels them, on several studio builds interleaved (issue #38):
//
// - keyboard: real key presses (Playwright's keyboard: CDP Input.dispatchKeyEvent, so keydown,
//   keypress, beforeinput, input and keyup run every handler a person's typing runs) at the end of
//   step s1's description after a real click there, one key every CADENCE ms. Per key, from the
//   keydown event's `timeStamp` (the time the browser created the event, before it waited for the
//   page's main thread) to:
//     `frame`  — the end of the first frame whose rendering shows the character in the source
//                pane's highlighted text (the textarea's own text is transparent): checked in each
//                `requestAnimationFrame` callback, and timed by a message posted from it, which
//                runs once that frame's style, layout, paint and commit are done;
//     `event`  — the Event Timing API's duration of the keydown (PerformanceObserver 'event'; from
//                `timeStamp` to the presentation of the next frame after its handlers, rounded to
//                8 ms; Chromium reports only entries of at least 16 ms, so a key without an entry
//                took under 16 ms and counts as 0 here — a median shown as "<16" means that).
// - execCommand: the perf test's keystroke (`typing.mjs`'s `keystroke`: `execCommand` from the
//   page's own script, timed until the edited node on the canvas shows it), for comparison with
//   `target/studio-perf.json`.
// - start: navigation → the default example interactive (a node drawn on the canvas and the
//   source textarea holding its text), to the end of the first frame showing both; each in a
//   fresh browser context (empty HTTP cache, no compiled-wasm cache, empty storage: a first visit
//   whose welcome was already seen).
//
// Usage: node tests/web/typing-bench.mjs [--keys 200] [--rounds 4] [--starts 12] [--sizes 1000,5000]
//        [--shots DIR] DIST...   (each a `trunk build --release` output; rounds alternate the builds)
// Prints per build median and p95 of each figure, and the load average before and after.
import { mkdirSync } from "node:fs";
import { loadavg } from "node:os";

import { launch, open, serve } from "./support.mjs";
import { SOURCE } from "./studio-suite.mjs";
import { chain, keystroke, loadText, startStudio, typeKeys, typingPage } from "./typing.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return value;
};
const keys = Number(option("keys", 200));
const rounds = Number(option("rounds", 4));
const starts = Number(option("starts", 12));
const sizes = option("sizes", "1000,5000").split(",").map(Number);
const shots = option("shots", "");
const cadence = Number(option("cadence", 150));
const dists = args;
if (!dists.length) throw new Error("usage: node tests/web/typing-bench.mjs [options] DIST...");
if (shots) mkdirSync(shots, { recursive: true });

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const p95 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
const VIEWPORT = { viewport: { width: 1440, height: 900 } };
const welcomed = () => localStorage.setItem("logicmd.studio.welcomed", "1");

console.log(`load average at start: ${load()}`);
const browser = await launch();
const servers = await Promise.all(dists.map((dir) => serve({ "/": dir })));
const results = new Map(dists.map((d) => [d, { starts: [], wasm: [], started: [] }]));

for (let i = 0; i < starts; i++) {
  for (const [b, dist] of dists.entries()) {
    const figures = await startStudio(browser, servers[b].url);
    results.get(dist).starts.push(figures.interactive);
    results.get(dist).wasm.push(figures.wasmFetched);
    results.get(dist).started.push(figures.started);
  }
}
for (const [dist, r] of results) console.log(`start ${dist}: median ${median(r.starts).toFixed(0)} ms, p95 ${p95(r.starts).toFixed(0)} (medians: wasm fetched at ${median(r.wasm).toFixed(0)}, app started at ${median(r.started).toFixed(0)})`);

for (const n of sizes) {
  for (const dist of dists) Object.assign(results.get(dist), { [`frame${n}`]: [], [`event${n}`]: [], [`exec${n}`]: [], [`execPainted${n}`]: [] });
  for (let round = 0; round < rounds; round++) {
    for (const [b, dist] of dists.entries()) {
      const r = results.get(dist);
      const { page, errors, context } = await typingPage(browser, servers[b].url, n, VIEWPORT);
      const shot = shots && round === 0 ? `${shots}/typed-${n}-${b}.png` : undefined;
      const typed = await typeKeys(page, Math.ceil(keys / rounds), cadence, shot);
      const thisRound = typed.map((key) => key.frame);
      for (const key of typed) {
        r[`frame${n}`].push(key.frame);
        r[`event${n}`].push(key.event);
      }
      await context.close();
      // The perf test's own starting point, on a page of its own (it types at the same place).
      const session = await open(browser, servers[b].url, { viewport: { width: 1600, height: 900 }, init: welcomed });
      await session.page.waitForSelector("[data-node-id]");
      await loadText(session.page, chain(n), n);
      await session.page.waitForTimeout(300);
      for (let k = 0; k < Math.ceil(keys / rounds / 4); k++) {
        const s = await keystroke(session.page, k);
        r[`exec${n}`].push(s.redraw);
        r[`execPainted${n}`].push(s.painted);
      }
      await session.context.close();
      if (errors.length) console.log(`page errors on ${dist}: ${errors.join("; ")}`);
      console.log(`${n} steps, round ${round}, ${dist}: frame median ${median(r[`frame${n}`]).toFixed(1)}; this round's keys ${median(thisRound).toFixed(1)} / p95 ${p95(thisRound).toFixed(1)} (load ${load()})`);
    }
  }
}
await browser.close();
await Promise.all(servers.map((s) => s.close()));

const cell = (xs, under16) => {
  const m = median(xs);
  const q = p95(xs);
  const show = (v) => (under16 && v < 16 ? "<16" : v.toFixed(1));
  return `${show(m)} / ${show(q)}`;
};
console.log("\nmedian / p95 ms per build:");
for (const [dist, r] of results) {
  console.log(`${dist}:`);
  console.log(`  start (navigation → example interactive, ${r.starts.length} fresh contexts): ${cell(r.starts)}`);
  for (const n of sizes) {
    console.log(`  ${n} steps, key → frame showing it (${r[`frame${n}`].length} keys): ${cell(r[`frame${n}`])}`);
    console.log(`  ${n} steps, key → next paint, Event Timing keydown (${r[`event${n}`].filter((x) => x).length} of ${r[`event${n}`].length} keys ≥ 16 ms): ${cell(r[`event${n}`], true)}`);
    console.log(`  ${n} steps, execCommand → canvas redrawn / → frame (perf test's way, ${r[`exec${n}`].length}): ${cell(r[`exec${n}`])} · ${cell(r[`execPainted${n}`])}`);
  }
}
console.log(`load average at end: ${load()}`);
