"""A bot written in Python that plays a saved policy (``hoola train`` and ``examples/learn.py``
write them) with NumPy alone: the ``learned`` bot kind under another name, to show how a bot of
your own sits in the lab with ``--python NAME=FILE:CLASS``:

    hoola sim -g sedma -p 2 --python mine=examples/policy_bot.py:PolicyBot \\
        --bots mine:weights=sedma-policy.npz,random -n 2000

(``--bots learned:weights=sedma-policy.npz,random`` seats the same policy without this file.)
"""

from __future__ import annotations

from typing import Any

from hoola.bots.learned import LearnedBot


class PolicyBot:
    """Plays the most likely legal id of the policy saved at ``weights`` (an ``.npz`` file
    naming its game), from its seat's view through the game's RL encoding."""

    def __init__(self, seed: int | None = None, weights: str = "policy.npz") -> None:
        self.bot = LearnedBot(seed, weights=weights)

    def act(self, view: Any) -> Any:
        """The legal action the policy likes best (None when letting the moment pass is it)."""
        return self.bot.act(view)
