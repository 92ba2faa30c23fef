#!/usr/bin/env bash
# Installs what the tests need and runs every check: ruff, mypy --strict, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[test]"
python3 -m ruff check src tests benchmarks
python3 -m mypy
python3 -m pytest "$@"
