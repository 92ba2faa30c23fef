"""Bots written in Python outside the package, seated by the lab (``hoola sim --python
NAME=FILE:CLASS``): the class ``CLASS`` of the file ``FILE``, made for each seat with its seed and
the spec's options (``NAME:weights=policy.npz``), playing from its views like any bot.

>>> import pathlib, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = pathlib.Path(folder) / "first.py"
>>> _ = path.write_text("class First:\\n    def __init__(self, seed=None):\\n        pass\\n"
...                     "    def act(self, view):\\n        return view.legal[0]\\n")
>>> bot = load_bot(f"{path}:First", 1, {})
>>> type(bot).__name__
'First'
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from hoola.core.game import Player

__all__ = ["PREFIX", "check_target", "load_bot"]

PREFIX = "python:"
"""How the lab's list of outside bots marks a Python class (the others are commands)."""

_LOADED: dict[str, Any] = {}


def _class(target: str) -> Any:
    """The class ``FILE:CLASS`` names, the file imported once; ValueError saying what is
    wrong."""
    path, sep, name = target.rpartition(":")
    if not sep or not path or not name.isidentifier():
        raise ValueError(f"{target!r} is not FILE:CLASS")
    file = Path(path)
    if file.suffix != ".py" or not file.is_file():
        raise ValueError(f"{path!r} is not a Python file")
    module = _LOADED.get(str(file.resolve()))
    if module is None:
        unique = f"hoola_plugin_{len(_LOADED)}_{file.stem}"
        spec = importlib.util.spec_from_file_location(unique, file)
        if spec is None or spec.loader is None:
            raise ValueError(f"cannot import {path!r}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[unique] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # the outside file's own error, in one line
            del sys.modules[unique]
            raise ValueError(f"importing {path!r} failed: {type(exc).__name__}: {exc}") from exc
        _LOADED[str(file.resolve())] = module
    cls = getattr(module, name, None)
    if cls is None or not callable(cls):
        raise ValueError(f"{path!r} has no class {name!r}")
    return cls


def check_target(target: str) -> None:
    """Raise ValueError unless ``target`` (``FILE:CLASS``) names a class that can be loaded."""
    _class(target)


def load_bot(target: str, seed: int | None, options: dict[str, Any]) -> Player:
    """A new bot of the class ``target`` names, made with ``seed`` and ``options``."""
    bot: Player = _class(target)(seed=seed, **options)
    if not callable(getattr(bot, "act", None)):
        raise ValueError(f"{target}: a bot needs an act(view) method")
    return bot
