// Chrome's CPU profiler (CDP, 0.1 ms sampling) around an action of the studio, and the top
// functions of the recording by self and total time — shared by the profiling scripts
// (profile-keystroke.mjs, profile-load.mjs). Names are only readable on a studio built with names
// kept (`trunk build --release` with LOGICMD_KEEP_NAMES=1: scripts/split-wasm.sh then skips wasm-opt).
import { mkdirSync, writeFileSync } from "node:fs";

import { repo } from "./studio-suite.mjs";

/** Runs `act` under the profiler; writes target/`name`.cpuprofile; returns [profile, act's result]. */
export async function recorded(page, name, act) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  const result = await act();
  const { profile } = await cdp.send("Profiler.stop");
  mkdirSync(`${repo}target`, { recursive: true });
  writeFileSync(`${repo}target/${name}.cpuprofile`, JSON.stringify(profile));
  return [profile, result];
}

/** Prints the top functions by self and by total time (a function counted once per sample however
 * deep it recurses), in ms per `per` repetitions of what was recorded (`unit` names one). */
export function printTop(profile, per, unit) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) => n.callFrame.functionName || `(${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber})`;
  const self = new Map();
  const total = new Map();
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const own = name(byId.get(id));
    self.set(own, (self.get(own) ?? 0) + dt);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const key = name(byId.get(at));
      if (!seen.has(key)) total.set(key, (total.get(key) ?? 0) + dt);
      seen.add(key);
    }
  });
  const top = (map, k) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([n, ms]) => `${(ms / per).toFixed(2).padStart(8)} ms/${unit}  ${n.slice(0, 150)}`);
  console.log("--- self ---\n" + top(self, Number(process.env.TOP ?? 40)).join("\n"));
  console.log("--- total ---\n" + top(total, Number(process.env.TOP ?? 60)).join("\n"));
}
