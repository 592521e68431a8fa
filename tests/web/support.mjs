// Helpers for the browser tests: a static file server and a headless Chromium.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".md": "text/markdown; charset=utf-8",
};

/** Serves `mounts` ({urlPrefix: directory}) on a free localhost port; resolves to {url, close}. */
export function serve(mounts) {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, "http://localhost").pathname);
    if (path === "/favicon.ico") {
      response.writeHead(204).end(); // browsers ask for it unprompted
      return;
    }
    const prefix = Object.keys(mounts)
      .sort((a, b) => b.length - a.length)
      .find((p) => path.startsWith(p));
    let file = prefix === undefined ? undefined : join(mounts[prefix], normalize(path.slice(prefix.length)));
    if (file && existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!file || !existsSync(file)) {
      response.writeHead(404).end("not found");
      return;
    }
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Launches headless Chromium with the flags this machine needs, or explains why it cannot. */
export async function launch() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: run scripts/bootstrap.sh (it installs Debian's chromium)`);
  }
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * Opens `url` and collects page errors and console errors, which tests assert are empty. `init`,
 * if given, is a script run before the page's own (e.g. setting storage as an earlier visit left it).
 */
export async function open(browser, url, options = {}) {
  const { init, ...contextOptions } = options;
  const context = await browser.newContext(contextOptions);
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(url);
  return { page, errors, context };
}
