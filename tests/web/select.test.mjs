// Studio craft (issue #18), selection and commands: multi-select (shift-click, shift-drag box),
// moving and deleting several, copy/paste as LOGIC.md text between tabs, duplicate, context menu,
// command palette. Each test follows a user's flow in headless Chromium against dist/.
import assert from "node:assert/strict";
import { test } from "node:test";

import { centre, openExample, repo, shots, SOURCE, source, studioSuite, waitForText } from "./studio-suite.mjs";

const suite = studioSuite();
const studio = suite.studio;

async function box(page, selector) {
  const found = await page.locator(selector).boundingBox();
  assert.ok(found, `${selector} is on screen`);
  return found;
}

async function drag(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(from.x + ((to.x - from.x) * i) / 8, from.y + ((to.y - from.y) * i) / 8);
  await page.mouse.up();
}

const node = (step) => `[data-node-id="step:${step}"]`;
const body = (step) => `${node(step)} .node-body`;
const selectedIds = (page) =>
  page.$$eval('[data-node-id][aria-selected="true"]', (nodes) => nodes.map((n) => n.getAttribute("data-node-id")).sort());
const stepNames = (text) => [...text.matchAll(/^  ([\w-]+):/gm)].map((m) => m[1]);

/** A chain a → b → c → d, and d also needs a: deleting a, b and c must leave d with no needs. */
const CHAIN = `---\nspec_version: "1.0"\nname: pipeline\nsteps:\n  a:\n    description: Fetch\n  b:\n    description: Parse\n    needs: [a]\n  c:\n    description: Score\n    needs: [b]\n  d:\n    description: Report\n    needs: [c, a]\n---\n`;

async function loadText(page, text) {
  await page.fill(SOURCE, text);
  await waitForText(page, (t, e) => t === e, text);
  await page.waitForFunction((n) => document.querySelectorAll("[data-node-id]").length === n, stepNames(text).length);
  await page.click('[data-testid="fit"]');
  await page.waitForTimeout(100);
}

test("multi-select: shift-drag a box around three nodes, shift-click toggles, drag moves them together, Delete removes them, undo restores byte for byte", async () => {
  const { page, errors, context } = await studio();
  await loadText(page, CHAIN);
  const [a, c] = [await box(page, body("a")), await box(page, body("c"))];
  const canvas = await box(page, '[data-testid="canvas"]');
  // From empty canvas above-left of a to below-right of c (d is further down).
  const from = { x: Math.max(canvas.x + 4, Math.min(a.x, c.x) - 40), y: Math.max(canvas.y + 4, a.y - 20) };
  const to = { x: Math.max(a.x + a.width, c.x + c.width) + 30, y: c.y + c.height + 10 };
  await page.keyboard.down("Shift");
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(from.x + ((to.x - from.x) * i) / 8, from.y + ((to.y - from.y) * i) / 8);
  assert.ok(await page.locator('[data-testid="selection-box"]').isVisible(), "the box is drawn while dragging");
  await page.screenshot({ path: `${shots}/select-box.png` });
  await page.mouse.up();
  await page.keyboard.up("Shift");
  assert.deepEqual(await selectedIds(page), ["step:a", "step:b", "step:c"]);

  // Shift-click adds d, and again removes it; ctrl-click toggles too.
  await page.click(body("d"), { modifiers: ["Shift"] });
  assert.deepEqual(await selectedIds(page), ["step:a", "step:b", "step:c", "step:d"]);
  await page.click(body("d"), { modifiers: ["Control"] });
  assert.deepEqual(await selectedIds(page), ["step:a", "step:b", "step:c"]);

  // Dragging one of them moves all three by the same amount; d stays. (Alt held: placed freely,
  // not snapped to the grid — craft-layout.test.mjs holds the snapping.)
  const before = Object.fromEntries(await Promise.all(["a", "b", "c", "d"].map(async (s) => [s, await box(page, body(s))])));
  const grip = await centre(page, body("b"));
  await page.keyboard.down("Alt");
  await drag(page, grip, { x: grip.x + 120, y: grip.y + 40 });
  await page.keyboard.up("Alt");
  await page.waitForFunction(() => /positions/.test(document.querySelector('[data-testid="source"]').value));
  for (const s of ["a", "b", "c"]) {
    const now = await box(page, body(s));
    assert.ok(Math.abs(now.x - before[s].x - 120) < 3 && Math.abs(now.y - before[s].y - 40) < 3, `${s} moved with the group`);
  }
  assert.deepEqual(await box(page, body("d")), before.d, "d did not move");
  // Ctrl+A selects every node; a plain click selects one again; Escape clears.
  await page.keyboard.press("Control+a");
  assert.deepEqual(await selectedIds(page), ["step:a", "step:b", "step:c", "step:d"]);
  await page.click(body("d"));
  assert.deepEqual(await selectedIds(page), ["step:d"]);
  await page.keyboard.press("Escape");
  assert.deepEqual(await selectedIds(page), []);
  await page.click(body("a"));
  for (const s of ["b", "c"]) await page.click(body(s), { modifiers: ["Shift"] });
  assert.deepEqual(await selectedIds(page), ["step:a", "step:b", "step:c"], "the selection survives the move");

  // Delete removes the three as one change, with every reference to them.
  const beforeDelete = await source(page);
  await page.keyboard.press("Delete");
  const text = await waitForText(page, (t) => !/^  a:/m.test(t));
  assert.deepEqual(stepNames(text.split("metadata")[0]), ["d"]);
  assert.doesNotMatch(text, /needs|\b[abc]:/, "no dangling references or positions");
  await page.keyboard.press("Control+z");
  assert.equal(await waitForText(page, (t, e) => t === e, beforeDelete), beforeDelete, "one undo restores the text byte for byte");
  assert.deepEqual(errors, []);
  await context.close();
});

