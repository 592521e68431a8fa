// Issue #31, "run states that tell the truth" and "a run view as clear as n8n's": each state a
// user meets, folded from the trace (and the studio's own pauses and Stop), the pre-run checklist,
// every shipped example running, the node card and a review pause in view. Needs dist/.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { openRunPanel, repo, shots, SOURCE, source, studioSuite, waitForText } from "./studio-suite.mjs";

const suite = studioSuite({ viewport: { width: 1440, height: 900 } });
const studio = suite.studio;

const STATUS = '[data-testid="run-status"]';
const state = (page, id) => page.getAttribute(`[data-node-id="${id}"]`, "data-run-state");
const caption = (page, id) => page.textContent(`[data-node-id="${id}"] .node-run-caption`);
const factCheck = readFileSync(`${repo}examples/studio/fact-check.drtl.yaml`, "utf8");
const blockWithoutReview = readFileSync(`${repo}tests/run/drtl/block-without-review.drtl.yaml`, "utf8");
// DRTL has no hidden retry (drtl-spec §9.1): `extract` answers once.
const claimsThenBlock = [
  "- {node: extract, json: {product_names: [Widget Pro, Gizmo 9], urls: []}}",
  "- {node: verify_claims, tool: std.check_existence, verdict: {passed: false, evidence: \"no product named Gizmo 9\"}}",
  "- {node: verify_claims, tool: std.check_links, verdict: {passed: true}}",
].join("\n");

async function phase(page, prefix, timeout = 20_000) {
  await page.waitForFunction(([s, p]) => document.querySelector(s)?.dataset.phase.startsWith(p), [STATUS, prefix], { timeout });
}

async function load(page, text) {
  await page.fill(SOURCE, text);
  await waitForText(page, (t, e) => t === e, text);
}

/** Every node's run state, by node id. */
const states = (page) =>
  page.$$eval("[data-node-id]", (nodes) => Object.fromEntries(nodes.map((n) => [n.dataset.nodeId, n.dataset.runState ?? null])));

