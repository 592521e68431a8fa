// Run mode of the studio (issue #16) in headless Chromium: a user runs the document, opens nodes,
// answers reviews, replays a trace. Needs dist/ (trunk build --release).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { createServer } from "node:http";

import { menu, openRunPanel, repo, shots, SOURCE, studioSuite } from "./studio-suite.mjs";
import { chain } from "./typing.mjs";

const suite = studioSuite({ viewport: { width: 1600, height: 1000 }, acceptDownloads: true });
const studio = suite.studio;

const STATUS = '[data-testid="run-status"]';
const blockWithoutReview = readFileSync(`${repo}tests/run/drtl/block-without-review.drtl.yaml`, "utf8");
// DRTL has no hidden retry (drtl-spec §9.1): `extract` answers once.
const claimsThenBlock = [
  "- {node: extract, json: {product_names: [Widget Pro, Gizmo 9], urls: []}}",
  "- {node: verify_claims, tool: std.check_existence, verdict: {passed: false, evidence: \"no product named Gizmo 9\"}}",
  "- {node: verify_claims, tool: std.check_links, verdict: {passed: true}}",
].join("\n");
const invalidOutput = readFileSync(`${repo}tests/run/logic/invalid-output.logic.md`, "utf8");
const notJsonThenValid = [
  "- {node: extract, attempt: 1, text: \"Sure! The name is Ada Lovelace.\"}",
  "- {node: extract, attempt: 2, json: {name: Ada Lovelace, year: 1815}}",
  "- {node: report, text: Ada Lovelace was born in 1815.}",
].join("\n");
const escalate = readFileSync(`${repo}tests/run/logic/escalate.logic.md`, "utf8");
const escalateScript = readFileSync(`${repo}tests/run/logic/escalate.script.yaml`, "utf8");
const factCheck = readFileSync(`${repo}examples/studio/fact-check.drtl.yaml`, "utf8");

/** Replaces the document, as typing it would. */
async function load(page, text) {
  await page.fill(SOURCE, text);
  await page.waitForFunction((t) => document.querySelector('[data-testid="source"]').value === t, text);
}

/** Waits until the run's phase starts with `prefix`. */
async function phase(page, prefix, timeout = 20_000) {
  await page.waitForFunction(
    ([selector, p]) => document.querySelector(selector)?.dataset.phase.startsWith(p),
    [STATUS, prefix],
    { timeout },
  );
}

/** The run's trace, downloaded as a user would. */
async function downloadTrace(page) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="trace-download"]')]);
  const path = await download.path();
  return readFileSync(path, "utf8").trim().split("\n").map((line) => JSON.parse(line));
}

/** Every node element's run state, by node id. */
const canvasStates = (page) =>
  page.$$eval("[data-node-id]", (nodes) => Object.fromEntries(nodes.map((n) => [n.dataset.nodeId, n.dataset.runState ?? null])));

/** The node states a trace implies, counted on its own (a second reading of the events). */
function stateChanges(trace) {
  const history = new Map();
  const enter = (node, state) => {
    const h = history.get(node) ?? [];
    if (h.at(-1) !== state) h.push(state);
    history.set(node, h);
  };
  const byEvent = { node_started: "running", retried: "retried", review_requested: "review", node_skipped: "skipped" };
  for (const e of trace) {
    if (e.event === "run_started") e.plan.nodes.forEach((n) => enter(n.id, "queued"));
    else if (e.event === "refused") e.unmet.forEach((u) => enter(u.node, "refused"));
    else if (e.event === "node_finished") enter(e.node, e.status === "succeeded" ? "succeeded" : "failed");
    else if (byEvent[e.event] && e.node) enter(e.node, byEvent[e.event]);
  }
  return history;
}

