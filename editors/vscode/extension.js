// The VS Code side of logicmd: starts `logicmd lsp` for LOGIC.md and DRTL files and leaves
// everything else (diagnostics, completion, hover, navigation, rename, fixes, formatting,
// outline, tokens, hints) to the server.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

/** The files the server answers for: LOGIC.md (spec §13) and DRTL topologies. */
const DOCUMENTS = [
  { scheme: 'file', pattern: '**/*.logic.md' },
  { scheme: 'file', pattern: '**/LOGIC.md' },
  { scheme: 'file', pattern: '**/.logic/**/*.md' },
  { scheme: 'file', pattern: '**/*.drtl.yaml' },
  { scheme: 'file', pattern: '**/*.drtl.yml' },
];

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration('logicmd');
  const command = settings.get('server.path', 'logicmd');
  const args = ['lsp', ...settings.get('server.extraArgs', [])];
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    'logicmd',
    'logicmd',
    { run: server, debug: server },
    { documentSelector: DOCUMENTS },
  );
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('logicmd.server')) {
        vscode.commands.executeCommand('workbench.action.restartExtensionHost');
      }
    }),
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, DOCUMENTS };
