"""The package's layout: the core at the ground, the games above it, the front ends on top.

Every import statement of every module counts, those inside functions and under
``TYPE_CHECKING`` too: an import that only runs later is still an arrow a reader has to follow.
A module's own packages are not counted (Python imports them first whatever it says).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

# The layers, lowest first; a module may import its own layer and those below.
GROUND = ("hoola.core",)
GAMES = ("hoola.games",)
FRONT_ENDS = ("hoola.terminal", "hoola.server", "hoola.sim", "hoola.rl", "hoola.tournament",
              "hoola.bots", "hoola.cli", "hoola.install")


def _modules(src: Path) -> dict[str, tuple[Path, bool]]:
    """Every module under ``src``: dotted name -> (file, whether it is a package)."""
    out = {}
    for path in src.rglob("*.py"):
        parts = list(path.relative_to(src).with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (path, package)
    return out


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    """Module -> the modules of ``src`` it imports (``from p import m`` counts as ``p.m`` when
    ``m`` is a module)."""
    modules = _modules(src)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, (path, package) in modules.items():
        here = name.split(".") if package else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here[:len(here) - (node.level - 1)]
                    base = ".".join(up + ([node.module] if node.module else []))
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                targets = subs if len(subs) == len(node.names) else [base, *subs]
            else:
                continue
            graph[name].update(t for t in targets
                               if t in modules and t != name and not name.startswith(t + "."))
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    group = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        group.append(w)
                        if w == v:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Arrows from the core or a game up to a layer above it."""
    above = {GROUND: GAMES + FRONT_ENDS, GAMES: FRONT_ENDS}
    return sorted(f"{m} -> {t}" for layer, higher in above.items() for m, ts in graph.items()
                  if m.startswith(layer) for t in ts if t.startswith(higher))


def test_the_import_graph_has_no_circles() -> None:
    assert circles(import_graph()) == []


def test_nothing_below_a_front_end_imports_one() -> None:
    assert upward(import_graph()) == []


def test_a_game_package_never_names_a_front_end_in_its_source() -> None:
    hits = [f"{p.relative_to(SRC)}:{n}" for p in (SRC / "hoola" / "games").rglob("*.py")
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if any(f"import {f}" in line or f"from {f}" in line for f in FRONT_ENDS)]
    assert hits == []


def named_games(src: Path, layers: tuple[str, ...], names: set[str]) -> list[str]:
    """Comparisons in ``layers`` with a game's name (``game == "kalookie"``): a front end asks
    the game (its presets, bots, outcome, touch) rather than branching on which game it is."""
    hits = []
    for name, (path, _package) in _modules(src).items():
        if not name.startswith(layers):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(isinstance(x, ast.Constant) and x.value in names for x in sides):
                    hits.append(f"{name}:{node.lineno}")
    return hits


def test_no_front_end_branches_on_a_games_name() -> None:
    from hoola.core.registry import game_names

    assert named_games(SRC, FRONT_ENDS, set(game_names())) == []


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """A small tree with one circle (a -> b -> a, inside a function) and one upward arrow."""
    pkg = tmp_path / "hoola"
    for sub in ("core", "games", "server"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "core" / "a.py").write_text("from hoola.core import b\n")
    (pkg / "core" / "b.py").write_text("def f():\n    from . import a\n")
    (pkg / "games" / "g.py").write_text("if False:\n    import hoola.server.room\n")
    (pkg / "server" / "room.py").write_text("from hoola.core import a\n"
                                            "def f(game):\n    return game.name == 'hoola'\n")
    return tmp_path


def test_the_checks_find_what_is_planted(planted: Path) -> None:
    graph = import_graph(planted)
    assert circles(graph) == [["hoola.core.a", "hoola.core.b"]]
    assert upward(graph) == ["hoola.games.g -> hoola.server.room"]
    assert named_games(planted, FRONT_ENDS, {"hoola"}) == ["hoola.server.room:3"]
