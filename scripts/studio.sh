#!/usr/bin/env bash
# Builds and serves the studio on http://127.0.0.1:8080 with the competitive-analyst example
# loaded (a share link or the browser's autosave takes precedence). Ctrl+C stops it.
#   scripts/studio.sh [--port N]
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
scripts/bootstrap.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh
port=8080
[[ "${1:-}" == "--port" ]] && port="$2"
echo "studio: http://127.0.0.1:$port/" >&2
exec trunk serve --release --port "$port"
