"""The random bot: a uniformly random legal action (or a pass, when passing is allowed)."""

from __future__ import annotations

import random

from hoola.games.hoola.actions import Action
from hoola.games.hoola.views import View

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among its legal actions, and passing when it may pass."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action | None:
        """A random legal action, or None (a pass) with the same chance as each action."""
        legal = view.legal
        if view.can_pass:
            k = self.rng.randrange(len(legal) + 1)
            return legal[k] if k < len(legal) else None
        return legal[self.rng.randrange(len(legal))] if legal else None
