"""The optional compiled build (docs/compiled.md): which engine modules are compiled, and their
doctests run against the compiled code.

``HOOLA_COMPILE=1`` in the environment says the installed package is the compiled build (as
``scripts/test.sh`` runs it); unset or ``0``, the package must be pure Python, so that the
reference run never tests a stale compiled module left beside the sources.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.util
import os
import pkgutil
from pathlib import Path

import pytest

import hoola

ROOT = Path(__file__).resolve().parent.parent
COMPILED = os.environ.get("HOOLA_COMPILE", "").strip() == "1"


def excluded() -> set[str]:
    """The modules setup.py leaves in Python (``EXCLUDED``, read without running setup.py)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "EXCLUDED" for t in node.targets):
            names = ast.literal_eval(node.value)
            return {"hoola." + n.removesuffix(".py").replace("/", ".") for n in names}
    raise AssertionError("setup.py has no EXCLUDED table")


def engine_modules() -> dict[str, str]:
    """Every module setup.py may compile (hoola.core, hoola.games, packages as themselves) ->
    the file that imports it."""
    found: dict[str, str] = {}
    for package in ("hoola.core", "hoola.games"):
        found[package] = importlib.import_module(package).__file__ or ""
        path = importlib.import_module(package).__path__
        for info in pkgutil.walk_packages(path, package + "."):
            spec = importlib.util.find_spec(info.name)
            assert spec is not None and spec.origin is not None, info.name
            found[info.name] = spec.origin
    return found


def is_compiled(origin: str) -> bool:
    return not origin.endswith(".py")


@pytest.mark.skipif(COMPILED, reason="HOOLA_COMPILE=1: the compiled build is under test")
def test_the_reference_run_is_pure_python() -> None:
    compiled = sorted(m for m, origin in engine_modules().items() if is_compiled(origin))
    assert not compiled, (f"compiled modules are installed ({', '.join(compiled[:3])}...) but "
                          "HOOLA_COMPILE is not 1: set it to test the compiled build, or "
                          "reinstall without it (an editable compiled build leaves *.so files "
                          f"beside the sources, in {Path(hoola.__file__).parent.parent})")


@pytest.mark.skipif(not COMPILED, reason="HOOLA_COMPILE is not 1: the pure package is under test")
def test_the_engines_are_compiled_but_the_excluded_modules() -> None:
    modules = engine_modules()
    left = excluded()
    assert left <= set(modules), sorted(left - set(modules))
    assert "hoola.games.hoola.state" in modules  # the hot path is among them
    wrong = sorted(m for m, origin in modules.items() if is_compiled(origin) == (m in left))
    assert not wrong, f"compiled when excluded, or Python when not: {wrong}"


def docstrings(source: str) -> list[tuple[str, str, int]]:
    """(qualified name, docstring, line) of the module, and of every class and function."""
    tree = ast.parse(source)
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}.{child.name}" if prefix else child.name
                doc = ast.get_docstring(child, clean=False)
                if doc:
                    found.append((name, doc, child.body[0].lineno))
                visit(child, name)

    doc = ast.get_docstring(tree, clean=False)
    if doc:
        found.append(("", doc, 1))
    visit(tree, "")
    return found


@pytest.mark.skipif(not COMPILED, reason="HOOLA_COMPILE is not 1: --doctest-modules runs these")
def test_doctests_pass_against_the_compiled_modules() -> None:
    # Compiled modules keep no docstrings, so the examples are read from the sources installed
    # beside them and run in the compiled module's namespace.
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner()  # no option flags, as pytest's --doctest-modules here
    report: list[str] = []
    examples = 0
    for name, origin in sorted(engine_modules().items()):
        if not is_compiled(origin):
            continue
        stem = Path(origin).name.split(".")[0]
        source = Path(origin).with_name(stem + ".py")
        module = importlib.import_module(name)
        for qualname, doc, line in docstrings(source.read_text(encoding="utf-8")):
            test = parser.get_doctest(doc, dict(vars(module)), f"{name}.{qualname}".rstrip("."),
                                      str(source), line)
            examples += len(test.examples)
            runner.run(test, out=report.append)
    assert examples > 0
    assert runner.failures == 0, f"{runner.failures} of {examples} examples failed:\n" + \
        "".join(report)[:4000]
