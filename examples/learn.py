"""Train a policy on a game's RL environment in minutes on two cores: advantage actor-critic
with action masks, in JAX (``pip install -e ".[rl,learn,sim]"``: the lab for trying the policy).

    python examples/learn.py                      # Sedma for two against random, ~1 minute
    python examples/learn.py --game hoola --rules two-player --updates 300

The learner lives in the package (:mod:`hoola.rl.train`, which ``hoola train`` runs with
imitation of the expert first); this example runs its policy-gradient phase alone, from
scratch, against the bots named by ``--opponents``: a two-layer network gives a logit to every
legal action id and a value; every update plays a batch of games (the learner's seat going
round the table), then takes one Adam step on the policy gradient (the deal's result less the
value), the value's error and an entropy bonus. The weights are saved as NumPy arrays
(``--out``), which the ``learned`` bot plays with NumPy alone:

    hoola sim -g sedma -p 2 --bots learned:weights=sedma-policy.npz,random -n 2000
"""

from __future__ import annotations

import argparse
import time

from hoola.rl.train import Config, train


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="sedma", help="a game or a preset's name (default sedma)")
    p.add_argument("--rules", default=None, help="a preset of the game")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--opponents", default="random", help="the bots at the other seats")
    p.add_argument("--updates", type=int, default=300, help="Adam steps (default 300)")
    p.add_argument("--batch", type=int, default=32, help="games a step (default 32)")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--entropy", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="where to save (default GAME-policy.npz)")
    args = p.parse_args()
    out = args.out or f"{args.game}-policy.npz"
    config = Config(game=args.game, rules=args.rules, players=args.players, imitate=0,
                    updates=args.updates, batch=args.batch, opponents=args.opponents,
                    reference=args.opponents.split(",")[0], eval_deals=100,
                    eval_every=max(args.updates, 1), pg_lr=args.lr, entropy=args.entropy,
                    seed=args.seed, out=out)
    started = time.time()

    def progress(phase: str, done: int, total: int, note: str) -> None:
        if phase == "learning" and (done % 10 == 0 or done == total):
            print(f"update {done:4}: {note} over the last {min(done, 10) * args.batch} games "
                  f"({time.time() - started:.0f} s)", flush=True)

    last = train(config, progress)
    print(f"saved {out}: {last['stakes']:+.2f} ± {last['interval']:.2f} stakes a deal against "
          f"{config.reference}; try it (pip install -e \".[sim]\" first): hoola sim -g "
          f"{args.game} -p {args.players} --bots learned:weights={out},random -n 2000")


if __name__ == "__main__":
    main()
