# Source this to put the project-local tools first on PATH.
_logicmd_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export LOGICMD_TOOLS_DIR="${LOGICMD_TOOLS_DIR:-$_logicmd_repo/.tools}"
export PATH="$LOGICMD_TOOLS_DIR/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
unset _logicmd_repo
