#!/usr/bin/env bash
# Fails when a snapshot file is left that no test asserted, or a pending `.snap.new` is left: what
# `cargo insta test --unreferenced=reject` checks, without the tool. REFS is the file insta wrote
# while the whole test suite ran with INSTA_SNAPSHOT_REFERENCES_FILE=REFS (scripts/test.sh).
set -euo pipefail

refs="${1:?usage: scripts/unreferenced-snapshots.sh REFS}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

referenced="$(mktemp)"
trap 'rm -f "$referenced"' EXIT
while IFS= read -r path; do
  realpath -m "$path"
done < "$refs" | sort -u > "$referenced"

status=0
while IFS= read -r -d '' snapshot; do
  if [[ "$snapshot" == *.snap.new ]]; then
    echo "pending snapshot (a test's output changed): ${snapshot#"$repo"/}" >&2
    status=1
  elif ! grep -qxF "$(realpath -m "$snapshot")" "$referenced"; then
    echo "unreferenced snapshot (no test asserts it): ${snapshot#"$repo"/}" >&2
    status=1
  fi
done < <(find "$repo" \( -path "$repo/target" -o -name node_modules -o -path "$repo/.git" \) -prune \
  -o \( -name '*.snap' -o -name '*.snap.new' \) -type f -print0)
exit "$status"
