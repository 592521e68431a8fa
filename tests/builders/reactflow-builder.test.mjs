// examples/reactflow-builder, built by Vite (scripts/test-builders.sh), driven as a user would in
// headless Chromium: drag a palette node in, wire it, try a wire core refuses, move and delete a
// node, edit a field in the inspector, type an error into the source (a badge), run. Screenshots
// go to target/screenshots/builder-*.png.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { serve } from "../web/support.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const dist = `${repo}examples/reactflow-builder/dist`;
const shots = `${repo}target/screenshots`;

let server;
let browser;
before(async () => {
  assert.ok(existsSync(`${dist}/index.html`), "examples/reactflow-builder is built (vite build)");
  mkdirSync(shots, { recursive: true });
  server = await serve({ "/": dist });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const node = (id) => `.react-flow__node[data-id="${id}"]`;
const handle = (id, type, port) => `${node(id)} .react-flow__handle.${type}${port === undefined ? "" : `[data-handleid="${port}"]`}`;
const source = (page) => page.inputValue('[data-testid="source"]');

async function centre(page, selector) {
  const box = await page.locator(selector).first().boundingBox();
  assert.ok(box, `${selector} is on screen`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A mouse drag from one element's centre to another's, in small steps as a hand moves. */
async function drag(page, from, to) {
  const a = await centre(page, from);
  const b = await centre(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i += 1) await page.mouse.move(a.x + ((b.x - a.x) * i) / 12, a.y + ((b.y - a.y) * i) / 12);
  await page.mouse.up();
}

test("a user builds, wires, moves, deletes and runs on the React Flow canvas", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto(server.url);
  await page.waitForSelector(node("step:write"));
  await page.screenshot({ path: `${shots}/builder-1-open.png` });

  // Drag the palette's `researcher` onto the canvas, right of the chain.
  const pane = await page.locator(".react-flow__pane").boundingBox();
  await page.dragAndDrop('[data-testid="palette-researcher"]', ".react-flow__pane", {
    targetPosition: { x: pane.width - 220, y: pane.height / 2 },
  });
  await page.waitForSelector(node("step:researcher"));
  let text = await source(page);
  assert.ok(text.includes("  researcher:\n    description: Gathers and grades sources\n    input_schema:\n      type: string\n    output_schema:\n      type: array\n"), text);
  assert.ok(text.includes("# find sources first") && text.includes("# the last step"), "comments kept");
  assert.match(text, /positions:\n(.|\n)*researcher:/);

  // Wire `write` → `researcher`: core's connect gives `researcher` a `needs` of `write`.
  await drag(page, handle("step:write", "source"), handle("step:researcher", "target", "input"));
  await page.waitForFunction(() => /researcher:\n(.|\n)*needs:\n\s+- write\n/.test(document.querySelector('[data-testid="source"]').value));
  await page.waitForSelector('.react-flow__edge[data-id^="needs:step:write->step:researcher"]');
  await page.screenshot({ path: `${shots}/builder-2-wired.png` });

  // A wire that closes a cycle is refused with core's reason; the text stays.
  const before = await source(page);
  await drag(page, handle("step:write", "source"), handle("step:research", "target"));
  await page.waitForFunction(() => /cycle/.test(document.querySelector('[data-testid="message"]').textContent));
  assert.equal(await source(page), before);
  await page.screenshot({ path: `${shots}/builder-3-refused.png` });

  // Move `outline`: its position is stored in the document.
  const outline = await centre(page, node("step:outline"));
  await page.mouse.move(outline.x, outline.y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i += 1) await page.mouse.move(outline.x + 16 * i, outline.y + 3 * i);
  await page.mouse.up();
  await page.waitForFunction(() => /positions:(.|\n)*outline:\n\s+x: /.test(document.querySelector('[data-testid="source"]').value));

  // Select `outline` and delete it: the step and `write`'s need of it go.
  await page.click(`${node("step:outline")} .logic-node-label`);
  await page.keyboard.press("Backspace"); // React Flow's delete key
  await page.waitForFunction(() => !/\n  outline:/.test(document.querySelector('[data-testid="source"]').value));
  text = await source(page);
  assert.ok(!/\boutline\b/.test(text.replace("Outline the brief", "")), text);
  // React Flow draws the new nodes after the text has changed: wait for the node to go.
  await page.waitForSelector(node("step:outline"), { state: "detached" });
  assert.ok(text.includes("# find sources first"));

  // The inspector lists core's fields for the selected step; a change is one `set` edit.
  await page.click(`${node("step:research")} .logic-node-label`);
  await page.getByLabel("Description").fill("Find primary sources");
  await page.keyboard.press("Tab");
  await page.waitForFunction(() => document.querySelector('[data-testid="source"]').value.includes("    description: Find primary sources\n    instructions: Prefer primary sources.\n"));
  // A `visual.inspector` field of the document: a select, written where its key points.
  await page.getByLabel("Reasoning Strategy").selectOption("cot");
  await page.waitForFunction(() => document.querySelector('[data-testid="source"]').value.includes("reasoning:\n  strategy: cot\n"));
  await page.screenshot({ path: `${shots}/builder-4-inspector.png` });

  // Typing in the source redraws the canvas; lint's error lands on its node as a badge.
  const typed = (await source(page)).replace("    description: Write the brief\n", "    description: Write the brief\n    needs: [nowhere]\n");
  await page.fill('[data-testid="source"]', typed);
  await page.waitForSelector(`${node("step:write")} .badge-error`);
  assert.match(await page.getAttribute(`${node("step:write")} .badge-error`, "title"), /nowhere/);
  await page.screenshot({ path: `${shots}/builder-5-badge.png` });
  await page.fill('[data-testid="source"]', typed.replace("    needs: [nowhere]\n", ""));
  await page.waitForFunction(() => document.querySelectorAll(".badge-error").length === 0);

  // Run with the synthetic provider.
  await page.click('[data-testid="run"]');
  await page.waitForSelector('[data-testid="run-status"]');
  assert.equal(await page.textContent('[data-testid="run-status"]'), "completed");
  const events = await page.locator('[data-testid="run-result"] li').allTextContents();
  assert.ok(events.includes("node_finished · researcher"), events.join(" | "));
  await page.screenshot({ path: `${shots}/builder-6-run.png` });

  assert.deepEqual(errors, []);
  await context.close();
});
