// Issue #31, "every node kind editable as a form": each DRTL kind's form from the DRTL schema,
// decision trees added, wired and deleted on the canvas, the document's gates and fallback, the
// fields several selected nodes share, every field checked as it is typed. Needs dist/.
import assert from "node:assert/strict";
import { test } from "node:test";

import { EVERY_KIND } from "./documents.mjs";
import { centre, shots, SOURCE, source, studioSuite, waitForText } from "./studio-suite.mjs";

const suite = studioSuite();
const studio = suite.studio;


async function load(page, text) {
  await page.fill(SOURCE, text);
  await waitForText(page, (t, e) => t === e, text);
  await page.click('[data-testid="fit"]');
}

/** The `data-field`s of the node form shown. */
const fields = (page) => page.$$eval('[data-kind] [data-field]', (f) => f.map((x) => x.dataset.field));

/** Selects DRTL node `id` on the canvas. */
async function pick(page, id) {
  await page.click(`[data-node-id="drtl:${id}"] .node-title`);
  await page.waitForFunction((id) => document.querySelector(".inspector-name")?.textContent === id, id);
}

test("every DRTL kind has its whole form from the schema, and each edit is written through core", async () => {
  const { page, errors, context } = await studio();
  await load(page, EVERY_KIND);
  const edits = [
    ["draft", ["description", "input", "output_key", "output_format", "model", "prompt_ref", "prompt", "temperature"], async () => {
      await page.fill('[data-field="prompt"]', "Write a better draft.");
      await page.locator('[data-field="prompt"]').blur();
    }, /prompt: Write a better draft\./],
    ["panel", ["participants.0.model", "participants.0.prompt_ref", "participants.0.prompt", "participants.0.persona"], async () => {
      await page.fill('[data-field="participants.0.persona"]', "critic");
      await page.locator('[data-field="participants.0.persona"]').blur();
    }, /persona: critic/],
    ["merge", ["strategy"], () => page.selectOption('[data-field="strategy"]', "vote"), /strategy: vote/],
    ["council", ["protocol_ref", "max_rounds", "consensus.type", "consensus.requires", "consensus.threshold", "participants.1.role"], async () => {
      await page.fill('[data-field="max_rounds"]', "3");
      await page.locator('[data-field="max_rounds"]').blur();
    }, /max_rounds: 3/],
    ["check", ["input", "rules.0.id", "rules.0.target", "rules.0.mode"], async () => {
      await page.selectOption('[data-field="rules.0.mode"]', "warn");
      await waitForText(page, (t) => t.includes("mode: warn"));
      await page.click('[data-action="add-rules"]');
    }, /mode: warn[\s\S]*id: id_2/],
    ["decide", ["condition", "on_pass.next", "on_pass.inject", "on_fail.next", "on_fail.inject"], () => page.selectOption('[data-field="on_fail.next"]', "draft"), /on_fail: draft/],
    ["editor", ["actor", "message", "actions.0.label", "actions.0.next", "actions.1.label", "actions.1.next"], () => page.selectOption('[data-field="actions.1.next"]', "publish"), /reject: \{next: publish\}|reject:\n\s+next: publish/],
    ["publish", ["operations.0.set", "operations.0.value"], async () => {
      await page.fill('[data-field="operations.0.value"]', "false");
      await page.locator('[data-field="operations.0.value"]').blur();
    }, /value: false/],
  ];
  for (const [id, expected, edit, written] of edits) {
    await pick(page, id);
    const shown = await fields(page);
    for (const key of expected) assert.ok(shown.includes(key), `${id} has ${key}: ${shown.join(", ")}`);
    await edit();
    await waitForText(page, (t, re) => new RegExp(re).test(t), written.source);
    await page.screenshot({ path: `${shots}/forms-${id}.png` });
  }
  assert.deepEqual(errors, []);
  await context.close();
});

const TREE_DOC = `---\nspec_version: "1.0"\nname: routing\nsteps:\n  answer:\n    description: Answer the question\n---\n`;

