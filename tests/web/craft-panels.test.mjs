// Studio craft, panels part (issue #18): SVG contrast, the inspector per selection kind, wire
// re-attach, resizable panels, minimap and history. Each test follows a user's flow in headless
// Chromium against the studio built by `trunk build --release` into dist/.
import assert from "node:assert/strict";
import { test } from "node:test";

import { centre, shots, SOURCE, source, studioSuite, waitForText } from "./studio-suite.mjs";

const suite = studioSuite();
const studio = suite.studio;

const EXAMPLES = ["competitive-analyst", "spec-complete", "decision-router", "multi-agent", "fact-check", "debate"];

async function openExample(page, id) {
  await page.click('[data-testid="new"]');
  await page.click(`[data-template="${id}"]`);
  await page.waitForTimeout(50);
  if (await page.locator('[data-testid="replace-dialog"]').count()) await page.click('[data-testid="confirm-replace"]');
  await page.waitForFunction(() => document.querySelectorAll("[data-node-id]").length > 0);
  await page.click('[data-testid="fit"]');
  await page.waitForTimeout(150);
}

/**
 * Runs in the page: every visible SVG text of the canvas against what is painted behind it
 * (≥ 4.5:1), every wire and node border against the canvas background (≥ 3:1), from computed
 * styles with opacity composited. Returns the failures as readable lines.
 */
