// Studio craft, decision trees (issue #18): Auto-layout draws a decision tree as a tree (the root
// first, children under their parent in branch order, terminals in the last row) as one block above
// the steps, and a terminal whose action names a step is wired to that step. Each test follows a
// user's flow in headless Chromium at 1440×900 against the studio built into dist/.
import assert from "node:assert/strict";
import { test } from "node:test";

import { shots, SOURCE, studioSuite, waitForText } from "./studio-suite.mjs";

const suite = studioSuite();
const studio = suite.studio;

// A support router: urgent tickets page a human (a built-in action), the others go by kind, to a
// step directly (billing) or through a terminal whose action is a step (bug, question).
const ROUTER = `---
spec_version: "1.0"
name: router
steps:
  classify:
    description: Read the ticket
  billing:
    description: Answer from the pricing handbook
    needs: [classify]
  bug:
    description: Reproduce the bug
    needs: [classify]
  question:
    description: Answer from the docs
    needs: [classify]
decision_trees:
  route:
    root: urgent
    nodes:
      urgent:
        condition: "{{ input.urgency > 0.8 }}"
        branches:
          - value: true
            next: page
          - default: true
            next: kind
      kind:
        condition: "{{ input.kind }}"
        branches:
          - value: billing
            next: billing
          - value: bug
            next: to_bug
          - default: true
            next: to_question
    terminals:
      page: {action: escalate, message: Call the on-call human}
      to_bug: {action: bug}
      to_question: {action: question}
---
`;

/** Every node's place on the canvas in graph units, as drawn, by node id. */
async function places(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll("[data-node-id]")].map((n) => {
        const [x, y] = n.getAttribute("transform").match(/-?[\d.]+/g).map(Number);
        return [n.getAttribute("data-node-id"), { x, y }];
      }),
    ),
  );
}

/** The wires drawn, as `kind from -> to`. */
async function wires(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("[data-edge-kind]")].map(
      (w) => `${w.getAttribute("data-edge-kind")} ${w.getAttribute("data-edge-from")} -> ${w.getAttribute("data-edge-to")}`,
    ),
  );
}

async function autoLayout(page) {
  await page.click('[data-testid="view"]');
  await page.click('[data-testid="view-menu"] [data-testid="layout"]');
  await page.click('[data-testid="fit"]');
  await page.waitForTimeout(300); // the fit's transition
}

test("a decision tree is laid out as a tree above its steps, each step-routing terminal wired to its step", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const { page, errors, context } = await studio({ colorScheme });
    await page.fill(SOURCE, ROUTER);
    await waitForText(page, (t, e) => t === e, ROUTER);
    await page.waitForFunction(() => document.querySelectorAll("[data-node-id]").length === 9);
    await autoLayout(page);
    const at = await places(page);
    const [urgent, kind] = [at["tree:route/urgent"], at["tree:route/kind"]];
    const [pageT, bugT, questionT] = ["page", "to_bug", "to_question"].map((t) => at[`terminal:route/${t}`]);
    const members = [kind, pageT, bugT, questionT];
    assert.ok(members.every((m) => urgent.y < m.y), `the root is above every member: ${JSON.stringify(at)}`);
    assert.ok(urgent.y < kind.y && kind.y < bugT.y, "each child below its parent");
    assert.ok(pageT.x < kind.x && bugT.x < questionT.x, "siblings in branch order, left to right");
    assert.deepEqual([pageT.y, bugT.y], [questionT.y, questionT.y], "terminals in the tree's last row");
    const steps = ["classify", "billing", "bug", "question"].map((s) => at[`step:${s}`]);
    assert.ok(steps.every((s) => s.y > questionT.y), "the steps follow the tree");
    // A wire from each terminal whose action is a step, none from the built-in `escalate`.
    const drawn = await wires(page);
    for (const wire of [
      "action terminal:route/to_bug -> step:bug",
      "action terminal:route/to_question -> step:question",
      "route tree:route/kind -> step:billing",
    ]) {
      assert.ok(drawn.includes(wire), `${wire} in ${drawn.join(", ")}`);
    }
    assert.equal(drawn.filter((w) => w.includes("terminal:route/page ->")).length, 0, "escalate is no step");
    const label = await page.locator('[data-edge-from="terminal:route/to_bug"]').textContent();
    assert.match(label, /action/);
    await page.screenshot({ path: `${shots}/craft-tree-router-${colorScheme}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("the decision-router example: its tree above the steps it routes to, in both themes", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const { page, errors, context } = await studio({ colorScheme });
    await page.click('[data-testid="new"]');
    await page.click('[data-template="decision-router"]');
    await page.waitForSelector('[data-node-id="tree:route_ticket/urgent"]');
    await autoLayout(page);
    const at = await places(page);
    const [urgent, byKind, escalate] = [at["tree:route_ticket/urgent"], at["tree:route_ticket/by_kind"], at["terminal:route_ticket/escalate"]];
    assert.ok(urgent.y < byKind.y && urgent.y < escalate.y, `the root first: ${JSON.stringify(at)}`);
    assert.ok(escalate.x < byKind.x, "true (escalate) before the default branch (by_kind)");
    for (const step of ["classify", "answer_billing", "reproduce_bug", "answer_question"]) {
      assert.ok(at[`step:${step}`].y > byKind.y, `${step} below the tree`);
    }
    await page.screenshot({ path: `${shots}/craft-tree-decision-router-${colorScheme}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
