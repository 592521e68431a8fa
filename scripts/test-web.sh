#!/usr/bin/env bash
# The JavaScript side: builds the npm package and packs it as users receive it, installs the
# tarball into tests/web, type-checks a TypeScript user of it, builds the studio with Trunk,
# then runs the Node, browser (plain module, Vite bundle) and studio tests in headless Chromium.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
# shellcheck source=scripts/env.sh
source scripts/env.sh

scripts/build-npm.sh
tarball_dir="$(mktemp -d)"
trap 'rm -rf "$tarball_dir"' EXIT
tarball="$(cd wasm/pkg && npm pack --silent --pack-destination "$tarball_dir" 2>/dev/null | tail -1)"
# `npm ci` trips over npm 11's handling of rollup's optional platform packages in the lock file;
# `npm install` installs the same locked versions (package.json pins the direct ones exactly).
npm install --prefix tests/web --silent --no-audit --no-fund
# Unpacked as npm would install it (the package has no dependencies), leaving the lock file alone.
rm -rf tests/web/node_modules/logicmd
mkdir -p tests/web/node_modules/logicmd
tar -xzf "$tarball_dir/$tarball" -C tests/web/node_modules/logicmd --strip-components=1

echo "==> tsc --noEmit tests/web/usage.ts" >&2
(cd tests/web && node node_modules/typescript/bin/tsc -p tsconfig.json)

echo "==> trunk build --release (the studio)" >&2
trunk build --release
# Every file's size; the first load is what a first visit downloads before any lazy load: all
# of it but the split chunks (wasm modules other than the main `*_bg.wasm`, fetched on demand).
first_load=0
for file in dist/*.wasm dist/*.js dist/*.css; do
  gzipped="$(gzip -9c "$file" | wc -c)"
  kind="first load"
  if [[ "$file" == *.wasm && "$file" != *_bg.wasm ]]; then
    kind="lazy chunk"
  else
    first_load=$((first_load + gzipped))
  fi
  printf '%-48s %9s bytes, %8s gzipped  (%s)\n' "$file" "$(wc -c < "$file")" "$gzipped" "$kind" >&2
done
printf '%-48s %9s gzipped\n' "first load (studio, before any lazy chunk)" "$first_load" >&2
# Issue #17's cold-start budget: a first visit downloads at most 700 KB gzipped. Growth past it
# (e.g. the engine named outside web/src/run/mode.rs, linked into the main module again) fails here.
first_load_budget=700000
if (( first_load > first_load_budget )); then
  echo "error: the studio's first load is $first_load bytes gzipped, over its budget of $first_load_budget (docs/decisions.md \"Studio size\")" >&2
  exit 1
fi

node --test --test-concurrency=1 tests/web/
