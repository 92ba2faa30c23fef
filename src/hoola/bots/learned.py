"""The ``learned`` bot: a policy trained on the RL environments (``hoola train``), played from
its seat's view through the game's RL encoding with NumPy alone (the ``rl`` extra).

A policy is a small network saved as NumPy arrays (``.npz``): two tanh layers over the seat's
observation, then either one logit an action id (Hoola, the capture games: the bot computes the
legal ids' alone) or, where the encoding describes each legal action by features (Kalookie,
whose lays are too many to learn one by one), a score of each legal action's features with the
observation, DouZero's Q(s, a); the bot plays the legal action scored highest. Weights for
some families and table sizes ship in the package (``hoola/bots/weights``, named
``FAMILY-PRESET-Np.npz``); a seat picks the file of its game and table size, the same preset
first, else another preset of the family at that size whose encoding has the same sizes (all
but Glenn's Hoola, whose additions have ids of their own; Kalookie's features are the same
under every preset).
``weights=FILE`` plays any saved policy instead.

>>> shipped()[:1]
['capture-sedma-2p']
"""

from __future__ import annotations

import io
import re
from importlib import resources
from pathlib import Path
from typing import Any

from hoola.core.game import Game

__all__ = ["LEARNED_EXTRA", "LearnedBot", "Policy", "hidden_of", "layers_of", "load_policy",
           "scores_of", "shipped"]

LEARNED_EXTRA = "rl"
"""The extra that brings NumPy (and the encodings' other needs) for the learned bot."""

WEIGHTS = "weights"
_NAME = re.compile(r"[a-z]+-[a-z0-9-]+-[0-9]+p\.npz")
LAYERS = ("w1", "b1", "w2", "b2", "wp", "bp")
"""The arrays of a policy with a logit an action id."""
SCORING_LAYERS = ("w1", "b1", "w2", "b2", "ws", "wa", "ba", "wq", "bq", "wf", "bf")
"""The arrays of a policy scoring each legal action's features: ``ws`` and ``wa`` bring the
observation's last hidden layer and the action's features into a tanh layer that ``wq``
scores, and ``wf`` weighs each feature by the observation (a discard's card, a lay's cards)."""


def layers_of(names: Any) -> tuple[str, ...]:
    """The arrays of the policy whose arrays are named in ``names`` (a mapping or a list): a
    scoring policy's where there is a ``wa``."""
    return SCORING_LAYERS if "wa" in names else LAYERS


def _numpy() -> Any:
    """NumPy, or a one-line ValueError saying which extra brings it."""
    try:
        import numpy
    except ImportError:
        from hoola.install import install_command

        raise ValueError("the learned bot plays with NumPy: "
                         f"{install_command(LEARNED_EXTRA)}") from None
    return numpy


def _folder() -> Any:
    return resources.files("hoola.bots").joinpath(WEIGHTS)


def shipped() -> list[str]:
    """The names of the weight files in the package (``FAMILY-PRESET-Np``), sorted."""
    folder = _folder()
    if not folder.is_dir():
        return []
    return sorted(p.name[:-4] for p in folder.iterdir() if _NAME.fullmatch(p.name))


def hidden_of(params: dict[str, Any], obs: Any) -> Any:
    """The last hidden layer for an observation (or a batch of them)."""
    np = _numpy()
    hidden = np.tanh(obs @ params["w1"] + params["b1"])
    return np.tanh(hidden @ params["w2"] + params["b2"])


def scores_of(params: dict[str, Any], hidden: Any, features: Any) -> Any:
    """The scores of actions by their ``features`` (rows) given the observation's last hidden
    layer (or, batched, hidden layers and rows of rows)."""
    np = _numpy()
    joint = np.tanh((hidden @ params["ws"])[..., None, :] + features @ params["wa"] + params["ba"])
    weighed = features @ (hidden @ params["wf"] + params["bf"])[..., None]
    return (joint @ params["wq"])[..., 0] + params["bq"][0] + weighed[..., 0]


class Policy:
    """Saved weights and what they were trained on: ``family`` (the game's registered name),
    ``preset``, ``players``, the sizes of the observation and of the action space (of an
    action's features, for a policy that scores them: ``scoring``), and the command that
    trained them (empty when unknown)."""

    def __init__(self, params: dict[str, Any], family: str, preset: str | None,
                 players: int | None, command: str = "") -> None:
        self.params = params
        self.family = family
        self.preset = preset
        self.players = players
        self.command = command
        self.scoring = "wa" in params
        self.obs_size = params["w1"].shape[0]
        self.size = params["wa"].shape[0] if self.scoring else params["wp"].shape[1]

    def logits(self, obs: Any, ids: list[int], features: Any = None) -> Any:
        """The logits of ``ids`` alone for one observation; a scoring policy scores the rows of
        ``features`` (the same actions' features, in the same order) instead."""
        p = self.params
        if self.scoring:
            return scores_of(p, hidden_of(p, obs), features)
        return hidden_of(p, obs) @ p["wp"][:, ids] + p["bp"][ids]


