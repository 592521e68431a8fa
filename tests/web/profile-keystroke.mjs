// Profiles the studio's keystroke at 5,000 steps (issue #17): Chrome's CPU profiler around 15
// keystrokes of the perf test's kind, on dist/ (build it with names kept to read the profile:
// `trunk build --release=true` on a copy of index.html with data-wasm-opt="0").
// Usage: node tests/web/profile-keystroke.mjs [steps]; writes target/keystroke.cpuprofile and
// prints the top functions by self time and by total time, plus the keystroke medians.
import { mkdirSync, writeFileSync } from "node:fs";

import { launch, open, serve } from "./support.mjs";
import { repo } from "./studio-suite.mjs";
import { chain, keystroke, loadText } from "./typing.mjs";

const steps = Number(process.argv[2] ?? 5000);

const server = await serve({ "/": `${repo}dist` });
const browser = await launch();
const { page } = await open(browser, server.url, { viewport: { width: 1600, height: 900 } });
await page.waitForSelector("[data-node-id]");
await loadText(page, chain(steps), steps);
await page.waitForTimeout(500);

const cdp = await page.context().newCDPSession(page);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
await cdp.send("Profiler.start");
const samples = [];
for (let round = 0; round < 15; round++) samples.push(await keystroke(page, round));
const { profile } = await cdp.send("Profiler.stop");
mkdirSync(`${repo}target`, { recursive: true });
writeFileSync(`${repo}target/keystroke.cpuprofile`, JSON.stringify(profile));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`redraw median ${median(samples.map((s) => s.redraw)).toFixed(1)} ms, checked median ${median(samples.map((s) => s.checked)).toFixed(1)} ms`);

// Self and total time per function name, over the whole recording (15 keystrokes).
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
const total = new Map();
profile.samples.forEach((id, i) => {
  const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
  const name = (n) => n.callFrame.functionName || `(${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber})`;
  self.set(name(byId.get(id)), (self.get(name(byId.get(id))) ?? 0) + dt);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const key = name(byId.get(at));
    if (!seen.has(key)) total.set(key, (total.get(key) ?? 0) + dt);
    seen.add(key);
  }
});
const top = (map, k) => [...map].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, ms]) => `${(ms / 15).toFixed(2).padStart(8)} ms/keystroke  ${n.slice(0, 150)}`);
console.log("--- self ---\n" + top(self, Number(process.env.TOP ?? 40)).join("\n"));
console.log("--- total ---\n" + top(total, Number(process.env.TOP ?? 60)).join("\n"));
await browser.close();
await server.close();
