// The loader of the run engine's module (split_engine.wasm), which the build's split step cut
// from the package's wasm (scripts/build-npm.sh; docs/decisions.md "npm package: the engine
// loaded on first use"). The first-load module imports `__wasm_split_load_engine` from here (as
// `./__wasm_split.js`, the name the split step gives it) and calls it when the engine is first
// needed, with a callback in its function table to call once the module is in (or failed).
//
// Node: `node.js` hands over a synchronous reader, so the module is compiled and instantiated
// within the call and `createRun` & co. keep their synchronous API. Browsers and bundlers: the
// module is fetched (`new URL(…, import.meta.url)`, which bundlers follow and emit as an asset)
// and compiled asynchronously; `loadRun()` awaits it.
import { initSync } from "./logicmd.js";

const ENGINE_URL = new URL("./split_engine.wasm", import.meta.url);

let loaded = false;
let readEngine;
let fetching;

/** Node: `read()` returns the engine module's bytes; the first use then loads it synchronously. */
export function readEngineWith(read) {
  readEngine = read;
}

// The first-load module's exports (memory, function table, what the split shares): the engine's
// module imports them by name from `__wasm_split`.
function sharedImports(module) {
  const exports = initSync(undefined);
  const shared = {};
  for (const { module: from, name } of WebAssembly.Module.imports(module)) {
    if (from === "__wasm_split") shared[name] = exports[name];
  }
  return { __wasm_split: shared };
}

function instantiate(module) {
  new WebAssembly.Instance(module, sharedImports(module));
  loaded = true;
}

function fetchEngine() {
  fetching ??= (async () => {
    const response = await fetch(ENGINE_URL);
    if (!response.ok) throw new Error(`${ENGINE_URL}: HTTP ${response.status}`);
    const module = await WebAssembly.compile(await response.arrayBuffer());
    // Another load may have finished meanwhile (Node's synchronous one): instantiate once.
    if (!loaded) {
      await WebAssembly.instantiate(module, sharedImports(module));
      loaded = true;
    }
  })();
  // A failed fetch is not kept: the next use tries again.
  fetching.catch(() => {
    fetching = undefined;
  });
  return fetching;
}

function callBack(callbackIndex, callbackData, success) {
  initSync(undefined).__indirect_function_table.get(callbackIndex)(callbackData, success);
}

function failed(error) {
  console.error("logicmd: the run engine's module did not load:", error);
}

export function __wasm_split_load_engine(callbackIndex, callbackData) {
  if (loaded) return callBack(callbackIndex, callbackData, true);
  if (readEngine) {
    let success = false;
    try {
      instantiate(new WebAssembly.Module(readEngine()));
      success = true;
    } catch (error) {
      failed(error);
    }
    return callBack(callbackIndex, callbackData, success);
  }
  fetchEngine().then(
    () => callBack(callbackIndex, callbackData, true),
    (error) => {
      failed(error);
      callBack(callbackIndex, callbackData, false);
    },
  );
}
