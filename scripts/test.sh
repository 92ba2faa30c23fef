#!/usr/bin/env bash
# Installs what the tests need and runs every check: ruff, mypy --strict, pytest; then the tests
# again against the optional compiled build (HOOLA_SKIP_COMPILED=1 leaves that out).
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

# The optional compiled build (docs/compiled.md), after the pure-Python reference above: built
# with mypyc into a virtualenv of its own (build/ is git-ignored) and tested there, the doctests
# through tests/test_compiled.py (compiled modules keep no docstrings), records with hoola verify.
# Left out, to keep CI near ten minutes: the browser and terminal UI tests (front ends reaching
# the engines as the server tests do, which run).
if [[ "${HOOLA_SKIP_COMPILED:-0}" != 1 ]]; then
  venv=build/venv-compiled
  python3 -m venv --system-site-packages "$venv"
  HOOLA_COMPILE=1 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check ".[test]"
  # The sources in src/ are the pure package: the doctests are collected through test_compiled.
  # Hypothesis tries 40 examples a test here (the pure run above tries 300): the same properties
  # and refusals, checked on the compiled code at a fraction of the time.
  # Kalookie's frozen reference engine (tests/kalookie/oracle_*.py) is pure Python built on
  # classes that are compiled here, which mypyc does not allow: the comparison of the engine with
  # it runs in the pure run above.
  HOOLA_HYPOTHESIS=dev HOOLA_COMPILE=1 "$venv/bin/python" -m pytest -o "testpaths=tests README.md" \
    --ignore=tests/test_web_browser.py --ignore-glob='tests/test_tui*.py' \
    --ignore=tests/kalookie/test_oracle.py "$@"
  HOOLA_COMPILE=1 "$venv/bin/hoola" verify tests/records ../shared/conformance >/dev/null
fi
