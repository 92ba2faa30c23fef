"""The optional compiled build: ``HOOLA_COMPILE=1 pip install .`` compiles the engines with mypyc.

Everything else about the package is in ``pyproject.toml``; without ``HOOLA_COMPILE=1`` this file
adds nothing and the install is the pure-Python package, the default and the reference. With it,
``mypy`` (which provides mypyc) becomes a build requirement through ``setup_requires``, which
setuptools' PEP 517 backend hands to pip before the build, and a C compiler is needed. The
compiled build has its own build directory, so that a later pure build never picks up its
extension modules. See docs/compiled.md.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

from setuptools import setup

HERE = Path(__file__).resolve().parent
SWITCH = "HOOLA_COMPILE"
MYPY = "mypy>=1.10"
BUILD_BASE = "build/compiled"
METADATA_ONLY = ("egg_info", "dist_info", "sdist")

# Engine modules left in Python, and why. Compiled code checks the annotated type of every value
# it receives, so the modules that take values of any type in order to normalise or refuse them
# stay in Python, with the few that mypyc gets wrong. Compiled modules use their classes as
# ordinary Python objects; none but the actions is used at every decision.
EXCLUDED = {
    "core/errors.py": "each exception class sets `code` in its body: compiled, instances of the "
                      "subclasses have no `code`",
    "core/game.py": "runtime_checkable Protocols: compiled, they are no longer protocols",
    "core/records.py": "reads record files of any shape",
    "core/registry.py": "tests replace its globals",
    "core/table.py": "front-end data, its count filled in after construction",
    "core/words.py": "Reason, a str subclass carrying its key: mypyc compiles no such class",
    "games/hoola/actions.py": "tests build ill-typed actions to see the engine refuse them",
    "games/kalookie/actions.py": "tests build ill-typed actions to see the engine refuse them",
    "games/capture/actions.py": "tests build ill-typed actions to see the engine refuse them",
    "games/hoola/inputs.py": "checks the fields of actions of any type",
    "games/hoola/rules.py": "options of any type normalised in __post_init__",
    "games/kalookie/rules.py": "options of any type normalised in __post_init__",
    "games/capture/rules.py": "options of any type normalised in __post_init__",
    "games/hoola/deal.py": "lists normalised to tuples in __post_init__; object.__new__",
    "games/hoola/match.py": "Totals, a dict subclass with __call__: compiled, calling it crashes "
                            "the interpreter (mypy 2.4.1)",
    "games/hoola/records.py": "reads record files of any shape",
    "games/kalookie/records.py": "reads record files of any shape",
    "games/capture/records.py": "reads record files of any shape",
}


def wanted() -> bool:
    """Whether the environment asks for the compiled build (``1``), refusing a value not 0 or 1."""
    value = os.environ.get(SWITCH, "").strip()
    if value not in ("", "0", "1"):
        sys.exit(f"error: {SWITCH}={value!r}: use 1 to compile the engines with mypyc, "
                 "0 or unset for pure Python")
    return value == "1"


def compiled_paths() -> list[str]:
    """The modules mypyc compiles: the core (with the driver that simulations and the benchmarks
    play deals with) and the game engines, but :data:`EXCLUDED`."""
    package = HERE / "src" / "hoola"
    found = sorted(p for root in ("core", "games") for p in (package / root).rglob("*.py"))
    missing = set(EXCLUDED) - {p.relative_to(package).as_posix() for p in found}
    if missing:  # a renamed module would otherwise be compiled without anyone deciding it
        sys.exit("error: setup.py excludes modules that do not exist: "
                 + ", ".join(sorted(missing)))
    return [p.relative_to(HERE).as_posix() for p in found
            if p.relative_to(package).as_posix() not in EXCLUDED]


def options() -> dict[str, Any]:
    """The mypyc extensions and a build directory of their own, or nothing (pure Python)."""
    if not wanted():
        return {}
    if any(command in sys.argv for command in METADATA_ONLY):
        # pip first asks for the build requirements (egg_info), then for the metadata: neither
        # needs the extensions, and the first runs before mypy is installed.
        return {"setup_requires": [MYPY]}
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit(f"error: {SWITCH}=1 needs mypy (it provides mypyc) where the package is built: "
                 f"pip install '{MYPY}', or build without --no-build-isolation")
    for stale in (HERE / BUILD_BASE).glob("lib.*"):
        shutil.rmtree(stale)  # a module taken off the compiled list must not keep its old build
    # multi_file: C files gcc compiles in parallel, a build about twice as fast as one file,
    # at the same speed (measured).
    return {"setup_requires": [MYPY],
            "ext_modules": mypycify(compiled_paths(), opt_level="3", multi_file=True,
                                    target_dir=f"{BUILD_BASE}/mypyc"),
            "options": {"build": {"build_base": BUILD_BASE},
                        "build_ext": {"parallel": os.cpu_count() or 1}}}


setup(**options())
