// Large documents and typing into them: shared by the performance tests and the keystroke profiler.
import { open } from "./support.mjs";
import { SOURCE } from "./studio-suite.mjs";

/** A chain of `n` steps, each needing the one before. */
export function chain(n) {
  const steps = Array.from({ length: n }, (_, i) => `  s${i}:\n    description: step ${i}${i ? `\n    needs: [s${i - 1}]` : ""}`);
  return `---\nspec_version: "1.0"\nname: big\nsteps:\n${steps.join("\n")}\n---\n`;
}

/** `layers` rows of `width` steps, each needing the step above it: a wide graph. */
export function grid(layers, width) {
  const steps = [];
  for (let row = 0; row < layers; row++) {
    for (let column = 0; column < width; column++) {
      const needs = row ? `\n    needs: [g${row - 1}_${column}]` : "";
      steps.push(`  g${row}_${column}:\n    description: cell ${row} ${column}${needs}`);
    }
  }
  return `---\nspec_version: "1.0"\nname: grid\nsteps:\n${steps.join("\n")}\n---\n`;
}

/** Replaces the source text with `text` (one input event, as a paste does), waits until the
 * canvas holds `n` nodes, then scrolls the source back to its top (a paste leaves the view at its
 * end) and waits until the textarea holds the text's first lines (it holds a window of a large
 * text's lines around the view). */
export function loadText(page, text, n) {
  return page.evaluate(
    async ([selector, text, n]) => {
      const area = document.querySelector(selector);
      area.value = text;
      area.dispatchEvent(new Event("input", { bubbles: true }));
      const canvas = document.querySelector('[data-testid="canvas"]');
      while (canvas.getAttribute("data-nodes") !== String(n)) await new Promise((r) => setTimeout(r, 5));
      const scroller = area.closest(".scroller") ?? area;
      scroller.scrollTop = 0;
      const head = text.slice(0, 200);
      while (!area.value.startsWith(head)) await new Promise((r) => setTimeout(r, 5));
    },
    [SOURCE, text, n],
  );
}

/** Replaces the whole source text with `text` in one input event, as a script does (the studio
 * takes it whole, whatever window of lines its textarea holds). */
export function replaceText(page, text) {
  return page.evaluate(
    ([selector, text]) => {
      const area = document.querySelector(selector);
      area.value = text;
      area.dispatchEvent(new Event("input", { bubbles: true }));
    },
    [SOURCE, text],
  );
}

/** The first paint of `text` (`n` nodes): replaces the whole text in one input event and resolves
 * with ms until the first animation frame after the canvas holds every node (`painted`), and until
 * the deferred checks have run (`checked`). */
export function timeLoad(page, text, n) {
  return page.evaluate(
    async ([selector, text, n]) => {
      const area = document.querySelector(selector);
      const canvas = document.querySelector('[data-testid="canvas"]');
      const started = performance.now();
      area.value = text;
      area.dispatchEvent(new Event("input", { bubbles: true }));
      while (canvas.getAttribute("data-nodes") !== String(n)) await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const painted = performance.now() - started;
      const heading = () => document.querySelector('[data-testid="diagnostics"] h2').textContent;
      while (heading().includes("checking")) await new Promise((r) => setTimeout(r, 0));
      return { painted, checked: performance.now() - started };
    },
    [SOURCE, text, n],
  );
}

/** Types one character at the end of step `s1`'s description, as a keystroke does (through the
 * browser's editing, one input event). Returns ms from the keystroke until the canvas DOM shows the
 * new text (`redraw`, seen by a MutationObserver), the same from the `input` event (`fromInput`),
 * until the browser starts the frame that paints it (`painted`), and until the checks have run
 * (`checked`). */
export function keystroke(page, round) {
  return page.evaluate(
    async ([selector, round]) => {
      const area = document.querySelector(selector);
      const marker = `step 1 ${"x".repeat(round + 1)}`;
      const found = area.value.indexOf("description: step 1");
      if (found < 0) throw new Error("step s1 is not in the source's window (scrolled away from the top?)");
      const at = found + "description: step 1".length + (round ? round + 1 : 0);
      area.focus();
      area.setSelectionRange(at, at);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const subtitle = () => document.querySelector('[data-node-id="step:s1"] .node-kind')?.textContent ?? "";
      let input = 0;
      let drawn = 0;
      const observer = new MutationObserver(() => {
        if (!drawn && subtitle().includes(marker)) drawn = performance.now();
      });
      observer.observe(document.querySelector('[data-testid="canvas"]'), { subtree: true, childList: true, characterData: true });
      area.addEventListener("input", () => (input = performance.now()), { capture: true, once: true });
      const started = performance.now();
      document.execCommand("insertText", false, round ? "x" : " x");
      // The frame that shows the change starts with the first animation frame callback after it.
      let painted = 0;
      while (!painted) {
        if (performance.now() - started > 120000) return { redraw: Infinity, fromInput: Infinity, painted: Infinity, checked: Infinity };
        const frame = await new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
        if (drawn) painted = frame;
      }
      observer.disconnect();
      const heading = () => document.querySelector('[data-testid="diagnostics"] h2').textContent;
      while (heading().includes("checking")) await new Promise((resolve) => setTimeout(resolve, 0));
      return { redraw: drawn - started, fromInput: drawn - input, painted: painted - started, checked: performance.now() - started };
    },
    [SOURCE, round],
  );
}

