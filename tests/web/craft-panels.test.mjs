// Studio craft, panels part (issue #18): SVG contrast, the inspector per selection kind, wire
// re-attach, resizable panels, minimap and history. Each test follows a user's flow in headless
// Chromium against the studio built by `trunk build --release` into dist/.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { launch, open, serve } from "./support.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const dist = `${repo}dist`;
const shots = `${repo}target/screenshots`;
const SOURCE = '[data-testid="source"]';
const EXAMPLES = ["competitive-analyst", "spec-complete", "decision-router", "multi-agent", "fact-check", "debate"];
let browser;
let server;

before(async () => {
  assert.ok(existsSync(`${dist}/index.html`), "dist/ is built (trunk build --release)");
  mkdirSync(shots, { recursive: true });
  server = await serve({ "/": dist });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function studio(options = {}) {
  const session = await open(browser, server.url, { viewport: { width: 1440, height: 900 }, ...options });
  await session.page.waitForSelector("[data-node-id]");
  return session;
}

async function openExample(page, id) {
  await page.click('[data-testid="new"]');
  await page.click(`[data-template="${id}"]`);
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
