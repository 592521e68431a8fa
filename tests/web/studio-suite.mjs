// What the studio's browser test files share: dist/ served and one Chromium per file, fresh pages
// with the studio loaded, and the source text's helpers.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";

import { launch, open, serve } from "./support.mjs";

export const repo = fileURLToPath(new URL("../../", import.meta.url));
/** The studio built by `trunk build --release`; STUDIO_DIST points the tests at another build. */
export const dist = process.env.STUDIO_DIST ?? `${repo}dist`;
export const shots = `${repo}target/screenshots`;
export const SOURCE = '[data-testid="source"]';

/**
 * Registers the file's setup and teardown (dist/ served, one browser) and returns the suite:
 * `suite.url` once started, and `suite.studio(options, path)`, a fresh page (fresh storage) with
 * the studio loaded; `defaults` are the file's page options (viewport 1440×900 unless given).
 * Pages open as a returning visitor's (the first visit's welcome already seen) unless
 * `{ firstVisit: true }` is given.
 */
export function studioSuite(defaults = {}) {
  const suite = { url: undefined };
  let browser;
  let server;
  before(async () => {
    assert.ok(existsSync(`${dist}/index.html`), "dist/ is built (trunk build --release)");
    mkdirSync(shots, { recursive: true });
    server = await serve({ "/": dist });
    suite.url = server.url;
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  suite.studio = async (options = {}, path = "/") => {
    const { firstVisit, ...rest } = { ...defaults, ...options };
    const init = firstVisit ? undefined : () => localStorage.setItem("logicmd.studio.welcomed", "1");
    const session = await open(browser, `${server.url}${path}`, { viewport: { width: 1440, height: 900 }, init, ...rest });
    await session.page.waitForSelector("[data-node-id]");
    return session;
  };
  return suite;
}

/** The source text as the page has it. */
export const source = (page) => page.inputValue(SOURCE);

/** Waits until `predicate(text, arg)` holds of the source text (it runs in the page); the text. */
export async function waitForText(page, predicate, arg) {
  await page.waitForFunction(
    ([selector, body, value]) => new Function("text", "arg", body)(document.querySelector(selector).value, value),
    [SOURCE, `return (${predicate.toString()})(text, arg);`, arg],
  );
  return source(page);
}

/** The screen centre of the element `selector`, which must be on screen. */
export async function centre(page, selector) {
  const box = await page.locator(selector).boundingBox();
  assert.ok(box, `${selector} is on screen`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Opens a toolbar menu (`file`, `edit`, `view`) and picks its item `testid`. */
export async function menu(page, name, testid) {
  await page.click(`[data-testid="${name}"]`);
  await page.click(`[data-testid="${name}-menu"] [data-testid="${testid}"]`);
}

/** Shows the Run panel (it opens by itself when a run starts). */
export async function openRunPanel(page) {
  if (await page.locator('[data-testid="run-panel"]').isHidden()) await menu(page, "view", "toggle-run-panel");
}

/** Opens example `id` as a user does (New, then the example), confirming if the studio asks. */
export async function openExample(page, id) {
  await page.click('[data-testid="new"]');
  await page.click(`[data-template="${id}"]`);
  await page.waitForTimeout(50);
  if (await page.locator('[data-testid="replace-dialog"]').count()) await page.click('[data-testid="confirm-replace"]');
}

/** Serious and critical axe-core violations on the page now, as `view: rule (impact) targets`. */
export async function audit(page, view) {
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.addScriptTag({ content: readFileSync(`${repo}tests/web/node_modules/axe-core/axe.min.js`, "utf8") });
  }
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${view}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).slice(0, 4).join(" | ")}`);
}
