// The npm package's first load and first run in headless Chromium (issue #38): a plain page
// imports the package from a static server on 127.0.0.1 (fresh browser context each round: no
// cache), then times `init()` and the first validate, `loadRun()` (the run engine's module
// fetched and instantiated) and the first synthetic run, and sums the bytes the page fetched
// before and after the first run. A package without `loadRun` (a build from before the split)
// reports 0 for it. Medians over the rounds; packages given as arguments run in turn per round.
//
//   scripts/test-web.sh (installs playwright-core into tests/web), scripts/build-npm.sh
//   node wasm/bench/browser-first-run.mjs [rounds] wasm/pkg [/path/to/another/pkg …]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { launch, open, serve } from "../../tests/web/support.mjs";

const [roundsArg, ...packages] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 7);
if (packages.length === 0) packages.push("wasm/pkg");

const page = `<!doctype html><meta charset="utf-8"><pre id="out">loading</pre>
<script type="module">
  const t0 = performance.now();
  const m = await import("/logicmd/logicmd.js");
  await m.default();
  const text = '---\\nspec_version: "1.0"\\nname: page\\nsteps:\\n  a: {}\\n  b: { needs: [a] }\\n---\\n';
  m.validate(text);
  const t1 = performance.now();
  const bytes = () => performance.getEntriesByType("resource").reduce((sum, e) => sum + e.encodedBodySize, 0);
  const before = bytes();
  if (m.loadRun) await m.loadRun();
  const t2 = performance.now();
  const run = m.createRun(text, {}, { synthetic: true });
  let actions = run.next();
  while (actions.length > 0 && run.status() === "running") {
    for (const a of actions) { const o = run.synthetic(a); if (o) run.feed(a.id, o); }
    actions = run.next();
  }
  const t3 = performance.now();
  document.getElementById("out").textContent = JSON.stringify({
    initValidate: t1 - t0, loadRun: t2 - t1, firstRun: t3 - t2, status: run.status(),
    bytesBefore: before, bytesAfter: bytes(),
  });
</script>`;

const pageDir = mkdtempSync(join(tmpdir(), "logicmd-first-run-"));
writeFileSync(join(pageDir, "index.html"), page);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const browser = await launch();
const results = packages.map(() => []);
try {
  for (let round = 0; round < rounds; round++) {
    for (const [i, pkg] of packages.entries()) {
      const server = await serve({ "/logicmd/": resolve(pkg), "/": pageDir });
      try {
        const { page: tab, context } = await open(browser, `${server.url}/`);
        await tab.waitForFunction(() => document.getElementById("out").textContent !== "loading");
        results[i].push(JSON.parse(await tab.textContent("#out")));
        await context.close();
      } finally {
        await server.close();
      }
    }
  }
} finally {
  await browser.close();
  rmSync(pageDir, { recursive: true, force: true });
}
console.log(`headless Chromium, median of ${rounds} fresh contexts (ms; bytes as sent, uncompressed by the server):`);
console.log("package".padEnd(40), "init+validate", "loadRun", "first run", "bytes before run", "after");
for (const [i, pkg] of packages.entries()) {
  const r = results[i];
  const m = (key) => median(r.map((x) => x[key]));
  console.log(
    pkg.padEnd(40),
    m("initValidate").toFixed(1).padStart(13),
    m("loadRun").toFixed(1).padStart(7),
    m("firstRun").toFixed(1).padStart(9),
    String(m("bytesBefore")).padStart(16),
    String(m("bytesAfter")).padStart(9),
  );
}
