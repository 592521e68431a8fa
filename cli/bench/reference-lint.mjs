// The reference pipeline as a command-line linter, for `cli/bench/lint-tree.sh` (issue #34): the
// reference CLI is not on the npm registry this workplace reaches, so its stack stands in for it —
// walk the tree for `*.logic.md`, split the frontmatter, js-yaml load, ajv (draft-07) against the
// canonical schema, print each error with its file. Semantic rules are not run (ajv has none), so
// it does less than `logicmd lint`. Node's start-up is part of the time, as it would be for the CLI.
//
//   LOGICMD_REFERENCE_MODULES=/path/with/node_modules node cli/bench/reference-lint.mjs DIR
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const modules = process.env.LOGICMD_REFERENCE_MODULES;
const require = createRequire(join(modules, "node_modules", "x.js"));
const yaml = require("js-yaml");
const Ajv = require("ajv");

const repo = fileURLToPath(new URL("../../", import.meta.url));
const schema = JSON.parse(readFileSync(join(repo, "core/src/schema/logic-md-schema-v1.0.json"), "utf8"));
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema);

function* documents(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* documents(path);
    else if (entry.name.endsWith(".logic.md") || entry.name === "LOGIC.md") yield path;
  }
}

let files = 0;
let problems = 0;
for (const path of documents(process.argv[2] ?? ".")) {
  files += 1;
  const text = readFileSync(path, "utf8");
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!match) {
    console.log(`${path}: no frontmatter`);
    problems += 1;
    continue;
  }
  let data;
  try {
    data = yaml.load(match[1]);
  } catch (error) {
    console.log(`${path}: ${error.message}`);
    problems += 1;
    continue;
  }
  if (!validate(data)) {
    for (const error of validate.errors) {
      console.log(`${path}: ${error.instancePath} ${error.message}`);
      problems += 1;
    }
  }
}
console.log(`${files} files, ${problems} problems`);
process.exitCode = problems > 0 ? 1 : 0;
