#!/usr/bin/env bash
# `logicmd mcp` against the official MCP tools, from pinned npm versions:
#  1. the MCP Inspector in CLI mode over stdio and over Streamable HTTP: tools/list (with
#     --strict: no tool schema portability error), resources/list, prompts/list, a tool call, a
#     resource read — each answer checked;
#  2. the MCP conformance suite (`server` mode, the whole active suite) against `--http`, with
#     the baseline scripts/mcp-conformance-baseline.yml of scenarios that need the suite's own
#     fixture tools (any other failure, or a baseline entry passing, fails).
# The Rust integration tests (cli/tests/mcp_*.rs, rmcp's client) run with `cargo test`.
#
# conformance is pinned to 0.1.13: 0.1.14 and later import `fs.globSync` (Node 22); the
# machine's Node is 20 (docs/decisions.md, "MCP server (issue #33)").
set -euo pipefail

INSPECTOR_VERSION=2.12.0
CONFORMANCE_VERSION=0.1.13

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

cargo build --quiet --locked -p logicmd-cli
bin="$repo/target/debug/logicmd"
inspector=(npx --yes "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" --cli)

# Fails with the answer when the check (a Python expression over `answer`) does not hold.
expect() {
  local what="$1" check="$2" file="$3"
  if ! python3 -c "import json,sys; answer=json.load(open(sys.argv[1])); sys.exit(0 if ($check) else 1)" "$file"; then
    echo "test-mcp: $what: unexpected answer:" >&2
    head -c 2000 "$file" >&2
    exit 1
  fi
  echo "ok: $what"
}

tools='["validate","lint","fmt","edit","compile_step","compile_workflow","graph","check","trace_check","explain_rule","init","list_templates","run","resume_run","next_action"]'

inspect() {
  local label="$1"
  shift
  "${inspector[@]}" "$@" --method tools/list --strict > "$work/tools.json" 2> "$work/strict.txt" || {
    cat "$work/strict.txt" >&2
    exit 1
  }
  expect "$label tools/list (--strict)" "[t['name'] for t in answer['tools']] == $tools and all('outputSchema' in t for t in answer['tools'])" "$work/tools.json"
  "${inspector[@]}" "$@" --method resources/list > "$work/resources.json"
  expect "$label resources/list" "[r['uri'] for r in answer['resources']][:5] == ['logicmd://schema','logicmd://schema/drtl','logicmd://spec','logicmd://spec/drtl','logicmd://rules']" "$work/resources.json"
  "${inspector[@]}" "$@" --method prompts/list > "$work/prompts.json"
  expect "$label prompts/list" "[p['name'] for p in answer['prompts']] == ['write_logic_md','prompt_to_steps','fix_diagnostics']" "$work/prompts.json"
  "${inspector[@]}" "$@" --method tools/call --tool-name lint --tool-arg path=examples/research-workflow.logic.md > "$work/lint.json"
  expect "$label tools/call lint" "answer['isError'] is False and answer['structuredContent']['passed'] is True" "$work/lint.json"
  "${inspector[@]}" "$@" --method tools/call --tool-name validate --tool-arg 'text=---
name: 3
---' > "$work/invalid.json"
  expect "$label tools/call validate (a bad document)" "answer['isError'] is False and answer['structuredContent']['valid'] is False" "$work/invalid.json"
  "${inspector[@]}" "$@" --method resources/read --uri logicmd://schema > "$work/schema.json"
  expect "$label resources/read" "json.loads(answer['contents'][0]['text'])['\$schema'].startswith('http://json-schema.org/draft-07')" "$work/schema.json"
}

inspect stdio "$bin" mcp --root "$repo"

# Streamable HTTP on a free loopback port.
"$bin" mcp --http 127.0.0.1:0 --root "$repo" 2> "$work/server.log" &
server_pid=$!
for _ in $(seq 100); do
  grep -q "listening on" "$work/server.log" 2>/dev/null && break
  sleep 0.1
done
url="$(sed -n 's/^logicmd mcp: listening on //p' "$work/server.log")"
[[ -n "$url" ]] || { cat "$work/server.log" >&2; exit 1; }
inspect http "$url"

npx --yes "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" server --url "$url" \
  --expected-failures scripts/mcp-conformance-baseline.yml -o "$work/conformance" > "$work/conformance.txt" 2>&1 || {
  cat "$work/conformance.txt" >&2
  exit 1
}
sed -n '/=== SUMMARY ===/,$p' "$work/conformance.txt"
echo "test-mcp: all passed"