test("copy in one tab, paste in another: the steps arrive as LOGIC.md text, renamed on clash, selected", async () => {
  const { page, errors, context } = await studio();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.url });
  await loadText(page, CHAIN);
  await page.click(body("a"));
  await page.click(body("b"), { modifiers: ["Shift"] });
  await page.keyboard.press("Control+c");
  await page.waitForFunction(() => /Copied 2 steps/.test(document.body.textContent));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, `---\nspec_version: "1.0"\nname: pipeline\nsteps:\n  a:\n    description: Fetch\n  b:\n    description: Parse\n    needs:\n      - a\n---\n`);

  const second = await context.newPage();
  const secondErrors = [];
  second.on("pageerror", (e) => secondErrors.push(e.message));
  await second.goto(suite.url);
  await second.waitForSelector("[data-node-id]");
  await loadText(second, `---\nspec_version: "1.0"\nname: other\nsteps:\n  a:\n    description: Mine\n---\n`);
  await second.bringToFront();
  await second.click('[data-testid="canvas"]', { position: { x: 30, y: 30 } });
  await second.keyboard.press("Control+v");
  const text = await waitForText(second, (t) => /  b:/.test(t));
  assert.equal(text, `---\nspec_version: "1.0"\nname: other\nsteps:\n  a:\n    description: Mine\n  a_2:\n    description: Fetch\n  b:\n    description: Parse\n    needs:\n      - a_2\n---\n`);
  await second.waitForFunction(() => document.querySelectorAll('[data-node-id][aria-selected="true"]').length === 2);
  assert.deepEqual(await selectedIds(second), ["step:a_2", "step:b"]);
  // Beside what was there, not on top of it.
  const [mine, pasted] = [await box(second, body("a")), await box(second, body("a_2"))];
  assert.ok(Math.abs(mine.x - pasted.x) >= mine.width || Math.abs(mine.y - pasted.y) >= mine.height, "no overlap");
  await second.screenshot({ path: `${shots}/select-pasted.png` });

  // Plain text that is not LOGIC.md is refused with a reason.
  await second.evaluate(() => navigator.clipboard.writeText("just words"));
  await second.keyboard.press("Control+v");
  await second.waitForFunction(() => /no LOGIC.md steps/.test(document.body.textContent));
  assert.deepEqual([...errors, ...secondErrors], []);
  await context.close();
});

