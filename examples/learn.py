"""Train a policy through a game's Gymnasium environment in minutes on two cores: advantage
actor-critic with action masks, the network in JAX and the optimizer in optax
(``pip install -e ".[rl,learn,sim]"``: the environments, the learner, the lab).

    python examples/learn.py                      # Sedma for two against random, under a minute
    python examples/learn.py --game hoola --rules two-player --updates 300
    hoola sim -g sedma -p 2 --bots learned:weights=sedma-policy.npz,random -n 2000 --seed 7 -j 1

The learner plays one seat of :func:`hoola.rl.gym_env` (one environment a seat, so it learns
them all) against the bots named by ``--opponents``. At each decision it reads the legal ids
from ``env.action_masks()`` (as sb3-contrib's MaskablePPO does), gives a logit to each legal id
alone and samples among them, so an illegal id is never played. Every update plays ``--batch``
games, then takes one Adam step on the policy gradient (the deal's result less the value), the
value's error and an entropy bonus. The network, its losses and the NumPy weights format are
those of :mod:`hoola.rl.train` (``hoola train``, which imitates the expert first); the
``learned`` bot plays the saved ``--out`` with NumPy alone, as the last command shows. Every
source of chance is seeded from ``--seed``. Games whose encoding scores each action by its
features (Kalookie) are for ``hoola train``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from hoola.bots.learned import Policy
from hoola.rl import gym_env
from hoola.rl.train import Learner, Row, init_params, save_policy, scores_actions


def play(env: Any, policy: Policy, seed: int, rng: np.random.Generator | None
         ) -> tuple[list[Row], float]:
    """One game of ``env``'s seat from ``seed``, sampling from the policy (its best legal id
    when ``rng`` is None): the learner's decisions as rows, and its result."""
    obs, _ = env.reset(seed=seed)
    rows: list[Row] = []
    total, done = 0.0, False
    while not done:
        ids = np.flatnonzero(env.action_masks())  # only the legal ids get a logit
        if not len(ids):
            break  # the bots ended the game before the learner's first decision
        logits = policy.logits(obs, list(ids))
        if rng is None:
            choice = int(logits.argmax())
        else:
            p = np.exp(logits - logits.max())
            choice = int(rng.choice(len(ids), p=p / p.sum()))
        rows.append(Row(obs, ids.tolist(), choice))
        obs, reward, done, _, _ = env.step(int(ids[choice]))
        total += reward
    return rows, total


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="sedma", help="a game or a preset's name (default sedma)")
    p.add_argument("--rules", default=None, help="a preset of the game")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--opponents", default="random", help="the bots' kind at the other seats")
    p.add_argument("--updates", type=int, default=300, help="Adam steps (default 300)")
    p.add_argument("--batch", type=int, default=32, help="games a step (default 32)")
    p.add_argument("--hidden", type=int, default=128, help="units a layer (default 128)")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--eval", type=int, default=200, help="greedy games at the end, a seat")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="where to save (default GAME-policy.npz)")
    args = p.parse_args()
    out = args.out or f"{args.game}-policy.npz"
    envs = [gym_env(args.game, rules=args.rules, players=args.players, seat=seat,
                    opponents=args.opponents) for seat in range(args.players)]
    episode = envs[0].unwrapped.episode  # the game, its rules and encoding, for the weights
    enc = episode.encoding
    if scores_actions(enc):
        p.error(f"{args.game} scores actions by their features: train it with hoola train")
    learner = Learner(init_params(args.seed, enc.obs_size, enc.size, args.hidden),
                      args.lr, args.entropy)

    def policy() -> Policy:
        return Policy(learner.numpy_params(), episode.game.name, None, args.players)

    started, results, scale = time.time(), [], 0.0
    for update in range(1, args.updates + 1):
        rng = np.random.default_rng([args.seed, update])
        now, batch = policy(), []
        for g in range(args.batch):  # the learner's seat goes round the table
            rows, total = play(envs[g % args.players], now, int(rng.integers(2**31)), rng)
            batch.append((rows, total))
            results.append(total)
        scale = scale or max(1.0, max(abs(t) for _, t in batch))  # results to about ±1
        for rows, total in batch:
            for row in rows:
                row.target = total / scale
        learner.reinforce([row for rows, _ in batch for row in rows])
        if update % 10 == 0 or update == args.updates:
            print(f"update {update:4}: mean result {np.mean(results[-10 * args.batch:]):+.2f} "
                  f"over the last {min(update, 10) * args.batch} games "
                  f"({time.time() - started:.0f} s)", flush=True)

    save_policy(Path(out), learner.numpy_params(), episode,
                " ".join(["python examples/learn.py", *sys.argv[1:]]))
    final = policy()
    greedy = [play(envs[g % args.players], final, 10**9 + g, None)[1]
              for g in range(args.eval * args.players)]
    half = 1.96 * float(np.std(greedy, ddof=1)) / np.sqrt(len(greedy)) if len(greedy) > 1 else 0
    rules = f" -r {args.rules}" if args.rules else ""
    print(f"saved {out} ({time.time() - started:.0f} s): its best ids make "
          f"{np.mean(greedy):+.2f} ± {half:.2f} a game against {args.opponents}; in the lab: "
          f"hoola sim -g {args.game}{rules} -p {args.players} --bots learned:weights={out},random "
          f"-n 2000 --seed 7 -j 1")


if __name__ == "__main__":
    main()
