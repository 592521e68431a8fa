// Compares the 5,000-step keystroke of several studio builds (issue #17, "Studio size"): each round
// opens every build in turn (interleaved, so the shared machine's load falls on all of them alike),
// loads the chain document and types the perf test's 15 keystrokes; prints per build the median over
// rounds of each round's medians (keystroke → redrawn, input event → redrawn, keystroke → checked).
// Usage: node tests/web/keystroke-builds.mjs ROUNDS DIST_DIR... (each a `trunk build --release` output).
import { launch, open, serve } from "./support.mjs";
import { chain, keystroke, loadText } from "./typing.mjs";

const [rounds, ...dirs] = process.argv.slice(2);
const steps = 5000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The medians of 15 keystrokes on one freshly opened build. */
async function measure(browser, dir) {
  const server = await serve({ "/": dir });
  const { page, context } = await open(browser, server.url, { viewport: { width: 1600, height: 900 } });
  await page.waitForSelector("[data-node-id]");
  await loadText(page, chain(steps), steps);
  await page.waitForTimeout(500);
  const samples = [];
  for (let round = 0; round < 15; round++) samples.push(await keystroke(page, round));
  await context.close();
  await server.close();
  return {
    redraw: median(samples.map((s) => s.redraw)),
    fromInput: median(samples.map((s) => s.fromInput)),
    checked: median(samples.map((s) => s.checked)),
  };
}

const browser = await launch();
const results = new Map(dirs.map((dir) => [dir, []]));
for (let round = 0; round < Number(rounds); round++) {
  for (const dir of dirs) {
    const figures = await measure(browser, dir);
    results.get(dir).push(figures);
    console.log(`round ${round} ${dir}: ${JSON.stringify(figures)}`);
  }
}
await browser.close();
for (const [dir, all] of results) {
  const of = (key) => median(all.map((f) => f[key])).toFixed(1);
  console.log(`${dir}: redraw ${of("redraw")} ms, from input ${of("fromInput")} ms, checked ${of("checked")} ms (median of ${all.length} rounds)`);
}
