// The canvas far out (issue #17): below 40 % the nodes are painted on one <canvas> (web/src/canvas/far)
// and the SVG holds only the selection. A user opens a large document, zooms out with the wheel, pans,
// clicks a node, drags it, moves with the arrows, and zooms back in. On dist/ (trunk build --release).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { repo, shots, SOURCE, source, studioSuite, waitForText } from "./studio-suite.mjs";
import { grid } from "./typing.mjs";

const suite = studioSuite();
const FAR = '[data-testid="far-canvas"]';


/** Opens `text` as one input event and fits it, as opening a file does. */
async function open(page, text, n) {
  await page.evaluate(
    ([selector, text]) => {
      const area = document.querySelector(selector);
      area.value = text;
      area.dispatchEvent(new Event("input", { bubbles: true }));
    },
    [SOURCE, text],
  );
  await page.waitForFunction((n) => document.querySelector('[data-testid="canvas"]').getAttribute("data-nodes") === String(n), n);
  await page.click('[data-testid="fit"]');
}

const zoom = async (page) => parseInt(await page.textContent('[data-testid="zoom-level"]'), 10);

/** The viewport's translation and scale, from the SVG's transform. */
async function viewport(page) {
  const transform = await page.getAttribute(".canvas .viewport", "transform");
  const [x, y, scale] = transform.match(/-?[\d.]+/g).map(Number);
  return { x, y, scale };
}

/** The screen point of graph point (gx, gy). */
async function screenOf(page, gx, gy) {
  const view = await viewport(page);
  const box = await page.locator(".canvas").boundingBox();
  return { x: box.x + view.x + gx * view.scale, y: box.y + view.y + gy * view.scale };
}

/** A node's box in graph coordinates: the selected node is in the SVG; its transform says where. */
async function graphBox(page, id) {
  const transform = await page.getAttribute(`[data-node-id="${id}"]`, "transform");
  const [x, y] = transform.match(/-?[\d.]+/g).map(Number);
  return { x, y, width: 220, height: 72 };
}

/** The far canvas's alpha at a screen point: 0 where nothing is painted. */
function alphaAt(page, point) {
  return page.evaluate(({ x, y }) => {
    const canvas = document.querySelector('[data-testid="far-canvas"]');
    const box = canvas.getBoundingClientRect();
    const ratio = canvas.width / box.width;
    const pixel = canvas.getContext("2d").getImageData(Math.round((x - box.left) * ratio), Math.round((y - box.top) * ratio), 1, 1);
    return pixel.data[3];
  }, point);
}

/** Waits until the far picture was painted at the SVG's view and is not displaced (the gesture settled). */
function settled(page) {
  return page.waitForFunction((far) => {
    const canvas = document.querySelector(far);
    const view = document.querySelector(".canvas .viewport").getAttribute("transform");
    return canvas.getAttribute("data-painted-at") === view && getComputedStyle(canvas).transform === "none";
  }, FAR);
}

/** Waits for the gesture to settle (the far picture painted at the SVG's view, not displaced), then
 * checks the picture: paint inside the node's box (graph box `node`), none in the gap beside it. */
async function atRest(page, node, when) {
  await settled(page);
  const inside = await screenOf(page, node.x + 110, node.y + 50);
  const gap = await screenOf(page, node.x + 250, node.y + 36);
  assert.ok((await alphaAt(page, inside)) > 0, `${when}: the node is painted inside its box`);
  assert.equal(await alphaAt(page, gap), 0, `${when}: nothing is painted between two nodes`);
}

