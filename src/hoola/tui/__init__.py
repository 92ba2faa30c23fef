"""The full-screen terminal game (Textual): ``hoola play``.

Needs the ``cli`` extra (Textual). :func:`run_tui` starts a new match or resumes a saved one.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from hoola.games.hoola.rules import Rules
from hoola.saves import default_save_path, forget_if_empty
from hoola.tui.app import HoolaApp
from hoola.tui.session import REACTION, Session

__all__ = ["HoolaApp", "Session", "run_tui"]


def run_tui(rules: Rules | None = None, *, players: int = 4, bots: Sequence[str] = ("greedy",),
            seed: int | None = None, deals: int = 1, name: str = "You", save: Path | None = None,
            resume: Path | None = None, claim_seconds: float = 5.0, bot_delay: float = 0.6,
            bot_reaction: tuple[float, float] = REACTION) -> Session:
    """Play a match full screen (or resume the one saved at ``resume``); return its session
    (``session.path`` is the saved record, ``session.is_over`` whether the match is finished).

    Raises :class:`~hoola.core.errors.RecordError` for a save that cannot be resumed and ``OSError``
    when the game cannot be saved, before the screen opens.
    """
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
