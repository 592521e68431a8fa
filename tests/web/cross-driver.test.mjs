// The npm package's part of the cross-driver test (tests/cross-driver/README.md): each document
// there, run with its script through `createRun`, writes exactly the trace the CLI and the
// studio's driver write, byte for byte.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import * as logicmd from "logicmd";

const dir = new URL("../cross-driver/", import.meta.url);
const read = (name) => readFileSync(new URL(name, dir), "utf8");
const cases = readdirSync(dir)
  .map((name) => name.match(/^(.*)\.(logic\.md|drtl\.yaml)$/))
  .filter(Boolean)
  .map(([file, stem]) => ({ file, stem }));

test("every case's trace is the CLI's and the studio's, byte for byte", () => {
  assert.equal(cases.length, 3);
  for (const { file, stem } of cases) {
    const run = logicmd.createRun(read(file), {}, { path: file, script: read(`${stem}.script.yaml`) });
    assert.deepEqual(run.diagnostics, [], stem);
    const lines = [];
    for (let round = 0; round < 1000; round++) {
      const actions = run.next();
      lines.push(...run.events().map((event) => JSON.stringify(event)));
      if (actions.some((a) => ["complete", "refuse", "fail"].includes(a.action))) break;
      assert.deepEqual(actions, [], `${stem}: a scripted run hands out nothing`);
    }
    assert.equal(lines.map((l) => l + "\n").join(""), read(`${stem}.trace.jsonl`), stem);
    run.free();
  }
});
