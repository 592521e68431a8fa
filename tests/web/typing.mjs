// Large documents and typing into them: shared by the performance tests and the keystroke profiler.
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