def load_policy(source: Any) -> Policy:
    """A policy from an ``.npz`` file (a path, or a package resource), as ``hoola train`` and
    ``examples/learn.py`` write them; ValueError in one line for a file that is not one."""
    np = _numpy()
    try:
        data = (Path(source) if isinstance(source, str) else source).read_bytes()
        with np.load(io.BytesIO(data)) as saved:
            params = {k: np.asarray(saved[k], dtype=np.float32)
                      for k in layers_of(saved.files)}
            meta = {k: str(saved[k]) for k in ("game", "preset", "players", "command")
                    if k in saved.files}
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(f"{source}: not a learned policy ({exc})") from None
    players = meta.get("players")
    preset = meta.get("preset") or None
    return Policy(params, meta.get("game", ""), preset, int(players) if players else None,
                  meta.get("command", ""))


def _shipped_for(family: str, preset: str | None, players: int) -> Policy | None:
    names = [n for n in shipped() if n.startswith(f"{family}-") and n.endswith(f"-{players}p")]
    if not names:
        return None
    chosen = next((n for n in names if n == f"{family}-{preset}-{players}p"), names[0])
    return load_policy(_folder().joinpath(chosen + ".npz"))


class LearnedBot:
    """Plays the legal action its policy likes best, from its view alone (see the module).

    ``game`` is the game it plays (its shipped weights are that family's); ``weights`` a saved
    policy to play instead (a file, or a :class:`Policy`); ``stand_in`` a bot that decides at a
    table size with no weights (else that is a ValueError). Raises ValueError in one line when
    NumPy is missing or the family has no shipped weights."""

    name = "learned"

    def __init__(self, seed: int | None = None, *, game: Game | None = None,
                 weights: str | Policy | None = None, stand_in: Any = None) -> None:
        _numpy()
        self.game = game
        self.fixed = load_policy(weights) if isinstance(weights, str) else weights
        if self.fixed is not None and self.game is None and self.fixed.family:
            from hoola.core.registry import get_game

            self.game = get_game(self.fixed.family)
        if self.game is None:
            raise ValueError("the learned bot needs a game or weights=FILE")
        family = self.game.name
        if self.fixed is None and not any(n.startswith(f"{family}-") for n in shipped()):
            raise ValueError(f"{self.game.title} has no learned weights yet (shipped: "
                             f"{', '.join(shipped()) or 'none'}); train some with hoola train "
                             f"{family} and seat them with learned:weights=FILE")
        self.stand_in = stand_in
        self.policies: dict[tuple[Any, int], tuple[Policy, Any] | ValueError] = {}

    def check_table(self, rules: Any, players: int) -> None:
        """Raise ValueError in one line unless weights fit ``players`` seats under ``rules``
        (the lab asks before it plays)."""
        if self.stand_in is None:
            self._policy(rules, players)

    def _policy(self, rules: Any, players: int) -> tuple[Policy, Any]:
        """The policy and encoding for ``rules`` and ``players`` seats (kept for the next view;
        a table without weights is a ValueError, kept too)."""
        key = (rules, players)
        found = self.policies.get(key)
        if found is None:
            try:
                found = self._fit(rules, players)
            except ValueError as exc:
                found = exc
            self.policies[key] = found
        if isinstance(found, ValueError):
            raise found
        return found

    def _fit(self, rules: Any, players: int) -> tuple[Policy, Any]:
        from hoola.rl.families import encoding_for

        assert self.game is not None
        preset = getattr(rules, "preset_name", None)
        encoding = encoding_for(self.game, rules, players)
        policy = self.fixed or _shipped_for(self.game.name, preset, players)
        if policy is None:
            sizes = sorted({n.rsplit("-", 1)[1] for n in shipped()
                            if n.startswith(f"{self.game.name}-")})
            raise ValueError(f"{self.game.title} has no learned weights for {players} players "
                             f"(shipped for {', '.join(sizes)})")
        size = getattr(encoding, "feature_size", None) if policy.scoring else encoding.size
        what = "features an action" if policy.scoring else "actions"
        if (policy.obs_size, policy.size) != (encoding.obs_size, size):
            raise ValueError(f"the learned weights for {policy.family} {policy.preset} "
                             f"({policy.obs_size} inputs, {policy.size} {what}) do not fit "
                             f"{preset} at {players} players ({encoding.obs_size} inputs, "
                             f"{size} {what})")
        return policy, encoding

    def act(self, view: Any) -> Any | None:
        """The legal action the policy likes best (None when the pass is it)."""
        try:
            policy, encoding = self._policy(view.rules, len(view.names))
        except ValueError:
            if self.stand_in is None:
                raise
            return self.stand_in.act(view)
        legal = encoding.legal_ids(view)
        ids = list(legal)
        if len(ids) == 1:
            return legal[ids[0]]
        features = encoding.features_of(view, legal.values()) if policy.scoring else None
        scores = policy.logits(encoding.observe(view), ids, features)
        return legal[ids[int(scores.argmax())]]