test("decision trees are nodes added, wired and deleted on the canvas, each a form", async () => {
  const { page, errors, context } = await studio();
  await load(page, TREE_DOC);
  await page.keyboard.press("Escape");
  await page.click('[data-add="decision"]');
  await waitForText(page, (t) => t.includes("decision_trees:") && t.includes("decide:"));
  await page.waitForSelector('[data-node-id="tree:route/decide"]');
  // Its form: condition and branches.
  assert.ok((await fields(page)).includes("condition"));
  await page.fill('[data-field="condition"]', "{{ input.kind == 'billing' }}");
  await page.locator('[data-field="condition"]').blur();
  await waitForText(page, (t) => t.includes("input.kind == 'billing'"));
  // A terminal added with the decision node selected is wired from it.
  await page.click('[data-add="terminal"]');
  await page.waitForSelector('[data-edge-from="tree:route/decide"][data-edge-to="terminal:route/done"]');
  await page.click('[data-testid="fit"]');
  // A wire dragged from the decision node to a step is a branch.
  await page.mouse.move(...Object.values(await centre(page, '[data-node-id="tree:route/decide"] [data-port$=":out"]')));
  const to = await centre(page, '[data-node-id="step:answer"] .node-body');
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(to.x, to.y);
  await page.mouse.up();
  await page.waitForSelector('[data-edge-from="tree:route/decide"][data-edge-to="step:answer"]');
  let text = await source(page);
  assert.match(text, /default: true[\s\S]*next: answer|next: answer[\s\S]*default: true/);
  await page.screenshot({ path: `${shots}/forms-tree.png` });
  // The branch wire selected (clicked halfway along it) and deleted: the branch goes.
  const middle = await page.$eval('[data-edge-from="tree:route/decide"][data-edge-to="step:answer"] .wire', (path) => {
    const p = path.getPointAtLength(path.getTotalLength() / 2).matrixTransform(path.getScreenCTM());
    return { x: p.x, y: p.y };
  });
  await page.mouse.click(middle.x, middle.y);
  await page.waitForSelector('[data-edge-from="tree:route/decide"][data-edge-to="step:answer"].selected');
  await page.keyboard.press("Delete");
  await page.waitForFunction(() => !document.querySelector('[data-edge-from="tree:route/decide"][data-edge-to="step:answer"]'));
  // The terminal deleted with the branch that led to it; then the decision node, and the tree.
  await page.click('[data-node-id="terminal:route/done"] .node-title');
  await page.keyboard.press("Delete");
  await page.waitForFunction(() => !document.querySelector('[data-node-id="terminal:route/done"]'));
  await page.click('[data-node-id="tree:route/decide"] .node-title');
  await page.keyboard.press("Delete");
  text = await waitForText(page, (t) => !t.includes("decision_trees"));
  assert.equal(text, TREE_DOC);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the document's quality gates and fallback are a form; several selected steps edit what they share", async () => {
  const { page, errors, context } = await studio();
  await page.keyboard.press("Escape");
  await page.click('[data-testid="canvas"]', { position: { x: 5, y: 5 } });
  await page.waitForSelector('[data-section="document-form"]');
  await page.click('[data-action="add-quality_gates.pre_output"]');
  await waitForText(page, (t) => /quality_gates:\n\s+pre_output:/.test(t));
  await page.selectOption('[data-field="fallback.strategy"]', "escalate");
  await waitForText(page, (t) => /fallback:\n\s+strategy: escalate/.test(t));
  await page.screenshot({ path: `${shots}/forms-document.png` });

  await page.click('[data-node-id="step:identify_competitors"] .node-title');
  await page.click('[data-node-id="step:synthesize"] .node-title', { modifiers: ["Shift"] });
  assert.match(await page.textContent('[data-testid="shared-note"]'), /2 step nodes selected/);
  await page.fill('[data-section="shared"] [data-field="timeout"]', "45s");
  await page.locator('[data-section="shared"] [data-field="timeout"]').blur();
  const text = await waitForText(page, (t) => (t.match(/timeout: 45s/g) ?? []).length === 2);
  assert.equal((text.match(/timeout: 45s/g) ?? []).length, 2);
  await page.screenshot({ path: `${shots}/forms-shared.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a field is checked as it is typed: a wrong value says why at once and is never written", async () => {
  const { page, errors, context } = await studio();
  const before = await source(page);
  await page.click('[data-node-id="step:synthesize"] .node-title');
  await page.locator('[data-field="retry.max_attempts"]').click();
  await page.keyboard.type("many");
  await page.waitForSelector('.field-error');
  assert.match(await page.textContent(".field-error"), /must be a number/);
  await page.waitForTimeout(600);
  assert.equal(await source(page), before, "nothing written");
  assert.deepEqual(errors, []);
  await context.close();
});
