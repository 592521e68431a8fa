// Studio craft, room and layout (issue #18): the Run panel hides so the canvas takes its height,
// the layout direction (top-down or left-right), and snap to grid. Each test follows a user's flow
// in headless Chromium at 1024×768 against the studio built by `trunk build --release` into dist/.
import assert from "node:assert/strict";
import { test } from "node:test";

import { centre, menu, shots, SOURCE, source, studioSuite, waitForText } from "./studio-suite.mjs";

const suite = studioSuite({ viewport: { width: 1024, height: 768 } });
const studio = suite.studio;

const CHAIN = `---\nspec_version: "1.0"\nname: chain\nsteps:\n  a:\n    description: Fetch\n  b:\n    description: Parse\n    needs: [a]\n  c:\n    description: Report\n    needs: [b]\n---\n`;

async function loadChain(page) {
  await page.fill(SOURCE, CHAIN);
  await waitForText(page, (t, e) => t === e, CHAIN);
  await page.waitForFunction(() => document.querySelectorAll("[data-node-id]").length === 3);
}

/** A node's place on the canvas in graph units, as drawn. */
async function place(page, step) {
  const transform = await page.getAttribute(`[data-node-id="step:${step}"]`, "transform");
  const [x, y] = transform.match(/-?[\d.]+/g).map(Number);
  return { x, y };
}

/** The position written to the text for `step` (YAML quotes the key `y`), or null. */
function written(text, step) {
  const match = text.match(new RegExp(`positions:[\\s\\S]*?\\b${step}:\\s*\\{?\\s*x:\\s*(-?[\\d.]+),?\\s*"?y"?:\\s*(-?[\\d.]+)`));
  return match && { x: Number(match[1]), y: Number(match[2]) };
}

const height = async (page, selector) => (await page.locator(selector).boundingBox()).height;

test("room: the Run panel opens with a run, hides from the View menu, and the canvas takes its height", async () => {
  const { page, errors, context } = await studio();
  const panel = page.locator('[data-testid="run-panel"]');
  const toggle = async () => menu(page, "view", "toggle-run-panel");
  const checked = async () => {
    await page.click('[data-testid="view"]');
    const on = await page.getAttribute('[data-testid="view-menu"] [data-testid="toggle-run-panel"]', "aria-checked");
    await page.keyboard.press("Escape");
    return on;
  };
  assert.ok(await panel.isHidden(), "closed until a run: the canvas has its room");
  assert.equal(await checked(), "false");
  const toolbar = await page.evaluate(() => { const t = document.querySelector(".toolbar"); return { scroll: t.scrollWidth, client: t.clientWidth }; });
  assert.ok(toolbar.scroll <= toolbar.client, `the toolbar fits: ${JSON.stringify(toolbar)}`);
  const hidden = await height(page, '[data-testid="canvas"]');
  await page.screenshot({ path: `${shots}/craft-layout-run-hidden.png` });

  await page.click('[data-testid="run"]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="run-status"]').textContent.match(/(\d+) events/)?.[1]) > 0);
  assert.ok(await panel.isVisible(), "a run opens the panel");
  assert.equal(await checked(), "true");
  const panelHeight = await height(page, '[data-testid="run-panel"]');
  const shown = await height(page, '[data-testid="canvas"]');
  assert.ok(panelHeight > 100, `the panel takes room: ${panelHeight}px`);
  assert.ok(Math.abs(hidden - (shown + panelHeight)) <= 1, `the panel's height comes from the canvas: ${shown} + ${panelHeight} vs ${hidden}`);
  await page.screenshot({ path: `${shots}/craft-layout-run-shown.png` });

  await toggle();
  await panel.waitFor({ state: "hidden" });
  assert.ok(Math.abs((await height(page, '[data-testid="canvas"]')) - hidden) <= 1, "the canvas gets the room back");
  // Hidden, the run is kept: shown again, it is there.
  await toggle();
  await panel.waitFor({ state: "visible" });
  assert.match(await page.textContent('[data-testid="run-status"]'), /completed/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("layout direction: left-right lays a chain along x on one line, remembered after a reload; top-down along y", async () => {
  const { page, errors, context } = await studio();
  await loadChain(page);
  const direction = async () => {
    await page.click('[data-testid="view"]');
    const down = await page.getAttribute('[data-testid="view-menu"] [data-testid="layout-down"]', "aria-checked");
    await page.keyboard.press("Escape");
    return down === "true" ? "top-down" : "left-right";
  };
  assert.equal(await direction(), "top-down", "top-down the first time");
  await menu(page, "view", "layout-right");
  await page.waitForFunction(() => {
    const x = (s) => Number(document.querySelector(`[data-node-id="step:${s}"]`).getAttribute("transform").match(/-?[\d.]+/)[0]);
    return x("a") < x("b") && x("b") < x("c");
  });
  let [a, b, c] = [await place(page, "a"), await place(page, "b"), await place(page, "c")];
  assert.ok(a.x < b.x && b.x < c.x, `x grows along the chain: ${a.x}, ${b.x}, ${c.x}`);
  assert.deepEqual([a.y, b.y], [c.y, c.y], "one line");
  assert.equal(await source(page), CHAIN, "the direction is the studio's, not written to the document");
  await page.screenshot({ path: `${shots}/craft-layout-left-right.png` });

  await page.waitForTimeout(600); // the autosave keeps the text once typing pauses
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll("[data-node-id]").length === 3);
  assert.equal(await direction(), "left-right", "remembered");
  [a, b, c] = [await place(page, "a"), await place(page, "b"), await place(page, "c")];
  assert.ok(a.x < b.x && b.x < c.x && a.y === c.y && b.y === c.y, "a document opened is laid out left-right");

  await menu(page, "view", "layout-down");
  await page.waitForFunction(() => {
    const y = (s) => Number(document.querySelector(`[data-node-id="step:${s}"]`).getAttribute("transform").match(/-?[\d.]+/g)[1]);
    return y("a") < y("b") && y("b") < y("c");
  });
  [a, b, c] = [await place(page, "a"), await place(page, "b"), await place(page, "c")];
  assert.deepEqual([a.x, b.x], [c.x, c.x], "top-down: one column");
  assert.deepEqual(errors, []);
  await context.close();
});

