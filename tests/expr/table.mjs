// Generates tests/expr/table.json: each expression of the `{{ }}` language with the value Node
// computes for it. `js` (when given) is the JavaScript spelling of the same meaning: our member
// reads are null-safe, so JavaScript needs `?.` there; `contains` and `every('p')` are ours.
// Run: node tests/expr/table.mjs [OUTPUT]
import { writeFileSync } from "node:fs";

const ctx = {
  n: 5, zero: 0, neg: -3, half: 0.5, big: 9007199254740993, s: "Hello", empty: "", num: "42", spaced: "  pad  ",
  t: true, f: false, nil: null, xs: [1, 2, 3], words: ["a", "b"], nested: [[1, 2], [3]], emptyList: [],
  items: [{ ok: true, v: 1 }, { ok: false, v: 2 }, { ok: true, v: 3 }], allOk: [{ ok: 1 }, { ok: "y" }],
  obj: { a: 1, "my-key": "dash", inner: { deep: [10, 20] } }, emoji: "😀x", unicode: "été",
  steps: { gather: { output: { sources: [1, 2, 3], confidence: 0.8 } } },
  output: { confidence: 0.72, findings: [{ c: 1 }], category: "financial", format: "object" },
  input: { query: "rust", type: "question", estimated_tokens: 1200 },
  reasoning: { tokens_used: 900, thinking_budget: 1000 },
};

