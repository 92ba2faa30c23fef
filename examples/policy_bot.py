"""A bot that plays a policy trained on the RL environments (``examples/learn.py`` writes one):
NumPy alone at play time, choosing from its seat's view through the game's RL encoding.

Seat it in the lab with ``--python``:

    hoola sim -g sedma -p 2 --python learned=examples/policy_bot.py:PolicyBot \\
        --bots learned:weights=sedma-policy.npz,random -n 2000
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hoola.core.registry import get_game
from hoola.rl import encoding_for


def forward(params: dict[str, Any], obs: Any) -> Any:
    """The policy's logits for an observation (two tanh layers, then one logit an id)."""
    hidden = np.tanh(obs @ params["w1"] + params["b1"])
    hidden = np.tanh(hidden @ params["w2"] + params["b2"])
    return hidden @ params["wp"] + params["bp"]


class PolicyBot:
    """Plays the most likely legal id of the policy saved at ``weights`` (an ``.npz`` file
    written by ``examples/learn.py``, naming its game)."""

    def __init__(self, seed: int | None = None, weights: str = "policy.npz") -> None:
        saved = np.load(weights)
        self.params = {k: saved[k] for k in ("w1", "b1", "w2", "b2", "wp", "bp")}
        self.game = get_game(str(saved["game"]))
        self.encodings: dict[int, Any] = {}

    def act(self, view: Any) -> Any:
        """The legal action the policy likes best (None when letting the moment pass is it)."""
        players = len(view.names)
        encoding = self.encodings.get(players)
        if encoding is None:
            encoding = self.encodings[players] = encoding_for(self.game, view.rules, players)
        logits = forward(self.params, encoding.observe(view))
        legal = encoding.legal_ids(view)
        best = max(legal, key=lambda i: logits[i])
        return legal[best]
