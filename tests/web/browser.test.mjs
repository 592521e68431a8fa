// The built package in a browser: from a plain <script type="module"> and through a Vite bundle.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { launch, open, serve } from "./support.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const pkg = join(here, "node_modules", "logicmd");
let browser;

before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function resultOf(url) {
  const { page, errors, context } = await open(browser, url);
  await page.waitForFunction(() => document.getElementById("out").textContent !== "loading");
  const text = await page.textContent("#out");
  await context.close();
  assert.deepEqual(errors, []);
  return JSON.parse(text);
}

test("a plain <script type=module> loads the package with init()", async () => {
  const server = await serve({ "/logicmd/": pkg, "/": join(here, "pages") });
  try {
    const result = await resultOf(`${server.url}/`);
    assert.equal(result.valid, true);
    assert.equal(result.nodes, 2);
    assert.equal(result.edges, 1);
    assert.match(result.version, /^\d+\.\d+\.\d+/);
  } finally {
    await server.close();
  }
});

test("Vite bundles the package and the bundle runs", async () => {
  const { build } = await import("vite");
  const outDir = mkdtempSync(join(tmpdir(), "logicmd-vite-"));
  try {
    await build({
      root: join(here, "vite-app"),
      logLevel: "error",
      build: { outDir, emptyOutDir: true, target: "es2022" },
    });
    const assets = readdirSync(join(outDir, "assets"));
    assert.ok(assets.some((name) => name.endsWith(".wasm")), `the wasm is emitted: ${assets}`);
    const server = await serve({ "/": outDir });
    try {
      const result = await resultOf(`${server.url}/`);
      assert.deepEqual(result, { order: ["a", "b"], roundTrip: true });
    } finally {
      await server.close();
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});
