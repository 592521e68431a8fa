// Profiles the studio's keystroke (issues #17, #38): Chrome's CPU profiler around keystrokes on
// dist/ (build it with names kept to read the profile: `trunk build --release=true` with
// LOGICMD_KEEP_NAMES=1: scripts/split-wasm.sh then skips wasm-opt).
// Usage: node tests/web/profile-keystroke.mjs [steps] [execCommand|keyboard] (STUDIO_DIST=dir to
// profile another build). `execCommand` (the default): the perf test's 15 keystrokes; `keyboard`:
// 40 real key presses after a real click, as `typing-bench.mjs` types them, and a Chrome trace of
// another 40 summarised as main-thread time per trace event. Writes target/keystroke.cpuprofile
// and prints the top functions by self time and by total time per keystroke, plus the medians.
import { recorded, printTop } from "./cpu-profile.mjs";
import { launch, open, serve } from "./support.mjs";
import { repo } from "./studio-suite.mjs";
import { chain, keystroke, loadText, typeKeys, typingPage } from "./typing.mjs";

const steps = Number(process.argv[2] ?? 5000);
const keyboard = process.argv[3] === "keyboard";
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await serve({ "/": process.env.STUDIO_DIST ?? `${repo}dist` });
const browser = await launch();
if (keyboard) {
  const { page } = await typingPage(browser, server.url, steps, { viewport: { width: 1440, height: 900 } });
  const keys = 40;
  const [profile, samples] = await recorded(page, "keystroke", () => typeKeys(page, keys, 150));
  console.log(`key → frame showing it: median ${median(samples.map((s) => s.frame)).toFixed(1)} ms`);
  printTop(profile, keys, "key");
  await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "toplevel"] });
  await typeKeys(page, keys, 150);
  console.log(JSON.stringify(mainThread(await browser.stopTracing(), keys), null, 1));
} else {
  const { page } = await open(browser, server.url, { viewport: { width: 1600, height: 900 } });
  await page.waitForSelector("[data-node-id]");
  await loadText(page, chain(steps), steps);
  await page.waitForTimeout(500);
  const [profile, samples] = await recorded(page, "keystroke", async () => {
    const samples = [];
    for (let round = 0; round < 15; round++) samples.push(await keystroke(page, round));
    return samples;
  });
  console.log(`redraw median ${median(samples.map((s) => s.redraw)).toFixed(1)} ms, checked median ${median(samples.map((s) => s.checked)).toFixed(1)} ms`);
  printTop(profile, 15, "keystroke");
}
await browser.close();
await server.close();

/** Main-thread ms per key by trace event name (events of the list nested in one another are
 * each counted: read `RunTask` as the whole, the others as its parts). */
function mainThread(buffer, per) {
  const { traceEvents } = JSON.parse(buffer.toString());
  const threads = new Map();
  for (const e of traceEvents) if (e.name === "thread_name") threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const out = {};
  for (const e of traceEvents) {
    if (e.ph !== "X" || !e.dur || threads.get(`${e.pid}:${e.tid}`) !== "CrRendererMain") continue;
    const name = e.name === "EventDispatch" ? `EventDispatch:${e.args?.data?.type}` : e.name;
    out[name] = (out[name] ?? 0) + e.dur / 1000 / per;
  }
  return Object.fromEntries(
    Object.entries(out)
      .filter(([, ms]) => ms >= 0.05)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 40)
      .map(([k, v]) => [k, Math.round(v * 100) / 100]),
  );
}
