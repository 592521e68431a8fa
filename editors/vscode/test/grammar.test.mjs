// The injection grammar as VS Code runs it: vscode-textmate with Oniguruma, injected into a
// YAML host grammar (a small stand-in for VS Code's, with the same scope name).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import textmate from 'vscode-textmate';
import oniguruma from 'vscode-oniguruma';

const require = createRequire(import.meta.url);
const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
await oniguruma.loadWASM(wasm);

const yaml = {
  scopeName: 'source.yaml',
  patterns: [
    { match: '^\\s*[\\w.-]+(?=:)', name: 'entity.name.tag.yaml' },
    { begin: '"', end: '"', name: 'string.quoted.double.yaml' },
  ],
};
const injection = JSON.parse(
  readFileSync(new URL('../syntaxes/logicmd-expression.injection.json', import.meta.url), 'utf8'),
);

const registry = new textmate.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
    createOnigString: (text) => new oniguruma.OnigString(text),
  }),
  loadGrammar: async (scope) =>
    scope === 'source.yaml' ? yaml : scope === injection.scopeName ? injection : null,
  getInjections: (scope) => (scope === 'source.yaml' ? [injection.scopeName] : []),
});

function tokens(grammar, line) {
  const { tokens } = grammar.tokenizeLine(line, textmate.INITIAL);
  return tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes.at(-1)]);
}

test('an expression in a YAML string is tokenized', async () => {
  const grammar = await registry.loadGrammar('source.yaml');
  const line = `check: "{{ steps.gather.output.sources.length >= 3 && input.query.startsWith('a') }}"`;
  const found = tokens(grammar, line).filter(([text]) => text.trim() !== '');
  const byText = Object.fromEntries(found.map(([text, scope]) => [text.trim(), scope]));
  assert.equal(byText['{{'], 'punctuation.definition.template-expression.begin.logicmd');
  assert.equal(byText['}}'], 'punctuation.definition.template-expression.end.logicmd');
  assert.equal(byText.steps, 'variable.other.readwrite.logicmd');
  assert.equal(byText.gather, 'variable.other.property.logicmd');
  assert.equal(byText.startsWith, 'support.function.logicmd');
  assert.equal(byText['>='], 'keyword.operator.comparison.logicmd');
  assert.equal(byText['&&'], 'keyword.operator.logical.logicmd');
  assert.equal(byText['3'], 'constant.numeric.logicmd');
  assert.equal(byText["'a'"], 'string.quoted.single.logicmd');
});

test('text outside `{{ }}` is left to YAML', async () => {
  const grammar = await registry.loadGrammar('source.yaml');
  const found = tokens(grammar, 'description: "steps and input, no braces"');
  assert.ok(found.every(([, scope]) => !scope.endsWith('.logicmd')), JSON.stringify(found));
});
