// Issue #32: the source pane answers from the same `ide` layer as `logicmd lsp` — completion
// popup, hover card, quick fixes (problems list, gutter marker, Ctrl+.), go to definition (F12,
// Ctrl+click, selecting the node on the canvas) and rename (F2) — each followed as a user does
// it with the keyboard and the mouse, each change one undo step.
import assert from "node:assert/strict";
import { test } from "node:test";

import { SOURCE, audit, menu, shots, source, studioSuite, waitForText } from "./studio-suite.mjs";
import { replaceText } from "./typing.mjs";

const suite = studioSuite();

const DOC = `---
spec_version: "1.0"
name: research
contracts:
  inputs:
    - name: query
      type: string
      required: true
steps:
  gather:
    description: Gather sources
    output_schema:
      type: object
      required: [sources]
      properties:
        sources: {type: array, items: {type: string}}
  check:
    needs: [gathr]
    description: Check the sources
  report:
    needs: [check]
    description: Write the report
---
# Research
`;

const POPUP = '[data-testid="completion"]';
const OPTIONS = `${POPUP} [role="option"]`;
const CARD = '[data-testid="hover-card"]';
const selectedIds = (page) =>
  page.$$eval('[data-node-id][aria-selected="true"]', (nodes) => nodes.map((n) => n.getAttribute("data-node-id")));

/**
 * A studio showing `text` (all of it in the textarea: it is short). The pointer comes over the
 * source first, as a user's does, which fetches the editor queries' chunk; `cold` leaves that to
 * the first command.
 */
async function studioWith(text, { cold = false, ...options } = {}) {
  const session = await suite.studio(options);
  await replaceText(session.page, text);
  await waitForText(session.page, (t, e) => t === e, text);
  await session.page.waitForSelector('[data-node-id="step:gather"]');
  if (!cold) {
    await session.page.hover(SOURCE);
    await session.page.waitForSelector('.source[data-ide="ready"]');
  }
  return session;
}

/** The viewport point of 0-based `column` on 0-based `line` of the source, scrolled into view
 * first (as a user scrolls to it) when it is not. */