test("far out: the nodes are painted on one canvas; wheel, pan, click, drag, arrows and zooming back in work", { timeout: 180000 }, async () => {
  const { page, errors, context } = await suite.studio();
  await open(page, grid(30, 30), 900);
  // Fit shows the whole grid: far out, every node painted (issue #31: Fit fits any document).
  assert.ok((await zoom(page)) < 40, `Fit shows all 900 nodes, far out: ${await zoom(page)}%`);
  await page.waitForFunction((far) => document.querySelector(far)?.getAttribute("data-painted-nodes") === "900", FAR);
  // Found with Ctrl+K, the node is brought into view at a working zoom; selected there to know
  // where it is, then let go.
  await page.keyboard.press("Control+k");
  await page.keyboard.type("g2_15");
  await page.keyboard.press("Enter");
  await page.waitForSelector('[data-node-id="step:g2_15"] .node-title');
  await page.click('[data-node-id="step:g2_15"]');
  const target = await graphBox(page, "step:g2_15");
  await page.keyboard.press("Escape");

  // Zoom out with the wheel about the canvas's centre, until far.
  const canvas = await page.locator(".canvas").boundingBox();
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  const painted = () => page.evaluate((far) => Number(document.querySelector(far)?.getAttribute("data-painted-nodes")), FAR);
  // Each notch is let settle: during a gesture the picture (and its count) may be the last one.
  for (let i = 0; i < 60 && ((await zoom(page)) >= 40 || (await painted()) !== 900); i++) {
    await page.mouse.wheel(0, 120);
    if ((await zoom(page)) < 40) await settled(page);
  }
  assert.ok((await zoom(page)) < 40, `zoomed out far: ${await zoom(page)}%`);
  assert.equal(await painted(), 900, `every node on the far canvas at ${await zoom(page)}%`);
  assert.equal(await page.locator("[data-node-id]").count(), 0, "no node is an SVG element far out");
  assert.equal(await page.locator("[data-edge-from]").count(), 0, "no wire is an SVG element far out");
  assert.ok(await page.locator(FAR).isVisible());

  // Pan with the wheel (sideways): the picture follows.
  const before = await viewport(page);
  await page.mouse.wheel(60, 40);
  await page.waitForFunction((x) => !document.querySelector(".canvas .viewport").getAttribute("transform").startsWith(`translate(${x}`), before.x.toFixed(2));
  assert.equal(await zoom(page), Math.round(before.scale * 100), "a sideways wheel pans, it does not zoom");

  // The canvas paints the node where the SVG would put it: inside its box, paint; in the gap beside it, none.
  const inside = await screenOf(page, target.x + 110, target.y + 50);
  // Nodes are 280 apart in a row (220 wide): the middle of the gap to the next one.
  const gap = await screenOf(page, target.x + 250, target.y + 36);
  // Checked once the pan has settled: until the next animation frame the SVG already shows the new
  // view while the canvas still shows (and is placed for) the last one, so a read in between is
  // of a picture one frame old.
  await atRest(page, target, "after a wheel pan");

  // A wheel zoom far out (in two notches, out one, over the node): during the gesture the picture
  // may be the last one scaled; at rest it is painted afresh at the view, the node where the SVG
  // would put it.
  const over = await screenOf(page, target.x + 110, target.y + 36);
  await page.mouse.move(over.x, over.y);
  const zoomBefore = (await viewport(page)).scale;
  for (const notch of [-120, -120, 120]) await page.mouse.wheel(0, notch);
  await page.waitForFunction((scale) => !document.querySelector(".canvas .viewport").getAttribute("transform").endsWith(`scale(${scale})`), zoomBefore.toFixed(4));
  assert.ok((await zoom(page)) < 40 && (await viewport(page)).scale > zoomBefore, `still far out, zoomed in: ${await zoom(page)}%`);
  await atRest(page, target, "after a wheel zoom");

  // Light and dark, far out (LOOK at them).
  await page.screenshot({ path: `${shots}/far-zoom-light.png` });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${shots}/far-zoom-dark.png` });
  await page.emulateMedia({ colorScheme: "light" });

  // A click selects the node under the pointer; the inspector shows it; the SVG holds it, in place.
  const beforeClick = await painted();
  await page.mouse.click(inside.x, inside.y);
  await page.waitForSelector('[data-node-id="step:g2_15"].selected');
  await page.waitForFunction(() => document.querySelector('[data-testid="inspector"]').textContent.includes("g2_15"));
  assert.equal(await page.locator("[data-node-id]").count(), 1, "only the selected node is an SVG element");
  const svgBox = await page.locator('[data-node-id="step:g2_15"] .node-body').boundingBox();
  assert.ok(svgBox.x <= inside.x && inside.x <= svgBox.x + svgBox.width && svgBox.y <= inside.y && inside.y <= svgBox.y + svgBox.height,
    `the selected node's SVG box ${JSON.stringify(svgBox)} holds the point clicked ${JSON.stringify(inside)}`);
  await page.waitForFunction(([far, n]) => Number(document.querySelector(far).getAttribute("data-painted-nodes")) === n, [FAR, beforeClick - 1]);

  // Arrows move along the wires, far out too: down to what the node feeds.
  await page.keyboard.press("ArrowDown");
  await page.waitForSelector('[data-node-id="step:g3_15"].selected');
  await page.waitForFunction(() => document.activeElement?.getAttribute("data-node-id") === "step:g3_15");

  // A drag far out moves the node under the pointer: its new place is written to the text.
  const g11 = await graphBox(page, "step:g3_15");
  const from = await screenOf(page, g11.x + 110, g11.y + 36);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(from.x + i * 10, from.y + i * 6);
  await page.mouse.up();
  // The source holds the lines around its view (a window): look at the text's end, where the places are.
  await page.evaluate(() => {
    const scroller = document.querySelector(".source .scroller");
    scroller.scrollTop = scroller.scrollHeight;
  });
  const text = await waitForText(page, (t) => /positions:[\s\S]*g3_15:/.test(t));
  assert.match(text, /positions:[\s\S]*?\bg3_15:\s*\{?\s*x:\s*-?[\d.]+,?\s*"?y"?:\s*-?[\d.]+/);
  const moved = await graphBox(page, "step:g3_15");
  assert.ok(moved.x > g11.x + 100 && moved.y > g11.y + 60, `moved by 80 × 48 px at the far zoom: ${JSON.stringify([g11, moved])}`);

  // Zooming in past 40 % over a node brings the SVG nodes back, the one under the pointer still there.
  const back = await screenOf(page, target.x + 110, target.y + 36);
  await page.mouse.move(back.x, back.y);
  for (let i = 0; i < 40 && (await zoom(page)) < 45; i++) await page.mouse.wheel(0, -120);
  await page.waitForFunction(() => document.querySelectorAll("[data-node-id]").length > 20);
  assert.ok(!(await page.locator(FAR).isVisible()), "the far canvas is hidden at the working zoom");
  const near = await page.locator('[data-node-id="step:g2_15"] .node-body').boundingBox();
  assert.ok(near.x <= back.x && back.x <= near.x + near.width && near.y <= back.y && back.y <= near.y + near.height,
    `g2_15 is still under the pointer: ${JSON.stringify([near, back])}`);
  assert.deepEqual(errors, []);
  assert.ok((await source(page)).includes("g29_29"));
  await context.close();
});

test("axe-core finds no violations far out, with and without a selection, light and dark", { timeout: 120000 }, async () => {
  const axe = readFileSync(`${repo}tests/web/node_modules/axe-core/axe.min.js`, "utf8");
  for (const colorScheme of ["light", "dark"]) {
    const { page, errors, context } = await suite.studio({ colorScheme });
    await open(page, grid(20, 20), 400);
    for (let i = 0; i < 6; i++) await page.click('[data-testid="zoom-out"]');
    await page.waitForFunction((far) => Number(document.querySelector(far)?.getAttribute("data-painted-nodes")) > 0, FAR);
    await page.addScriptTag({ content: axe });
    const run = () => page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    let result = await run();
    assert.deepEqual(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`), [], `${colorScheme}, nothing selected`);
    await page.locator(".canvas").focus();
    await page.keyboard.press("ArrowDown");
    await page.waitForSelector("[data-node-id].selected");
    result = await run();
    assert.deepEqual(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`), [], `${colorScheme}, a node selected`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
