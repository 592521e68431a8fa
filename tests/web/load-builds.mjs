// The first paint of a large document on several builds, interleaved so that a shared machine's load
// falls on each alike (issue #17): per round and build, chain(N) is loaded (the text replaced in one
// input event, as the perf test's `load_ms` does) and timed until the first animation frame after
// the canvas holds every node; the starter document is loaded back between rounds.
// Usage: node tests/web/load-builds.mjs ROUNDS STEPS DIST...; prints each build's median.
import { launch, open, serve } from "./support.mjs";
import { SOURCE } from "./studio-suite.mjs";
import { chain } from "./typing.mjs";

const [rounds, steps, ...dists] = process.argv.slice(2);
const browser = await launch();
const builds = [];
for (const dist of dists) {
  const server = await serve({ "/": dist });
  const { page } = await open(browser, server.url, { viewport: { width: 1600, height: 900 } });
  await page.waitForSelector("[data-node-id]");
  builds.push({ dist, server, page, starter: await page.inputValue(SOURCE), times: [] });
}

const load = (page, text, n) =>
  page.evaluate(
    async ([selector, text, n]) => {
      const area = document.querySelector(selector);
      const canvas = document.querySelector('[data-testid="canvas"]');
      const started = performance.now();
      area.value = text;
      area.dispatchEvent(new Event("input", { bubbles: true }));
      while (canvas.getAttribute("data-nodes") !== String(n)) await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - started;
    },
    [SOURCE, text, n],
  );

const text = chain(Number(steps));
for (let round = 0; round < Number(rounds); round++) {
  for (const build of builds) {
    build.times.push(await load(build.page, text, Number(steps)));
    await build.page.fill(SOURCE, build.starter);
    await build.page.waitForFunction(() => Number(document.querySelector('[data-testid="canvas"]').getAttribute("data-nodes")) < 100);
    await build.page.waitForTimeout(300);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const build of builds) {
  console.log(`${build.dist}: median ${median(build.times).toFixed(0)} ms (${build.times.map((t) => t.toFixed(0)).join(", ")})`);
  await build.server.close();
}
await browser.close();