async function pointAt(page, line, column) {
  return page.evaluate(async ([selector, line, column]) => {
    const area = document.querySelector(selector);
    const scroller = area.closest(".scroller");
    const lineTop = 8 + line * 20;
    if (lineTop < scroller.scrollTop || lineTop + 20 > scroller.scrollTop + scroller.clientHeight) {
      scroller.scrollTop = Math.max(0, lineTop - scroller.clientHeight / 2);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    const box = area.getBoundingClientRect();
    const probe = document.createElement("canvas").getContext("2d");
    probe.font = getComputedStyle(area).font;
    const ch = probe.measureText("0").width;
    const [first] = area.getAttribute("data-window").split(" ").map(Number);
    return { x: box.left + (column + 0.5) * ch - area.scrollLeft, y: box.top + (line - first) * 20 + 10 };
  }, [SOURCE, line, column]);
}

/** Clicks in the source at `needle`'s `nth` occurrence (0-based), `into` characters in. */
async function clickOn(page, text, needle, { nth = 0, into = 1, modifiers = [] } = {}) {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} is in the text`);
  const before = text.slice(0, at + into);
  const line = before.split("\n").length - 1;
  const column = before.length - before.lastIndexOf("\n") - 1;
  const { x, y } = await pointAt(page, line, column);
  for (const key of modifiers) await page.keyboard.down(key);
  await page.mouse.click(x, y);
  for (const key of modifiers) await page.keyboard.up(key);
  return { line, column };
}

/** The textarea's selected text. */
const selectedText = (page) =>
  page.$eval(SOURCE, (area) => area.value.slice(area.selectionStart, area.selectionEnd));

test("completion: `[` in needs opens the step names, typing filters, Enter accepts as one undo step", async () => {
  const text = DOC.replace("    needs: [check]\n", "    needs: \n");
  const { page, errors, context } = await studioWith(text);
  await clickOn(page, text, "    needs: \n", { nth: 0, into: 11 });
  await page.keyboard.type("[");
  await page.waitForSelector(OPTIONS);
  const labels = await page.$$eval(`${OPTIONS} .label`, (o) => o.map((e) => e.textContent));
  assert.ok(labels.includes("gather") && labels.includes("check"), `step names offered: ${labels}`);
  // The textarea says a list is open and which option is chosen.
  assert.equal(await page.getAttribute(SOURCE, "role"), "combobox");
  assert.equal(await page.getAttribute(SOURCE, "aria-expanded"), "true");
  assert.equal(await page.getAttribute(SOURCE, "aria-controls"), "source-completion");
  const active = await page.getAttribute(SOURCE, "aria-activedescendant");
  assert.equal(await page.getAttribute(`#${active}`, "aria-selected"), "true");
  await page.keyboard.type("ch");
  await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].map((o) => o.textContent).join() .includes("check"), `${OPTIONS} .label`);
  assert.deepEqual(await page.$$eval(`${OPTIONS} .label`, (o) => o.map((e) => e.textContent)), ["check"]);
  await page.keyboard.press("Enter");
  await page.keyboard.type("]");
  const done = text.replace("    needs: \n", "    needs: [check]\n");
  assert.equal(await waitForText(page, (t, e) => t === e, done), done);
  assert.equal(await page.locator(POPUP).count(), 0, "the popup closed");
  // Closed, the textarea is a plain textbox again (no combobox role, nothing expanded or controlled).
  for (const name of ["role", "aria-expanded", "aria-controls", "aria-activedescendant"]) {
    assert.equal(await page.getAttribute(SOURCE, name), null, name);
  }
  // Undo takes back the `]`, then the accepted completion whole.
  await page.keyboard.press("Control+z");
  await page.keyboard.press("Control+z");
  const before = text.replace("    needs: \n", "    needs: [ch\n");
  assert.equal(await waitForText(page, (t, e) => t === e, before), before);
  assert.deepEqual(errors, []);
  await context.close();
});

test("completion: `steps.` inside {{ }} offers the steps, arrows choose, Tab accepts, Escape closes, Ctrl+Space reopens", async () => {
  const { page, errors, context } = await studioWith(DOC);
  await clickOn(page, DOC, "Check the sources", { into: 17 });
  await page.keyboard.press("Enter");
  await page.keyboard.type('    verification:\n      check: "{{ steps.');
  await page.waitForSelector(OPTIONS);
  const labels = await page.$$eval(`${OPTIONS} .label`, (o) => o.map((e) => e.textContent));
  assert.ok(labels.includes("gather"), `steps offered after steps.: ${labels}`);
  // Down to `gather` (wherever it is), its documentation beside the list.
  for (let i = 0; i < labels.indexOf("gather"); i++) await page.keyboard.press("ArrowDown");
  await page.waitForSelector(`${OPTIONS}.active:has-text("gather")`);
  await page.screenshot({ path: `${shots}/source-ide-completion-steps.png` });
  await page.keyboard.press("Tab");
  await waitForText(page, (t) => t.includes('check: "{{ steps.gather'));
  await page.keyboard.type(".");
  await page.waitForSelector(`${OPTIONS}:has-text("output")`);
  await page.keyboard.press("Escape");
  await page.waitForSelector(POPUP, { state: "detached" });
  assert.equal(await page.getAttribute(SOURCE, "aria-expanded"), null);
  // Escape closed the popup only: the text keeps the keyboard and Tab still accepts below.
  await page.keyboard.press("Control+Space");
  await page.waitForSelector(`${OPTIONS}:has-text("output")`);
  await page.keyboard.press("Enter");
  const now = await waitForText(page, (t) => t.includes('check: "{{ steps.gather.output'));
  assert.ok(now.includes("    verification:\n      check: \"{{ steps.gather.output"), now);
  assert.deepEqual(errors, []);
  await context.close();
});

