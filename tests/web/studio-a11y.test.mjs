// Issue #31, "done when": axe-core (tests/web/package.json pins the current release) finds no
// serious or critical violation on the first screen, run mode with a node card, a review pause,
// the history dialog and every inspector form, light and dark, at 1440×900 and 1024×768 — each
// view screenshotted; and building gather → analyze → draft → review with four names takes at
// most 10 mouse actions and 14 keys. Needs dist/.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";

import { audit, repo, shots, SOURCE, studioSuite, waitForText } from "./studio-suite.mjs";
import { EVERY_KIND } from "./documents.mjs";

const suite = studioSuite();
const studio = suite.studio;
const factCheck = readFileSync(`${repo}examples/studio/fact-check.drtl.yaml`, "utf8");
const router = readFileSync(`${repo}examples/studio/decision-router.logic.md`, "utf8");
const STATUS = '[data-testid="run-status"]';

async function load(page, text) {
  await page.fill(SOURCE, text);
  await waitForText(page, (t, e) => t === e, text);
  await page.click('[data-testid="fit"]');
}

test("axe-core: no serious or critical violation in any new view, light and dark, at 1440×900 and 1024×768", { timeout: 600_000 }, async () => {
  const found = [];
  for (const [width, height] of [[1440, 900], [1024, 768]]) {
    for (const colorScheme of ["light", "dark"]) {
      const tag = `${width}-${colorScheme}`;
      const look = async (page, view) => {
        found.push(...(await audit(page, `${tag} ${view}`)));
        await page.screenshot({ path: `${shots}/a11y-${view}-${tag}.png` });
      };
      // The first screen.
      const first = await studio({ viewport: { width, height }, colorScheme, firstVisit: true });
      await first.page.waitForSelector('[data-testid="welcome"]');
      await look(first.page, "first-screen");
      await first.context.close();

      const { page, errors, context } = await studio({ viewport: { width, height }, colorScheme });
      await page.click('[data-testid="view"]');
      await look(page, "view-menu");
      await page.keyboard.press("Escape");
      // Every inspector form of a LOGIC.md document: the document, a step, a decision node, a terminal.
      await look(page, "form-document");
      await page.click('[data-node-id="step:analyze_features"] .node-title');
      await look(page, "form-step");
      await load(page, router);
      await page.click('[data-node-id="tree:route_ticket/urgent"] .node-title');
      await look(page, "form-decision");
      await page.click('[data-node-id="terminal:route_ticket/escalate"] .node-title');
      await look(page, "form-terminal");
      // Every DRTL kind's form, and the topology's.
      await load(page, EVERY_KIND);
      await page.keyboard.press("Escape");
      await look(page, "form-topology");
      for (const id of ["draft", "panel", "merge", "council", "check", "decide", "editor", "publish"]) {
        await page.click(`[data-node-id="drtl:${id}"] .node-title`);
        await page.waitForFunction((id) => document.querySelector(".inspector-name")?.textContent === id, id);
        await look(page, `form-${id}`);
      }
      // Run mode with a node card, and a review pause.
      await load(page, factCheck);
      await page.click('[data-testid="run"]');
      await page.waitForFunction((s) => document.querySelector(s).dataset.phase.startsWith("paused: review"), STATUS);
      await look(page, "review-pause");
      await page.click('[data-testid="review-action"][data-action="reject"]');
      await page.waitForFunction((s) => !document.querySelector(s).dataset.phase.startsWith("paused"), STATUS);
      await page.keyboard.press("Control+k");
      await page.keyboard.type("claims");
      await page.keyboard.press("Enter");
      await page.waitForSelector('[data-testid="card-output"]');
      await look(page, "run-card");
      // The history dialog.
      await page.click('[data-testid="history"]');
      await page.waitForSelector('[data-testid="history-dialog"]');
      await look(page, "history");
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
  assert.deepEqual(found, []);
});

test("building gather → analyze → draft → review with four names takes ≤ 10 mouse actions and ≤ 14 keys", async () => {
  const names = ["gather", "analyze", "draft", "review"];
  const built = (t) =>
    /gather:[\s\S]*analyze:\n(?:.*\n)*?\s+needs:\n\s+- gather[\s\S]*draft:\n(?:.*\n)*?\s+needs:\n\s+- analyze[\s\S]*review:\n(?:.*\n)*?\s+needs:\n\s+- draft/.test(t);
  // The mouse: a click or a typed name is one action.
  const mouse = await studio({ firstVisit: true });
  let actions = 0;
  await mouse.page.click('[data-testid="welcome-template"]');
  actions++;
  await mouse.page.click('[data-template="empty"]');
  actions++;
  for (const name of names) {
    await mouse.page.click('[data-add="step"]');
    actions++;
    await mouse.page.waitForFunction(() => document.activeElement?.dataset.testid === "rename");
    await mouse.page.keyboard.type(name);
    actions++;
  }
  const byMouse = await waitForText(mouse.page, built);
  assert.ok(built(byMouse), byMouse);
  assert.ok(actions <= 10, `${actions} mouse actions`);
  await mouse.context.close();

  // The keyboard alone: a key pressed or a typed name is one action.
  const keys = await studio({ firstVisit: true });
  let pressed = 0;
  const press = async (key) => {
    await keys.page.keyboard.press(key);
    pressed++;
  };
  await keys.page.waitForFunction(() => document.activeElement?.dataset.testid === "welcome-template");
  await press("Enter");
  await keys.page.waitForSelector('[data-template="empty"]');
  await keys.page.waitForFunction(() => document.activeElement?.dataset.template === "empty");
  await press("Enter");
  await waitForText(keys.page, (t) => t.includes("name: untitled"));
  for (const name of names) {
    await press("a");
    await keys.page.waitForFunction(() => document.activeElement?.dataset.testid === "rename");
    await keys.page.keyboard.type(name);
    pressed++;
    await press("Enter");
    await keys.page.waitForFunction((n) => document.activeElement?.closest("[data-node-id]")?.dataset.nodeId === `step:${n}`, name);
  }
  const byKeys = await waitForText(keys.page, built);
  assert.ok(built(byKeys), byKeys);
  assert.ok(pressed <= 14, `${pressed} keys`);
  writeFileSync(`${repo}target/studio-actions.json`, JSON.stringify({ mouse: actions, keyboard: pressed, names }, null, 2));
  assert.deepEqual(keys.errors, []);
  await keys.context.close();
});
