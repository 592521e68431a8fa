// Profiles the studio's keystroke at 5,000 steps (issue #17): Chrome's CPU profiler around 15
// keystrokes of the perf test's kind, on dist/ (build it with names kept to read the profile:
// `trunk build --release=true` with LOGICMD_KEEP_NAMES=1: scripts/split-wasm.sh then skips wasm-opt).
// Usage: node tests/web/profile-keystroke.mjs [steps] (STUDIO_DIST=dir to profile another build);
// writes target/keystroke.cpuprofile and prints the top functions by self time and by total time,
// plus the keystroke medians.
import { recorded, printTop } from "./cpu-profile.mjs";
import { launch, open, serve } from "./support.mjs";
import { repo } from "./studio-suite.mjs";
import { chain, keystroke, loadText } from "./typing.mjs";

const steps = Number(process.argv[2] ?? 5000);

const server = await serve({ "/": process.env.STUDIO_DIST ?? `${repo}dist` });
const browser = await launch();
const { page } = await open(browser, server.url, { viewport: { width: 1600, height: 900 } });
await page.waitForSelector("[data-node-id]");
await loadText(page, chain(steps), steps);
await page.waitForTimeout(500);

const [profile, samples] = await recorded(page, "keystroke", async () => {
  const samples = [];
  for (let round = 0; round < 15; round++) samples.push(await keystroke(page, round));
  return samples;
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`redraw median ${median(samples.map((s) => s.redraw)).toFixed(1)} ms, checked median ${median(samples.map((s) => s.checked)).toFixed(1)} ms`);
printTop(profile, 15, "keystroke");
await browser.close();
await server.close();
