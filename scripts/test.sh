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
# the engines as the server tests do, which run). Deselected: the tests that hand the engines
# values of the wrong type (a bool or None for a seat or a card, a str for a seed) to see them
# refused; compiled code checks the annotated types, so it raises TypeError there, or takes True
# for seat 1 (docs/compiled.md, "Limits").
if [[ "${HOOLA_SKIP_COMPILED:-0}" != 1 ]]; then
  venv=build/venv-compiled
  python3 -m venv --system-site-packages "$venv"
  HOOLA_COMPILE=1 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check ".[test]"
  ill_typed=(
    tests/test_state.py::test_seats_must_be_seats
    "tests/test_state.py::test_new_deal_state_refuses_bad_arguments[args5-kwargs5-bad-deal]"
    "tests/test_state.py::test_new_deal_state_refuses_bad_arguments[args9-kwargs9-bad-seed]"
    tests/test_properties.py::test_malformed_actions_are_refused_and_change_nothing
    tests/test_properties.py::test_malformed_construction_is_refused
    tests/test_capture_engine.py::test_signals_need_the_option_and_a_known_word
    tests/test_capture_engine.py::test_a_view_of_a_seat_that_is_not_at_the_table_is_refused
    tests/test_capture_engine.py::test_every_refusal_has_its_code_and_changes_nothing
    tests/test_capture_engine.py::test_explicit_deals_refuse_a_bad_dealer_or_hand_count
    tests/test_capture_properties.py::test_random_hands_conserve_cards_and_refuse_what_is_not_listed
    tests/kalookie/test_properties.py::test_random_matches_keep_every_invariant
    tests/kalookie/test_state.py::test_garbage_is_refused_and_changes_nothing
  )
  # The sources in src/ are the pure package: the doctests are collected through test_compiled.
  HOOLA_COMPILE=1 "$venv/bin/python" -m pytest -o "testpaths=tests README.md" \
    --ignore=tests/test_web_browser.py --ignore-glob='tests/test_tui*.py' \
    "${ill_typed[@]/#/--deselect=}" "$@"
  HOOLA_COMPILE=1 "$venv/bin/hoola" verify tests/records ../shared/conformance | tail -n 1
fi