const cases = [
  // literals
  ["1"], ["1.5"], [".5"], ["1e3"], ["1.5E-2"], ["0x1F"], ["'single'"], ['"double"'], ["'it\\'s'"], ['"a\\nb"'],
  ["'\\u00e9'"], ["'\\u{1F600}'"], ["true"], ["false"], ["null"], ["undefined"], ["[1, 'a', true, null]"], ["[]"],
  // identifiers and members
  ["n"], ["s"], ["missing"], ["obj.a"], ["obj['my-key']"], ["obj.inner.deep[1]"], ["obj.inner.deep[5]"],
  ["obj.nope.deeper", "obj.nope?.deeper"], ["missing.a.b", "missing?.a?.b"], ["xs[0]"], ["xs[-1]"], ["xs['1']"],
  ["nested[0][1]"], ["xs.length"], ["s.length"], ["emoji.length"], ["unicode.length"], ["empty.length"],
  ["emptyList.length"], ["s[1]"], ["items[1].v"], ["steps.gather.output.sources.length"],
  ["steps.gather.output.confidence > 0.7"], ["steps.missing.output.x", "steps.missing?.output?.x"],
  ["nil.x", "nil?.x"], ["n.x"], ["t.length"],
  // unary
  ["!t"], ["!f"], ["!0"], ["!''"], ["!'a'"], ["![]"], ["!nil"], ["!missing"], ["-n"], ["-s"], ["-num"], ["+num"],
  ["+''"], ["+'12px'"], ["+t"], ["+nil"], ["+missing"], ["+[]"], ["+[7]"], ["+[1,2]"], ["!!obj"], ["- -n"],
  // arithmetic
  ["1 + 2 * 3"], ["(1 + 2) * 3"], ["10 / 4"], ["10 % 3"], ["-10 % 3"], ["5.5 % 2"], ["2 * 3 % 4"], ["1 - 2 - 3"],
  ["12 / 3 / 2"], ["0.1 + 0.2"], ["1e21 + 1"], ["big + 0"], ["1 / 3"], ["n * half"], ["reasoning.thinking_budget * 0.95"],
  ["1 / 0", null], ["0 / 0", null], ["-1 / 0", null], ["1 / 0 > 5"], ["[1 / 0]"], ["zero * -1"], ["2 ** 3", null],
  // plus and strings
  ["'a' + 'b'"], ["'a' + 1"], ["1 + 'a'"], ["1 + 2 + 'a'"], ["'a' + 1 + 2"], ["'n=' + n"], ["s + nil"],
  ["s + missing"], ["1 + nil"], ["1 + missing"], ["t + 1"], ["t + t"], ["[1,2] + 3"], ["[] + []"], ["xs + ''"],
  ["obj + ''"], ["words + '!'"], ["'x' + [nil, 1]"], ["num - 2"], ["num * 2"], ["num + 2"], ["'3' * '4'"],
  ["1.5 + ''"], ["1e21 + ''"], ["0.000001 + ''"], ["1e-7 + ''"], ["-0 + ''"], ["100 + ''"],
  // comparison
  ["1 < 2"], ["2 <= 2"], ["3 > 4"], ["4 >= 4"], ["'a' < 'b'"], ["'B' < 'a'"], ["'10' < '9'"], ["'10' < 9"],
  ["nil < 1"], ["missing < 1"], ["missing >= 0"], ["'abc' < 'abd'"], ["[2] > 1"], ["t > f"], ["'' < 1"],
  ["input.estimated_tokens > 1000 || input.requires_research", "input.estimated_tokens > 1000 || input.requires_research"],
  ["reasoning.tokens_used < reasoning.thinking_budget * 0.95"],
  // equality
  ["1 == 1"], ["1 == '1'"], ["0 == ''"], ["0 == '0'"], ["'' == '0'"], ["nil == missing"], ["nil == 0"], ["nil === missing"],
  ["t == 1"], ["t == '1'"], ["f == ''"], ["f == '0'"], ["[1] == 1"], ["[1] == '1'"], ["[] == ''"], ["[] == 0"],
  ["1 === 1"], ["1 === '1'"], ["'a' === 'a'"], ["nil === nil"], ["1 != '1'"], ["1 !== '1'"], ["0 / 0 == 0 / 0"],
  ["output.category == 'financial'"], ["output.format == 'object'"], ["obj == '[object Object]'"], ["t != f"],
  // logical
  ["t && 'yes'"], ["f && 'yes'"], ["0 || 'default'"], ["'' || nil"], ["n || 0"], ["nil ?? 'x'"], ["missing ?? 'x'"],
  ["0 ?? 'x'"], ["'' ?? 'x'"], ["f ?? 'x'"], ["t && f || 'z'"], ["1 && 2 && 3"], ["0 && missing.x", "0 && missing?.x"],
  ["(nil ?? 0) || 4"], ["output.confidence > 0.8 && output.findings.length >= 3"],
  // conditional
  ["t ? 1 : 2"], ["f ? 1 : 2"], ["true ? 1 : false ? 2 : 3"], ["false ? 1 : true ? 2 : 3"], ["false ? 1 : false ? 2 : 3"],
  ["n > 3 ? 'big' : 'small'"], ["output.confidence > 0.8 ? 'high' : 'low'"], ["t ? f ? 'a' : 'b' : 'c'"],
  ["nil ? 1 : missing ? 2 : 3"], ["(t ? xs : words).length"],
  // methods
  ["xs.includes(2)"], ["xs.includes('2')"], ["xs.contains(3)", "xs.includes(3)"], ["[0 / 0].includes(0 / 0)"],
  ["words.includes('c')"], ["s.includes('ell')"], ["s.contains('xyz')", "s.includes('xyz')"], ["s.includes('')"],
  ["items.every('ok')", "items.every(x => x.ok)"], ["items.some('ok')", "items.some(x => x.ok)"],
  ["allOk.every('ok')", "allOk.every(x => x.ok)"], ["xs.every()", "xs.every(x => x)"], ["[1, 0].every()", "[1, 0].every(x => x)"],
  ["[0, ''].some()", "[0, ''].some(x => x)"], ["emptyList.every()", "emptyList.every(x => x)"],
  ["emptyList.some()", "emptyList.some(x => x)"], ["s.startsWith('He')"], ["s.endsWith('lo')"], ["s.startsWith('lo')"],
  ["s.toLowerCase()"], ["s.toUpperCase()"], ["spaced.trim()"], ["spaced.trim().length"], ["unicode.toUpperCase()"],
  ["missing.includes(1)", "missing?.includes(1)"], ["nil.trim()", "nil?.trim()"],
  ["input.query.toUpperCase() + '!'"], ["words.includes(input.type) ? 1 : 2"],
  // errors (syntax, calls, assignment)
  ["1 +", null], ["(1", null], ["[1, 2", null], ["'unterminated", null], ["a = 1", null], ["xs.push(1)", null],
  ["n()", null], ["1 2", null], ["", null], ["s.trim(", null], ["n.includes(1)", null],
];

// A name the context lacks reads as undefined in our language; JavaScript would throw a
// ReferenceError, so the evaluation scope declares it.
const scope = { ...ctx, missing: undefined };
const rows = [];
for (const [expr, js] of cases) {
  let expected;
  if (js === null) {
    expected = { error: true };
  } else {
    try {
      const fn = new Function(...Object.keys(scope), `"use strict"; return (${js ?? expr});`);
      const value = fn(...Object.values(scope));
      if (typeof value === "number" && !Number.isFinite(value)) expected = { error: true };
      else expected = { value: value === undefined ? null : JSON.parse(JSON.stringify(value)) };
    } catch (e) {
      expected = { error: true };
    }
  }
  rows.push({ expr, expected });
}
const out = process.argv[2] ?? new URL("./table.json", import.meta.url);
writeFileSync(out, JSON.stringify({ context: ctx, cases: rows }, null, 1) + "\n");
console.log(`${rows.length} expressions written`);
