// The first paint of a large document on several builds, interleaved so that a shared machine's load
// falls on each alike (issue #17): per round and build, chain(N) is loaded (the text replaced in one
// input event, as the perf test's `load_ms` does) and timed until the first animation frame after
// the canvas holds every node; the starter document is loaded back between rounds.
// Usage: node tests/web/load-builds.mjs ROUNDS STEPS DIST...; prints each build's median.
import { launch, open, serve } from "./support.mjs";
import { SOURCE } from "./studio-suite.mjs";
import { chain, replaceText, timeLoad } from "./typing.mjs";

const [rounds, steps, ...dists] = process.argv.slice(2);
const browser = await launch();
const builds = [];
for (const dist of dists) {
  const server = await serve({ "/": dist });
  const { page } = await open(browser, server.url, { viewport: { width: 1600, height: 900 } });
  await page.waitForSelector("[data-node-id]");
  builds.push({ dist, server, page, starter: await page.inputValue(SOURCE), times: [] });
}


const text = chain(Number(steps));
for (let round = 0; round < Number(rounds); round++) {
  for (const build of builds) {
    build.times.push((await timeLoad(build.page, text, Number(steps))).painted);
    await replaceText(build.page, build.starter);
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
