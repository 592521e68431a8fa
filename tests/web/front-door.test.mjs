// One front door: the CLI (`logicmd lint --format json`), the npm package (`lint`) and the studio
// (its problems list) give the same diagnostics for the same file, over the whole fixture corpus.
// They all call core's `logicmd::analysis`; this test holds them to it.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import * as logicmd from "logicmd";

import { launch, open, serve } from "./support.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const cli = join(process.env.CARGO_TARGET_DIR ?? join(repo, "target"), "debug/logicmd");
const conformance = process.env.LOGICMD_CONFORMANCE_DIR ?? join(repo, "../shared/conformance");

function documents(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return documents(path);
      return /\.(logic\.md|drtl\.ya?ml)$/.test(name) ? [path] : [];
    });
}

/** What a diagnostic says, the same in every caller's JSON. The file system loader names the
 * project root it searched (an absolute path, so it differs from machine to machine); the npm
 * package's loader here is a plain function and names none. */
const shape = (d) => ({
  severity: d.severity,
  code: d.code,
  message: d.message.replace(/ in the project root `[^`]*`/, ""),
  path: d.path,
  line: d.line,
  column: d.column,
});

/** The CLI's JSON report of `files` (relative to `root`, imports confined to it). */
function cliReport(root, relatives) {
  try {
    return execFileSync(cli, ["lint", "--format", "json", "--root", root, ...relatives], { cwd: root, maxBuffer: 1 << 28 });
  } catch (error) {
    // `lint` exits 1 when a file has errors; the report is on stdout all the same.
    if (error.status === 1 && error.stdout) return error.stdout;
    throw error;
  }
}

/** Lints `files` with the CLI and with the npm package, and compares them file by file. */
function compare(root, files) {
  const relatives = files.map((f) => relative(root, f));
  const report = JSON.parse(cliReport(root, relatives).toString());
  assert.equal(report.length, files.length);
  // Missing files come back as `undefined`, which the package reports as "no file".
  const loader = (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : undefined);
  for (const [i, entry] of report.entries()) {
    const npm = logicmd.lint(readFileSync(files[i], "utf8"), relatives[i], loader);
    assert.equal(entry.file, relatives[i]);
    assert.equal(npm.valid, entry.valid, `${relatives[i]}: valid`);
    assert.deepEqual(npm.diagnostics.map(shape), entry.diagnostics.map(shape), relatives[i]);
  }
  return report.length;
}

// Every rule's fixture (`logicmd lint --rules`) and issue #30's documents, beside the older
// corpus: the rules they trigger are held to one answer in every front end.
const RULES = join(repo, "tests/rules");
const STATIC = join(repo, "cli/tests/static_answers");

test("the CLI and the npm package agree on every fixture, example and conformance document", () => {
  const ours = [
    ...documents(join(repo, "tests/fixtures")),
    ...documents(join(repo, "examples")),
    ...documents(join(repo, "tests/drtl")),
    ...documents(RULES),
    ...documents(STATIC),
  ];
  let compared = compare(repo, ours);
  const suite = documents(conformance);
  if (suite.length > 0) compared += compare(conformance, suite);
  assert.ok(compared > 300, `${compared} documents compared`);
});

/** The CLI's `check --format json` report of `files` (relative to `root`). */
function cliCheck(root, relatives) {
  try {
    return execFileSync(cli, ["check", "--format", "json", "--root", root, ...relatives], { cwd: root, maxBuffer: 1 << 28 });
  } catch (error) {
    if (error.status === 1 && error.stdout) return error.stdout;
    throw error;
  }
}

test("the CLI and the npm package agree on the obligation analysis (check), rule by rule", () => {
  const files = [...documents(join(RULES, "check")), ...documents(join(repo, "examples")), ...documents(join(repo, "tests/drtl"))];
  const relatives = files.map((f) => relative(repo, f));
  const report = JSON.parse(cliCheck(repo, relatives).toString());
  assert.equal(report.length, files.length);
  const loader = (path) => (existsSync(join(repo, path)) ? readFileSync(join(repo, path), "utf8") : undefined);
  let findings = 0;
  for (const [i, entry] of report.entries()) {
    const npm = logicmd.check(readFileSync(files[i], "utf8"), relatives[i], loader);
    assert.equal(entry.file, relatives[i]);
    assert.deepEqual(npm.diagnostics.map(shape), entry.diagnostics.map(shape), relatives[i]);
    findings += entry.diagnostics.length;
  }
  // Each check rule's fixture triggers its rule: the comparison is over findings, not silence.
  const codes = new Set(report.flatMap((entry) => entry.diagnostics.map((d) => d.code)));
  for (const code of ["unverified-output", "human-override", "unbounded-cycle", "no-exit", "unreachable", "cannot-terminate", "gate-branch-missing", "unverified-contract", "escalation-never-fires", "unknown-fallback"]) {
    assert.ok(codes.has(code), `${code} found by both`);
  }
  assert.ok(findings > 10, `${findings} findings compared`);
});

// The studio resolves imports against its bundled example files, as `document.logic.md`.
const BUNDLED = {
  "shared/retry-defaults.logic.md": readFileSync(join(repo, "examples/shared/retry-defaults.logic.md"), "utf8"),
  "nodes/researcher.logic.md": readFileSync(join(repo, "examples/nodes/researcher.logic.md"), "utf8"),
  "nodes/synthesizer.logic.md": readFileSync(join(repo, "examples/nodes/synthesizer.logic.md"), "utf8"),
};

let browser;
let server;
before(async () => {
  server = await serve({ "/": join(repo, "dist") });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test("the studio's problems list shows what the npm package reports, file by file", async () => {
  const { page, context } = await open(browser, `${server.url}/`, { viewport: { width: 1600, height: 900 } });
  await page.waitForSelector('[data-testid="source"]');
  const files = [
    ...documents(join(repo, "examples")),
    ...documents(join(repo, "tests/drtl")),
    ...documents(join(repo, "tests/fixtures/parser")),
    ...documents(RULES),
    ...documents(conformance),
  ];
  let compared = 0;
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    if (text.length > 200_000) continue;
    // No path: like the studio, the package then tells the kind from the text.
    const expected = logicmd.lint(text, null, BUNDLED).diagnostics.slice(0, 500);
    await page.fill('[data-testid="source"]', text);
    // Checks run after the redraw; the heading says "checking…" until they report.
    await page
      .waitForFunction((count) => {
        const heading = document.querySelector('[data-testid="diagnostics"] h2')?.textContent ?? "";
        return !heading.includes("checking") && document.querySelectorAll('[data-testid="diagnostics"] li.diagnostic').length === count;
      }, expected.length, { timeout: 10_000 })
      .catch(() => {}); // the comparison below says what differs

    const shown = await page.$$eval('[data-testid="diagnostics"] li.diagnostic', (items) =>
      items.map((li) => ({
        where: li.querySelector(".where").textContent,
        code: li.querySelector(".code").textContent,
        message: li.querySelector(".message").textContent,
      })),
    );
    assert.deepEqual(
      shown,
      expected.map((d) => ({ where: d.line > 0 ? `${d.line}:${d.column}` : "", code: d.code, message: d.message })),
      relative(repo, file),
    );
    compared += 1;
  }
  assert.ok(compared > 40, `${compared} documents compared in the studio`);
  await context.close();
});
