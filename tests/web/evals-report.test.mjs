// The HTML report of `logicmd evals run`, as a user meets it: opened from the disk (it is one
// self-contained file), read for regressions first, a trace link followed. Axe finds nothing
// serious; screenshots land in $EVALS_SHOTS (or a temporary directory) for a person to look at.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { launch, open } from "./support.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const cli = process.env.LOGICMD_CLI ?? join(repo, "target/debug/logicmd");
const shots = process.env.EVALS_SHOTS ?? mkdtempSync(join(tmpdir(), "evals-shots-"));
let browser;
let report;

before(async () => {
  const work = mkdtempSync(join(tmpdir(), "evals-report-"));
  const fixtures = join(repo, "cli/tests/evals");
  for (const name of readdirSync(fixtures)) copyFileSync(join(fixtures, name), join(work, name));
  const args = ["evals", "run", "capital.logic.md", "--variant", "capital-v2.logic.md", "--data", "cases.jsonl",
    "--provider", "scripted:answers.yaml", "--scorer", "subset", "--out", "results.jsonl"];
  try {
    execFileSync(cli, args, { cwd: work, stdio: "pipe" });
  } catch (error) {
    assert.equal(error.status, 1, "some rows fail: exit 1"); // the eval itself ran
  }
  report = pathToFileURL(join(work, "results.html")).href;
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

test("the report lists regressions first and opens a case's trace from its link", async () => {
  const { page, errors, context } = await open(browser, report, { viewport: { width: 1300, height: 900 } });
  // No request leaves the page: it is self-contained.
  const requests = [];
  page.on("request", (request) => requests.push(request.url()));
  const cases = await page.locator("tbody tr th[scope=row]").allInnerTexts();
  assert.deepEqual(cases.map((text) => text.replace(/\s+/g, " ").trim()), ["fr regressed", "fr-trace regressed", "de"]);
  await page.screenshot({ path: join(shots, "evals-report.png"), fullPage: false });
  const trace = page.locator("table").nth(1).locator("tbody tr").first().locator("td").nth(1).getByRole("link", { name: "trace" });
  await trace.click();
  const opened = page.locator("details[open]");
  await opened.waitFor();
  assert.equal(await opened.count(), 1);
  assert.match(await opened.locator("summary").innerText(), /^fr · capital-v2\.logic\.md \(6 events\)$/);
  assert.match(await opened.locator("pre").innerText(), /"event":"run_finished"/);
  await opened.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, "evals-report-trace.png") });
  const require = createRequire(import.meta.url);
  await page.addScriptTag({ path: require.resolve("axe-core") });
  const results = await page.evaluate(async () => await globalThis.axe.run());
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(serious.map((v) => v.id), []);
  assert.deepEqual(requests.filter((url) => !url.startsWith("file:")), []);
  assert.deepEqual(errors, []);
  await context.close();
});
