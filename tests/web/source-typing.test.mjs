// Keys typed in the source are shown in the next frame and analysed after it (issue #38): nothing
// typed waits for the analysis or is lost while it is pending, the graph catches up with the last
// key, and what reads the graph's places in the text (the caret selecting its node) reads them
// once the analysis has caught up.
import assert from "node:assert/strict";
import { test } from "node:test";

import { SOURCE, shots, source, studioSuite } from "./studio-suite.mjs";
import { chain, loadText } from "./typing.mjs";

const suite = studioSuite();
const STEPS = 5000;

/** A studio on the 5,000-step chain, the caret placed by a click at the end of 0-based `line`. */
async function typingAt(line) {
  const session = await suite.studio();
  const text = chain(STEPS);
  await loadText(session.page, text, STEPS);
  const { x, y } = await session.page.evaluate(([selector, line]) => {
    const scroller = document.querySelector(selector).closest(".scroller");
    const box = scroller.getBoundingClientRect();
    return { x: box.left + box.width - 20, y: box.top + 8 + line * 20 - scroller.scrollTop + 10 };
  }, [SOURCE, line]);
  await session.page.mouse.click(x, y);
  return { ...session, text };
}

/** The whole text, as select-all in the source shows it. */
async function wholeText(page) {
  await page.keyboard.press("Control+a");
  return source(page);
}

test("keys typed faster than the analysis are all kept, shown, and the graph catches up with the last", async () => {
  const { page, errors, context, text } = await typingAt(7);
  const typed = " quick fox";
  await page.keyboard.type(typed);
  // The canvas's node shows the last key's text: the analysis caught up.
  await page.waitForFunction((want) => document.querySelector('[data-node-id="step:s1"] .node-kind')?.textContent.includes(want), `step 1${typed}`);
  const line = await page.evaluate(() => [...document.querySelectorAll(".highlight .line")].map((l) => l.textContent.replace("\u200b", "")).find((l) => l.startsWith("    description: step 1")));
  assert.equal(line, `    description: step 1${typed}`, "the highlighted text shows every key");
  await page.locator(".source").screenshot({ path: `${shots}/source-typing-burst.png` });
  const at = text.indexOf("description: step 1\n") + "description: step 1".length;
  assert.equal(await wholeText(page), text.slice(0, at) + typed + text.slice(at), "the whole text has every key at its place");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the caret's node is the one it is in, read once the analysis has caught up with the keys", async () => {
  // Line 5 is step s0's last line: keys typed at its end move every later node's place in the text.
  const { page, errors, context } = await typingAt(5);
  await page.waitForSelector('[data-node-id="step:s0"].selected');
  await page.keyboard.type("xyz");
  await page.waitForFunction(() => document.querySelector('[data-node-id="step:s0"] .node-kind')?.textContent.includes("step 0xyz"));
  // The caret's node is chosen on key up: after the analysis of the keys, not before it.
  await page.waitForTimeout(200);
  assert.equal(await page.locator('[data-node-id="step:s0"].selected').count(), 1, "step s0 stays selected");
  assert.equal(await page.locator('[data-node-id="step:s1"].selected').count(), 0, "the step after it is not selected");
  assert.deepEqual(errors, []);
  await context.close();
});

test("keys typed, undone and redone across a pause give back every text byte for byte", async () => {
  // Undo keeps changes, not copies of the text (issue #38): what it gives back must be exactly
  // what was there, before and after the pause that lets the checks run.
  const { page, errors, context, text } = await typingAt(7);
  const at = text.indexOf("description: step 1\n") + "description: step 1".length;
  const typedText = (typed) => text.slice(0, at) + typed + text.slice(at);
  const first = " oné";
  const second = "\n    # two";
  await page.keyboard.type(first);
  // A pause: the checks of the typed text run, and the problems list stops saying "checking…".
  await page.waitForFunction(() => !document.querySelector('[data-testid="diagnostics"] h2').textContent.includes("checking"));
  await page.waitForTimeout(400);
  // Each key's problems are not checked while the keys keep coming: 50 ms after each key the
  // list still says "checking…" (the checks wait for a pause).
  await page.evaluate(() => {
    window.__checking = [];
    const heading = () => document.querySelector('[data-testid="diagnostics"] h2').textContent;
    addEventListener("input", () => setTimeout(() => window.__checking.push(heading().includes("checking")), 50), { capture: true });
  });
  await page.keyboard.type(second, { delay: 20 });
  await page.waitForFunction((n) => window.__checking.length === n, second.length);
  assert.deepEqual(await page.evaluate(() => window.__checking), [...second].map(() => true), "typing: the problems wait for the pause");
  assert.equal(await wholeText(page), typedText(first + second), "every key at its place");
  // One undo step per key: undo the second burst (its line break too), then the first.
  for (let k = 0; k < second.length; k++) await page.keyboard.press("Control+z");
  assert.equal(await wholeText(page), typedText(first), "undo goes back to the text at the pause");
  for (let k = 0; k < first.length; k++) await page.keyboard.press("Control+z");
  assert.equal(await wholeText(page), text, "undo goes back to the text before any key");
  for (let k = 0; k < first.length; k++) await page.keyboard.press("Control+Shift+z");
  assert.equal(await wholeText(page), typedText(first), "redo gives the text at the pause again");
  for (let k = 0; k < second.length; k++) await page.keyboard.press("Control+y");
  assert.equal(await wholeText(page), typedText(first + second), "and every key after it");
  // The canvas follows the text redone.
  await page.waitForFunction(() => document.querySelector('[data-node-id="step:s1"] .node-kind')?.textContent.includes("step 1 oné"));
  await page.waitForFunction(() => !document.querySelector('[data-testid="diagnostics"] h2').textContent.includes("checking"));
  assert.deepEqual(errors, []);
  await context.close();
});
