// Issue #31, "room to work and a first screen that orients": the canvas's share of the screen,
// the toolbar, the first screen, the view following new nodes, Fit, the minimap, wires drawn
// backwards and around nodes. Needs dist/ (trunk build --release).
import assert from "node:assert/strict";
import { test } from "node:test";

import { centre, menu, shots, SOURCE, source, studioSuite, waitForText } from "./studio-suite.mjs";
import { chain, loadText } from "./typing.mjs";

const suite = studioSuite();
const studio = suite.studio;

/** Drags with the mouse in small steps. */
async function drag(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + ((to.x - from.x) * i) / 10, from.y + ((to.y - from.y) * i) / 10);
  await page.mouse.up();
}

async function load(page, text) {
  await page.fill(SOURCE, text);
  await waitForText(page, (t, e) => t === e, text);
  await page.click('[data-testid="fit"]');
}

/** The graph's box in page pixels, from the canvas's view and the graph's extent. */
const projected = (page) =>
  page.$eval('[data-testid="canvas"]', (canvas) => {
    const [x, y, scale] = canvas.dataset.view.split(" ").map(Number);
    const [left, top, right, bottom] = canvas.dataset.bounds.split(" ").map(Number);
    const rect = canvas.getBoundingClientRect();
    return {
      canvas: { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom },
      graph: { left: rect.left + x + left * scale, top: rect.top + y + top * scale, right: rect.left + x + right * scale, bottom: rect.top + y + bottom * scale },
    };
  });

test("the canvas gets at least 60% of the screen by default, the toolbar never overflows, the Run panel opens when a run starts", async () => {
  for (const [width, height] of [[1440, 900], [1024, 768]]) {
    for (const colorScheme of ["light", "dark"]) {
      const { page, errors, context } = await studio({ viewport: { width, height }, colorScheme });
      const canvas = await page.locator('[data-testid="canvas"]').boundingBox();
      const share = (canvas.width * canvas.height) / (width * height);
      assert.ok(share >= 0.6, `the canvas has ${(share * 100).toFixed(1)}% of ${width}×${height}`);
      const overflow = await page.$eval(".toolbar", (t) => t.scrollWidth - t.clientWidth);
      assert.ok(overflow <= 0, `the toolbar overflows by ${overflow}px at ${width}`);
      assert.ok(await page.locator('[data-testid="run-panel"]').isHidden(), "the Run panel waits for a run");
      await page.screenshot({ path: `${shots}/room-${width}-${colorScheme}.png` });
      await page.click('[data-testid="run"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]')?.dataset.phase === "completed");
      assert.ok(await page.locator('[data-testid="run-panel"]').isVisible());
      // The side column: tabs, or both stacked.
      await page.click('[data-testid="tab-inspector"]');
      assert.ok(await page.locator(".source").isHidden());
      await page.click('[data-testid="tab-source"]');
      assert.ok(await page.locator('[data-testid="inspector"]').isHidden());
      assert.ok(await page.locator(SOURCE).isVisible());
      await page.click('[data-testid="tab-both"]');
      // Every menu opens inside the window.
      for (const name of ["file", "edit", "view"]) {
        await page.click(`[data-testid="${name}"]`);
        const box = await page.locator(`[data-testid="${name}-menu"]`).boundingBox();
        assert.ok(box.x >= 0 && box.x + box.width <= width && box.y + box.height <= height, `${name} menu in the window`);
        await page.keyboard.press("Escape");
        assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), name, "Escape gives the menu's button the keyboard");
      }
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
});

