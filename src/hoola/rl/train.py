"""Training a policy for the ``learned`` bot (``hoola train``; JAX and optax from the ``learn``
extra, imported only here).

Two phases, both on :class:`~hoola.rl.episode.Episode` with the project's bots at the other
seats, the network of :mod:`hoola.bots.learned` (two tanh layers, a logit an action id and a
value), the logits computed for the legal ids alone (Hoola has 11,061 ids and a seat rarely
more than a few dozen legal). Where the encoding describes each action by features
(``features_of``: Kalookie, 32,552 ids, most of them lays), the network scores each legal
action's features with the observation instead (DouZero's Q(s, a)), so that what is learned of
one lay carries to the lays like it; its decisions with one legal action teach nothing and are
not kept. Either way the logits go through a softmax over the legal actions:

1. **Imitation** (``imitate`` games): the teacher (the game's expert) plays its seat against a
   mix of opponents; every teacher decision is a row (the observation, the legal ids, the id
   chosen), and the seat's result of the deal the value's target. ``epochs`` passes of
   cross-entropy on the teacher's choices, with a tenth of the games held out to measure the
   agreement with the teacher.
2. **Policy gradient** (``updates`` Adam steps of ``batch`` games): the learner samples from its
   policy at a seat (each seat in turn) against opponents drawn from ``opponents`` (bot kinds,
   and ``self``: one of its own past policies), with the deal's result less the value as the
   advantage, the value's error and an entropy bonus.

Every ``eval_every`` updates (and before and after imitation) the greedy policy plays
``eval_deals`` duplicate deals against ``reference``: its stakes a deal with a 95% interval and
its win rate make the learning curve (``OUT.curve.json``, plotted in ``OUT.curve.png``). A
checkpoint (``OUT.checkpoint``) is written at each evaluation; ``resume`` goes on from it.
Every source of chance is seeded from ``seed``: the same command on the same machine writes
the same weights.
"""

from __future__ import annotations

import json
import math
import textwrap
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hoola.bots.learned import LearnedBot, Policy, layers_of
from hoola.core.game import Game, Player
from hoola.rl.episode import Episode
from hoola.rl.families import resolve_game

__all__ = ["Config", "Row", "collect", "evaluate", "train"]


@dataclass
class Config:
    """A training run's settings (see the module); ``command`` rebuilds it."""

    game: str = "sedma"
    rules: str | None = None
    players: int = 2
    imitate: int = 2000
    epochs: int = 4
    teacher: str = "expert"
    updates: int = 100
    batch: int = 32
    opponents: str = "expert,greedy,random,self"
    reference: str = "expert"
    eval_deals: int = 200
    eval_every: int = 25
    hidden: int = 128
    lr: float = 1e-3
    pg_lr: float = 2e-4
    entropy: float = 0.01
    seed: int = 0
    out: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def command(self) -> str:
        """The ``hoola train`` command line of these settings."""
        default = Config()
        parts = ["hoola train", self.game]
        for key, value in asdict(self).items():
            if key in ("game", "extra") or value == getattr(default, key) or value is None:
                continue
            parts.append(f"--{key.replace('_', '-')} {value}")
        return " ".join(parts)


@dataclass
class Row:
    """One decision: the observation, the legal ids, the index of the one chosen among them,
    the target (the seat's result of the deal, scaled) and, for a scoring network, the legal
    actions' features (kept in float16)."""

    obs: Any
    ids: list[int]
    chosen: int
    target: float = 0.0
    features: Any = None


def scores_actions(encoding: Any) -> bool:
    """Whether ``encoding`` describes each action by features, for a network that scores
    them."""
    return hasattr(encoding, "features_of")


def _features(encoding: Any, view: Any, legal: dict[int, Any]) -> Any:
    return encoding.features_of(view, legal.values()).astype(np.float16)


# -- playing ---------------------------------------------------------------------------------


