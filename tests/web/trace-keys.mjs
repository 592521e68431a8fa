// Where a real key's time goes until its frame (issue #38): Chromium's performance trace (CDP,
// via playwright-core) of real key presses in the source pane, then per key the main thread's
// tasks from the keydown to the frame that showed it, and the medians per part over the keys.
// Usage: node tests/web/trace-keys.mjs [steps] [keys] (STUDIO_DIST=dir: the build to trace;
// build it with LOGICMD_KEEP_NAMES=1 to read wasm names in a CPU profile, not needed here).
import { recorded } from "./cpu-profile.mjs";
import { repo } from "./studio-suite.mjs";
import { launch, serve } from "./support.mjs";
import { typeKeys, typingPage } from "./typing.mjs";

const steps = Number(process.argv[2] ?? 5000);
const keys = Number(process.argv[3] ?? 40);
const show = Number(process.env.SHOW ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const server = await serve({ "/": process.env.STUDIO_DIST ?? `${repo}dist` });
const browser = await launch();
const { page } = await typingPage(browser, server.url, steps, { viewport: { width: 1440, height: 900 } });
// EXTRA_CSS: a stylesheet added to the page first (to try a style's effect on the frame).
if (process.env.EXTRA_CSS) await page.addStyleTag({ content: process.env.EXTRA_CSS });
await typeKeys(page, 5, 150);
await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "toplevel", "blink.user_timing"] });
// PROFILE=1: Chrome's CPU profile of the same keys (same clock as the trace), read below for
// the functions that run between each keydown and its frame.
const [profile, samples] = process.env.PROFILE ? await recorded(page, "trace-keys", () => typeKeys(page, keys, 150)) : [null, await typeKeys(page, keys, 150)];
const { traceEvents } = JSON.parse((await browser.stopTracing()).toString());
await browser.close();
await server.close();

const threads = new Map();
for (const e of traceEvents) if (e.name === "thread_name") threads.set(`${e.pid}:${e.tid}`, e.args.name);
const main = traceEvents.filter((e) => e.ph === "X" && threads.get(`${e.pid}:${e.tid}`) === "CrRendererMain").sort((a, b) => a.ts - b.ts);
// The first keydown is typeKeys's space before the keys it times.
const downs = main.filter((e) => e.name === "EventDispatch" && e.args?.data?.type === "keydown").slice(-samples.length);
const tasks = main.filter((e) => e.name === "ThreadControllerImpl::RunTask");
/** The named parts inside a task, by total duration (nested names counted in their parents too). */
const parts = (task) => {
  const inside = main.filter((e) => e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e !== task && e.name !== "RunTask");
  const out = {};
  for (const e of inside) {
    const name = e.name === "EventDispatch" ? `${e.args?.data?.type}` : e.name;
    out[name] = (out[name] ?? 0) + e.dur / 1000;
  }
  return Object.entries(out).filter(([, ms]) => ms >= 0.2).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(", ");
};
const before = [];
const frameTasks = [];
downs.forEach((down, i) => {
  const frame = samples[i]?.frame ?? 0;
  const end = down.ts + frame * 1000;
  const mine = tasks.filter((t) => t.ts + t.dur > down.ts && t.ts < end);
  const busy = mine.reduce((sum, t) => sum + Math.max(0, Math.min(t.ts + t.dur, end) - Math.max(t.ts, down.ts)) / 1000, 0);
  before.push(busy);
  if (i < show) {
    console.log(`key ${i}: frame ${frame.toFixed(1)} ms, main thread busy ${busy.toFixed(1)} ms of it`);
    if (process.env.DETAIL) for (const e of main.filter((e) => e.ts >= down.ts - 1000 && e.ts < end)) console.log(`    ${((e.ts - down.ts) / 1000).toFixed(2)} ${(e.dur / 1000).toFixed(2)} ${e.name} ${e.args?.data?.type ?? e.args?.data?.functionName ?? ""}`);
    for (const t of mine) console.log(`  +${((t.ts - down.ts) / 1000).toFixed(1).padStart(6)} ${(t.dur / 1000).toFixed(1).padStart(5)} ms  ${parts(t)}`);
    const after = tasks.filter((t) => t.ts >= end && t.ts < down.ts + 140_000 && t.dur > 500);
    for (const t of after) console.log(`  after +${((t.ts - down.ts) / 1000).toFixed(1).padStart(6)} ${(t.dur / 1000).toFixed(1).padStart(5)} ms  ${parts(t)}`);
  }
});
// The frame's mark: the message posted from the animation frame that saw the key (typing.mjs).
const marks = main.filter((e) => e.name === "FunctionCall" && e.args?.data?.functionName === "channel.port1.onmessage");
const markAfter = (down) => marks.find((m) => m.ts > down.ts)?.ts ?? down.ts;
// Medians per key of the main thread's parts from the keydown to the frame showing the key.
const partsBefore = {};
downs.forEach((down) => {
  const end = markAfter(down);
  const seen = {};
  for (const e of main) {
    if (e.ts < down.ts - 1000 || e.ts >= end) continue;
    const name = e.name === "EventDispatch" ? e.args?.data?.type : e.name;
    if (!["keydown", "keypress", "textInput", "input", "RunMicrotasks", "Layout", "UpdateLayoutTree", "PrePaint", "Paint", "Commit", "Layerize", "FireAnimationFrame", "TimerFire", "selectionchange"].includes(name)) continue;
    seen[name] = (seen[name] ?? 0) + e.dur / 1000;
  }
  for (const [name, ms] of Object.entries(seen)) (partsBefore[name] ??= []).push(ms);
});
console.log("before the frame, median ms per key (of keys where it occurs): " + Object.entries(partsBefore).map(([n, xs]) => `${n} ${median(xs).toFixed(2)} (${xs.length})`).join(", "));
const frames = samples.map((s) => s.frame);
const busyAfter = downs.map((down, i) => tasks.filter((t) => t.ts >= down.ts + (samples[i]?.frame ?? 0) * 1000 && t.ts < down.ts + 140_000).reduce((s, t) => s + t.dur / 1000, 0));
console.log(`${keys} keys at ${steps} steps: frame median ${median(frames).toFixed(1)} ms, p95 ${[...frames].sort((a, b) => a - b)[Math.floor(frames.length * 0.95)].toFixed(1)}; main thread busy before the frame median ${median(before).toFixed(1)} ms, after it (until the next key) median ${median(busyAfter).toFixed(1)} ms`);

if (profile) {
  // Functions (total time, each counted once per sample) in the samples from a keydown to its frame.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const windows = downs.map((down) => [down.ts - 1000, markAfter(down)]);
  const total = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (!windows.some(([a, b]) => at >= a && at < b)) return;
    const seen = new Set();
    for (let node = id; node !== undefined; node = parent.get(node)) {
      const f = byId.get(node).callFrame;
      const name = f.functionName || `(${f.url.split("/").pop()}:${f.lineNumber})`;
      if (!seen.has(name)) total.set(name, (total.get(name) ?? 0) + dt);
      seen.add(name);
    }
  });
  console.log("--- total ms per key, keydown to frame ---");
  for (const [name, ms] of [...total].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 60))) console.log(`${(ms / downs.length).toFixed(2).padStart(7)}  ${name.slice(0, 140)}`);
}