test("left-right ports: inputs on the left, outputs on the right, wires leave sideways; a step added with a node selected goes to its right", async () => {
  const { page, errors, context } = await studio();
  await loadChain(page);
  await menu(page, "view", "layout-right");
  await page.waitForFunction(() => {
    const x = (s) => Number(document.querySelector(`[data-node-id="step:${s}"]`).getAttribute("transform").match(/-?[\d.]+/)[0]);
    return x("a") < x("b") && x("b") < x("c");
  });
  const [a, b] = [await place(page, "a"), await place(page, "b")];
  const wire = await page.getAttribute('[data-edge-from="step:a"][data-edge-to="step:b"] path.wire', "d");
  const [sx, sy, c1x, c1y] = wire.match(/-?[\d.]+/g).map(Number);
  assert.deepEqual([sx, sy], [a.x + 220, a.y + 36], `starts at the middle of a's right edge: ${wire}`);
  assert.ok(c1x > sx && c1y === sy, `leaves sideways: ${wire}`);
  assert.ok(wire.endsWith(`${b.x.toFixed(1)} ${(b.y + 36).toFixed(1)}`), `enters b's left edge: ${wire}`);
  const port = (sel) => page.$eval(sel, (c) => [Number(c.getAttribute("cx")), Number(c.getAttribute("cy"))]);
  assert.deepEqual(await port('[data-node-id="step:b"] .port-in circle'), [0, 36]);
  assert.deepEqual(await port('[data-node-id="step:b"] .port-out circle'), [220, 36]);
  await page.screenshot({ path: `${shots}/craft-layout-side-ports.png` });

  // A step added from the palette with c selected lands to c's right, wired from it.
  await page.click('[data-node-id="step:c"] .node-body');
  await page.click('[data-add="step"]');
  await page.keyboard.press("Escape");
  await page.waitForFunction(() => document.querySelectorAll("[data-node-id]").length === 4);
  const added = await page.$eval('[data-node-id][aria-selected="true"]', (n) => n.getAttribute("data-node-id"));
  const c = await place(page, "c");
  const fresh = await place(page, added.replace("step:", ""));
  assert.ok(fresh.x > c.x, `right of c: ${fresh.x} > ${c.x}`);
  assert.equal(fresh.y, c.y, "on c's line");
  await page.screenshot({ path: `${shots}/craft-layout-added-right.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

/** Drags with the mouse in small steps, `alt` held or not. */
async function drag(page, from, to, alt = false) {
  if (alt) await page.keyboard.down("Alt");
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(from.x + ((to.x - from.x) * i) / 8, from.y + ((to.y - from.y) * i) / 8);
  await page.mouse.up();
  if (alt) await page.keyboard.up("Alt");
}

test("snap to grid: a node dragged by an odd offset lands on the 20 px grid; with Alt it lands where it was let go", async () => {
  const { page, errors, context } = await studio();
  await loadChain(page);
  const scale = Number((await page.getAttribute(".viewport", "transform")).match(/scale\(([\d.]+)\)/)[1]);
  const before = await place(page, "b");
  const grip = await centre(page, '[data-node-id="step:b"] .node-body');
  await drag(page, grip, { x: grip.x + 37, y: grip.y + 23 });
  let text = await waitForText(page, (t) => /positions:/.test(t) && /\bb:/.test(t.slice(t.indexOf("positions:"))));
  const snapped = written(text, "b");
  assert.ok(snapped, text);
  const free = { x: before.x + 37 / scale, y: before.y + 23 / scale };
  for (const axis of ["x", "y"]) {
    assert.equal(snapped[axis] % 20, 0, `${axis} = ${snapped[axis]} is on the grid`);
    assert.ok(Math.abs(snapped[axis] - free[axis]) <= 10, `${axis}: the nearest grid point to ${free[axis]}, got ${snapped[axis]}`);
  }
  await page.waitForFunction(([x, y]) => document.querySelector('[data-node-id="step:b"]').getAttribute("transform") === `translate(${x.toFixed(1)},${y.toFixed(1)})`, [snapped.x, snapped.y]);
  await page.screenshot({ path: `${shots}/craft-layout-snapped.png` });

  // Alt held: where it was let go, at whole numbers.
  const from = await place(page, "c");
  const grip2 = await centre(page, '[data-node-id="step:c"] .node-body');
  await drag(page, grip2, { x: grip2.x + 37, y: grip2.y + 23 }, true);
  text = await waitForText(page, (t) => /\bc:\s*\{?\s*x:/.test(t.slice(t.indexOf("positions:"))));
  const placed = written(text, "c");
  const wanted = { x: from.x + 37 / scale, y: from.y + 23 / scale };
  for (const axis of ["x", "y"]) {
    assert.ok(Number.isInteger(placed[axis]), `${axis} = ${placed[axis]} is a whole number`);
    assert.ok(Math.abs(placed[axis] - wanted[axis]) <= 1, `${axis}: ${placed[axis]} is where it was let go (${wanted[axis]})`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
