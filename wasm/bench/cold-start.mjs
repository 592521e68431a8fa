// Cold start of the built npm package in Node (issue #38): each round starts a fresh Node process
// that imports the package, validates one document, then makes its first run (createRun,
// synthetic answers to the end) and a second one, and prints how long each took. Packages given
// as arguments (directories holding `node.js`, e.g. wasm/pkg and a copy of an older build) are
// measured in turn within each round, so a busy machine slows both alike; medians are printed.
//
//   scripts/build-npm.sh
//   node wasm/bench/cold-start.mjs [rounds] wasm/pkg [/path/to/another/pkg …]
//
// import + validate: from before the import to the first validate's result (reading and
// instantiating the first-load wasm included); process: the whole process, spawn to exit;
// first run: the first createRun + next/synthetic/feed to the end (with the engine's module
// instantiated within it where the package splits it); second run: the same again, warm — the
// first run's extra load time is the difference.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [roundsArg, ...packages] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 11);
if (packages.length === 0) packages.push("wasm/pkg");

const probe = (entry) => `
const t0 = performance.now();
const m = await import(${JSON.stringify(entry)});
const text = '---\\nspec_version: "1.0"\\nname: cold\\nsteps:\\n  a: {}\\n  b: { needs: [a] }\\n---\\n';
if (!m.validate(text).valid) throw new Error("the document should validate");
const t1 = performance.now();
function runOnce() {
  const run = m.createRun(text, {}, { synthetic: true });
  let actions = run.next();
  while (actions.length > 0 && run.status() === "running") {
    for (const action of actions) {
      const observation = run.synthetic(action);
      if (observation) run.feed(action.id, observation);
    }
    actions = run.next();
  }
  if (run.status() !== "completed") throw new Error("the run should complete: " + run.status());
  run.free();
}
runOnce();
const t2 = performance.now();
runOnce();
const t3 = performance.now();
console.log(JSON.stringify({ validate: t1 - t0, firstRun: t2 - t1, secondRun: t3 - t2 }));
`;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const results = packages.map(() => ({ validate: [], process: [], firstRun: [], secondRun: [] }));
for (let round = 0; round < rounds; round++) {
  packages.forEach((pkg, i) => {
    const entry = pathToFileURL(resolve(pkg, "node.js")).href;
    const start = performance.now();
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", probe(entry)], { encoding: "utf8" });
    const process_ = performance.now() - start;
    const times = JSON.parse(out);
    results[i].process.push(process_);
    for (const key of ["validate", "firstRun", "secondRun"]) results[i][key].push(times[key]);
  });
}
const ms = (value) => value.toFixed(1).padStart(7);
console.log(`median of ${rounds} process starts (ms):`);
console.log("package".padEnd(48), "import+validate", "process", "first run", "second run");
packages.forEach((pkg, i) => {
  const r = results[i];
  console.log(
    pkg.padEnd(48),
    ms(median(r.validate)).padStart(15),
    ms(median(r.process)),
    ms(median(r.firstRun)).padStart(9),
    ms(median(r.secondRun)).padStart(10),
  );
});
