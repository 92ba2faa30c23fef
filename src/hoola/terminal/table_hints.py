"""The hint key of the generic screen: the game's own expert's choice for the person's view, with
the reason the expert gives for it.

Every game's expert bot (``Game.expert``) may explain itself: ``explain(view)`` returns its choice
and a one-sentence reason (Hoola's, Kalookie's and the capture games' experts all do). An expert
that does not explain still advises, without a reason; a game without an expert gives no hints.
No Textual import here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from hoola.core.game import Game, Player

__all__ = ["Advice", "Explainer", "TableAdviser", "hint_parts"]


@runtime_checkable
class Explainer(Protocol):
    """A bot that says why it chooses what it chooses."""

    def explain(self, view: Any) -> tuple[Any | None, str]:
        """Its choice for ``view`` (None: let the moment pass) and a one-sentence reason."""
        ...


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint: the advised action (None: let the moment pass) and the expert's reason ("" when
    it gives none)."""

    action: Any | None
    reason: str


class TableAdviser:
    """Advice from ``game``'s expert; :attr:`bot` is None for a game without one."""

    def __init__(self, game: Game, seed: int | None = 0) -> None:
        self.bot: Player | None
        try:
            self.bot = game.expert(seed)
        except NotImplementedError:
            self.bot = None

    @property
    def can_advise(self) -> bool:
        """Whether the game has an expert to ask."""
        return self.bot is not None

    def advise(self, view: Any) -> Advice:
        """The expert's choice for ``view``, with its reason; the first legal move with a word of
        explanation when the expert's choice is not legal (it never should be)."""
        if self.bot is None:
            raise LookupError("this game has no expert bot to give hints")
        if isinstance(self.bot, Explainer):
            action, reason = self.bot.explain(view)
        else:
            action, reason = self.bot.act(view), ""
        if action is None and not view.can_pass and view.legal:
            return Advice(view.legal[0], "")
        if action is not None and action not in view.legal:
            return Advice(view.legal[0] if view.legal else None, "")
        return Advice(action, " ".join(str(reason).split()))


def hint_parts(label: str, reason: str) -> tuple[str, str]:
    """The hinted move and its reason, each said once: a reason that names the move first
    ("Take Js: it makes your initial meld") gives the move in its words and keeps what follows.

    >>> hint_parts("take", "Take Js: it makes your initial meld (Js Qs Ks).")
    ('Take Js', 'It makes your initial meld (Js Qs Ks).')
    >>> hint_parts("play 7h", "Lead your lowest card: it gives away no points.")
    ('play 7h', 'Lead your lowest card: it gives away no points.')
    """
    head, sep, tail = reason.partition(": ")
    verb = label.split()[0].lower() if label.split() else ""
    if sep and verb and head.split()[0].lower() == verb and len(head) <= 40:
        return head, tail[:1].upper() + tail[1:]
    return label, reason[:1].upper() + reason[1:]