test("quick fixes: from the problems list and from the gutter marker, each one undo step", async () => {
  const { page, errors, context } = await studioWith(DOC);
  const fixed = DOC.replace("[gathr]", "[gather]");
  const problem = '[data-testid="diagnostics"] li[data-code="unknown-need"]';
  await page.hover('[data-testid="diagnostics"]');
  const button = page.locator(`${problem} [data-testid="quick-fix"]`).first();
  await button.waitFor();
  assert.match(await button.textContent(), /gather/);
  await page.screenshot({ path: `${shots}/source-ide-problems-fix.png` });
  await button.click();
  assert.equal(await waitForText(page, (t, e) => t === e, fixed), fixed);
  await page.waitForSelector(problem, { state: "detached" });
  await page.keyboard.press("Control+z");
  assert.equal(await waitForText(page, (t, e) => t === e, DOC), DOC);

  // The gutter marks the line; its menu lists the same fix, Enter applies it.
  const marker = '[data-testid="fix-marker"][data-line="18"]';
  await page.waitForSelector(marker);
  await page.click(marker);
  await page.waitForSelector('[data-testid="fix-menu"] [role="option"]');
  assert.equal(await page.getAttribute(SOURCE, "aria-controls"), "source-fixes");
  await page.screenshot({ path: `${shots}/source-ide-fix-menu.png` });
  await page.keyboard.press("Enter");
  assert.equal(await waitForText(page, (t, e) => t === e, fixed), fixed);
  await page.waitForSelector(marker, { state: "detached" });
  assert.deepEqual(errors, []);
  await context.close();
});

