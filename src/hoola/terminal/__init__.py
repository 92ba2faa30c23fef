"""The terminal front end: ``hoola play``, full screen (Textual) or plain.

Every game is drawn from its table as data: the full screen by :mod:`hoola.terminal.table_app`,
the plain game by :mod:`hoola.terminal.plain`, each with the small touches of
:mod:`hoola.terminal.touches`; :mod:`hoola.terminal.saves` keeps the game after every move and
:mod:`hoola.terminal.tabletext` words the table. What is Hoola's alone is in the ``hoola_*``
modules (:class:`HoolaApp`, :func:`run_tui`, the plain :mod:`hoola.terminal.hoola_plain`).
Textual (the ``cli`` extra) is imported only when a screen opens: the plain game and the touches
work without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hoola.terminal.hoola_session import REACTION, Session

if TYPE_CHECKING:
    from hoola.games.hoola.rules import Rules
    from hoola.terminal.hoola_app import HoolaApp

__all__ = ["HoolaApp", "Session", "run_tui"]


def __getattr__(name: str) -> Any:
    """``HoolaApp``, imported when first asked for (it needs Textual)."""
    if name == "HoolaApp":
        from hoola.terminal.hoola_app import HoolaApp

        return HoolaApp
    raise AttributeError(f"module 'hoola.terminal' has no attribute {name!r}")


def run_tui(rules: Rules | None = None, *, players: int = 4, bots: Sequence[str] = ("greedy",),
            seed: int | None = None, deals: int = 1, name: str = "You", save: Path | None = None,
            resume: Path | None = None, claim_seconds: float = 5.0, bot_delay: float = 0.6,
            bot_reaction: tuple[float, float] = REACTION) -> Session:
    """Play a Hoola match full screen (or resume the one saved at ``resume``); return its
    session (``session.path`` is the saved record, ``session.is_over`` whether the match is
    finished).

    Raises :class:`~hoola.core.errors.RecordError` for a save that cannot be resumed and ``OSError``
    when the game cannot be saved, before the screen opens.
    """
    from hoola.games.hoola.rules import Rules
    from hoola.terminal.hoola_app import HoolaApp
    from hoola.terminal.saves import default_save_path, forget_if_empty

    options = {"bot_delay": bot_delay, "reaction": bot_reaction}
    if resume is not None:
        session = Session.resume(resume, seed=seed, **options)
    else:
        path = save or default_save_path()
        try:
            session = Session.new(rules or Rules.preset("pagat"), players=players, bots=bots,
                                  seed=seed, deals=deals, name=name, path=path, **options)
        finally:
            if save is None:
                forget_if_empty(path)
    HoolaApp(session, claim_seconds=claim_seconds).run()
    return session
