// The reference's dry run as a whole process, for scripts/bench-run.sh (issue #38): read the
// document, validate it (the reference's `validate`: gray-matter + ajv on its schema), then
// `dryRun` with a mock output for every step and its gates checked (`validateGates`), and write
// the result as JSON — the nearest the reference comes to `logicmd run --dry-run --trace`.
//
//   node reference-dry-run.mjs DIST DOCUMENT OUT.json
//
// DIST is a build of the reference's packages/core (scripts/bench/build-reference.sh); nothing
// of it is part of this repository.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [dist, document, out] = process.argv.slice(2);
const reference = await import(pathToFileURL(`${dist}/index.js`).href);
const checked = reference.validate(readFileSync(document, "utf8"));
if (!checked.ok) {
  console.error(JSON.stringify(checked.errors.slice(0, 3)));
  process.exit(1);
}
const spec = checked.data;
const mockOutputs = Object.fromEntries(
  Object.keys(spec.steps).map((name) => [name, { confidence: 0.6 }]),
);
const result = reference.dryRun(spec, { mockOutputs, validateGates: true });
writeFileSync(out, JSON.stringify(result));
if (!result.ok || result.steps.length !== Object.keys(spec.steps).length) {
  console.error(`the dry run did not walk every step: ${JSON.stringify(result.errors)}`);
  process.exit(1);
}
