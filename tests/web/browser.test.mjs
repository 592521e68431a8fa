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

test("a plain <script type=module> loads the package with init(), the run engine on loadRun()", async () => {
  const server = await serve({ "/logicmd/": pkg, "/": join(here, "pages") });
  try {
    const result = await resultOf(`${server.url}/`);
    assert.equal(result.valid, true);
    assert.equal(result.nodes, 2);
    assert.equal(result.edges, 1);
    assert.match(result.version, /^\d+\.\d+\.\d+/);
    // The document tools ran without the engine's module; a synchronous run function before
    // loadRun() says what to call; after it the run completes and its trace checks.
    assert.equal(result.fetchedBeforeRun, false);
    assert.match(result.beforeLoad, /^createRun needs the run engine, which loads on first use: .*`await loadRun\(\)`/);
    assert.equal(result.status, "completed");
    assert.equal(result.violations, 0);
    assert.equal(result.fetchedAfterRun, true);
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
    const wasm = assets.filter((name) => name.endsWith(".wasm"));
    assert.equal(wasm.length, 2, `the first-load wasm and the run engine's are emitted: ${assets}`);
    const server = await serve({ "/": outDir });
    try {
      const result = await resultOf(`${server.url}/`);
      // nextAction loads the run engine by itself, on first use.
      assert.deepEqual(result, {
        order: ["a", "b"],
        roundTrip: true,
        fetchedBeforeUse: false,
        decided: "complete_task",
        fetchedAfterUse: true,
      });
    } finally {
      await server.close();
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});
