// The source pane holds a window of the lines around the view (issue #17): a 5,000-step document is
// edited, selected, revealed and undone as if the textarea held the whole text.
import assert from "node:assert/strict";
import { test } from "node:test";

import { SOURCE, shots, source, studioSuite } from "./studio-suite.mjs";
import { chain, loadText } from "./typing.mjs";

const suite = studioSuite();
const STEPS = 5000;

/** The 0-based line of `needle` (a whole line) in `text`. */
const lineOf = (text, needle) => text.split("\n").indexOf(needle);

/** The first and last line (exclusive) the textarea holds. */
async function held(page) {
  const [first, last] = (await page.getAttribute(SOURCE, "data-window")).split(" ").map(Number);
  return { first, last };
}

/** Scrolls the source so that 0-based `line` is at the top of the view; waits for the window. */
async function scrollTo(page, line) {
  await page.evaluate(([selector, line]) => {
    document.querySelector(selector).closest(".scroller").scrollTop = 8 + line * 20;
  }, [SOURCE, line]);
  await page.waitForFunction(([selector, line]) => {
    const [first, last] = document.querySelector(selector).getAttribute("data-window").split(" ").map(Number);
    return first <= line && line < last;
  }, [SOURCE, line]);
}

/** Clicks at the end of 0-based document `line`, which is in view. */
async function clickLineEnd(page, line) {
  const { x, y } = await page.evaluate(([selector, line]) => {
    const scroller = document.querySelector(selector).closest(".scroller");
    const box = scroller.getBoundingClientRect();
    return { x: box.left + box.width - 20, y: box.top + 8 + line * 20 - scroller.scrollTop + 10 };
  }, [SOURCE, line]);
  await page.mouse.click(x, y);
}

/** The whole text, as select-all in the source shows it. */
async function wholeText(page) {
  await page.keyboard.press("Control+a");
  return source(page);
}

async function bigStudio() {
  const session = await suite.studio();
  const text = chain(STEPS);
  await loadText(session.page, text, STEPS);
  return { ...session, text };
}

test("a 5,000-step document: the textarea holds a window, and typing mid-way lands at its place", async () => {
  const { page, errors, context, text } = await bigStudio();
  const value = await source(page);
  assert.ok(value.length < text.length / 10, `the textarea holds ${value.length} of ${text.length} characters`);
  assert.ok(text.startsWith(value), "the window at the top is the text's first lines");
  const line = lineOf(text, "    description: step 2500");
  await scrollTo(page, line - 5);
  assert.ok((await held(page)).first > 0, "the window moved down with the view");
  await clickLineEnd(page, line);
  await page.keyboard.type("Q");
  await page.waitForFunction(() => document.querySelector('[data-node-id="step:s2500"] .node-kind, .inspector')?.textContent.includes("2500Q"));
  await page.screenshot({ path: `${shots}/source-window-middle.png` });
  const at = text.indexOf("description: step 2500\n") + "description: step 2500".length;
  assert.equal(await wholeText(page), `${text.slice(0, at)}Q${text.slice(at)}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("Ctrl+End then typing appends at the document's end; Ctrl+Home returns to its start", async () => {
  const { page, errors, context, text } = await bigStudio();
  await clickLineEnd(page, 3);
  await page.keyboard.press("Control+End");
  assert.equal((await held(page)).last, text.split("\n").length, "the window holds the last line");
  await page.keyboard.type("# end");
  await page.keyboard.press("Control+Home");
  assert.equal((await held(page)).first, 0);
  await page.keyboard.type("#");
  assert.equal(await wholeText(page), `#${text}# end`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a selection grown across re-windows (Shift+PageDown) is replaced exactly by typing", async () => {
  const { page, errors, context, text } = await bigStudio();
  const line = lineOf(text, "  s3000:");
  await scrollTo(page, line - 5);
  await clickLineEnd(page, line);
  const before = await held(page);
  for (let i = 0; i < 30; i++) await page.keyboard.press("Shift+PageDown");
  const after = await held(page);
  // Where the selection is in the document: the window's first line's offset + the textarea's.
  const { start, end } = await page.evaluate(([selector, text]) => {
    const area = document.querySelector(selector);
    const first = Number(area.getAttribute("data-window").split(" ")[0]);
    const offset = text.split("\n").slice(0, first).join("\n").length + (first ? 1 : 0);
    return { start: offset + area.selectionStart, end: offset + area.selectionEnd };
  }, [SOURCE, text]);
  assert.equal(start, text.indexOf("  s3000:") + "  s3000:".length, "the selection starts where the click put the caret");
  const endLine = text.slice(0, end).split("\n").length - 1;
  assert.ok(endLine >= before.last && after.last > endLine, `the selection ends at line ${endLine}, past the first window ${JSON.stringify(before)}, inside ${JSON.stringify(after)}`);
  await page.keyboard.type("Z");
  assert.equal(await wholeText(page), `${text.slice(0, start)}Z${text.slice(end)}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("clicking a problem far down reveals and selects its line", async () => {
  const session = await suite.studio();
  const { page, errors, context } = session;
  const text = chain(STEPS).replace("needs: [s4899]", "needs: [nowhere]");
  await loadText(page, text, STEPS);
  const line = lineOf(text, "    needs: [nowhere]");
  await page.click(`[data-testid="diagnostics"] .diagnostic[data-line="${line + 1}"]`);
  const window = await held(page);
  assert.ok(window.first <= line && line < window.last, `line ${line} is held by ${JSON.stringify(window)}`);
  const selected = await page.evaluate((selector) => {
    const area = document.querySelector(selector);
    return area.value.slice(area.selectionStart, area.selectionEnd);
  }, SOURCE);
  assert.equal(selected, "    needs: [nowhere]");
  const top = await page.evaluate((selector) => document.querySelector(selector).closest(".scroller").scrollTop, SOURCE);
  assert.ok(Math.abs(top - (8 + line * 20)) < 900, `the line is in view (scrolled to ${top})`);
  await page.screenshot({ path: `${shots}/source-window-problem.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("undo and redo of typing in a far window restore the text byte for byte", async () => {
  const { page, errors, context, text } = await bigStudio();
  const line = lineOf(text, "    description: step 4000");
  await scrollTo(page, line - 5);
  await clickLineEnd(page, line);
  await page.keyboard.type("é😀");
  const at = text.indexOf("description: step 4000\n") + "description: step 4000".length;
  const typed = `${text.slice(0, at)}é😀${text.slice(at)}`;
  await page.keyboard.press("Control+z");
  await page.keyboard.press("Control+z");
  assert.equal(await wholeText(page), text);
  await page.keyboard.press("Control+Shift+z");
  await page.keyboard.press("Control+Shift+z");
  assert.equal(await wholeText(page), typed);
  assert.deepEqual(errors, []);
  await context.close();
});
