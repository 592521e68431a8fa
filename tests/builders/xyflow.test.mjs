// logicmd/xyflow in Node, as a builder calls it from React Flow's callbacks: the flow of a document,
// core's connect rules as isValidConnection, and canvas changes written back into the text.
import assert from "node:assert/strict";
import { test } from "node:test";

import { applyEdit, graph, parse } from "logicmd";
import { addStep, checkConnection, connect, connectionValidator, move, remove, rename, setField, toFlow } from "logicmd/xyflow";

const DOC = `---
spec_version: "1.0"
name: pipeline
steps:
  # where everything starts
  gather:
    description: Gather sources
    output_schema: {type: object}
  grade:
    needs: [gather]  # keep this comment
  fan:
    needs: [grade]
    parallel_steps: [left, right]
  left:
    needs: [fan]
  right:
    needs: [fan]
  summarize:
    needs: [left, right]
    input_schema: {type: string}
---
# Pipeline
`;

const names = (flow) => flow.nodes.map((n) => n.id);
const wires = (flow) => flow.edges.map((e) => `${e.source}.${e.sourceHandle} -> ${e.target}.${e.targetHandle} (${e.data.kind})`);

test("the flow: one node per graph node, typed handles, positions, groups behind", () => {
  const flow = toFlow(DOC);
  const drawn = graph(DOC).graph;
  assert.equal(flow.kind, "logic");
  assert.deepEqual(names(flow), ["group:parallel:fan", ...drawn.nodes.map((n) => n.id)]);
  for (const node of drawn.nodes) {
    const mapped = flow.nodes.find((n) => n.id === node.id);
    assert.deepEqual(mapped.position, { x: node.x, y: node.y });
    assert.deepEqual(mapped.data.inputs, node.inputs);
    assert.deepEqual(mapped.data.outputs, node.outputs);
    assert.equal(mapped.type, "logicmd");
    assert.equal(mapped.deletable, true);
  }
  assert.deepEqual(
    flow.edges.map((e) => [e.id, e.source, e.target, e.sourceHandle, e.targetHandle]),
    drawn.edges.map((e) => [e.id, e.source, e.target, e.source_port, e.target_port]),
  );
  const group = flow.nodes[0];
  const members = drawn.nodes.filter((n) => ["step:left", "step:right"].includes(n.id));
  assert.equal(group.type, "group");
  assert.equal(group.position.x, Math.min(...members.map((n) => n.x)) - 24);
  assert.equal(group.position.y, Math.min(...members.map((n) => n.y)) - 24);
  assert.deepEqual(group.data.members, ["step:left", "step:right"]);
  assert.equal(group.deletable, false);
  assert.equal(toFlow(DOC, { nodeType: "step" }).nodes[1].type, "step");
});

test("diagnostics land on the node they are about, for a badge", () => {
  const text = DOC.replace("needs: [left, right]", "needs: [left, right, nowhere]");
  const flow = toFlow(text);
  const onSummarize = flow.byNode["step:summarize"];
  assert.ok(onSummarize.length > 0, "the unknown need is reported on `summarize`");
  assert.ok(onSummarize.every((d) => d.path.startsWith("/steps/summarize")));
  assert.equal(flow.nodes.find((n) => n.id === "step:summarize").data.severity, "error");
  assert.equal(flow.nodes.find((n) => n.id === "step:gather").data.severity, null);
  const plain = toFlow(DOC);
  assert.equal(plain.nodes.find((n) => n.id === "step:fan").data.severity, "warning"); // parallel_steps without execution
  for (const [id, placed] of Object.entries(plain.byNode)) {
    const pointer = plain.graph.nodes.find((n) => n.id === id).pointer;
    assert.ok(placed.every((d) => d.path === pointer || d.path.startsWith(`${pointer}/`)), id);
  }
});

