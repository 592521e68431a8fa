// Where the canvas's time goes (issue #17): a Chrome trace of (1) the first paint of a 5,000-step
// document (the text replaced in one input event, until the frame after the graph is drawn) and
// (2) a background drag of 60 moves over a 10,000-node grid zoomed out until the whole grid is in
// view. On dist/. Prints, per phase, the main thread's time by trace event (script, style, layout,
// paint, …) and the raster threads' time, and writes target/canvas-profile.json.
// Usage: node tests/web/profile-canvas.mjs (STUDIO_DIST=dir to profile another build;
// PROFILE_LOAD_ONLY=1 for the first paint alone)
import { mkdirSync, writeFileSync } from "node:fs";

import { launch, open, serve } from "./support.mjs";
import { repo } from "./studio-suite.mjs";
import { chain, grid, timeLoad } from "./typing.mjs";


const server = await serve({ "/": process.env.STUDIO_DIST ?? `${repo}dist` });
const browser = await launch();
const { page } = await open(browser, server.url, { viewport: { width: 1440, height: 900 } });
await page.waitForSelector("[data-node-id]");


/** Main-thread time by event name (complete events, not nested in one another of the list). */
function summarise(buffer) {
  const { traceEvents } = JSON.parse(buffer.toString());
  const threads = new Map();
  for (const e of traceEvents) if (e.name === "thread_name") threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const main = (e) => threads.get(`${e.pid}:${e.tid}`) === "CrRendererMain";
  const raster = (e) => /Raster|Compositor/.test(threads.get(`${e.pid}:${e.tid}`) ?? "");
  const names = ["RunTask", "FunctionCall", "EventDispatch", "TimerFire", "FireAnimationFrame", "v8.callFunction",
    "UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit", "MinorGC", "MajorGC", "ParseHTML"];
  const out = {};
  for (const e of traceEvents) {
    if (e.ph !== "X" || !e.dur) continue;
    if (main(e) && names.includes(e.name)) out[e.name] = (out[e.name] ?? 0) + e.dur / 1000;
    if (raster(e) && /Raster|Paint/.test(e.name)) out[`raster:${e.name}`] = (out[`raster:${e.name}`] ?? 0) + e.dur / 1000;
  }
  const rounded = Object.fromEntries(Object.entries(out).map(([k, v]) => [k, Math.round(v * 10) / 10]));
  // The longest layouts: how many layout objects each had, and the script that forced it, if any.
  rounded.longest_layouts = traceEvents
    .filter((e) => main(e) && e.name === "Layout" && e.dur)
    .sort((a, b) => b.dur - a.dur)
    .slice(0, 4)
    .map((e) => ({
      ms: Math.round(e.dur / 100) / 10,
      objects: e.args?.beginData?.totalObjects,
      dirty: e.args?.beginData?.dirtyObjects,
      forcedBy: (e.args?.beginData?.stackTrace ?? []).slice(0, 3).map((f) => f.functionName).join(" < "),
    }));
  return rounded;
}

const categories = ["devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.stack", "v8.execute", "toplevel"];
const report = {};

await browser.startTracing(page, { categories });
report.first_paint_5000_steps_ms = (await timeLoad(page, chain(5000), 5000)).painted;
report.first_paint_5000_steps = summarise(await browser.stopTracing());
report.drawn_nodes_5000_steps = Number(await page.getAttribute('[data-testid="canvas"]', "data-drawn-nodes"));

if (process.env.PROFILE_LOAD_ONLY) {
  console.log(JSON.stringify(report, null, 2));
  process.exit(0);
}
await page.click('[data-testid="zoom-level"]');
await timeLoad(page, grid(100, 100), 10000);
for (let i = 0; i < 30; i++) {
  const painted = await page.evaluate(() => {
    const far = document.querySelector('[data-testid="far-canvas"]');
    return Number(far?.getAttribute("data-painted-nodes") ?? document.querySelectorAll("[data-node-id]").length);
  });
  if (painted >= 10000) break;
  await page.click('[data-testid="zoom-out"]');
  await page.waitForTimeout(50);
}
report.zoom_10000 = await page.textContent('[data-testid="zoom-level"]');
const box = await page.locator(".canvas").boundingBox();
await page.mouse.move(box.x + 5, box.y + box.height - 5);
await browser.startTracing(page, { categories });
await page.mouse.down();
for (let i = 0; i < 60; i++) await page.mouse.move(box.x + 5 + i * 4, box.y + box.height - 5 - i * 3);
await page.mouse.up();
report.pan_10000_nodes_60_moves = summarise(await browser.stopTracing());

mkdirSync(`${repo}target`, { recursive: true });
writeFileSync(`${repo}target/canvas-profile.json`, JSON.stringify(report, null, 2) + "\n");
console.log(JSON.stringify(report, null, 2));
await browser.close();
server.close();
