#!/usr/bin/env bash
# Installs what the tests need and runs every check: ruff, mypy --strict, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[test]"
python3 -m ruff check src tests benchmarks examples
python3 -m mypy
# The end-to-end test of the full-screen game runs it in tmux.
command -v tmux >/dev/null || (apt-get update -qq && apt-get install -y -qq tmux >/dev/null) \
  || echo "warning: tmux could not be installed; tests/test_tui_tmux.py will be skipped" >&2
# The server's tests run a real PostgreSQL and redis-server from Debian's packages, the web
# UI's a real Chromium; they fail (never skip) without them, so a failed install stops here.
missing=()
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null \
  || missing+=(postgresql)
command -v redis-server >/dev/null || missing+=(redis-server)
# The browser tests drive Debian's Chromium with Playwright (which cannot download a browser).
command -v chromium >/dev/null || missing+=(chromium fonts-nanum)
if ((${#missing[@]})); then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
python3 -m pytest "$@"