class Sampler:
    """The learner at play in training: samples from its policy's legal logits (or plays the
    best, ``greedy``) and keeps each decision as a :class:`Row`."""

    def __init__(self, policy: Policy, encoding: Any, rng: np.random.Generator,
                 greedy: bool = False) -> None:
        self.policy, self.encoding, self.rng, self.greedy = policy, encoding, rng, greedy
        self.rows: list[Row] = []

    def act(self, view: Any) -> Any:
        legal = self.encoding.legal_ids(view)
        ids = list(legal)
        if len(ids) == 1 and self.policy.scoring:
            return legal[ids[0]]  # nothing to learn
        obs = self.encoding.observe(view)
        features = _features(self.encoding, view, legal) if self.policy.scoring else None
        if len(ids) == 1:
            choice = 0
        else:
            logits = self.policy.logits(obs, ids, features)
            if self.greedy:
                choice = int(logits.argmax())
            else:
                p = np.exp(logits - logits.max())
                choice = int(self.rng.choice(len(ids), p=p / p.sum()))
        if not self.greedy:
            self.rows.append(Row(obs, ids, choice, features=features))
        return legal[ids[choice]]


class Recorder:
    """A bot whose decisions are kept as rows (the teacher in imitation)."""

    def __init__(self, bot: Player, encoding: Any) -> None:
        self.bot, self.encoding = bot, encoding
        self.scoring = scores_actions(encoding)
        self.rows: list[Row] = []

    def act(self, view: Any) -> Any:
        action = self.bot.act(view)
        legal = self.encoding.legal_ids(view)
        ids = list(legal)
        if self.scoring and len(ids) == 1:
            return action
        chosen = self.encoding.pass_id if action is None else self.encoding.action_id(view, action)
        features = _features(self.encoding, view, legal) if self.scoring else None
        self.rows.append(Row(self.encoding.observe(view), ids, ids.index(chosen),
                             features=features))
        return action


def play(episode: Episode, seats: list[Any], seed: int) -> list[float]:
    """One game of ``episode`` from ``seed`` between ``seats`` (players by seat); each seat's
    total."""
    episode.reset(seed)
    while not episode.done:
        seat = episode.seat
        assert seat is not None
        episode.act(seat, seats[seat].act(episode.view(seat)))
    return list(episode.totals)


def _bot(kind: str, game: Game, seed: int) -> Player:
    from hoola.bots import make_bot

    return make_bot(kind, seed, game=game)


def collect(episode: Episode, teacher: str, opponents: list[str], games: int, seed: int,
            scale: float | None = None, progress: Callable[[int], None] | None = None
            ) -> tuple[list[list[Row]], float]:
    """The teacher's decisions in ``games`` games at a seat that goes round the table, the
    other seats drawn from ``opponents``: the rows of each game, and the scale of the results
    (their mean absolute value, unless given); ``progress(games played)`` is told of each."""
    rng = np.random.default_rng(seed)
    game, n = episode.game, episode.players
    per_game: list[list[Row]] = []
    results: list[float] = []
    for g in range(games):
        me = g % n
        recorder = Recorder(_bot(teacher, game, seed + g), episode.encoding)
        seats: list[Any] = [recorder if q == me else
                            _bot(str(rng.choice(opponents)), game, seed * 7 + g * n + q)
                            for q in range(n)]
        totals = play(episode, seats, seed * 1_000_003 + g)
        for row in recorder.rows:
            row.target = totals[me]
        results.append(totals[me])
        per_game.append(recorder.rows)
        if progress is not None:
            progress(g + 1)
    scale = scale or max(1.0, float(np.mean(np.abs(results))))
    for rows in per_game:
        for row in rows:
            row.target /= scale
    return per_game, scale


def evaluate(policy: Policy, episode: Episode, reference: str, deals: int,
             seed: int) -> dict[str, float]:
    """The greedy policy against ``reference`` on ``deals`` duplicate deals (every seating):
    its stakes a deal with a 95% half-width, its win rate (a tie half a win)."""
    game, n = episode.game, episode.players
    per_deal: list[float] = []
    wins = 0.0
    for d in range(deals):
        total = 0.0
        for me in range(n):
            learner = Sampler(policy, episode.encoding, np.random.default_rng(0), greedy=True)
            seats: list[Any] = [learner if q == me else _bot(reference, game, seed + d * n + q)
                                for q in range(n)]
            result = play(episode, seats, seed * 1_000_003 + d)[me]
            total += result
            wins += 1.0 if result > 0 else 0.5 if result == 0 else 0.0
        per_deal.append(total / n)
    mean = float(np.mean(per_deal))
    half = 1.96 * float(np.std(per_deal, ddof=1)) / math.sqrt(deals) if deals > 1 else 0.0
    return {"stakes": mean, "interval": half, "win_rate": wins / (deals * n)}


# -- learning --------------------------------------------------------------------------------


