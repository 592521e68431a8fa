// Run mode is a lazily loaded wasm chunk (issue #17): a first visit downloads the studio without
// it, the first Run fetches it (saying so while it loads) and runs. Needs dist/ (trunk build
// --release, whose post_build hook scripts/split-wasm.sh splits the wasm).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { dist, shots, studioSuite } from "./studio-suite.mjs";

const suite = studioSuite({ viewport: { width: 1600, height: 1000 } });
const studio = suite.studio;

const RUN = '[data-testid="run"]';
const STATUS = '[data-testid="run-status"]';

/**
 * The wasm modules the split step made besides the main one. (Their loader, `__wasm_split.js`,
 * under 1 KB, is imported by the main module's JS: it is part of the first load.)
 */
function chunkFiles() {
  const files = readdirSync(dist);
  const chunks = files.filter((f) => f.endsWith(".wasm") && !f.endsWith("_bg.wasm"));
  assert.ok(chunks.length >= 1, `dist/ holds split chunks besides the main module: ${files.join(" ")}`);
  assert.ok(files.includes("__wasm_split.js"), "dist/ holds the chunks' loader");
  return chunks;
}

/**
 * Texts only the engine's code uses, one per part of it: the LOGIC.md scheduler, the action
 * kernel, the OpenAI-compatible protocol. Naming the engine outside `run::mode` links it into the
 * main module again without failing a user-flow test: its texts then show up there.
 */
const ENGINE_TEXTS = ["no branch or decision tree chose it", "is waiting for an observation", "stream_options"];

/** Which of `texts` the wasm file `name` in dist/ holds. */
function textsIn(name, texts) {
  const bytes = readFileSync(`${dist}/${name}`);
  return texts.filter((text) => bytes.includes(Buffer.from(text)));
}

/** Whether a request's URL is one of `chunks`. */
const isChunk = (chunks) => (url) => chunks.includes(new URL(url).pathname.split("/").pop());

/** Every file name the page requests from now on. */
function recordRequests(page) {
  const names = [];
  page.on("request", (request) => names.push(new URL(request.url()).pathname.split("/").pop()));
  return names;
}

async function phase(page, prefix, timeout = 20_000) {
  await page.waitForFunction(
    ([selector, p]) => document.querySelector(selector)?.dataset.phase.startsWith(p),
    [STATUS, prefix],
    { timeout },
  );
}

/** A fresh studio, loaded again with its requests recorded from the first one. */
async function recordedStudio() {
  const { page, errors, context } = await studio();
  const requests = recordRequests(page);
  await page.reload();
  await page.waitForSelector("[data-node-id]");
  return { page, errors, context, requests };
}

test("a first visit does not fetch run mode; clicking Run fetches it and the run completes", async () => {
  const chunks = chunkFiles();
  const { page, errors, context, requests } = await recordedStudio();
  // The page is idle: the editor, the canvas and the checks are up, nothing more is coming.
  await page.waitForLoadState("networkidle");
  assert.ok(requests.some((r) => r.endsWith("_bg.wasm")), `the main module was fetched: ${requests}`);
  assert.ok(requests.includes("__wasm_split.js"), `the chunks' loader came with the main module: ${requests}`);
  assert.deepEqual(requests.filter((r) => chunks.includes(r)), [], "no run-mode chunk on the first visit");
  const before = requests.length;

  await page.click(RUN);
  await phase(page, "completed");
  const fetched = requests.slice(before);
  assert.ok(fetched.some((r) => chunks.includes(r)), `Run fetched the run-mode chunk: ${fetched}`);
  // The trace checks are run mode's too: they ran once the run was over.
  const checks = await page.$$eval('[data-testid="trace-checks"] li', (li) => li.map((l) => l.dataset.passed));
  assert.deepEqual(checks, ["true", "true", "true", "true", "true"]);
  assert.equal(await page.getAttribute(RUN, "aria-busy"), "false");
  assert.deepEqual(errors, []);
  await context.close();
});

test("the engine's code is in the run-mode chunk, not in the main module", () => {
  const chunks = chunkFiles();
  const main = readdirSync(dist).filter((f) => f.endsWith("_bg.wasm"));
  assert.equal(main.length, 1, `one main module: ${main}`);
  assert.deepEqual(textsIn(main[0], ENGINE_TEXTS), [], "the main module holds none of the engine's texts");
  assert.deepEqual(chunks.flatMap((chunk) => textsIn(chunk, ENGINE_TEXTS)).sort(), [...ENGINE_TEXTS].sort());
});

test("while run mode loads, Run says so (button and status) and keeps a keyboard user's focus", async () => {
  const chunks = chunkFiles();
  const { page, errors, context } = await recordedStudio();
  let release;
  const held = new Promise((resolve) => (release = resolve));
  // The chunk is held back until the test has looked at the loading state.
  await page.route(isChunk(chunks), async (route) => {
    await held;
    await route.continue();
  });
  await page.focus(RUN);
  await page.keyboard.press("Enter");
  await page.waitForFunction((s) => document.querySelector(s).getAttribute("aria-busy") === "true", RUN);
  assert.match(await page.textContent(RUN), /Loading run mode/);
  assert.match(await page.textContent(STATUS), /loading run mode/);
  assert.equal(await page.getAttribute(STATUS, "role"), "status");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "run");
  await page.locator('[data-testid="run-panel"]').screenshot({ path: `${shots}/run-loading.png` });
  // A second press while it loads does not start a second run.
  await page.keyboard.press("Enter");
  release();
  await phase(page, "completed");
  assert.equal(await page.getAttribute(RUN, "aria-busy"), "false");
  assert.match(await page.textContent(RUN), /Run/);
  const starts = await page.evaluate(() => document.querySelector('[data-testid="trace-timeline"]').textContent.match(/run_started/g)?.length ?? 0);
  assert.equal(starts, 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test("when run mode cannot be fetched, the run stops saying why, and the next Run fetches it again", async () => {
  const chunks = chunkFiles();
  const { page, context } = await recordedStudio();
  const chunk = isChunk(chunks);
  await page.route(chunk, (route) => route.abort());
  await page.click(RUN);
  await phase(page, "stopped: run mode could not be loaded");
  assert.equal(await page.getAttribute(RUN, "aria-busy"), "false");
  await page.unroute(chunk);
  await page.click(RUN);
  await phase(page, "completed");
  await context.close();
});
