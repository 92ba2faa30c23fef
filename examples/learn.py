"""Train a policy on a game's Gymnasium environment in minutes on two cores: advantage
actor-critic with action masks, in JAX (``pip install -e ".[rl,learn,sim]"``: the lab for
trying the policy).

    python examples/learn.py                      # Sedma for two against random, ~1 minute
    python examples/learn.py --game hoola --rules two-player --players 2 --updates 300

The learner sits at seat 0 against the project's bots (``--opponents``); a two-layer network
gives a logit to every action id and a value; illegal ids are masked out. Every update plays a
batch of games, then takes one Adam step on the policy gradient (the final result of the deal,
less the value, as the advantage), the value's squared error and an entropy bonus. The weights
are saved as NumPy arrays (``--out``), which ``examples/policy_bot.py`` plays with NumPy alone:

    hoola sim -g sedma -p 2 --python learned=examples/policy_bot.py:PolicyBot \\
        --bots learned:weights=sedma-policy.npz,random -n 2000
"""

from __future__ import annotations

import argparse
import contextlib
import time
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from hoola.rl import gym_env

HIDDEN = 128


def init(key: Any, inputs: int, actions: int) -> dict[str, Any]:
    """The network's weights, scaled for tanh layers."""
    k1, k2, k3 = jax.random.split(key, 3)
    return {
        "w1": jax.random.normal(k1, (inputs, HIDDEN)) / np.sqrt(inputs),
        "b1": jnp.zeros(HIDDEN),
        "w2": jax.random.normal(k2, (HIDDEN, HIDDEN)) / np.sqrt(HIDDEN),
        "b2": jnp.zeros(HIDDEN),
        "wp": jax.random.normal(k3, (HIDDEN, actions)) * 0.01,
        "bp": jnp.zeros(actions),
        "wv": jnp.zeros((HIDDEN, 1)),
        "bv": jnp.zeros(1),
    }


def heads(params: dict[str, Any], obs: Any) -> tuple[Any, Any]:
    """Logits and value of a batch of observations."""
    hidden = jnp.tanh(obs @ params["w1"] + params["b1"])
    hidden = jnp.tanh(hidden @ params["w2"] + params["b2"])
    return hidden @ params["wp"] + params["bp"], (hidden @ params["wv"] + params["bv"])[..., 0]


def loss(params: dict[str, Any], obs: Any, masks: Any, actions: Any, returns: Any,
         weights: Any, entropy: float) -> Any:
    """Policy gradient with the value as baseline, the value's error, an entropy bonus; rows of
    weight 0 are padding."""
    logits, values = heads(params, obs)
    logits = jnp.where(masks, logits, -1e9)
    logp = jax.nn.log_softmax(logits)
    chosen = jnp.take_along_axis(logp, actions[:, None], axis=1)[:, 0]
    advantage = jax.lax.stop_gradient(returns - values)
    probs = jnp.exp(logp)
    spread = -jnp.sum(jnp.where(masks, probs * logp, 0.0), axis=1)
    total = weights.sum()
    policy = -(chosen * advantage * weights).sum()
    value = 0.5 * (((returns - values) ** 2) * weights).sum()
    return (policy + value - entropy * (spread * weights).sum()) / total


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
    p.add_argument("--scale", type=float, default=None,
                   help="divide results by this (default: the largest seen so far)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="where to save (default GAME-policy.npz)")
    args = p.parse_args()
    env = gym_env(args.game, rules=args.rules, players=args.players, opponents=args.opponents)
    enc = env.episode.encoding
    params = init(jax.random.PRNGKey(args.seed), enc.obs_size, enc.size)
    optimizer = optax.adam(args.lr)
    state = optimizer.init(params)
    step = jax.jit(jax.value_and_grad(loss))
    act = jax.jit(lambda params, obs: heads(params, obs)[0])
    rng = np.random.default_rng(args.seed)
    scale = args.scale or 1.0
    started = time.time()
    recent: list[float] = []
    game = 0
    for update in range(1, args.updates + 1):
        rows: list[tuple[Any, Any, int]] = []
        results: list[tuple[int, float]] = []
        for _ in range(args.batch):
            obs, info = env.reset(seed=args.seed * 1_000_003 + game)
            game += 1
            first, total, done = len(rows), 0.0, False
            while not done:
                mask = info["action_mask"].astype(bool)
                logits = np.asarray(act(params, obs))
                logits = np.where(mask, logits, -np.inf)
                probs = np.exp(logits - logits.max())
                probs /= probs.sum()
                action = int(rng.choice(len(probs), p=probs))
                rows.append((obs, mask, action))
                obs, reward, done, _, info = env.step(action)
                total += reward
            results.append((first, total))
            recent.append(total)
        if args.scale is None:
            scale = max(scale, max(abs(r) for _, r in results))
        returns = np.zeros(len(rows), np.float32)
        bounds = [*[f for f, _ in results][1:], len(rows)]
        for (first, total), end in zip(results, bounds, strict=True):
            returns[first:end] = total / scale
        size = 1 << max(len(rows) - 1, 1).bit_length()  # padded: few shapes to compile
        pad = size - len(rows)
        obs_b = np.concatenate([np.stack([r[0] for r in rows]),
                                np.zeros((pad, enc.obs_size), np.float32)])
        masks = np.concatenate([np.stack([r[1] for r in rows]), np.ones((pad, enc.size), bool)])
        actions = np.array([r[2] for r in rows] + [0] * pad, np.int32)
        weights = np.array([1.0] * len(rows) + [0.0] * pad, np.float32)
        returns = np.concatenate([returns, np.zeros(pad, np.float32)])
        _value, grads = step(params, obs_b, masks, actions, returns, weights, args.entropy)
        updates, state = optimizer.update(grads, state, params)
        params = optax.apply_updates(params, updates)
        if update % 10 == 0 or update == args.updates:
            window = recent[-10 * args.batch:]
            print(f"update {update:4}: mean result {np.mean(window):+.3f} over the last "
                  f"{len(window)} games ({time.time() - started:.0f} s)", flush=True)
    out = args.out or f"{args.game}-policy.npz"
    saved = {k: np.asarray(v) for k, v in params.items()}
    np.savez(out, game=np.array(env.episode.game.name), **saved)
    bot = Path(__file__).resolve().with_name("policy_bot.py")
    with contextlib.suppress(ValueError):  # run from elsewhere: the whole path
        bot = bot.relative_to(Path.cwd())
    print(f"saved {out}; try it (pip install -e \".[sim]\" first): hoola sim -g {args.game} "
          f"-p {args.players} --python learned={bot}:PolicyBot --bots "
          f"learned:weights={out},random -n 2000")


if __name__ == "__main__":
    main()