test("isValidConnection is core's connect rule, with core's reason", () => {
  const cases = [
    [{ source: "step:gather", target: "step:gather" }, false],
    [{ source: "step:summarize", target: "step:gather" }, false], // closes a cycle
    [{ source: "step:gather", sourceHandle: "output", target: "step:summarize", targetHandle: "input" }, false], // object into string
    [{ source: "step:grade", target: "step:summarize" }, true],
  ];
  for (const [connection, valid] of cases) {
    const answer = checkConnection(DOC, connection);
    const g = graph(DOC).graph;
    const name = (id) => g.nodes.find((n) => n.id === id).name;
    const core = applyEdit(DOC, {
      op: "connect",
      from: name(connection.source),
      to: name(connection.target),
      from_port: connection.sourceHandle ?? null,
      to_port: connection.targetHandle ?? null,
    });
    assert.equal(answer.valid, valid, JSON.stringify(connection));
    assert.equal(core.applied, valid);
    assert.equal(answer.reason, valid ? null : core.diagnostics.map((d) => d.message).join("; "));
  }
  assert.match(checkConnection(DOC, { source: "step:summarize", target: "step:gather" }).reason, /cycle/);
  assert.match(checkConnection(DOC, { source: "step:nope", target: "step:gather" }).reason, /no node `step:nope`/);

  const heard = [];
  const isValid = connectionValidator(DOC, (reason) => heard.push(reason));
  assert.equal(isValid({ source: "step:gather", target: "step:gather", sourceHandle: null, targetHandle: null }), false);
  assert.equal(isValid({ source: "step:grade", target: "step:summarize", sourceHandle: null, targetHandle: null }), true);
  assert.deepEqual(heard, [checkConnection(DOC, { source: "step:gather", target: "step:gather" }).reason]);
});

test("onConnect adds one `needs` entry, nothing else changes", () => {
  const change = connect(DOC, { source: "step:grade", sourceHandle: null, target: "step:summarize", targetHandle: null });
  assert.equal(change.applied, true);
  assert.equal(change.reason, null);
  assert.equal(change.text, DOC.replace("needs: [left, right]", "needs: [left, right, grade]"));
  assert.equal(change.patches.length, 1);
  assert.ok(change.flow.edges.some((e) => e.source === "step:grade" && e.target === "step:summarize"));

  const refused = connect(DOC, { source: "step:summarize", target: "step:gather" });
  assert.equal(refused.applied, false);
  assert.equal(refused.text, DOC);
  assert.match(refused.reason, /cycle/);
});

test("deleting nodes and wires: steps and their references go, comments stay", () => {
  // React Flow deletes a node's wires with it: those are skipped, the step's removal drops them.
  const flow = toFlow(DOC);
  const touching = flow.edges.filter((e) => e.source === "step:right" || e.target === "step:right");
  const change = remove(DOC, { nodes: [{ id: "step:right" }], edges: touching });
  assert.equal(change.applied, true, change.reason);
  assert.ok(!/\bright\b/.test(change.text.replace("Pipeline", "")), change.text);
  assert.ok(change.text.includes("# where everything starts"));
  assert.ok(change.text.includes("# keep this comment"));
  assert.deepEqual(wires(change.flow).filter((w) => w.includes("right")), []);
  assert.equal(parse(change.text).diagnostics.length, 0);

  const wire = flow.edges.find((e) => e.source === "step:gather" && e.target === "step:grade");
  const unwired = remove(DOC, { edges: [wire] });
  assert.equal(unwired.applied, true, unwired.reason);
  assert.ok(!unwired.text.includes("needs: [gather]"), unwired.text);
  assert.ok(unwired.text.includes("# where everything starts"));
  assert.equal(unwired.patches.length, 1);

  const parallel = flow.edges.find((e) => e.data.kind === "parallel");
  const refused = remove(DOC, { edges: [parallel] });
  assert.equal(refused.applied, false);
  assert.match(refused.reason, /`parallel` edge/);
  assert.equal(refused.text, DOC);
});

test("a drag's end stores the position; the flow shows it pinned there", () => {
  const change = move(DOC, { id: "step:grade", position: { x: 412.25, y: -80 } });
  assert.equal(change.applied, true, change.reason);
  const node = change.flow.nodes.find((n) => n.id === "step:grade");
  assert.deepEqual(node.position, { x: 412.3, y: -80 });
  assert.equal(node.data.pinned, true);
  assert.ok(change.text.startsWith(DOC.slice(0, DOC.indexOf("---\n# Pipeline"))), "the edit only appends metadata");
  const again = move(change.text, { id: "step:grade", position: { x: 10, y: 20 } });
  assert.deepEqual(again.patches[0].map((p) => p.text), ["10", "20"]); // only the numbers change
  assert.deepEqual(again.flow.nodes.find((n) => n.id === "step:grade").position, { x: 10, y: 20 });
});

test("rename and inspector fields are core's edits", () => {
  const renamed = rename(DOC, "step:gather", "collect");
  assert.equal(renamed.applied, true, renamed.reason);
  assert.ok(renamed.text.includes("needs: [collect]  # keep this comment"));
  assert.ok(renamed.flow.nodes.some((n) => n.id === "step:collect"));
  assert.match(rename(DOC, "step:gather", "grade").reason, /grade/);

  const set = setField(DOC, { pointer: "/steps/gather/description" }, "Gather primary sources");
  assert.equal(set.applied, true, set.reason);
  assert.equal(set.text, DOC.replace("description: Gather sources", "description: Gather primary sources"));
});