def _jax() -> tuple[Any, Any, Any]:
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        from hoola.install import install_command

        raise ValueError(f"hoola train learns with JAX and optax: {install_command('learn')}"
                         ) from None
    return jax, jnp, optax


def init_params(seed: int, inputs: int, actions: int, hidden: int,
                features: int | None = None) -> dict[str, Any]:
    """The network's first weights: tanh layers scaled to their inputs; the policy head at zero
    (every legal id alike, and an id never legal in training stays exactly zero, so the saved
    file compresses). With ``features`` (floats an action), the network scoring actions: its
    joint layer scaled to its two inputs, its score at zero (every legal action alike)."""
    rng = np.random.default_rng(seed)
    if features is not None:
        return {
            "w1": (rng.standard_normal((inputs, hidden)) / np.sqrt(inputs)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": (rng.standard_normal((hidden, hidden)) / np.sqrt(hidden)).astype(np.float32),
            "b2": np.zeros(hidden, np.float32),
            "ws": (rng.standard_normal((hidden, hidden)) / np.sqrt(2 * hidden)
                   ).astype(np.float32),
            "wa": (rng.standard_normal((features, hidden)) / np.sqrt(2 * 4)
                   ).astype(np.float32),  # a row holds a few ones
            "ba": np.zeros(hidden, np.float32),
            "wq": np.zeros((hidden, 1), np.float32),
            "bq": np.zeros(1, np.float32),
            "wf": np.zeros((hidden, features), np.float32),
            "bf": np.zeros(features, np.float32),
            "wv": np.zeros((hidden, 1), np.float32),
            "bv": np.zeros(1, np.float32),
        }
    return {
        "w1": (rng.standard_normal((inputs, hidden)) / np.sqrt(inputs)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.standard_normal((hidden, hidden)) / np.sqrt(hidden)).astype(np.float32),
        "b2": np.zeros(hidden, np.float32),
        "wp": np.zeros((hidden, actions), np.float32),
        "bp": np.zeros(actions, np.float32),
        "wv": np.zeros((hidden, 1), np.float32),
        "bv": np.zeros(1, np.float32),
    }


def _batch(rows: list[Row], advantage_of: Callable[[Row], float] | None = None
           ) -> tuple[Any, ...]:
    """Rows as padded arrays: a power-of-two count of rows and of legal ids (few shapes for
    JAX to compile); padding rows weigh 0, padding ids are masked. For a scoring network the
    legal actions' features (rows, legal, features) stand where the ids would."""
    size = 1 << max(len(rows) - 1, 1).bit_length()
    width = 1 << max(max(len(r.ids) for r in rows) - 1, 1).bit_length()
    obs = np.zeros((size, len(rows[0].obs)), np.float32)
    if rows[0].features is not None:
        features = np.zeros((size, width, rows[0].features.shape[1]), np.float32)
        for i, r in enumerate(rows):
            features[i, :len(r.ids)] = r.features
    ids = np.zeros((size, width), np.int32)
    mask = np.zeros((size, width), bool)
    mask[:, 0] = True
    chosen = np.zeros(size, np.int32)
    target = np.zeros(size, np.float32)
    weight = np.zeros(size, np.float32)
    for i, r in enumerate(rows):
        obs[i] = r.obs
        ids[i, :len(r.ids)] = r.ids
        mask[i, :len(r.ids)] = True
        chosen[i], target[i], weight[i] = r.chosen, r.target, 1.0
    if rows[0].features is not None:
        return obs, features, mask, chosen, target, weight
    return obs, ids, mask, chosen, target, weight


class Learner:
    """The network (a logit an id, or a score of each action's features: ``params`` says
    which), its optimizer and the two losses, in JAX."""

    def __init__(self, params: dict[str, Any], lr: float, entropy: float) -> None:
        jax, jnp, optax = _jax()
        self.jax, self.optax = jax, optax
        self.params = {k: jnp.asarray(v) for k, v in params.items()}
        self.entropy = entropy
        self.set_lr(lr)
        scoring = "wa" in params

        def heads(p: Any, obs: Any, ids: Any) -> tuple[Any, Any]:
            h = jnp.tanh(obs @ p["w1"] + p["b1"])
            h = jnp.tanh(h @ p["w2"] + p["b2"])
            if scoring:  # ids: the legal actions' features (rows, legal, features)
                joint = jnp.tanh((h @ p["ws"])[:, None, :] + ids @ p["wa"] + p["ba"])
                logits = ((joint @ p["wq"])[..., 0] + p["bq"][0]
                          + jnp.einsum("blf,bf->bl", ids, h @ p["wf"] + p["bf"]))
            else:
                columns = p["wp"].T[ids]  # (rows, legal, hidden)
                logits = jnp.einsum("bh,blh->bl", h, columns) + p["bp"][ids]
            return logits, (h @ p["wv"] + p["bv"])[..., 0]

        def log_probs(p: Any, obs: Any, ids: Any, mask: Any) -> tuple[Any, Any]:
            logits, value = heads(p, obs, ids)
            return jax.nn.log_softmax(jnp.where(mask, logits, -1e9)), value

        def imitation(p: Any, obs: Any, ids: Any, mask: Any, chosen: Any, target: Any,
                      weight: Any) -> Any:
            logp, value = log_probs(p, obs, ids, mask)
            picked = jnp.take_along_axis(logp, chosen[:, None], axis=1)[:, 0]
            loss = -(picked * weight).sum() + 0.5 * (((value - target) ** 2) * weight).sum()
            return loss / weight.sum()

        def gradient(p: Any, obs: Any, ids: Any, mask: Any, chosen: Any, target: Any,
                     weight: Any, entropy: Any) -> Any:
            logp, value = log_probs(p, obs, ids, mask)
            picked = jnp.take_along_axis(logp, chosen[:, None], axis=1)[:, 0]
            advantage = jax.lax.stop_gradient(target - value)
            spread = -jnp.sum(jnp.where(mask, jnp.exp(logp) * logp, 0.0), axis=1)
            loss = (-(picked * advantage * weight).sum()
                    + 0.5 * (((target - value) ** 2) * weight).sum()
                    - entropy * (spread * weight).sum())
            return loss / weight.sum()

        def agree(p: Any, obs: Any, ids: Any, mask: Any, chosen: Any) -> Any:
            logp, _ = log_probs(p, obs, ids, mask)
            return logp.argmax(axis=1) == chosen

        self._imitation = jax.jit(jax.value_and_grad(imitation))
        self._gradient = jax.jit(jax.value_and_grad(gradient))
        self._agree = jax.jit(agree)

    def set_lr(self, lr: float) -> None:
        """A fresh Adam at ``lr`` (the second phase starts its own)."""
        self.optimizer = self.optax.adam(lr)
        self.opt_state = self.optimizer.init(self.params)

    def _apply(self, grads: Any) -> None:
        updates, self.opt_state = self.optimizer.update(grads, self.opt_state, self.params)
        self.params = self.optax.apply_updates(self.params, updates)

    def imitate(self, rows: list[Row]) -> float:
        """One Adam step of cross-entropy on ``rows``; the loss."""
        loss, grads = self._imitation(self.params, *_batch(rows))
        self._apply(grads)
        return float(loss)

    def reinforce(self, rows: list[Row]) -> float:
        """One Adam step of the policy gradient on ``rows``; the loss."""
        loss, grads = self._gradient(self.params, *_batch(rows), self.entropy)
        self._apply(grads)
        return float(loss)

    def agreement(self, rows: list[Row]) -> float:
        """The share of ``rows`` where the policy's best id is the one chosen."""
        hits = 0
        for start in range(0, len(rows), 512):
            chunk = rows[start:start + 512]
            obs, ids, mask, chosen, _, _ = _batch(chunk)
            hits += int(np.asarray(self._agree(self.params, obs, ids, mask, chosen))[
                :len(chunk)].sum())
        return hits / max(1, len(rows))

    def numpy_params(self) -> dict[str, Any]:
        """The weights as NumPy arrays."""
        return {k: np.asarray(v) for k, v in self.params.items()}

    def opt_leaves(self) -> list[Any]:
        """The optimizer's state as a list of arrays (for a checkpoint)."""
        return [np.asarray(x) for x in self.jax.tree_util.tree_leaves(self.opt_state)]

    def restore(self, params: dict[str, Any], leaves: list[Any]) -> None:
        """Weights and optimizer state from a checkpoint."""
        jnp = self.jax.numpy
        self.params = {k: jnp.asarray(v) for k, v in params.items()}
        tree = self.jax.tree_util.tree_structure(self.opt_state)
        self.opt_state = self.jax.tree_util.tree_unflatten(tree, [jnp.asarray(x) for x in leaves])


def save_policy(path: Path, params: dict[str, Any], episode: Episode, command: str) -> None:
    """The weights (the layers in float16: plenty for choosing an action) and what they are,
    with the ``command`` that trained them."""
    arrays: dict[str, Any] = {k: np.asarray(params[k], np.float16) for k in layers_of(params)}
    np.savez_compressed(path, game=np.array(episode.game.name),
                        preset=np.array(getattr(episode.rules, "preset_name", "") or ""),
                        players=np.array(str(episode.players)), command=np.array(command),
                        **arrays)


def _policy(params: dict[str, Any], episode: Episode) -> Policy:
    return Policy({k: np.asarray(params[k], np.float32) for k in layers_of(params)},
                  episode.game.name, None, episode.players)


def plot_curve(curve: list[dict[str, Any]], path: Path, title: str, players: int = 2) -> None:
    """The win rate (a line at an even share) and stakes a deal against the reference over
    training, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = [c["games"] for c in curve]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    top.plot(games, [c["win_rate"] for c in curve], marker="o")
    top.set_ylabel("win rate")
    top.axhline(1 / players, color="grey", lw=0.5)
    bottom.errorbar(games, [c["stakes"] for c in curve], yerr=[c["interval"] for c in curve],
                    marker="o", capsize=3)
    bottom.axhline(0.0, color="grey", lw=0.5)
    bottom.set_ylabel("stakes a deal (95%)")
    bottom.set_xlabel("games of experience (imitation, then self-play and bots)")
    for c in curve:
        if c["phase"] == "imitation":
            top.axvline(c["games"], color="grey", ls=":", lw=0.8)
            bottom.axvline(c["games"], color="grey", ls=":", lw=0.8)
    top.set_title("\n".join(textwrap.wrap(title, 90)), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def train(config: Config, progress: Callable[[str, int, int, str], None] | None = None,
          resume: bool = False) -> dict[str, Any]:
    """Run ``config``; write the weights, the curve and its plot; the final curve point.

    ``progress(phase, done, total, note)`` is told of each step."""
    tell = progress or (lambda *_: None)
    game, rules = resolve_game(config.game, config.rules)
    episode = Episode(game, rules, config.players)
    enc = episode.encoding
    out = Path(config.out or f"{game.name}-{getattr(rules, 'preset_name', 'custom')}-"
               f"{config.players}p.npz")
    out.parent.mkdir(parents=True, exist_ok=True)
    stem = out.with_suffix("")
    checkpoint = Path(f"{stem}.checkpoint")  # not .npz: never taken for shipped weights
    curve_path, plot_path = Path(f"{stem}.curve.json"), Path(f"{stem}.curve.png")
    from hoola.bots import kinds_of

    kinds = kinds_of(game)
    pool = [k for k in config.opponents.split(",") if k == "self" or k in kinds]
    bots = [k for k in pool if k != "self"] or ["random"]
    features = getattr(enc, "feature_size", None) if scores_actions(enc) else None
    learner = Learner(init_params(config.seed, enc.obs_size, enc.size, config.hidden, features),
                      config.lr, config.entropy)
    curve: list[dict[str, Any]] = []
    started = time.time()
    seen = 0
    snapshots: list[dict[str, Any]] = []

    def point(phase: str, step: int) -> dict[str, Any]:
        policy = _policy(learner.numpy_params(), episode)
        result: dict[str, Any] = evaluate(policy, episode, config.reference, config.eval_deals,
                                          config.seed + 99_991)
        result.update(phase=phase, step=step, games=seen, seconds=round(time.time() - started))
        curve.append(result)
        tell("evaluated", len(curve), len(curve),
             f"{phase} {step}: {result['stakes']:+.2f} ± {result['interval']:.2f} a deal, "
             f"win rate {result['win_rate']:.3f} against {config.reference}")
        return result

    def save_checkpoint(update: int, scale: float) -> None:
        with checkpoint.open("wb") as f:
            np.savez(f, update=np.array(update), seen=np.array(seen),
                     scale=np.array(scale), curve=np.array(json.dumps(curve)),
                     snapshots=np.array(len(snapshots)),
                     **{f"p_{k}": v for k, v in learner.numpy_params().items()},
                     **{f"o_{i}": v for i, v in enumerate(learner.opt_leaves())},
                     **{f"s{j}_{k}": v for j, s in enumerate(snapshots) for k, v in s.items()})

    first, scale = 1, 1.0
    if resume and checkpoint.exists():
        saved = np.load(checkpoint)
        first, seen, scale = int(saved["update"]) + 1, int(saved["seen"]), float(saved["scale"])
        curve = json.loads(str(saved["curve"]))
        learner.set_lr(config.pg_lr)
        params = {k[2:]: saved[k] for k in saved.files if k.startswith("p_")}
        leaves = [saved[f"o_{i}"] for i in range(sum(k.startswith("o_") for k in saved.files))]
        learner.restore(params, leaves)
        snapshots = [{k.split("_", 1)[1]: saved[k] for k in saved.files
                      if k.startswith(f"s{j}_")} for j in range(int(saved["snapshots"]))]
    else:
        tell("evaluating", 0, 1, "the untrained policy")
        point("start", 0)
        if config.imitate:
            note = f"the {config.teacher}'s games"
            tell("playing", 0, config.imitate, note)
            games, scale = collect(episode, config.teacher, bots, config.imitate, config.seed,
                                   progress=lambda g: tell("playing", g, config.imitate, note))
            held = max(1, len(games) // 10)
            test = [r for rows in games[:held] for r in rows]
            train_rows = [r for rows in games[held:] for r in rows]
            seen += config.imitate
            rng = np.random.default_rng(config.seed)

            def passes(rows: list[Row], epochs: int, phase: str) -> None:
                steps = epochs * math.ceil(len(rows) / 256)
                done = 0
                for _ in range(epochs):
                    order = rng.permutation(len(rows))
                    for start in range(0, len(rows), 256):
                        learner.imitate([rows[i] for i in order[start:start + 256]])
                        done += 1
                        tell(phase, done, steps, "")

            passes(train_rows, config.epochs, "imitating")
            agreement = learner.agreement(test)
            result = point("imitation", 0)
            result["agreement"] = agreement
        learner.set_lr(config.pg_lr)
        save_checkpoint(0, scale)
    policy = _policy(learner.numpy_params(), episode)
    recent: list[float] = []
    for update in range(first, config.updates + 1):
        rng = np.random.default_rng([config.seed, update])
        rows: list[Row] = []
        for g in range(config.batch):
            me = g % config.players
            sampler = Sampler(policy, enc, rng)
            seats: list[Any] = []
            for q in range(config.players):
                if q == me:
                    seats.append(sampler)
                    continue
                kind = str(rng.choice(pool))
                if kind == "self" and snapshots:
                    past = snapshots[int(rng.integers(len(snapshots)))]
                    seats.append(LearnedBot(game=game, weights=_policy(past, episode)))
                else:
                    seats.append(_bot(kind if kind != "self" else bots[0], game,
                                      int(rng.integers(2**31))))
            total = play(episode, seats, int(rng.integers(2**31)))[me]
            recent.append(total)
            if not config.imitate and update == 1:  # no teacher's games gave the scale
                scale = max(scale, abs(total))
            for row in sampler.rows:
                row.target = total / scale
            rows.extend(sampler.rows)
        learner.reinforce(rows)
        seen += config.batch
        policy = _policy(learner.numpy_params(), episode)
        tell("learning", update, config.updates,
             f"mean result {np.mean(recent[-10 * config.batch:]):+.2f}")
        if update % config.eval_every == 0 or update == config.updates:
            snapshots = [*snapshots, learner.numpy_params()][-4:]
            point("learning", update)
            save_checkpoint(update, scale)
    save_policy(out, learner.numpy_params(), episode, config.command())
    curve_path.write_text(json.dumps({"command": config.command(), "curve": curve}, indent=1)
                          + "\n")
    plot_curve(curve, plot_path, f"{config.command()}: against {config.reference}",
               config.players)
    checkpoint.unlink(missing_ok=True)
    return curve[-1]


def run(config: Config, resume: bool = False) -> dict[str, Any]:
    """:func:`train` with a Rich progress bar, the curve's points printed as they come."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console()
    console.print(f"[bold]{config.command()}[/]")
    columns = (TextColumn("{task.description:<10}"), BarColumn(),
               TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
               TextColumn("{task.fields[note]}"))
    with Progress(*columns, console=console) as bar:
        tasks: dict[str, Any] = {}

        def progress(phase: str, done: int, total: int, note: str) -> None:
            if phase == "evaluated":  # a point of the curve stays on the screen
                bar.console.print(note)
                return
            if phase not in tasks:
                tasks[phase] = bar.add_task(phase, total=total, note=note)
            bar.update(tasks[phase], completed=done, total=total, note=note)

        last = train(config, progress, resume)
    return last