test("go to definition: F12 and Ctrl+click select the definition and its node on the canvas", async () => {
  const text = DOC.replace("[gathr]", "[gather]");
  // The chunk is not there yet: F12 fetches it and then goes.
  const { page, errors, context } = await studioWith(text, { cold: true });
  await clickOn(page, text, "gather", { nth: 1, into: 2 });
  await page.keyboard.press("F12");
  await page.waitForFunction(() => document.querySelector('[data-node-id="step:gather"]')?.getAttribute("aria-selected") === "true");
  assert.equal(await selectedText(page), "gather");
  const start = await page.$eval(SOURCE, (a) => a.selectionStart);
  assert.equal(start, text.indexOf("gather"), "the selection is the step's own name");
  assert.deepEqual(await selectedIds(page), ["step:gather"]);

  await clickOn(page, text, "[check]", { into: 3, modifiers: ["Control"] });
  await page.waitForFunction(() => document.querySelector('[data-node-id="step:check"]')?.getAttribute("aria-selected") === "true");
  assert.equal(await selectedText(page), "check");
  assert.equal(await page.$eval(SOURCE, (a) => a.selectionStart), text.indexOf("  check:") + 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test("rename: F2 on a step's name renames it and every reference, the node keeps its place; one undo step", async () => {
  const text = DOC.replace("[gathr]", "[gather]").replace("    description: Check the sources\n", '    description: Check the sources\n    verification:\n      check: "{{ steps.gather.output.sources.length > 0 }}"\n');
  const { page, errors, context } = await studioWith(text);
  const box = await page.locator('[data-node-id="step:gather"]').boundingBox();
  await clickOn(page, text, "  gather:", { into: 4 });
  await page.keyboard.press("F2");
  const input = page.locator('[data-testid="source-rename"] input');
  await input.waitFor();
  assert.equal(await input.inputValue(), "gather");
  await page.screenshot({ path: `${shots}/source-ide-rename.png` });
  await page.keyboard.type("collect");
  await page.keyboard.press("Enter");
  const renamed = text.replaceAll("gather", "collect");
  assert.equal(await waitForText(page, (t, e) => t === e, renamed), renamed);
  await page.waitForSelector('[data-node-id="step:collect"]');
  const moved = await page.locator('[data-node-id="step:collect"]').boundingBox();
  // Its place in the graph is kept (to the pixel: the drawn box is rounded differently).
  assert.ok(Math.abs(moved.x - box.x) < 2 && Math.abs(moved.y - box.y) < 2,
    `the node stays where it was: ${JSON.stringify([box, moved])}`);
  // The keyboard is back in the text, at the name.
  await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "source");
  await page.keyboard.press("Control+z");
  assert.equal(await waitForText(page, (t, e) => t === e, text), text);

  // A refusal is said in the box, which stays open.
  await clickOn(page, text, "  check:", { into: 4 });
  await page.keyboard.press("F2");
  await input.waitFor();
  await page.keyboard.type("report");
  await page.keyboard.press("Enter");
  await page.waitForSelector('[data-testid="source-rename"] [role="alert"]');
  await page.keyboard.press("Escape");
  await page.waitForSelector('[data-testid="source-rename"]', { state: "detached" });
  assert.equal(await source(page), text, "nothing changed");
  assert.deepEqual(errors, []);
  await context.close();
});

test("hover card and popup: shown by pointer and keyboard, no serious or critical axe violation, light and dark, 1440×900 and 1024×768", { timeout: 300_000 }, async () => {
  const text = DOC.replace("[gathr]", "[gather]");
  const found = [];
  for (const [width, height] of [[1440, 900], [1024, 768]]) {
    for (const colorScheme of ["light", "dark"]) {
      const tag = `${width}-${colorScheme}`;
      const { page, errors, context } = await studioWith(text, { viewport: { width, height }, colorScheme });
      // The pointer resting on a reference shows its step.
      await clickOn(page, text, "report", { nth: 1, into: 0 });
      const before = text.split("\n").findIndex((l) => l === "    needs: [gather]");
      const { x, y } = await pointAt(page, before, 13);
      await page.mouse.move(x, y);
      await page.waitForSelector(CARD);
      assert.equal(await page.getAttribute(SOURCE, "aria-describedby"), "source-keys source-hover");
      const card = await page.textContent(CARD);
      assert.match(card, /step gather/);
      assert.match(card, /Gather sources/);
      found.push(...(await audit(page, `${tag} hover`)));
      await page.screenshot({ path: `${shots}/source-ide-hover-${tag}.png` });
      await page.mouse.move(5, 5);
      await page.waitForSelector(CARD, { state: "detached" });

      // Ctrl+K Ctrl+I shows the card at the caret.
      await clickOn(page, text, "[check]", { into: 2 });
      await page.keyboard.press("Control+k");
      await page.keyboard.press("Control+i");
      await page.waitForSelector(`${CARD}:has-text("Check the sources")`);
      await page.keyboard.press("Escape");
      await page.waitForSelector(CARD, { state: "detached" });

      // The popup on a key.
      await clickOn(page, text, "    description: Write the report", { into: 4 });
      await page.keyboard.press("Control+Space");
      await page.waitForSelector(OPTIONS);
      found.push(...(await audit(page, `${tag} completion`)));
      await page.screenshot({ path: `${shots}/source-ide-completion-${tag}.png` });
      await page.keyboard.press("Escape");
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
  assert.deepEqual(found, []);
});

test("Edit → Format formats with core's formatter from the chunk (fetched on first use), one undo step", async () => {
  const messy = DOC.replace("name: research", "name:     research").replace("    needs: [gathr]\n    description: Check the sources\n", "    description:   Check the sources\n    needs: [ gathr ]\n");
  const { page, errors, context } = await studioWith(messy, { cold: true });
  await menu(page, "edit", "format");
  const formatted = await waitForText(page, (t, m) => t !== m, messy);
  assert.ok(formatted.includes("name: research\n"), formatted);
  // fmt's key order: a step's description first; the document's steps before its contracts.
  assert.ok(formatted.includes("    description: Check the sources\n    needs: [ gathr ]\n"), formatted);
  assert.ok(formatted.indexOf("steps:") < formatted.indexOf("contracts:"), formatted);
  // Formatting a formatted text changes nothing.
  await menu(page, "edit", "format");
  await page.waitForTimeout(100);
  assert.equal(await source(page), formatted);
  await page.keyboard.press("Control+z");
  assert.equal(await waitForText(page, (t, e) => t === e, messy), messy);
  assert.deepEqual(errors, []);
  await context.close();
});
