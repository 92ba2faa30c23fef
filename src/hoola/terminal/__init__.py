"""The terminal front end: ``hoola play``, full screen (Textual) or plain, one game for every game.

Every game is drawn from its table as data: the full screen by :mod:`hoola.terminal.table_app`,
the plain game by :mod:`hoola.terminal.plain`, each with the small touches of
:mod:`hoola.terminal.touches` (Hoola's in :mod:`hoola.terminal.hoola_touch`);
:mod:`hoola.terminal.saves` keeps the game after every move and :mod:`hoola.terminal.tabletext`
words the table. Textual (the ``cli`` extra) is imported only when a screen opens: the plain game
and the touches work without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hoola.terminal.saves import SavedGame

if TYPE_CHECKING:
    from hoola.terminal.table_app import TableApp, run_table_app

__all__ = ["SavedGame", "TableApp", "run_table_app"]


def __getattr__(name: str) -> Any:
    """``TableApp`` and ``run_table_app``, imported when first asked for (they need Textual)."""
    if name in ("TableApp", "run_table_app"):
        from hoola.terminal import table_app

        return getattr(table_app, name)
    raise AttributeError(f"module 'hoola.terminal' has no attribute {name!r}")
