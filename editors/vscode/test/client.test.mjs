// The extension's client side against the real server: the JSON-RPC transport
// vscode-languageclient uses (vscode-jsonrpc over the child's stdio), started as the extension
// starts it (`logicmd lsp`), for the documents its selector names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import rpc from 'vscode-jsonrpc/node.js';

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.env.LOGICMD_BIN ?? resolve(here, '../../../target/debug/logicmd');
const require = createRequire(import.meta.url);

test('the extension contributes the injection grammar and starts `logicmd lsp`', () => {
  const manifest = require('../package.json');
  assert.deepEqual(manifest.contributes.grammars[0].injectTo, ['text.html.markdown', 'source.yaml']);
  assert.equal(manifest.main, './extension.js');
});

test('a client opens a document, gets diagnostics, completion and a quick fix', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'logicmd-vscode-')));
  mkdirSync(join(root, '.git'));
  const text = '---\nspec_version: "1.0"\nname: demo\nsteps:\n  gather: {description: Gather}\n  use:\n    description: Use it\n    needs: [gathr]\n---\n';
  writeFileSync(join(root, 'demo.logic.md'), text);
  const child = spawn(binary, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin),
  );
  const diagnostics = new Promise((done) => {
    connection.onNotification('textDocument/publishDiagnostics', (params) => done(params));
  });
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  try {
    const rootUri = pathToFileURL(root).href;
    const init = await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'demo' }],
      initializationOptions: { diagnosticsDelayMs: 10 },
      capabilities: {},
    });
    assert.equal(init.serverInfo.name, 'logicmd');
    assert.equal(init.capabilities.renameProvider.prepareProvider, true);
    connection.sendNotification('initialized', {});
    const uri = `${rootUri}/demo.logic.md`;
    connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text },
    });
    const published = await diagnostics;
    assert.deepEqual(
      published.diagnostics.map((d) => [d.code, d.range.start.line, d.message.split('\n')[0]]),
      [['unknown-need', 7, '`needs` names `gathr`, which is not a step']],
    );
    const completion = await connection.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: { line: 7, character: 12 },
    });
    // A CompletionList: whole (not incomplete) within its 200 items.
    assert.equal(completion.isIncomplete, false);
    assert.deepEqual(completion.items.map((i) => i.label), ['gather']);
    const actions = await connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: published.diagnostics[0].range,
      context: { diagnostics: published.diagnostics },
    });
    assert.equal(actions[0].title, 'Replace `gathr` with `gather`');
    assert.equal(actions[0].isPreferred, true);
    assert.deepEqual(actions[0].edit.changes[uri], [
      { range: { start: { line: 7, character: 16 }, end: { line: 7, character: 16 } }, newText: 'e' },
    ]);
    await connection.sendRequest('shutdown');
    const exited = new Promise((done) => child.on('exit', (code) => done(code)));
    connection.sendNotification('exit');
    assert.equal(await exited, 0);
  } finally {
    connection.dispose();
    child.kill();
    rmSync(root, { recursive: true, force: true });
  }
});