test("a text that does not parse gives an empty flow and refuses edits", () => {
  const broken = "---\nsteps: [\n---\n";
  const flow = toFlow(broken);
  assert.equal(flow.graph, null);
  assert.deepEqual(flow.nodes, []);
  assert.ok(flow.diagnostics.length > 0);
  assert.equal(connect(broken, { source: "step:a", target: "step:b" }).applied, false);
});

const TOPOLOGY = `name: review
nodes:
  - id: draft
    type: generate
    prompt: Write the draft.
    output_key: draft
  - id: tidy
    type: transform
    operations:
      - {set: state.variables.tidy, value: true}
  - id: publish
    type: transform
    operations:
      - {set: state.variables.published, value: true}
edges:
  - {from: draft, to: tidy}  # tidy first
`;

test("DRTL topologies: nodes by id, edges connected and removed", () => {
  const flow = toFlow(TOPOLOGY);
  assert.equal(flow.kind, "drtl");
  assert.ok(flow.nodes.every((n) => n.id.startsWith("drtl:")), names(flow).join());
  const wired = connect(TOPOLOGY, { source: "drtl:tidy", target: "drtl:publish" });
  assert.equal(wired.applied, true, wired.reason);
  assert.ok(wired.flow.edges.some((e) => e.source === "drtl:tidy" && e.target === "drtl:publish"));
  const removed = remove(wired.text, { nodes: [{ id: "drtl:tidy" }] });
  assert.equal(removed.applied, true, removed.reason);
  assert.ok(!removed.text.includes("id: tidy"));
  assert.ok(!removed.flow.edges.some((e) => e.source === "drtl:tidy" || e.target === "drtl:tidy"));
});

test("a palette drop adds a step under a free name, where it was dropped", () => {
  const change = addStep(DOC, { name: "grade", step: { description: "Grade again" }, position: { x: 5, y: 6 } });
  assert.equal(change.applied, true, change.reason);
  const node = change.flow.nodes.find((n) => n.id === "step:grade-2");
  assert.deepEqual(node.position, { x: 5, y: 6 });
  assert.ok(change.text.includes("grade-2:\n    description: Grade again"), change.text);
  assert.ok(change.text.includes("# keep this comment"));
});

test("any sequence of gestures: a change is core's whole edit or nothing, and the flow is the text's", () => {
  // A seeded walk of random gestures over the document; every step checks the invariants.
  let seed = 37;
  const random = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const pick = (list) => list[random(list.length)];
  let text = DOC;
  let applied = 0;
  for (let step = 0; step < 120; step += 1) {
    const flow = toFlow(text);
    const nodes = flow.nodes.filter((n) => n.type === "logicmd");
    if (nodes.length < 2) text = DOC;
    const a = pick(nodes);
    const b = pick(nodes);
    const gesture = [
      () => connect(text, { source: a.id, target: b.id, sourceHandle: pick([null, ...a.data.outputs.map((p) => p.name)]), targetHandle: pick([null, ...b.data.inputs.map((p) => p.name)]) }),
      () => move(text, { id: a.id, position: { x: random(900) - 300, y: random(900) - 300 } }),
      () => remove(text, { nodes: [a] }),
      () => (flow.edges.length ? remove(text, { edges: [pick(flow.edges)] }) : move(text, { id: a.id, position: { x: 0, y: 0 } })),
      () => rename(text, a.id, pick(["x1", "x2", b.data.name])),
      () => addStep(text, { name: pick(["n", a.data.name]), position: { x: random(500), y: random(500) } }),
    ][random(6)];
    const change = gesture();
    if (!change.applied) {
      assert.equal(change.text, text, "a refused gesture changes nothing");
      assert.equal(typeof change.reason, "string");
      continue;
    }
    applied += 1;
    assert.equal(parse(change.text).diagnostics.filter((d) => d.severity === "error").length, 0, change.text);
    assert.ok(change.text.includes("# Pipeline"), "the body is kept");
    const drawn = graph(change.text).graph;
    assert.deepEqual(
      change.flow.nodes.filter((n) => n.type === "logicmd").map((n) => [n.id, n.position.x, n.position.y]),
      drawn.nodes.map((n) => [n.id, n.x, n.y]),
    );
    assert.deepEqual(change.flow.edges.map((e) => e.id), drawn.edges.map((e) => e.id));
    text = change.text;
  }
  assert.ok(applied > 40, `${applied} of 120 gestures applied`);
});