test("the default example runs with the synthetic provider: every node that runs succeeds, as many state changes as the trace has", async () => {
  const { page, errors, context } = await studio();
  await page.click('[data-testid="run"]');
  await phase(page, "completed");
  const trace = await downloadTrace(page);
  const history = stateChanges(trace);
  const changes = [...history.values()].reduce((n, h) => n + h.length, 0);
  assert.equal(await page.getAttribute(STATUS, "data-changes"), String(changes));
  const states = await canvasStates(page);
  for (const [node, h] of history) {
    const expected = h.includes("running") ? "succeeded" : "skipped";
    assert.equal(h.at(-1), expected, `${node}: ${h}`);
    assert.equal(states[`step:${node}`], expected, node);
  }
  assert.ok([...history.values()].some((h) => h.at(-1) === "succeeded"));
  assert.deepEqual(trace.at(-1), { ...trace.at(-1), event: "run_finished", status: "completed" });
  const checks = await page.$$eval('[data-testid="trace-checks"] li', (li) => li.map((l) => [l.dataset.check, l.dataset.passed]));
  assert.equal(checks.length, 5);
  assert.ok(checks.every(([, passed]) => passed === "true"), JSON.stringify(checks));
  await page.screenshot({ path: `${shots}/run-finished-light.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a node's card shows the request and the output the trace holds", async () => {
  const { page, errors, context } = await studio();
  await page.click('[data-testid="run"]');
  await phase(page, "completed");
  const trace = await downloadTrace(page);
  await page.click('[data-node-id="step:synthesize"] .node-title');
  const request = trace.filter((e) => e.event === "model_requested" && e.node === "synthesize").at(-1).request;
  const output = trace.find((e) => e.event === "node_finished" && e.node === "synthesize").output;
  assert.deepEqual(JSON.parse(await page.textContent('[data-testid="card-request"]')), request);
  assert.deepEqual(JSON.parse(await page.textContent('[data-testid="card-output"]')), output);
  const tokens = trace
    .filter((e) => e.event === "model_responded" && e.node === "synthesize")
    .reduce((t, e) => ({ input_tokens: t.input_tokens + e.usage.input_tokens, output_tokens: t.output_tokens + e.usage.output_tokens }), { input_tokens: 0, output_tokens: 0 });
  assert.deepEqual(JSON.parse(await page.textContent('[data-testid="card-tokens"]')), tokens);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a step whose answer breaks its schema is retried, and its node shows the retry count", async () => {
  const { page, errors, context } = await studio();
  await load(page, invalidOutput);
  await page.waitForSelector('[data-node-id="step:extract"]');
  await page.selectOption('[data-testid="run-provider"]', "scripted");
  await page.fill('[data-testid="run-script"]', notJsonThenValid);
  await page.click('[data-testid="run"]');
  await phase(page, "completed");
  assert.equal(await page.getAttribute('[data-node-id="step:extract"]', "data-run-state"), "succeeded");
  assert.match(await page.textContent('[data-node-id="step:extract"] .node-run-caption'), /retried 1×/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a scripted run whose verification fails shows the refusal with its obligation", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const { page, errors, context } = await studio({ colorScheme });
    await load(page, blockWithoutReview);
    await page.waitForSelector('[data-node-id="drtl:verify_claims"]');
    await openRunPanel(page);
    await page.selectOption('[data-testid="run-provider"]', "scripted");
    await page.fill('[data-testid="run-script"]', claimsThenBlock);
    await page.click('[data-testid="run"]');
    await phase(page, "refused");
    assert.equal(await page.getAttribute('[data-node-id="drtl:extract"]', "data-run-state"), "succeeded");
    assert.equal(await page.getAttribute('[data-node-id="drtl:verify_claims"]', "data-run-state"), "refused");
    // Never started: the refusal ended the run first (issue #31; it stayed "queued" before).
    assert.equal(await page.getAttribute('[data-node-id="drtl:publish"]', "data-run-state"), "cancelled");
    const unmet = await page.$$eval('[data-testid="unmet"]', (li) => li.map((l) => [l.dataset.node, l.dataset.rule]));
    assert.deepEqual(unmet, [["verify_claims", "std.check_existence"]]);
    await page.click('[data-testid="unmet"] button');
    assert.equal(await page.textContent('[data-testid="run-card"] h3'), "verify_claims");
    await page.screenshot({ path: `${shots}/run-refused-${colorScheme}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("a review pauses the run; the chosen action resumes it and routes where the document says", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const { page, errors, context } = await studio({ colorScheme });
    await load(page, factCheck);
    await page.waitForSelector('[data-node-id="drtl:editor"]');
    await page.click('[data-testid="run"]');
    await phase(page, "paused: review at editor");
    assert.equal(await page.getAttribute('[data-node-id="drtl:editor"]', "data-run-state"), "review");
    const actions = await page.$$eval('[data-testid="review-action"]', (b) => b.map((x) => x.dataset.action));
    assert.deepEqual(actions, ["retry", "reject"]);
    assert.match(await page.textContent('[data-testid="run-review"]'), /Some claims could not be verified\./);
    await page.screenshot({ path: `${shots}/run-review-${colorScheme}.png` });
    await page.click('[data-testid="review-action"][data-action="retry"]');
    await phase(page, "paused: review at editor");
    await page.click('[data-testid="review-action"][data-action="reject"]');
    await page.waitForFunction((s) => !document.querySelector(s).dataset.phase.startsWith("paused"), STATUS);
    const trace = await downloadTrace(page);
    const reviews = trace.map((e, i) => [e, i]).filter(([e]) => e.event === "review_requested");
    assert.equal(reviews.length, 2);
    const afterFirst = trace.slice(reviews[0][1] + 1).find((e) => e.event === "node_started");
    assert.equal(afterFirst.node, "draft", "retry routes to draft");
    assert.equal(trace.slice(reviews[1][1] + 1).some((e) => e.event === "node_started"), false, "reject runs nothing more");
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("a breakpoint pauses before its node; Step and Continue go on", async () => {
  const { page, errors, context } = await studio();
  await page.click('[data-node-id="step:synthesize"] .node-title');
  await page.check('[data-testid="breakpoint"]');
  await page.click('[data-testid="run"]');
  await phase(page, "paused: before synthesize");
  assert.equal(await page.getAttribute('[data-node-id="step:synthesize"]', "data-run-state"), "waiting");
  assert.equal(await page.getAttribute('[data-node-id="step:identify_competitors"]', "data-run-state"), "succeeded");
  await page.screenshot({ path: `${shots}/run-in-progress-light.png` });
  const before = Number((await page.textContent(STATUS)).match(/(\d+) events/)[1]);
  await page.click('[data-testid="run-step"]');
  await phase(page, "paused: stepped");
  const stepped = Number((await page.textContent(STATUS)).match(/(\d+) events/)[1]);
  assert.ok(stepped > before, `${stepped} > ${before}`);
  await page.click('[data-testid="run-continue"]');
  await phase(page, "completed");
  assert.equal(await page.getAttribute('[data-node-id="step:synthesize"]', "data-run-state"), "succeeded");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a running node shows how long it has been running (page clock); the trace's clock stays fixed", async () => {
  // A server that takes about two seconds to answer: the node runs that long.
  const endpoint = await loopback(Array.from({ length: 18 }, (_, i) => `word${i}`).join(" "));
  const { page, errors, context } = await studio();
  try {
    await load(page, hello);
    await page.waitForSelector('[data-node-id="step:greet"]');
    await openRunPanel(page);
    await page.selectOption('[data-testid="run-provider"]', "openai");
    await page.fill('[data-testid="run-base-url"]', `${endpoint.url}/v1`);
    await page.fill('[data-testid="run-model"]', "loopback-model");
    await page.click('[data-testid="run"]');
    const caption = '[data-node-id="step:greet"] .node-run-caption';
    await page.waitForFunction((c) => /running · \d+\.\d s$/.test(document.querySelector(c)?.textContent ?? ""), caption);
    const seconds = async () => Number((await page.textContent(caption)).match(/running · (\d+\.\d) s$/)?.[1]);
    const early = await seconds();
    await page.waitForFunction(([c, t]) => Number(document.querySelector(c).textContent.match(/(\d+\.\d) s$/)?.[1]) >= t + 1, [caption, early]);
    await phase(page, "completed");
    assert.equal(await page.textContent(caption), "✓ succeeded");
    const trace = await downloadTrace(page);
    assert.ok(trace.every((e) => e.t === 0), "the trace's clock is the engine's, not the page's");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await endpoint.close();
  }
});

test("a trace dropped on the page replays to the same final canvas, and the scrubber goes back", async () => {
  const live = await studio();
  await live.page.click('[data-testid="run"]');
  await phase(live.page, "completed");
  const trace = await downloadTrace(live.page);
  const finalStates = await canvasStates(live.page);
  await live.context.close();

  const { page, errors, context } = await studio();
  const file = `${repo}target/screenshots/replayed.trace.jsonl`;
  writeFileSync(file, trace.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const bytes = readFileSync(file, "utf8");
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], "run.trace.jsonl", { type: "application/x-ndjson" }));
    // Dropped anywhere on the page (the canvas here): a trace replays.
    const target = document.querySelector('[data-testid="canvas"]');
    target.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, bytes);
  await phase(page, "replayed trace: completed");
  assert.deepEqual(await canvasStates(page), finalStates);
  await page.locator('[data-testid="trace-scrub"]').fill("3");
  const early = await canvasStates(page);
  assert.ok(Object.values(early).every((s) => s === null || s === "queued" || s === "running"), JSON.stringify(early));
  await page.locator('[data-testid="trace-scrub"]').fill(String(trace.length));
  assert.deepEqual(await canvasStates(page), finalStates);
  assert.deepEqual(errors, []);
  await context.close();
});

/** The nodes of a trace that called a model, and those that finished pinned. */
function calledAndPinned(trace) {
  const called = [...new Set(trace.filter((e) => e.event === "model_requested").map((e) => e.node))].sort();
  const pinned = trace.filter((e) => e.event === "node_finished" && e.pinned === true).map((e) => e.node).sort();
  return { called, pinned };
}

test("pin an output and run from a node: only that node and what depends on it call the model, the rest is pinned", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const { page, errors, context } = await studio({ colorScheme });
    await page.click('[data-testid="run"]');
    await phase(page, "completed");
    const first = await downloadTrace(page);
    assert.deepEqual(calledAndPinned(first).pinned, []);

    // Run from the last step: everything before it keeps its output from the first run.
    await page.click('[data-node-id="step:synthesize"] .node-title');
    await page.click('[data-testid="run-from"]');
    await phase(page, "completed");
    const fromLast = await downloadTrace(page);
    assert.deepEqual(calledAndPinned(fromLast), { called: ["synthesize"], pinned: ["analyze_features", "identify_competitors"] });
    const finished = (trace, node) => trace.find((e) => e.event === "node_finished" && e.node === node).output;
    assert.deepEqual(finished(fromLast, "analyze_features"), finished(first, "analyze_features"));
    assert.match(await page.textContent('[data-node-id="step:identify_competitors"] .node-run-caption'), /succeeded · ◆ pinned/);

    // Pin the first step's output, edited by hand; JSON that does not parse is refused.
    await page.click('[data-node-id="step:identify_competitors"] .node-title');
    await page.fill('[data-testid="pin-editor"]', "{ not json");
    await page.click('[data-testid="pin"]');
    assert.match(await page.textContent('[data-testid="pin-error"]'), /not JSON/);
    const edited = { ...finished(first, "identify_competitors"), pinned_by: "a person" };
    await page.fill('[data-testid="pin-editor"]', JSON.stringify(edited, null, 2));
    await page.click('[data-testid="pin"]');
    assert.match(await page.textContent('[data-testid="pin-status"]'), /pinned: every run uses this output/);
    assert.equal(await page.$('[data-testid="pin-error"]'), null);

    // Run from the second step: it and the last call the model, on the pinned output.
    await page.click('[data-node-id="step:analyze_features"] .node-title');
    await page.click('[data-testid="run-from"]');
    await phase(page, "completed");
    const fromSecond = await downloadTrace(page);
    assert.deepEqual(calledAndPinned(fromSecond), { called: ["analyze_features", "synthesize"], pinned: ["identify_competitors"] });
    const started = fromSecond.find((e) => e.event === "node_started" && e.node === "analyze_features");
    assert.deepEqual(started.inputs.steps.identify_competitors, edited);
    assert.deepEqual(finished(fromSecond, "identify_competitors"), edited);
    await page.click('[data-node-id="step:identify_competitors"] .node-title');
    await page.screenshot({ path: `${shots}/run-pin-${colorScheme}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("a tool check waits in the node card: passing it by hand routes on; auto-answer records it unverifiable", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const { page, errors, context } = await studio({ colorScheme });
    await load(page, blockWithoutReview);
    await page.waitForSelector('[data-node-id="drtl:verify_claims"]');
    await openRunPanel(page);
    await page.uncheck('[data-testid="run-auto-answer"]');
    await page.click('[data-testid="run"]');
    await phase(page, "paused: tool check at verify_claims");
    assert.equal(await page.getAttribute('[data-node-id="drtl:verify_claims"]', "data-run-state"), "running");
    await page.click('[data-node-id="drtl:verify_claims"] .node-title');
    assert.equal(await page.getAttribute('[data-testid="tool-check"]', "data-tool"), "std.check_existence");
    await page.fill('[data-testid="tool-evidence"]', "Both products are listed on the vendor's site.");
    await page.screenshot({ path: `${shots}/run-tool-check-${colorScheme}.png` });
    assert.ok(await page.isDisabled('[data-testid="run-continue"]'), "Continue waits for the answer");
    await page.click('[data-testid="tool-pass"]');
    await phase(page, "paused: tool check at verify_claims");
    assert.equal(await page.getAttribute('[data-testid="tool-check"]', "data-tool"), "std.check_links");
    await page.click('[data-testid="tool-pass"]');
    await phase(page, "completed");
    assert.equal(await page.getAttribute('[data-node-id="drtl:publish"]', "data-run-state"), "succeeded");
    const trace = await downloadTrace(page);
    const verdicts = trace.filter((e) => e.event === "obligation_updated").map((e) => [e.rule, e.status, e.verdict]);
    assert.deepEqual(verdicts, [
      ["std.check_existence", "satisfied", { passed: true, evidence: "Both products are listed on the vendor's site." }],
      ["std.check_links", "satisfied", { passed: true }],
    ]);
    assert.deepEqual(errors, []);
    await context.close();
  }
  const { page, errors, context } = await studio();
  await load(page, blockWithoutReview);
  await page.waitForSelector('[data-node-id="drtl:verify_claims"]');
  await openRunPanel(page);
  assert.ok(await page.isChecked('[data-testid="run-auto-answer"]'), "auto-answer is on by default");
  await page.click('[data-testid="run"]');
  await phase(page, "refused");
  const trace = await downloadTrace(page);
  const existence = trace.find((e) => e.event === "obligation_updated" && e.rule === "std.check_existence");
  assert.deepEqual(existence.verdict, { passed: false, unverifiable: true, evidence: "no facts to check against" });
  assert.equal(await page.getAttribute('[data-node-id="drtl:verify_claims"]', "data-run-state"), "refused");
  assert.deepEqual(errors, []);
  await context.close();
});

test("an escalation pauses the run for review: accept finishes with the output, abort fails the run", async () => {
  for (const [action, status] of [["accept", "completed"], ["abort", "failed"]]) {
    const { page, errors, context } = await studio();
    await load(page, escalate);
    await page.waitForSelector('[data-node-id="step:assess"]');
    await openRunPanel(page);
    await page.selectOption('[data-testid="run-provider"]', "scripted");
    await page.fill('[data-testid="run-script"]', escalateScript);
    await page.fill('[data-testid="run-input"]', JSON.stringify({ change: "drop the cache" }));
    await page.click('[data-testid="run"]');
    await phase(page, "paused: review at assess");
    assert.equal(await page.getAttribute('[data-node-id="step:assess"]', "data-run-state"), "review");
    const actions = await page.$$eval('[data-testid="review-action"]', (b) => b.map((x) => x.dataset.action));
    assert.deepEqual(actions, ["accept", "retry", "abort"]);
    assert.match(await page.textContent('[data-testid="run-review"]'), /Still unsure after a change of strategy/);
    await page.click(`[data-testid="review-action"][data-action="${action}"]`);
    await phase(page, status);
    const trace = await downloadTrace(page);
    assert.equal(trace.at(-1).status, status);
    if (action === "accept") {
      assert.deepEqual(trace.find((e) => e.event === "node_finished" && e.node === "assess").output, { risk: "moderate", confidence: 0.5 });
    }
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("the run panel keeps the page within 1024 px", async () => {
  const { page, errors, context } = await studio({ viewport: { width: 1024, height: 768 } });
  await page.click('[data-testid="run"]');
  await phase(page, "completed");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 1024, `page is ${width}px wide`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("performance: frame times while a 1,000-step document runs (figures in target/studio-run-perf.json)", { timeout: 300_000 }, async () => {
  const { page, errors, context } = await studio();
  await page.evaluate((text) => {
    const area = document.querySelector('[data-testid="source"]');
    area.value = text;
    area.dispatchEvent(new Event("input", { bubbles: true }));
  }, chain(1000));
  await page.waitForFunction(() => document.querySelector('[data-testid="canvas"]').dataset.nodes === "1000", null, { timeout: 120_000 });
  await page.evaluate(() => {
    const frames = [];
    window.__frames = frames;
    const tick = (t) => {
      frames.push(t);
      if (window.__frames === frames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const started = Date.now();
  await page.click('[data-testid="run"]');
  await phase(page, "completed", 240_000);
  const runMs = Date.now() - started;
  const frames = await page.evaluate(() => {
    const frames = window.__frames;
    window.__frames = null;
    return frames;
  });
  const deltas = frames.slice(1).map((t, i) => t - frames[i]).sort((a, b) => a - b);
  const [engineFrames, engineMedian, engineMax] = (await page.getAttribute(STATUS, "data-engine-ms")).split(" ").map(Number);
  const figures = {
    run_wall_ms_1000_steps: runMs,
    frames_during_run: deltas.length,
    frame_ms_median: deltas[Math.floor(deltas.length / 2)],
    frame_ms_p95: deltas[Math.floor(deltas.length * 0.95)],
    frame_ms_max: deltas.at(-1),
    engine_frames: engineFrames,
    engine_ms_per_frame_median: engineMedian,
    engine_ms_per_frame_max: engineMax,
    events: Number((await page.textContent(STATUS)).match(/(\d+) events/)[1]),
  };
  writeFileSync(`${repo}target/studio-run-perf.json`, JSON.stringify(figures, null, 2) + "\n");
  // Only the nodes near the screen are drawn; those drawn all succeeded.
  const drawn = Object.values(await canvasStates(page));
  assert.ok(drawn.length > 0 && drawn.every((s) => s === "succeeded"), JSON.stringify(drawn));
  assert.ok(engineFrames > 1, "the run was spread over frames");
  assert.deepEqual(errors, []);
  await context.close();
});

const KEY = "sk-test-loopback-4d3c2b1a";
const hello = `---\nspec_version: "1.0"\nname: hello\nsteps:\n  greet:\n    description: Say hello\n---\n`;

/** An OpenAI-compatible server on 127.0.0.1 (CORS, server-sent events, one token every 120 ms)
 * that answers the n-th request with `answers[n]` (the last one again after the list); it closes
 * itself after a minute even if the test does not. */
function loopback(answers) {
  const requests = [];
  const cors = {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "content-type, authorization, accept",
    "access-control-allow-methods": "POST, OPTIONS",
  };
  const server = createServer((request, response) => {
    if (request.method === "OPTIONS") return response.writeHead(204, cors).end();
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", async () => {
      requests.push({ url: request.url, authorization: request.headers.authorization, body: JSON.parse(body) });
      const answer = answers[Math.min(requests.length, answers.length) - 1];
      response.writeHead(200, { ...cors, "content-type": "text/event-stream" });
      for (const token of answer.match(/\S+\s*/g)) {
        response.write(`data: ${JSON.stringify({ choices: [{ delta: { content: token } }] })}\n\n`);
        await new Promise((done) => setTimeout(done, 120));
      }
      response.write(`data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 12, completion_tokens: 9 } })}\n\n`);
      response.end("data: [DONE]\n\n");
    });
  });
  const stop = setTimeout(() => server.close(), 60_000);
  stop.unref();
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        requests,
        close: () => new Promise((done) => { clearTimeout(stop); server.close(done); }),
      }),
    );
  });
}

test("a run against a loopback OpenAI-compatible server streams tokens into the node card; the key is never stored, shared or traced", async () => {
  // The first answer quotes the key: it is masked while it streams and refused (never recorded,
  // never rewritten), so the step asks again; the second answer is clean.
  const answers = [
    `Hello there, this answer arrives one token at a time, and it quotes the key ${KEY} which must be redacted.`,
    "Hello again, this answer arrives one token at a time, and it is kept whole.",
  ];
  const endpoint = await loopback(answers);
  const { page, errors, context } = await studio();
  try {
    await load(page, hello);
    await page.waitForSelector('[data-node-id="step:greet"]');
    await page.click('[data-node-id="step:greet"] .node-title');
    await openRunPanel(page);
    await page.selectOption('[data-testid="run-provider"]', "openai");
    await page.fill('[data-testid="run-base-url"]', `${endpoint.url}/v1`);
    await page.fill('[data-testid="run-model"]', "loopback-model");
    await page.fill('[data-testid="run-key"]', KEY);
    await page.click('[data-testid="run"]');
    // Part of the answer is shown before the server has sent all of it.
    await page.waitForFunction(() => /Hello there/.test(document.querySelector('[data-testid="card-stream"]')?.textContent ?? ""));
    const partial = await page.textContent('[data-testid="card-stream"]');
    assert.ok(!partial.includes("redacted."), `streamed, not whole: ${partial}`);
    await page.screenshot({ path: `${shots}/run-streaming-light.png` });
    await page.waitForFunction(() => /\[redacted\]/.test(document.querySelector('[data-testid="card-stream"]')?.textContent ?? ""));
    assert.ok(!(await page.textContent('[data-testid="card-stream"]')).includes(KEY), "the key is masked in the streamed tokens");
    await phase(page, "completed");
    const shown = await page.textContent('[data-testid="card-stream"]');
    assert.ok(shown.endsWith("it is kept whole."), shown);
    assert.equal(endpoint.requests.length, 2);
    assert.equal(endpoint.requests[0].url, "/v1/chat/completions");
    assert.equal(endpoint.requests[0].authorization, `Bearer ${KEY}`);
    assert.equal(endpoint.requests[0].body.model, "loopback-model");
    assert.equal(endpoint.requests[0].body.stream, true);
    const trace = await downloadTrace(page);
    const responses = trace.filter((e) => e.event === "model_responded");
    assert.match(responses[0].error.message, /^the answer holds the API key, so it is not recorded/);
    assert.equal(responses[1].text, answers[1]);
    assert.equal(responses[1].usage.output_tokens, 9);
    assert.ok(!JSON.stringify(trace).includes(KEY), "the key is not in the trace");
    await menu(page, "file", "share");
    const link = await page.inputValue('[data-testid="share-link"]');
    assert.ok(!link.includes(KEY) && !decodeURIComponent(link).includes(KEY), "the key is not in a share link");
    assert.ok(!page.url().includes(KEY), "the key is not in the address");
    await page.waitForTimeout(500); // past the autosave's delay
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    assert.ok(!stored.includes(KEY), "the key is not in the browser's storage");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await endpoint.close();
  }
});

test("the compiled prompt of a step is what the run sends, with its HTTP body, and follows the text", async () => {
  const { page, errors, context } = await studio();
  await openRunPanel(page);
  await page.click('[data-node-id="step:synthesize"] .node-title');
  await page.click('[data-part="prompt"] summary');
  // The prompt is compiled by run mode, which loads on first use: until it has, the card says
  // "Loading run mode…" (a race the CI met under load), so wait for both texts to be JSON.
  await page.waitForFunction(() =>
    ['[data-testid="card-prompt"]', '[data-testid="card-http-body"]'].every((selector) =>
      (document.querySelector(selector)?.textContent ?? "").trimStart().startsWith("{"),
    ),
  );
  const compiled = JSON.parse(await page.textContent('[data-testid="card-prompt"]'));
  const body = JSON.parse(await page.textContent('[data-testid="card-http-body"]'));
  await page.click('[data-testid="run"]');
  await phase(page, "completed");
  const trace = await downloadTrace(page);
  const sent = trace.find((e) => e.event === "model_requested" && e.node === "synthesize").request;
  assert.deepEqual(compiled, sent);
  assert.equal(body.model, "MODEL");
  assert.deepEqual(body.messages[0], { role: "system", content: sent.system });
  const text = await page.inputValue(SOURCE);
  await load(page, text.replace("Write the competitive analysis report", "Write the market report"));
  await page.waitForFunction(() => /Write the market report/.test(document.querySelector('[data-testid="card-prompt"]')?.textContent ?? ""));
  assert.deepEqual(errors, []);
  await context.close();
});