test("a breakpoint shows the node waiting, its clock stopped; Stop interrupts it and cancels what never started", async () => {
  const { page, errors, context } = await studio();
  await page.click('[data-node-id="step:synthesize"] .node-title');
  await page.check('[data-testid="breakpoint"]');
  await page.click('[data-testid="run"]');
  await phase(page, "paused: before synthesize");
  assert.equal(await state(page, "step:synthesize"), "waiting");
  assert.equal(await caption(page, "step:synthesize"), "◉ waiting at breakpoint");
  await page.waitForTimeout(1200);
  assert.equal(await caption(page, "step:synthesize"), "◉ waiting at breakpoint", "no clock counts while it waits");
  await page.click('[data-testid="run-legend"] summary');
  assert.ok(await page.isVisible('[data-testid="run-legend"] [data-state="waiting"].present'), "the legend explains the state on the canvas");
  await page.screenshot({ path: `${shots}/states-waiting-light.png` });

  await page.click('[data-testid="run-stop"]');
  await phase(page, "stopped: by you");
  const after = await states(page);
  assert.equal(after["step:synthesize"], "interrupted");
  assert.ok(!Object.values(after).some((s) => ["running", "queued", "waiting", "retried", "review"].includes(s)), JSON.stringify(after));
  assert.match(await page.textContent('[data-testid="run-outcome"]'), /Stopped by you: 1 interrupted/);
  // The checks that need the trace's end are not checked: the person stopped it.
  await page.waitForSelector('[data-check="terminates"]');
  assert.equal(await page.getAttribute('[data-check="terminates"]', "data-passed"), "unchecked");
  assert.equal(await page.locator('[data-testid="trace-checks"] [data-passed="false"]').count(), 0);
  await page.screenshot({ path: `${shots}/states-stopped-light.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a refused run leaves no node running, says so first with its obligations, and its trace checks do not read as a success", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const { page, errors, context } = await studio({ colorScheme });
    await load(page, blockWithoutReview);
    await openRunPanel(page);
    await page.selectOption('[data-testid="run-provider"]', "scripted");
    await page.fill('[data-testid="run-script"]', claimsThenBlock);
    await page.click('[data-testid="run"]');
    await phase(page, "refused");
    const after = await states(page);
    assert.ok(!Object.values(after).some((s) => ["running", "queued", "waiting"].includes(s)), JSON.stringify(after));
    assert.equal(after["drtl:verify_claims"], "refused");
    assert.equal(after["drtl:publish"], "cancelled");
    // The outcome comes first in the panel, above the node card and the trace.
    const outcome = await page.locator('[data-testid="run-refusal"]').boundingBox();
    const card = await page.locator('[data-testid="run-card"]').boundingBox();
    assert.ok(outcome.y < card.y, "the refusal is at the top");
    assert.match(await page.textContent('[data-testid="run-refusal"]'), /Refused: 1 obligation unmet/);
    // Trace checks say what they check, and a check that holds is not painted as a success.
    assert.match(await page.textContent(".trace-checks-note"), /not whether the run succeeded/);
    const holds = await page.$eval('[data-testid="trace-checks"] [data-passed="true"]', (li) => getComputedStyle(li).color);
    const succeeded = await page.evaluate(() => {
      const probe = document.createElement("span");
      probe.style.color = "var(--run-succeeded)";
      document.body.append(probe);
      const colour = getComputedStyle(probe).color;
      probe.remove();
      return colour;
    });
    assert.notEqual(holds, succeeded);
    await page.click('[data-testid="unmet"] button');
    assert.equal(await page.textContent('[data-testid="run-card"] h3'), "verify_claims");
    await page.screenshot({ path: `${shots}/states-refused-${colorScheme}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("a verify node that found blocking failures says so (not crashed, not succeeded); the review pause comes into view at 1024×768 and 1440×900", async () => {
  for (const [width, height, colorScheme] of [[1024, 768, "light"], [1440, 900, "dark"], [1024, 768, "dark"], [1440, 900, "light"]]) {
    const { page, errors, context } = await studio({ viewport: { width, height }, colorScheme });
    await load(page, factCheck);
    await page.waitForSelector('[data-node-id="drtl:editor"]');
    await page.click('[data-testid="run"]');
    await phase(page, "paused: review at editor");
    assert.equal(await state(page, "drtl:check_claims"), "found-failures");
    assert.equal(await caption(page, "drtl:check_claims"), "▲ found 2 blocking failures");
    // The waiting node is on the canvas, and its form in the window, with one button per action.
    await page.waitForFunction(() => {
      const canvas = document.querySelector('[data-testid="canvas"]').getBoundingClientRect();
      const node = document.querySelector('[data-node-id="drtl:editor"] .node-body')?.getBoundingClientRect();
      return node && node.top >= canvas.top && node.bottom <= canvas.bottom && node.left >= canvas.left && node.right <= canvas.right;
    });
    await page.waitForFunction(() => {
      const form = document.querySelector('[data-testid="run-review"]')?.getBoundingClientRect();
      return form && form.top >= 0 && form.top < innerHeight - 60;
    });
    const actions = await page.$$eval('[data-testid="review-action"]', (b) => b.map((x) => x.dataset.action));
    assert.deepEqual(actions, ["retry", "reject"]);
    for (const action of await page.$$('[data-testid="review-action"]')) {
      const box = await action.boundingBox();
      assert.ok(box && box.y + box.height <= height, "every action button is in the window");
    }
    assert.ok(await page.isVisible('[data-testid="review-note"]'));
    assert.ok(await page.isVisible('[data-testid="review-input"]'));
    await page.screenshot({ path: `${shots}/states-review-${width}-${colorScheme}.png` });
    // A note goes with the decision.
    await page.fill('[data-testid="review-note"]', "Cite the sources");
    await page.click('[data-testid="review-action"][data-action="reject"]');
    await page.waitForFunction((s) => !document.querySelector(s).dataset.phase.startsWith("paused"), STATUS);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("the node card: a header with the state, then Output beside Input", async () => {
  for (const [width, height] of [[1440, 900], [1024, 768]]) {
    for (const colorScheme of ["light", "dark"]) {
      const { page, errors, context } = await studio({ viewport: { width, height }, colorScheme });
      await page.click('[data-testid="run"]');
      await phase(page, "completed");
      await page.click('[data-node-id="step:analyze_features"] .node-title');
      assert.equal(await page.textContent('[data-testid="run-card"] h3'), "analyze_features");
      assert.match(await page.textContent('[data-testid="card-state"]'), /succeeded/);
      assert.match(await page.textContent('[data-testid="card-attempts"]'), /1 call/);
      const output = await page.locator('[data-testid="card-output"]').boundingBox();
      const input = await page.locator('[data-testid="card-inputs"]').boundingBox();
      assert.ok(output && input, "both sides are shown");
      assert.ok(output.x < input.x && Math.abs(output.y - input.y) < 4, "Output first, Input beside it");
      await page.screenshot({ path: `${shots}/states-card-${width}-${colorScheme}.png` });
      assert.deepEqual(errors, []);
      await context.close();
    }
  }
});

test("the problems list runs the pre-run checklist: an empty input is listed and leads to the field that fixes it", async () => {
  const { page, errors, context } = await studio();
  await page.click('[data-testid="new"]');
  await page.click('[data-template="drtl"]');
  await waitForText(page, (t) => t.includes("untitled-topology"));
  await page.keyboard.press("Escape");
  await page.click('[data-add="verify"]');
  await waitForText(page, (t) => t.includes("type: verify"));
  const need = page.locator('[data-testid="run-needs"] [data-code="run-empty-input"]');
  await need.waitFor();
  assert.match(await need.textContent(), /reads nothing/);
  assert.match(await page.textContent('[data-testid="diagnostics"] h2'), /1 before a run/);
  // The item leads to the field: the node selected, its input field given the keyboard.
  await page.click('[data-testid="diagnostics"] h2');
  await need.locator("button").click();
  await page.waitForFunction(() => document.activeElement?.dataset.field === "input");
  await page.keyboard.type("draft.draft");
  await page.keyboard.press("Tab");
  await waitForText(page, (t) => /input: "?draft\.draft"?\n/.test(t));
  await page.waitForFunction(() => !document.querySelector('[data-testid="run-needs"]'));
  assert.deepEqual(errors, []);
  await context.close();
});

test("every example the studio ships runs (the debate's protocol file included)", async () => {
  const { page, errors, context } = await studio();
  const ids = await (async () => {
    await page.click('[data-testid="new"]');
    const found = await page.$$eval('[data-testid="new-dialog"] [data-template]', (b) => b.map((x) => x.dataset.template));
    await page.keyboard.press("Escape");
    return found.filter((id) => !["empty", "drtl"].includes(id));
  })();
  assert.ok(ids.length >= 6, ids.join(", "));
  const ended = {};
  for (const id of ids) {
    await page.click('[data-testid="new"]');
    await page.click(`[data-template="${id}"]`);
    if (await page.locator('[data-testid="replace-dialog"]').count()) await page.click('[data-testid="confirm-replace"]');
    await page.waitForFunction(() => !document.querySelector('[data-testid="diagnostics"] h2')?.textContent.includes("checking"));
    assert.equal(await page.locator('[data-testid="run-needs"]').count(), 0, `${id} needs nothing more to run`);
    await page.click('[data-testid="run"]');
    await page.waitForFunction((s) => /^(completed|refused|failed|paused|stopped)/.test(document.querySelector(s).dataset.phase), STATUS);
    ended[id] = await page.getAttribute(STATUS, "data-phase");
    if (ended[id].startsWith("paused")) await page.click('[data-testid="run-stop"]');
  }
  for (const [id, end] of Object.entries(ended)) assert.doesNotMatch(end, /^stopped|cannot run/, `${id}: ${end}`);
  assert.deepEqual(errors, []);
  await context.close();
});