test("a first visit says what LOGIC.md and DRTL are and offers three ways in; an empty canvas does too", async () => {
  for (const [width, height] of [[1440, 900], [1024, 768]]) {
    for (const colorScheme of ["light", "dark"]) {
      const { page, errors, context } = await studio({ viewport: { width, height }, colorScheme, firstVisit: true });
      const card = page.locator('[data-testid="welcome"]');
      await card.waitFor();
      const text = await card.textContent();
      assert.match(text, /LOGIC\.md/);
      assert.match(text, /DRTL/);
      for (const way of ["welcome-template", "welcome-open", "welcome-run"]) assert.ok(await page.isVisible(`[data-testid="${way}"]`), way);
      // The graph is fitted below the card, not under it.
      const cardBox = await card.boundingBox();
      const { graph } = await projected(page);
      assert.ok(graph.top >= cardBox.y + cardBox.height - 1, `the graph (top ${graph.top}) starts below the card (${cardBox.y + cardBox.height})`);
      await page.screenshot({ path: `${shots}/welcome-${width}-${colorScheme}.png` });
      if (width === 1440 && colorScheme === "light") {
        await page.click('[data-testid="welcome-run"]');
        await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]')?.dataset.phase === "completed");
        assert.equal(await card.count(), 0, "the card is done with");
        await page.reload();
        await page.waitForSelector("[data-node-id]");
        assert.equal(await page.locator('[data-testid="welcome"]').count(), 0, "not shown again");
        await page.click('[data-testid="new"]');
        await page.click('[data-template="empty"]');
        if (await page.locator('[data-testid="replace-dialog"]').count()) await page.click('[data-testid="confirm-replace"]');
        await page.waitForSelector('[data-testid="welcome"]');
        assert.match(await page.textContent('[data-testid="welcome"]'), /Nothing here yet/);
        await page.screenshot({ path: `${shots}/welcome-empty-${width}-${colorScheme}.png` });
      }
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
});

test("new, duplicated and pasted nodes land in view; Fit fits 1,000 steps", async () => {
  const { page, errors, context } = await studio({ viewport: { width: 1024, height: 768 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.url });
  // The last node near the canvas's bottom edge: the step added after it lands below, out of
  // sight, and the view follows.
  const canvas = await page.locator('[data-testid="canvas"]').boundingBox();
  const last = await page.locator('[data-node-id="step:synthesize"] .node-body').boundingBox();
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  await page.mouse.wheel(0, -(canvas.y + canvas.height - 40 - last.y));
  await page.click('[data-node-id="step:synthesize"] .node-title');
  await page.keyboard.press("Escape");
  await page.click('[data-node-id="step:synthesize"] .node-title');
  await page.click('[data-add="step"]');
  await page.keyboard.press("Enter");
  const inView = async (id) => {
    await page.waitForTimeout(150);
    const body = page.locator(`[data-node-id="${id}"] .node-body`);
    if (!(await body.count())) return false;
    const box = await body.boundingBox();
    return box.y >= canvas.y && box.y + box.height <= canvas.y + canvas.height && box.x >= canvas.x && box.x + box.width <= canvas.x + canvas.width;
  };
  assert.ok(await inView("step:new_step"), "the new step is in view");
  await page.keyboard.press("Control+d");
  await waitForText(page, (t) => t.includes("new_step_2:"));
  assert.ok(await inView("step:new_step_2"), "the duplicate is in view");
  await page.keyboard.press("Control+c");
  // The selection scrolled out of sight (a sideways wheel pans): the paste goes beside it.
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  await page.mouse.wheel(-canvas.width * 1.5, 0);
  await page.waitForTimeout(100);
  assert.ok(!(await inView("step:new_step_2")), "the copied step is out of sight");
  await page.keyboard.press("Control+v");
  // The copy of new_step_2 arrives under a fresh name.
  await waitForText(page, (t) => t.includes("new_step_2_2:"));
  assert.ok(await inView("step:new_step_2_2"), "the pasted step is in view");

  await loadText(page, chain(1000), 1000);
  await page.click('[data-testid="fit"]');
  await page.waitForTimeout(200);
  const { canvas: box, graph } = await projected(page);
  assert.ok(graph.top >= box.top - 1 && graph.bottom <= box.bottom + 1 && graph.left >= box.left - 1 && graph.right <= box.right + 1,
    `the whole chain is in view: ${JSON.stringify({ box, graph })}`);
  await page.screenshot({ path: `${shots}/room-fit-1000.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the minimap takes the graph's shape in either direction and moves the view", async () => {
  for (const direction of ["layout-down", "layout-right"]) {
    const { page, errors, context } = await studio();
    await loadText(page, chain(60), 60);
    await menu(page, "view", direction);
    await page.click('[data-testid="toggle-minimap"]');
    const map = await page.locator('[data-testid="minimap"]').boundingBox();
    if (direction === "layout-right") assert.ok(map.width > map.height, `wide for a graph laid out to the right: ${map.width}×${map.height}`);
    else assert.ok(map.height > map.width, `tall for a graph laid out downwards: ${map.width}×${map.height}`);
    // The frame of the view is big enough to see and the nodes are drawn.
    const frame = await page.locator('[data-testid="minimap-view"]').boundingBox();
    assert.ok(frame.width >= 8 && frame.height >= 8, JSON.stringify(frame));
    const before = await page.getAttribute('[data-testid="canvas"]', "data-view");
    await page.mouse.click(map.x + map.width - 10, map.y + map.height - 10);
    assert.notEqual(await page.getAttribute('[data-testid="canvas"]', "data-view"), before, "a click on the minimap moves the view");
    await page.screenshot({ path: `${shots}/room-minimap-${direction}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

const FOUR = `---\nspec_version: "1.0"\nname: pipeline\nsteps:\n  a:\n    description: Fetch\n  b:\n    description: Parse\n  c:\n    description: Score\n  d:\n    description: Report\n---\n`;

test("dragging from an input port draws a wire backwards and never moves the node", async () => {
  const { page, errors, context } = await studio();
  await load(page, FOUR);
  const placeOfB = await page.locator('[data-node-id="step:b"] .node-body').boundingBox();
  const from = await centre(page, '[data-node-id="step:b"] [data-port$=":in"]');
  const to = await centre(page, '[data-node-id="step:a"] .node-body');
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + ((to.x - from.x) * i) / 10, from.y + ((to.y - from.y) * i) / 10);
  assert.ok(await page.locator(".wire-pending").count(), "a wire follows the pointer");
  await page.mouse.up();
  await waitForText(page, (t) => /  b:\n    description: Parse\n    needs:\n      - a\n/.test(t));
  assert.deepEqual(await page.locator('[data-node-id="step:b"] .node-body').boundingBox(), placeOfB, "the node stayed where it was");
  assert.deepEqual(errors, []);
  await context.close();
});

const SKIPPING = `---\nspec_version: "1.0"\nname: skip\nsteps:\n  a:\n    description: First\n  b:\n    description: Second\n    needs: [a]\n  c:\n    description: Third\n    needs: [a, b]\n---\n`;

test("a wire that skips over a node runs beside it, never behind it", async () => {
  for (const direction of ["layout-down", "layout-right"]) {
    const { page, errors, context } = await studio();
    await load(page, SKIPPING);
    await menu(page, "view", direction);
    await page.waitForTimeout(200);
    const wire = '[data-edge-from="step:a"][data-edge-to="step:c"]';
    assert.equal(await page.getAttribute(wire, "data-detour"), "true");
    const hidden = await page.$eval(wire, (group) => {
      const path = group.querySelector(".wire");
      const body = document.querySelector('[data-node-id="step:b"] .node-body').getBoundingClientRect();
      const matrix = path.getScreenCTM();
      const length = path.getTotalLength();
      let inside = 0;
      for (let i = 0; i <= 100; i++) {
        const p = path.getPointAtLength((length * i) / 100).matrixTransform(matrix);
        if (p.x > body.left + 2 && p.x < body.right - 2 && p.y > body.top + 2 && p.y < body.bottom - 2) inside++;
      }
      return inside;
    });
    assert.equal(hidden, 0, `${direction}: the wire a → c never passes behind b`);
    await page.screenshot({ path: `${shots}/room-detour-${direction}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