test("duplicate (Ctrl+D and the context menu); the context menu works by mouse and keyboard", async () => {
  const { page, errors, context } = await studio();
  await loadText(page, CHAIN);
  await page.click(body("b"));
  await page.keyboard.press("Control+d");
  let text = await waitForText(page, (t) => /  b_2:/.test(t));
  assert.match(text, /  b_2:\n    description: Parse\n/);
  assert.deepEqual(await selectedIds(page), ["step:b_2"]);

  // Right-click a node: its menu.
  await page.click(body("c"), { button: "right" });
  const menu = page.locator('[role="menu"]');
  await menu.waitFor();
  assert.deepEqual(await menu.locator('[role="menuitem"]').allTextContents(), ["Rename", "Duplicate", "Connect from here", "Delete"]);
  await page.screenshot({ path: `${shots}/select-menu-node.png` });
  await menu.locator('[role="menuitem"]', { hasText: "Duplicate" }).click();
  text = await waitForText(page, (t) => /  c_2:/.test(t));
  assert.equal(await menu.count(), 0, "the menu closes after a choice");

  // Right-click the empty canvas: add a step there, paste, fit. (Panned up first: room below;
  // the pan starts clear of the minimap's Map button in the bottom-left corner.)
  const canvas = await box(page, '[data-testid="canvas"]');
  await drag(page, { x: canvas.x + 120, y: canvas.y + canvas.height - 20 }, { x: canvas.x + 120, y: canvas.y + canvas.height - 420 });
  await page.mouse.click(canvas.x + 30, canvas.y + canvas.height - 40, { button: "right" });
  await menu.waitFor();
  assert.deepEqual(await menu.locator('[role="menuitem"]').allTextContents(), ["Add step here", "Paste", "Fit"]);
  await menu.locator('[role="menuitem"]', { hasText: "Add step here" }).click();
  const added = await waitForText(page, (t, n) => (t.match(/^  [\w-]+:/gm) ?? []).length === n, stepNames(text).length + 1);
  const name = stepNames(added).find((s) => !stepNames(text).includes(s));
  const placed = await box(page, body(name));
  assert.ok(Math.abs(placed.x - (canvas.x + 30)) < 160 && Math.abs(placed.y - (canvas.y + canvas.height - 40)) < 160, `the step lands where the menu was opened: ${JSON.stringify(placed)} vs ${JSON.stringify(canvas)}`);

  // Keyboard: Shift+F10 on the selected node opens its menu, arrows move, Escape closes.
  await page.click('[data-testid="fit"]');
  await page.click(body("a"));
  await page.keyboard.press("Shift+F10");
  await menu.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Rename");
  await page.keyboard.press("ArrowDown");
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Duplicate");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  assert.equal(await page.evaluate(() => document.activeElement.textContent), "Delete", "arrows wrap around");
  await page.keyboard.press("Escape");
  assert.equal(await menu.count(), 0);
  assert.deepEqual(await selectedIds(page), ["step:a"], "Escape closes the menu only");
  // The ContextMenu key opens it too; Enter picks.
  await page.keyboard.press("ContextMenu");
  await menu.waitFor();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await waitForText(page, (t) => /  a_2:/.test(t));
  assert.deepEqual(errors, []);
  await context.close();
});

test("command palette (Ctrl+K): type a node's name, Enter selects it and centres it; commands and examples", async () => {
  const { page, errors, context } = await studio();
  await loadText(page, CHAIN);
  // Move the view far away first so centring shows.
  const view = await box(page, '[data-testid="canvas"]');
  await drag(page, { x: view.x + 20, y: view.y + 20 }, { x: view.x + 300, y: view.y + 200 });
  await page.keyboard.press("Control+k");
  const dialog = page.locator('[role="dialog"][aria-label="Command palette"]');
  await dialog.waitFor();
  const input = dialog.locator('[role="combobox"]');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("role")), "combobox");
  await input.fill("scor");
  const options = dialog.locator('[role="listbox"] [role="option"]');
  assert.equal(await options.first().textContent(), "c — Score");
  await page.screenshot({ path: `${shots}/select-palette.png` });
  await page.keyboard.press("Enter");
  assert.equal(await dialog.count(), 0);
  assert.deepEqual(await selectedIds(page), ["step:c"]);
  const canvas = await box(page, '[data-testid="canvas"]');
  const c = await centre(page, body("c"));
  assert.ok(Math.abs(c.x - (canvas.x + canvas.width / 2)) < 4 && Math.abs(c.y - (canvas.y + canvas.height / 2)) < 4, "centred");

  // Arrow keys move the active option; commands run.
  await page.keyboard.press("Control+k");
  await input.fill("undo");
  assert.equal(await input.getAttribute("aria-activedescendant"), await options.first().getAttribute("id"));
  await input.fill("");
  await page.keyboard.press("ArrowDown");
  assert.equal(await input.getAttribute("aria-activedescendant"), await options.nth(1).getAttribute("id"));
  await page.keyboard.press("Escape");
  assert.equal(await dialog.count(), 0);
  // An example opens.
  await page.keyboard.press("Control+k");
  await input.fill("example decision");
  await page.keyboard.press("Enter");
  // The text is not saved anywhere: the studio asks before replacing it.
  await page.click('[data-testid="confirm-replace"]');
  await page.waitForFunction(() => /decision_trees|decision/.test(document.querySelector('[data-testid="source"]').value) && !/name: pipeline/.test(document.querySelector('[data-testid="source"]').value));
  assert.deepEqual(errors, []);
  await context.close();
});