/** Installed in the page: times each keydown in the source until its character is painted. */
function instrument() {
  const state = { keys: [], events: [] };
  window.__typing = state;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) state.events.push({ name: e.name, start: e.startTime, duration: e.duration });
  }).observe({ type: "event", durationThreshold: 16 });
  addEventListener(
    "keydown",
    (ev) => {
      if (!ev.target.matches?.('[data-testid="source"]')) return;
      const key = { down: ev.timeStamp, frame: 0 };
      state.keys.push(key);
      const line = () =>
        [...document.querySelectorAll(".highlight .line")].find((l) => l.textContent.startsWith("    description: step 1 "))?.textContent ?? "";
      const want = state.expect;
      const check = () =>
        requestAnimationFrame(() => {
          if (!line().replace("\u200b", "").endsWith(want)) return check();
          const channel = new MessageChannel();
          channel.port1.onmessage = () => (key.frame = performance.now() - key.down);
          channel.port2.postMessage(0);
        });
      check();
    },
    { capture: true },
  );
}

/** A studio page on `dist` with chain(n) loaded and the caret placed by a click at the end of
 * step s1's description, the source's assistance loaded (the pointer wakes it, as a person's does). */
export async function typingPage(browser, url, n, options) {
  const session = await open(browser, url, { ...options, init: () => localStorage.setItem("logicmd.studio.welcomed", "1") });
  const { page } = session;
  await page.waitForSelector("[data-node-id]");
  await loadText(page, chain(n), n);
  await page.evaluate(instrument);
  await page.waitForTimeout(300);
  const line = page.locator(".highlight .line", { hasText: /^ {4}description: step 1\u200b?$/ });
  const box = await line.boundingBox();
  const code = await page.locator(".code").boundingBox();
  await page.mouse.click(code.x + code.width - 30, box.y + box.height / 2);
  await page.waitForSelector('.source[data-ide="ready"]', { timeout: 10000 }).catch(() => {});
  await page.waitForTimeout(300);
  return session;
}

/** `count` real key presses; per key {frame, event} ms (see the header). */
export async function typeKeys(page, count, cadence, shot) {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  // What step s1's description holds after "step 1" so far (an earlier call typed there too).
  let typed = await page.evaluate(() => document.querySelector('[data-testid="source"]').value.match(/description: step 1( [a-z]*)?\n/)[1] ?? "");
  typed += " ";
  await page.evaluate((t) => (window.__typing.expect = t), typed);
  await page.keyboard.press("Space");
  await page.waitForFunction(() => window.__typing.keys.at(-1).frame > 0);
  const first = await page.evaluate(() => window.__typing.keys.length);
  for (let k = 0; k < count; k++) {
    const letter = letters[k % letters.length];
    typed += letter;
    await page.evaluate((t) => (window.__typing.expect = t), typed);
    const pressed = Date.now();
    await page.keyboard.press(letter);
    await page.waitForFunction((n) => window.__typing.keys.length >= n && window.__typing.keys[n - 1].frame > 0, first + k + 1, { polling: 5 });
    const left = cadence - (Date.now() - pressed);
    if (left > 0) await page.waitForTimeout(left);
  }
  await page.waitForTimeout(200);
  if (shot) await page.locator(".source").screenshot({ path: shot });
  const { keys, events, value } = await page.evaluate(() => ({ ...window.__typing, value: document.querySelector('[data-testid="source"]').value }));
  if (!value.includes(`description: step 1${typed}\n`)) throw new Error(`typed text lost: step 1's description is not "step 1${typed}"`);
  return keys.slice(first).map((key) => {
    const entry = events.find((e) => e.name === "keydown" && Math.abs(e.start - key.down) < 1);
    return { frame: key.frame, event: entry ? entry.duration : 0 };
  });
}

/** A start in a fresh browser context (empty HTTP cache,
 * so no compiled wasm either, and empty storage): ms from navigation to the end of the first
 * frame showing the default example interactive (a node drawn on the canvas and the source
 * textarea holding the text), with when the wasm had arrived and when the app had started
 * (Trunk's `TrunkApplicationStarted`: the module instantiated and the first render done). `around`
 * wraps the navigation (a profiler); resolves to what it returns (by default, the figures). A first visit (`firstVisit`)
 * has empty storage and shows the welcome; otherwise the storage says the welcome was seen. */
export async function startStudio(browser, url, around = (page, act) => act(), firstVisit = false) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript((firstVisit) => {
    if (!firstVisit) localStorage.setItem("logicmd.studio.welcomed", "1");
    addEventListener("TrunkApplicationStarted", () => (window.__started = performance.now()));
    const seen = () => {
      const area = document.querySelector('[data-testid="source"]');
      return document.querySelector("[data-node-id]") && area && area.value.length > 0;
    };
    const watch = () =>
      requestAnimationFrame(() => {
        if (!seen()) return watch();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => (window.__interactive = performance.now());
        channel.port2.postMessage(0);
      });
    watch();
  }, firstVisit);
  const page = await context.newPage();
  const result = await around(page, async () => {
    await page.goto(url);
    await page.waitForFunction(() => window.__interactive > 0, null, { polling: 10, timeout: 60000 });
    return page.evaluate(() => {
      const wasm = performance.getEntriesByType("resource").find((r) => r.name.endsWith("_bg.wasm"));
      return { interactive: window.__interactive, started: window.__started ?? 0, wasmFetched: wasm ? wasm.responseEnd : 0 };
    });
  });
  await context.close();
  return result;
}
