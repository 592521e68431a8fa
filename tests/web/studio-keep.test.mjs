// Issue #31, "never lose or damage what the user typed": each numbered problem as a user meets
// it in headless Chromium (dist/, trunk build --release). Each test failed on the studio before
// the fix (STUDIO_DIST pointed at main's build).
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { test } from "node:test";

import { repo, SOURCE, source, studioSuite, waitForText } from "./studio-suite.mjs";

const suite = studioSuite();
const studio = suite.studio;

const node = (name) => `[data-node-id="step:${name}"] .node-title`;

/** The region of the page the focused element is in, by the order the keyboard should follow. */
const focusedRegion = (page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    if (!e || e === document.body) return "body";
    const regions = [
      [".toolbar", "toolbar"],
      [".palette", "palette"],
      [".canvas-pane", "canvas"],
      [".side-tabs", "inspector"],
      [".inspector", "inspector"],
      [".run-panel", "run"],
      [".diagnostics", "problems"],
      [".source", "source"],
      [".splitter-palette", "palette"],
      [".splitter-side", "inspector"],
      [".workspace > .splitter", "splitter"],
    ];
    for (const [selector, name] of regions) if (e.closest(selector)) return name;
    return e.tagName.toLowerCase();
  });

test("1. a field typed in and left by clicking another node is written, and Undo takes it back", async () => {
  for (const field of ["description", "instructions"]) {
    const { page, errors, context } = await studio();
    const before = await source(page);
    await page.click(node("identify_competitors"));
    const input = page.locator(`.inspector [data-field="${field}"]`);
    await input.click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type(`Typed into ${field}`);
    // Straight to another node: no Tab, no pause.
    await page.click(node("synthesize"));
    const text = await waitForText(page, (t, f) => t.includes(`Typed into ${f}`), field);
    assert.ok(text.includes(`Typed into ${field}`), `${field} reached the source`);
    await page.click('[data-testid="undo"]');
    await waitForText(page, (t, b) => t === b, before);
    assert.deepEqual(errors, []);
    await context.close();
  }
  // Typing and pausing writes too, before the field is left; the pause's writes are one undo step.
  const { page, errors, context } = await studio();
  const before = await source(page);
  await page.click(node("prioritize"));
  await page.locator('.inspector [data-field="description"]').fill("");
  await page.locator('.inspector [data-field="description"]').pressSequentially("Keep the best ", { delay: 20 });
  await page.waitForTimeout(700);
  await page.locator('.inspector [data-field="description"]').pressSequentially("ten", { delay: 20 });
  // The trailing space typed before the pause stays in the field (it is not rewritten under the caret).
  const text = await waitForText(page, (t) => t.includes("description: Keep the best ten"));
  assert.ok(text.includes("Keep the best ten"));
  assert.equal(await page.inputValue('.inspector [data-field="description"]'), "Keep the best ten");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Control+z");
  await waitForText(page, (t, b) => t === b, before);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Presses Tab until the source has the keyboard; the regions passed through, in order. */
async function tabToSource(page) {
  const seen = [];
  for (let i = 0; i < 400 && seen.at(-1) !== "source"; i++) {
    await page.keyboard.press("Tab");
    const region = await focusedRegion(page);
    if (seen.at(-1) !== region) seen.push(region);
  }
  return seen;
}

test("2. Tab from page load goes toolbar → palette → canvas → inspector → run → problems → source, and never changes the text", async () => {
  const { page, errors, context } = await studio();
  const before = await source(page);
  const seen = await tabToSource(page);
  // The default example has no problems and the Run panel is closed: nothing to stop at there.
  assert.deepEqual(seen, ["toolbar", "palette", "canvas", "inspector", "source"], `regions in Tab order: ${seen.join(" → ")}`);
  // Arriving in the source with Tab shows a focus ring and says what Tab does there.
  const ring = await page.evaluate(() => getComputedStyle(document.querySelector(".source")).outlineStyle);
  assert.notEqual(ring, "none", "the source shows it has the keyboard");
  assert.match(await page.textContent('[data-testid="source-keys"]'), /Tab moves on/);
  assert.ok(await page.isVisible('[data-testid="source-keys"]'));
  // Tab leaves again without touching the text.
  await page.keyboard.press("Tab");
  assert.notEqual(await focusedRegion(page), "source");
  assert.equal(await source(page), before, "tabbing never changes the text");
  // Once editing (clicked in the text), Tab indents; Escape, then Tab, leaves.
  await page.click(SOURCE);
  await page.keyboard.press("Home");
  await page.keyboard.press("Tab");
  await waitForText(page, (t, b) => t !== b, before);
  assert.match(await page.textContent('[data-testid="source-keys"]'), /Tab indents/);
  await page.keyboard.press("Escape");
  await page.keyboard.press("Tab");
  assert.notEqual(await focusedRegion(page), "source");

  // With a run shown and a problem listed, both come in their places.
  await page.locator(SOURCE).fill(before.replace("    needs: [identify_competitors]", "    needs: [nowhere]"));
  await page.click('[data-testid="run"]');
  await page.waitForFunction(() => /^(completed|refused|stopped)/.test(document.querySelector('[data-testid="run-status"]')?.dataset.phase ?? ""));
  await page.waitForSelector(".diagnostics li button");
  await page.focus('[data-testid="file"]');
  const all = ["toolbar", ...(await tabToSource(page))].filter((r, i, a) => r !== a[i - 1]);
  assert.deepEqual(all, ["toolbar", "palette", "canvas", "inspector", "run", "problems", "source"], `regions in Tab order: ${all.join(" → ")}`);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Drops a file named `name` holding `text` on the element `selector`, as a user's drag would. */
async function drop(page, selector, name, text) {
  await page.evaluate(
    ([selector, name, text]) => {
      const data = new DataTransfer();
      data.items.add(new File([text], name, { type: "text/plain" }));
      const target = document.querySelector(selector);
      target.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    },
    [selector, name, text],
  );
}

const OTHER = `---\nspec_version: "1.0"\nname: other\nsteps:\n  only:\n    description: The only step\n---\n`;

test("3. a trace dropped on the canvas replays; a document dropped asks; New and Examples ask when the text is not saved", async () => {
  const { page, errors, context } = await studio();
  await page.click('[data-testid="run"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="run-status"]')?.dataset.phase === "completed");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="trace-download"]')]);
  const trace = await (await import("node:fs/promises")).readFile(await download.path(), "utf8");
  await context.close();

  const fresh = await studio({ acceptDownloads: true });
  const before = await source(fresh.page);
  await drop(fresh.page, '[data-testid="canvas"]', "run.trace.jsonl", trace);
  await fresh.page.waitForFunction(() => document.querySelector('[data-testid="run-status"]')?.dataset.phase.startsWith("replayed trace"));
  assert.equal(await source(fresh.page), before, "a trace never becomes the document");
  // A document asks first; Cancel keeps the text.
  await drop(fresh.page, '[data-testid="canvas"]', "other.logic.md", OTHER);
  await fresh.page.waitForSelector('[data-testid="replace-dialog"]');
  await fresh.page.click('[data-testid="confirm-cancel"]');
  assert.equal(await source(fresh.page), before);
  await drop(fresh.page, ".diagnostics", "other.logic.md", OTHER);
  await fresh.page.click('[data-testid="confirm-replace"]');
  await waitForText(fresh.page, (t, o) => t === o, OTHER);
  // Edited, not saved anywhere: New asks; after a download it does not.
  await fresh.page.locator(SOURCE).fill(OTHER.replace("The only step", "Edited"));
  await fresh.page.click('[data-testid="new"]');
  await fresh.page.click('[data-template="empty"]');
  await fresh.page.waitForSelector('[data-testid="replace-dialog"]');
  await fresh.page.click('[data-testid="confirm-cancel"]');
  assert.match(await source(fresh.page), /Edited/);
  await Promise.all([fresh.page.waitForEvent("download"), (async () => {
    await fresh.page.click('[data-testid="file"]');
    await fresh.page.click('[data-testid="file-menu"] [data-testid="download"]');
  })()]);
  await fresh.page.click('[data-testid="new"]');
  await fresh.page.click('[data-template="empty"]');
  await waitForText(fresh.page, (t) => t.includes("name: untitled"));
  assert.equal(await fresh.page.locator('[data-testid="replace-dialog"]').count(), 0, "a downloaded text is replaced without asking");
  assert.deepEqual(fresh.errors, []);
  await fresh.context.close();
  writeFileSync(`${repo}target/screenshots/keep-dropped.trace.jsonl`, trace);
  assert.deepEqual(errors, []);
});

test("4. after F2 and Enter the renamed node keeps the keyboard: the next A adds after it and F2 renames the new one", async () => {
  const { page, errors, context } = await studio();
  await page.click(node("synthesize"));
  await page.keyboard.press("F2");
  await page.locator('[data-testid="rename"]').fill("report");
  await page.keyboard.press("Enter");
  await waitForText(page, (t) => t.includes("  report:"));
  await page.waitForFunction(() => document.activeElement?.closest("[data-node-id]")?.dataset.nodeId === "step:report");
  await page.keyboard.press("a");
  const added = await waitForText(page, (t) => t.includes("new_step:"));
  assert.match(added, /new_step:\n(?:.*\n)*?\s+needs:\n\s+- report/, "the new step follows the renamed one");
  // A new step's name box is open: its name is typed at once, and Enter gives the node the keyboard.
  await page.locator('[data-testid="rename"]').fill("publish");
  await page.keyboard.press("Enter");
  await waitForText(page, (t) => t.includes("  publish:") && t.includes("  report:"));
  await page.waitForFunction(() => document.activeElement?.closest("[data-node-id]")?.dataset.nodeId === "step:publish");
  await page.keyboard.press("F2");
  assert.equal(await page.inputValue('[data-testid="rename"]'), "publish", "F2 renames the node just added");
  await page.keyboard.press("Escape");
  assert.deepEqual(errors, []);
  await context.close();
});

test("5. a refused rename says why at its box; the box closes when the document changes and never floats over another node", async () => {
  const { page, errors, context } = await studio();
  await page.click(node("prioritize"));
  await page.keyboard.press("F2");
  await page.locator('[data-testid="rename"]').fill("synthesize");
  await page.keyboard.press("Enter");
  await page.waitForSelector('[data-testid="rename-error"]');
  assert.match(await page.textContent('[data-testid="rename-error"]'), /synthesize/);
  assert.equal(await page.getAttribute('[data-testid="rename"]', "aria-invalid"), "true");
  // The box follows its node when the view moves.
  const boxBefore = await page.locator('[data-testid="rename"]').boundingBox();
  const nodeBefore = await page.locator(node("prioritize")).boundingBox();
  await page.mouse.move(nodeBefore.x + 400, nodeBefore.y + 300);
  await page.mouse.wheel(60, 0);
  await page.waitForTimeout(100);
  const boxAfter = await page.locator('[data-testid="rename"]').boundingBox();
  const nodeAfter = await page.locator(node("prioritize")).boundingBox();
  assert.ok(Math.abs(boxAfter.x - boxBefore.x - (nodeAfter.x - nodeBefore.x)) < 2, "the box moves with its node");
  // A change of the document elsewhere closes it.
  await page.locator(SOURCE).fill((await source(page)).replace("name: competitive-analyst", "name: changed"));
  await page.waitForFunction(() => !document.querySelector('[data-testid="rename"]'));
  // Left with a refused name, the box closes too and the reason is said.
  await page.click(node("prioritize"));
  await page.keyboard.press("F2");
  await page.locator('[data-testid="rename"]').fill("synthesize");
  await page.click(node("identify_competitors"));
  await page.waitForFunction(() => !document.querySelector('[data-testid="rename"]'));
  assert.match(await page.textContent('[data-testid="notice"]'), /Not renamed/);
  assert.deepEqual(errors, []);
  await context.close();
});
