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