test("axe-core finds no violations with a group selected, the context menu open, the palette open, light and dark", async () => {
  const { readFileSync } = await import("node:fs");
  const axe = readFileSync(`${repo}tests/web/node_modules/axe-core/axe.min.js`, "utf8");
  const found = [];
  for (const colorScheme of ["light", "dark"]) {
    const { page, errors, context } = await studio({ colorScheme });
    await page.addScriptTag({ content: axe });
    await loadText(page, CHAIN);
    const check = async (state) => {
      const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
      for (const v of result.violations) found.push(`${colorScheme} ${state}: ${v.id} (${v.impact}) ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
    };
    await page.click(body("a"));
    await page.click(body("b"), { modifiers: ["Shift"] });
    await check("group");
    await page.click(body("b"), { button: "right" });
    await page.locator('[role="menu"]').waitFor();
    await page.screenshot({ path: `${shots}/select-menu-${colorScheme}.png` });
    await check("menu");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+k");
    await page.locator('[role="dialog"]').waitFor();
    await page.screenshot({ path: `${shots}/select-palette-${colorScheme}.png` });
    await check("palette");
    assert.deepEqual(errors, []);
    await context.close();
  }
  assert.deepEqual(found, []);
});

const TOPOLOGY = "name: t\nnodes:\n  - id: draft\n    type: generate\n    output_format: json\n    output_key: text\n  - id: check\n    type: verify\n    input: draft.text\n  - id: publish\n    type: transform\nedges:\n  - {from: draft, to: check}\n  - {from: check, to: publish}\n";
const drtl = (id) => `[data-node-id="drtl:${id}"] .node-body`;

test("copy of every kind: DRTL nodes copy as topology text with their edge and paste under fresh ids, references following; a decision tree's node is refused with the reason", async () => {
  const { page, errors, context } = await studio();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.url });
  await page.fill(SOURCE, TOPOLOGY);
  await waitForText(page, (t, e) => t === e, TOPOLOGY);
  await page.waitForFunction(() => document.querySelectorAll('[data-node-id^="drtl:"]').length === 3);
  await page.click('[data-testid="fit"]');
  await page.waitForTimeout(100);
  await page.click(drtl("draft"));
  await page.click(drtl("check"), { modifiers: ["Shift"] });
  await page.keyboard.press("Control+c");
  await page.waitForFunction(() => /Copied 2 nodes as DRTL text/.test(document.body.textContent));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, "name: t\nnodes:\n  - id: draft\n    type: generate\n    output_format: json\n    output_key: text\n  - id: check\n    type: verify\n    input: draft.text\nedges:\n  - from: draft\n    to: check\n");

  // Pasted into the same topology after the last selected node: fresh ids, `input` and the edge
  // follow, the copies selected.
  await page.keyboard.press("Control+v");
  const text = await waitForText(page, (t) => t.includes("check_2"));
  assert.equal(text, `${TOPOLOGY.replace("  - id: publish", "  - id: draft_2\n    type: generate\n    output_format: json\n    output_key: text\n  - id: check_2\n    type: verify\n    input: draft_2.text\n  - id: publish")}  - from: draft_2\n    to: check_2\n`);
  await page.waitForFunction(() => document.querySelectorAll('[data-node-id][aria-selected="true"]').length === 2);
  assert.deepEqual(await selectedIds(page), ["drtl:check_2", "drtl:draft_2"]);
  await page.screenshot({ path: `${shots}/select-drtl-pasted.png` });

  // Duplicate works for DRTL nodes too.
  await page.keyboard.press("Control+d");
  const duplicated = await waitForText(page, (t) => t.includes("check_2_2"));
  assert.ok(duplicated.includes("  - id: check_2_2\n    type: verify\n    input: draft_2_2.text\n"), duplicated);
  assert.ok(duplicated.endsWith("  - from: draft_2_2\n    to: check_2_2\n"), duplicated);

  // Steps' text pasted into a topology is refused with the reason.
  await page.evaluate(() => navigator.clipboard.writeText('---\nspec_version: "1.0"\nname: x\nsteps:\n  a: {}\n---\n'));
  await page.keyboard.press("Control+v");
  await page.waitForFunction(() => /Not pasted: the clipboard holds no DRTL nodes/.test(document.body.textContent));

  // A decision tree's node belongs to its tree: copying it says so.
  await openExample(page, "decision-router");
  await page.waitForFunction(() => document.querySelectorAll('[data-kind="decision"]').length > 0);
  await page.click('[data-testid="fit"]');
  await page.waitForTimeout(150);
  await page.locator('[data-kind="decision"] .node-body').first().click();
  await page.keyboard.press("Control+c");
  await page.waitForFunction(() => /Not copied: decision-tree nodes and terminals/.test(document.body.textContent));
  assert.deepEqual(errors, []);
  await context.close();
});
