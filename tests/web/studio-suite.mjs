// What the studio's browser test files share: dist/ served and one Chromium per file, fresh pages
// with the studio loaded, and the source text's helpers.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";

import { launch, open, serve } from "./support.mjs";

export const repo = fileURLToPath(new URL("../../", import.meta.url));
export const dist = `${repo}dist`;
export const shots = `${repo}target/screenshots`;
export const SOURCE = '[data-testid="source"]';

/**
 * Registers the file's setup and teardown (dist/ served, one browser) and returns the suite:
 * `suite.url` once started, and `suite.studio(options, path)`, a fresh page (fresh storage) with
 * the studio loaded; `defaults` are the file's page options (viewport 1440×900 unless given).
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
    const session = await open(browser, `${server.url}${path}`, { viewport: { width: 1440, height: 900 }, ...defaults, ...options });
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
