// Profiles the studio's first paint of a large document (issue #17): Chrome's CPU profiler around
// the load of chain(N) (the text replaced in one input event, as the perf test's `load_ms` does),
// until the first animation frame after the canvas holds every node, then on until the deferred
// check has run (reported apart). On dist/ (build it with names kept, see profile-keystroke.mjs).
// Usage: node tests/web/profile-load.mjs [steps] [rounds] (STUDIO_DIST=dir to profile another
// build); writes target/load.cpuprofile and prints the top functions per load.
// `node tests/web/profile-load.mjs start [rounds]` profiles the studio's start instead (issue #38):
// navigation to the default example interactive (`typing.mjs`'s `startStudio`), each in a fresh
// browser context; writes target/start.cpuprofile.
import { recorded, printTop } from "./cpu-profile.mjs";
import { launch, open, serve } from "./support.mjs";
import { repo, SOURCE } from "./studio-suite.mjs";
import { chain, replaceText, startStudio, timeLoad } from "./typing.mjs";

if (process.argv[2] === "start") {
  const rounds = Number(process.argv[3] ?? 5);
  const server = await serve({ "/": process.env.STUDIO_DIST ?? `${repo}dist` });
  const browser = await launch();
  const merged = [];
  for (let round = 0; round < rounds; round++) {
    const [profile, figures] = await startStudio(browser, server.url, (page, act) => recorded(page, "start", act));
    merged.push(profile);
    console.log(`start ${round + 1}: ${JSON.stringify(figures)}`);
  }
  printTop(merged.at(-1), 1, "start");
  await browser.close();
  await server.close();
  process.exit(0);
}

const steps = Number(process.argv[2] ?? 5000);
const rounds = Number(process.argv[3] ?? 3);

const server = await serve({ "/": process.env.STUDIO_DIST ?? `${repo}dist` });
const browser = await launch();
const { page } = await open(browser, server.url, { viewport: { width: 1600, height: 900 } });
await page.waitForSelector("[data-node-id]");
const starter = await page.inputValue(SOURCE);

const [profile, times] = await recorded(page, "load", async () => {
  const times = [];
  for (let round = 0; round < rounds; round++) {
    times.push(await timeLoad(page, chain(steps), steps));
    // Back to the starter document, so that the next round loads the big one afresh.
    await replaceText(page, starter);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="canvas"]').getAttribute("data-nodes")) < 100);
  }
  return times;
});
console.log(times.map((t, i) => `load ${i + 1}: painted ${t.painted.toFixed(0)} ms, checked ${t.checked.toFixed(0)} ms`).join("\n"));
// The recording includes the returns to the starter document (small next to the loads).
printTop(profile, rounds, "load");
await browser.close();
await server.close();