function svgContrastFailures() {
  const parse = (css) => {
    const srgb = css && css.match(/color\(srgb ([^)]+)\)/);
    if (srgb) {
      const [r, g, b, a = 1] = srgb[1].split(/[ /]+/).filter(Boolean).map(Number);
      return { r: r * 255, g: g * 255, b: b * 255, a };
    }
    const m = css && css.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a),
    a: 1,
  });
  const luminance = ({ r, g, b }) => {
    const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const ratio = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e && e instanceof SVGElement; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  const paint = (el, property) => {
    const style = getComputedStyle(el);
    const colour = parse(style[property]);
    if (!colour) return null;
    colour.a *= Number(style[`${property}Opacity`] ?? 1) * opacity(el);
    return colour;
  };
  const svg = document.querySelector('[data-testid="canvas"]');
  const canvas = parse(getComputedStyle(svg).backgroundColor);
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  const shapes = [...svg.querySelectorAll("rect, circle, ellipse")].filter(visible);
  const behind = (text) => {
    const style = getComputedStyle(text);
    const halo = parse(style.stroke);
    if (style.paintOrder.startsWith("stroke") && halo && parseFloat(style.strokeWidth) >= 3) return over(halo, canvas);
    const box = text.getBoundingClientRect();
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    let colour = canvas;
    for (const shape of shapes) {
      if (!(shape.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
      const s = shape.getBoundingClientRect();
      if (x < s.x || x > s.x + s.width || y < s.y || y > s.y + s.height) continue;
      const fill = paint(shape, "fill");
      if (fill) colour = over(fill, colour);
    }
    return colour;
  };
  const where = (el) => {
    const node = el.closest("[data-node-id]")?.getAttribute("data-node-id");
    const wire = el.closest("[data-edge-from]");
    return node ?? (wire ? `${wire.getAttribute("data-edge-from")}→${wire.getAttribute("data-edge-to")}` : "canvas");
  };
  const failures = [];
  for (const text of svg.querySelectorAll("text")) {
    if (!visible(text) || !text.textContent.trim()) continue;
    const fill = paint(text, "fill");
    if (!fill) {
      failures.push(`text .${text.getAttribute("class")} has no readable fill: ${getComputedStyle(text).fill}`);
      continue;
    }
    const back = behind(text);
    const r = ratio(over(fill, back), back);
    if (r < 4.5) failures.push(`text .${text.getAttribute("class")} "${text.textContent.trim().slice(0, 20)}" at ${where(text)}: ${r.toFixed(2)}:1`);
  }
  const lines = [
    ...[...svg.querySelectorAll(".wire-group .wire")].map((el) => ["wire", el]),
    ...[...svg.querySelectorAll(".node-body")].map((el) => ["border", el]),
  ];
  for (const [kind, el] of lines) {
    if (!visible(el)) continue;
    const stroke = paint(el, "stroke");
    if (!stroke) {
      failures.push(`${kind} at ${where(el)} has no readable stroke: ${getComputedStyle(el).stroke}`);
      continue;
    }
    const r = ratio(over(stroke, canvas), canvas);
    if (r < 3) failures.push(`${kind} .${el.parentElement.getAttribute("class")} at ${where(el)}: ${r.toFixed(2)}:1`);
  }
  return [...new Set(failures)];
}

test("SVG text, wires and node borders keep their contrast on every example in both themes", { timeout: 300000 }, async () => {
  const found = [];
  for (const colorScheme of ["light", "dark"]) {
    const { page, errors, context } = await studio({ colorScheme });
    for (const id of EXAMPLES) {
      await openExample(page, id);
      const failures = await page.evaluate(svgContrastFailures);
      assert.ok(await page.locator(".canvas text").count() > 0);
      for (const f of failures) found.push(`${colorScheme} ${id}: ${f}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
  assert.deepEqual(found, []);
});

async function loadText(page, text) {
  await page.fill(SOURCE, text);
  await waitForText(page, (t, e) => t === e, text);
  await page.waitForFunction((n) => document.querySelectorAll("[data-node-id]").length === n, (text.match(/^  \w+:$/gm) ?? []).length);
  await page.click('[data-testid="fit"]');
}

const body = (step) => `[data-node-id="step:${step}"] .node-body`;

/** A step with a comment and a retry policy, and one plain step. */
const RETRYING = `---\nspec_version: "1.0"\nname: pipeline\nsteps:\n  fetch:\n    description: Fetch the page\n    # three tries are enough for flaky hosts\n    retry:\n      max_attempts: 3 # keep low\n      initial_interval: 1s\n  parse:\n    description: Parse it\n    needs: [fetch]\n---\n`;

test("the inspector of a step shows every schema field; instructions keep line breaks; a bad timeout is refused at the field; retry edits are minimal", async () => {
  const { page, errors, context } = await studio();
  await loadText(page, RETRYING);
  await page.click(body("fetch"));
  const inspector = page.locator('[data-testid="inspector"]');
  // Every field of definitions.Step, with groups for the objects.
  for (const key of ["description", "needs", "instructions", "timeout", "allowed_tools", "denied_tools", "execution", "parallel_steps", "join", "join_timeout"]) {
    assert.equal(await inspector.locator(`[data-section="step"] [data-field="${key}"]`).count(), 1, `field ${key}`);
  }
  for (const group of ["input_schema", "output_schema", "confidence", "branches", "retry", "verification"]) {
    assert.equal(await inspector.locator(`[data-group="${group}"]`).count(), 1, `group ${group}`);
  }
  for (const key of ["confidence.minimum", "retry.max_attempts", "retry.backoff_coefficient", "verification.check", "verification.on_fail"]) {
    assert.equal(await inspector.locator(`[data-field="${key}"]`).count(), 1, `field ${key}`);
  }
  assert.equal(await inspector.locator('[data-field="instructions"]').evaluate((e) => e.tagName), "TEXTAREA");
  assert.equal(await inspector.locator('[data-field="retry.max_attempts"]').inputValue(), "3");

  // Instructions typed over several lines keep their line breaks, written as a literal block.
  await inspector.locator('[data-field="instructions"]').fill("Read the page.\nKeep the links.");
  await inspector.locator('[data-field="timeout"]').focus(); // leaving the field commits it
  let text = await waitForText(page, (t) => t.includes("instructions:"));
  assert.ok(text.includes("    instructions: |-\n      Read the page.\n      Keep the links.\n"), text);
  await page.click(body("parse"));
  await page.click(body("fetch"));
  assert.equal(await inspector.locator('[data-field="instructions"]').inputValue(), "Read the page.\nKeep the links.");

  // A timeout that is not a duration is refused at the field; nothing is written.
  const before = await source(page);
  await inspector.locator('[data-field="timeout"]').fill("abc");
  await inspector.locator('[data-field="timeout"]').press("Enter");
  const error = inspector.locator('[data-field="timeout"] ~ .field-error');
  await error.waitFor();
  assert.match(await error.textContent(), /Timeout: `abc` .*expected e\.g\. "30s"/);
  assert.equal(await inspector.locator('[data-field="timeout"]').getAttribute("aria-invalid"), "true");
  assert.equal(await source(page), before, "a refused value is not written");
  await inspector.locator('[data-field="timeout"]').fill("30s");
  await inspector.locator('[data-field="timeout"]').press("Enter");
  text = await waitForText(page, (t) => t.includes("timeout: 30s"));
  assert.equal(await error.count(), 0, "the error goes once the value is good");

  // max_attempts edited: only that number changes; the comments stay.
  const beforeRetry = text;
  await inspector.locator('[data-field="retry.max_attempts"]').fill("5");
  await inspector.locator('[data-field="retry.max_attempts"]').press("Enter");
  text = await waitForText(page, (t) => t.includes("max_attempts: 5"));
  assert.equal(text, beforeRetry.replace("max_attempts: 3 # keep low", "max_attempts: 5 # keep low"));
  await inspector.locator('[data-field="retry.max_attempts"]').fill("2.5");
  await inspector.locator('[data-field="retry.max_attempts"]').press("Enter");
  await page.waitForFunction(() => /whole number/.test(document.querySelector('[data-group="retry"] .field-error')?.textContent ?? ""));
  assert.equal(await source(page), text);
  await page.screenshot({ path: `${shots}/craft-inspector-step.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the inspector's schema editor, branches and needs write the step; document fields have their own section", async () => {
  const { page, errors, context } = await studio();
  await loadText(page, RETRYING);
  await page.click(body("fetch"));
  const inspector = page.locator('[data-testid="inspector"]');
  const schema = inspector.locator('[data-group="output_schema"]');
  await schema.locator('[data-action="schema-name"]').fill("links");
  await schema.locator('[data-action="schema-add"]').click();
  let text = await waitForText(page, (t) => t.includes("output_schema:"));
  assert.ok(text.includes("    output_schema:\n      type: object\n      properties:\n        links:\n          type: string\n"), text);
  await schema.locator('[data-field="property.links.type"]').selectOption("array");
  text = await waitForText(page, (t) => t.includes("type: array"));
  await schema.locator('[data-field="property.links.required"]').check();
  text = await waitForText(page, (t) => /required:\s*(\[links\]|\n\s*- links)/.test(t));
  // A duplicate name is refused at the editor.
  await schema.locator('[data-action="schema-name"]').fill("links");
  await schema.locator('[data-action="schema-add"]').click();
  await schema.locator(".field-error").waitFor();
  assert.match(await schema.locator(".field-error").textContent(), /already a property/);

  // needs: a name that is not a step is refused; a real one is written.
  await page.click(body("parse"));
  const needs = inspector.locator('[data-field="needs"]');
  assert.equal(await needs.inputValue(), "fetch");
  await needs.fill("fetch\nnowhere");
  await inspector.locator('[data-field="timeout"]').focus();
  await page.waitForFunction(() => /`nowhere` is not a step/.test(document.querySelector('[data-section="step"] .field-error')?.textContent ?? ""));

  // A branch routes to another step.
  await inspector.locator('[data-action="add-branch"]').click();
  text = await waitForText(page, (t) => t.includes("branches:"));
  await inspector.locator('[data-field="branches.0.then"]').selectOption("fetch");
  await inspector.locator('[data-field="branches.0.if"]').fill("{{ output.retry == true }}");
  await inspector.locator('[data-field="branches.0.if"]').press("Enter");
  text = await waitForText(page, (t) => t.includes("then: fetch") && t.includes("if:"));
  await page.screenshot({ path: `${shots}/craft-inspector-schema.png` });

  // Document fields (visual.inspector) are shown under the step, in their own labelled section.
  await openExample(page, "competitive-analyst");
  await page.waitForSelector("[data-node-id]");
  await page.locator("[data-node-id^='step:'] .node-body").first().click();
  const section = inspector.locator('[data-section="document"]');
  assert.match(await section.locator("h3").textContent(), /Document fields.*visual\.inspector/);
  assert.equal(await section.locator('[data-field="reasoning.strategy"]').count(), 1);
  assert.equal(await inspector.locator('[data-section="step"] [data-field="reasoning.strategy"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Drags with the mouse in small steps. */
async function drag(page, from, to) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(from.x + ((to.x - from.x) * i) / 8, from.y + ((to.y - from.y) * i) / 8);
  await page.mouse.up();
}

/** Clicks the middle of the wire from step `a` to step `b`, selecting it. */
async function selectWire(page, a, b) {
  const wire = `[data-edge-from="step:${a}"][data-edge-to="step:${b}"]`;
  const path = page.locator(`${wire} .wire-hit`);
  const point = await path.evaluate((p) => {
    const q = p.getPointAtLength(p.getTotalLength() / 2);
    const m = p.getScreenCTM();
    return { x: q.x * m.a + m.e, y: q.y * m.d + m.f };
  });
  await page.mouse.click(point.x, point.y);
  assert.equal(await page.getAttribute(wire, "aria-selected"), "true");
  await page.waitForSelector('[data-handle="target"]');
}

const FOUR = `---\nspec_version: "1.0"\nname: pipeline\nsteps:\n  a:\n    description: Fetch\n  b:\n    description: Parse\n    needs: [a]\n  c:\n    description: Score\n  d:\n    description: Report\n---\n`;

test("a selected wire's end dragged onto another node moves the needs in one undo step; a refused move says why", async () => {
  const { page, errors, context } = await studio();
  await loadText(page, FOUR);
  await selectWire(page, "a", "b");
  await drag(page, await centre(page, '[data-handle="target"]'), await centre(page, body("c")));
  let text = await waitForText(page, (t) => t.includes("Score\n    needs:\n      - a\n"));
  assert.equal(text, FOUR.replace("Parse\n    needs: [a]\n", "Parse\n").replace("Score\n", "Score\n    needs:\n      - a\n"));
  await page.waitForSelector('[data-edge-from="step:a"][data-edge-to="step:c"]', { state: "attached" });
  await page.keyboard.press("Control+z");
  assert.equal(await waitForText(page, (t, e) => t === e, FOUR), FOUR, "one undo step restores it byte for byte");

  // The source end: b now needs d instead of a.
  await page.waitForSelector('[data-edge-from="step:a"][data-edge-to="step:b"]', { state: "attached" });
  await selectWire(page, "a", "b");
  await drag(page, await centre(page, '[data-handle="source"]'), await centre(page, body("d")));
  text = await waitForText(page, (t) => t.includes("needs: [d]"));
  assert.equal(text, FOUR.replace("needs: [a]", "needs: [d]"));
  await page.keyboard.press("Control+z");
  await waitForText(page, (t, e) => t === e, FOUR);

  // Onto the node it leaves: refused, with core's reason next to the pointer; nothing changes.
  await page.waitForSelector('[data-edge-from="step:a"][data-edge-to="step:b"]', { state: "attached" });
  await selectWire(page, "a", "b");
  const drop = await centre(page, body("a"));
  await drag(page, await centre(page, '[data-handle="target"]'), drop);
  const refusal = page.locator('[data-testid="refusal"]');
  await refusal.waitFor();
  assert.match(await refusal.textContent(), /Not moved: `a` cannot be connected to itself/);
  assert.equal(await source(page), FOUR);
  await page.screenshot({ path: `${shots}/craft-reattach-refused.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("room: panels resize by dragging their splitter or with arrow keys, and keep their size after a reload", async () => {
  const { page, errors, context } = await studio();
  const width = async (selector) => (await page.locator(selector).boundingBox()).width;
  const splitter = page.locator('[data-splitter="side"]');
  assert.equal(await splitter.getAttribute("role"), "separator");
  const before = await width('[data-testid="inspector"]');
  assert.ok(Math.abs(Number(await splitter.getAttribute("aria-valuenow")) - before) <= 2);
  // Dragged 120px to the left: the side column grows by 120px, the canvas gives the room.
  const canvasBefore = await width('[data-testid="canvas"]');
  const grip = await splitter.boundingBox();
  await drag(page, { x: grip.x + grip.width / 2, y: grip.y + 200 }, { x: grip.x + grip.width / 2 - 120, y: grip.y + 200 });
  await page.waitForFunction((w) => Math.abs(document.querySelector('[data-testid="inspector"]').getBoundingClientRect().width - (w + 120)) <= 1, before);
  assert.ok(Math.abs((await width('[data-testid="canvas"]')) - (canvasBefore - 120)) <= 1);
  // From the keyboard: Left widens the column (its splitter is on its left edge) by 16px.
  await splitter.focus();
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction((w) => Math.abs(document.querySelector('[data-testid="inspector"]').getBoundingClientRect().width - (w + 136)) <= 1, before);
  const sized = await width('[data-testid="inspector"]');
  assert.ok(Math.abs((await width(".source")) - sized) <= 1, "the source shares the column");
  // The palette too; then a reload keeps both.
  const palette = page.locator('[data-splitter="palette"]');
  await palette.focus();
  await page.keyboard.press("Shift+ArrowRight");
  await page.waitForTimeout(100);
  const paletteWidth = await width(".palette");
  await page.reload();
  await page.waitForSelector("[data-node-id]");
  assert.ok(Math.abs((await width('[data-testid="inspector"]')) - sized) <= 1, "the column keeps its size");
  assert.ok(Math.abs((await width(".palette")) - paletteWidth) <= 1, "the palette keeps its size");
  await page.screenshot({ path: `${shots}/craft-room-resized.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

/** The view: pan, zoom and canvas size, and the minimap frame's box on screen. */
async function viewState(page) {
  return page.evaluate(() => {
    const [x, y, scale] = document.querySelector(".viewport").getAttribute("transform").match(/-?[\d.]+/g).map(Number);
    const canvas = document.querySelector('[data-testid="canvas"]').getBoundingClientRect();
    const frame = document.querySelector('[data-testid="minimap-view"]').getBoundingClientRect();
    return { x, y, scale, width: canvas.width, height: canvas.height, frame: { x: frame.x, y: frame.y, width: frame.width, height: frame.height } };
  });
}

/** The graph point a screen point on the minimap stands for, by the minimap as it is drawn now. */
function graphPointOnMap(state, point) {
  const left = -state.x / state.scale;
  const top = -state.y / state.scale;
  const perPixel = state.width / state.scale / state.frame.width;
  return { x: left + (point.x - state.frame.x) * perPixel, y: top + (point.y - state.frame.y) * perPixel };
}

/** The graph point in the middle of the canvas. */
const viewCentre = (state) => ({ x: (state.width / 2 - state.x) / state.scale, y: (state.height / 2 - state.y) / state.scale });

test("minimap: hidden until asked for; a click or a drag on it moves the view there; hidden again, it stays hidden", async () => {
  const { page, errors, context } = await studio();
  await openExample(page, "decision-router");
  const map = page.locator('[data-testid="minimap"]');
  assert.equal(await map.count(), 0, "hidden at first: Fit's corner stays free");
  await page.click('[data-testid="toggle-minimap"]');
  await map.waitFor();
  await page.click('[data-testid="zoom-level"]'); // 100 %: the graph is larger than the canvas
  const box = await map.boundingBox();
  const near = (a, b, within) => Math.abs(a.x - b.x) <= within && Math.abs(a.y - b.y) <= within;
  let state = await viewState(page);
  const target = { x: box.x + box.width * 0.7, y: box.y + box.height * 0.7 };
  let wanted = graphPointOnMap(state, target);
  const perPixel = state.width / state.scale / state.frame.width;
  const before = await page.getAttribute(".viewport", "transform");
  await page.mouse.click(target.x, target.y);
  await page.waitForFunction((b) => document.querySelector(".viewport").getAttribute("transform") !== b, before);
  state = await viewState(page);
  assert.ok(near(viewCentre(state), wanted, 2 * perPixel), `the view is centred on the point clicked: ${JSON.stringify(viewCentre(state))} vs ${JSON.stringify(wanted)}`);
  // A drag moves it along: where the pointer is let go is in the middle.
  const end = { x: box.x + box.width * 0.35, y: box.y + box.height * 0.4 };
  await page.mouse.move(target.x, target.y);
  await page.mouse.down();
  await page.mouse.move((target.x + end.x) / 2, (target.y + end.y) / 2);
  const midway = await viewState(page);
  wanted = graphPointOnMap(midway, end);
  await page.mouse.move(end.x, end.y);
  await page.mouse.up();
  state = await viewState(page);
  assert.ok(near(viewCentre(state), wanted, 2 * perPixel), `the view follows the drag: ${JSON.stringify(viewCentre(state))} vs ${JSON.stringify(wanted)}`);
  await page.screenshot({ path: `${shots}/craft-minimap.png` });
  await page.click('[data-testid="toggle-minimap"]');
  assert.equal(await map.count(), 0, "hidden");
  await page.reload();
  await page.waitForSelector("[data-node-id]");
  assert.equal(await page.locator('[data-testid="minimap"]').count(), 0, "stays hidden after a reload");
  await page.click('[data-testid="toggle-minimap"]');
  await map.waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test("history: saved states are kept; a side-by-side text diff and a graph diff against an earlier state or a dropped file; restore is one undo step", async () => {
  const { page, errors, context } = await studio();
  const first = FOUR;
  const second = FOUR.replace("  d:\n    description: Report\n", "  e:\n    description: Publish\n    needs: [c]\n").replace("Score\n", "Score well\n");
  await loadText(page, first);
  await page.waitForTimeout(600); // the autosave keeps a state once typing pauses
  await loadText(page, second);
  await page.waitForTimeout(600);
  await page.click('[data-testid="history"]');
  const dialog = page.locator('[data-testid="history-dialog"]');
  await dialog.waitFor();
  assert.ok(await dialog.locator("[data-version]").count() >= 2, "both states are listed");
  await dialog.locator('[data-version="1"]').click();
  // The graph diff: d removed, e added, c changed, a and b the same; the wire c → e added.
  const node = (id) => dialog.locator(`[data-diff-node="step:${id}"]`);
  assert.equal(await node("d").getAttribute("data-diff"), "removed");
  assert.equal(await node("e").getAttribute("data-diff"), "added");
  assert.equal(await node("c").getAttribute("data-diff"), "changed");
  assert.equal(await node("a").getAttribute("data-diff"), "same");
  assert.equal(await dialog.locator('[data-from="step:c"][data-to="step:e"]').getAttribute("data-diff"), "added");
  assert.match(await dialog.locator("figcaption").textContent(), /1 added, 1 removed, 1 changed nodes/);
  // The text diff, side by side: the earlier line on the left, the current one on the right.
  const removed = await dialog.locator('tr[data-diff="removed"] .diff-text').allTextContents();
  const added = await dialog.locator('tr[data-diff="added"] .diff-text').allTextContents();
  assert.deepEqual(removed.filter(Boolean), ["    description: Score", "  d:", "    description: Report"]);
  assert.deepEqual(added.filter(Boolean), ["    description: Score well", "  e:", "    description: Publish", "    needs: [c]"]);
  await page.screenshot({ path: `${shots}/craft-history-diff.png` });
  await dialog.locator('[data-testid="history-restore"]').click();
  await waitForText(page, (t, e) => t === e, first);
  await page.keyboard.press("Control+z");
  assert.equal(await waitForText(page, (t, e) => t === e, second), second, "restoring is one undo step");

  // A file to compare with (picked or dropped).
  await page.click('[data-testid="history"]');
  await dialog.locator('[data-testid="history-file"]').setInputFiles({ name: "other.logic.md", mimeType: "text/markdown", buffer: Buffer.from(first) });
  await dialog.locator(".history-what").waitFor();
  assert.match(await dialog.locator(".history-what").textContent(), /other\.logic\.md/);
  assert.equal(await node("e").getAttribute("data-diff"), "added");
  assert.deepEqual(errors, []);
  await context.close();
});
