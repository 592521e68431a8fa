#!/usr/bin/env bash
# Builds the reference implementation's packages/core (github.com/SingularityAI-Dev/logic-md,
# TypeScript; not on the npm registry this workplace reaches) from a git directory of it, for
# scripts/bench-run.sh's `dryRun` beside `logicmd run`. The dependencies are the versions its
# package-lock.json pins; TypeScript reports type errors about Node's types (it still emits
# the JavaScript). Nothing of the reference enters this repository: the build goes to OUT.
#
#   scripts/bench/build-reference.sh GIT_DIR [OUT]    # OUT: target/reference by default
#   then: REFERENCE=OUT/packages/core/dist scripts/bench-run.sh
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
git_dir="$1"
out="${2:-$repo/target/reference}"
rm -rf "$out"
mkdir -p "$out"
git --git-dir "$git_dir" archive HEAD packages/core tsconfig.json | tar -x -C "$out"
cd "$out/packages/core"
npm install --no-audit --no-fund --save-exact ajv@8.18.0 ajv-formats@3.0.1 gray-matter@4.0.3 \
  yaml@2.8.3 typescript@6.0.3 @types/node@22.19.17 > /dev/null
npx tsc -p tsconfig.json > /dev/null || true
cp schema.json dist/schema.json
test -f dist/index.js
echo "$out/packages/core/dist ($(git --git-dir "$git_dir" rev-parse --short HEAD))"
