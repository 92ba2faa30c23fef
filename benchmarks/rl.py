"""Environment steps a second, with the observation and the mask at every step: the games'
PettingZoo environments (``hoola.rl``) against OpenSpiel's ``gin_rummy`` and ``hearts`` driven
the same way from Python (``observation_tensor``, or ``information_state_tensor`` for hearts,
which has no other, and ``legal_actions_mask`` for the player to act, a uniformly random legal
action, chance sampled), in interleaved rounds of one run.

    python benchmarks/rl.py [--seconds 4] [--rounds 3] [--profile hoola] [--json FILE]

Ours is measured twice: through PettingZoo's AEC environment (``observe`` then ``step``, as a
learner calls it) and through the episode underneath (no PettingZoo bookkeeping). A step is one
decision of one seat; a claim window's seats each take a step. Ratios are of CPU time, the
median over the rounds; ``--profile NAME`` prints where one of our workloads spends it.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
if SRC.is_dir() and str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

import numpy as np  # noqa: E402

Steps = Callable[[int], int]  # plays one game from a seed; returns the steps taken

OURS = {  # name -> (game or preset, players)
    "hoola pagat 4p": ("pagat", 4),
    "hoola pagat 2p": ("pagat", 2),
    "kalookie british 4p": ("british", 4),
    "sedma 2p": ("sedma", 2),
    "hola 4p": ("hola", 4),
    "ristikontra 4p": ("ristikontra", 4),
}
REFERENCES = ("gin_rummy", "hearts")


def aec_steps(name: str, players: int) -> Steps:
    """Random masked play through PettingZoo's AEC environment."""
    from hoola.rl import env

    e = env(name, players=players)

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        steps = 0
        while not all(e.terminations.values()):
            obs = e.observe(e.agent_selection)
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        return steps

    return play


def episode_steps(name: str, players: int) -> Steps:
    """Random masked play through the episode underneath, with the observation at each step."""
    from hoola.rl import resolve_game
    from hoola.rl.episode import Episode

    game, rules = resolve_game(name)
    episode = Episode(game, rules, players, seed=0)

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        episode.reset(seed)
        steps = 0
        while not episode.done:
            seat = episode.seat
            assert seat is not None
            episode.observe(seat)
            legal = np.flatnonzero(episode.mask(seat))
            episode.step(seat, int(legal[rng.integers(len(legal))]))
            steps += 1
        return steps

    return play


def spiel_steps(name: str) -> Steps:
    """OpenSpiel's game from Python: observation tensor and mask, a random legal action."""
    import pyspiel

    game = pyspiel.load_game(name)
    # hearts has no observation tensor: its information state tensor is what a learner gets
    observe = "observation_tensor" if game.get_type().provides_observation_tensor \
        else "information_state_tensor"

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            player = state.current_player()
            getattr(state, observe)(player)
            mask = state.legal_actions_mask(player)
            legal = [i for i, m in enumerate(mask) if m]
            state.apply_action(rng.choice(legal))
            steps += 1
        return steps

    return play


def measure(play: Steps, seconds: float, start: int) -> tuple[float, int]:
    """Steps per CPU second playing games from seed ``start`` on for ``seconds``; next seed."""
    steps, seed = 0, start
    began = time.process_time()
    while time.process_time() - began < seconds:
        steps += play(seed)
        seed += 1
    return steps / (time.process_time() - began), seed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=4.0, help="CPU seconds a workload a round")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median reported)")
    p.add_argument("--profile", choices=sorted(OURS), help="profile one of ours instead")
    p.add_argument("--json", type=Path, help="also write the figures to this file")
    args = p.parse_args(argv)
    if args.profile:
        name, players = OURS[args.profile]
        play = aec_steps(name, players)
        profiler = cProfile.Profile()
        profiler.runcall(lambda: [play(s) for s in range(30)])
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(20)
        print(out.getvalue())
        return 0
    workloads: dict[str, Steps] = {}
    for label, (name, players) in OURS.items():
        workloads[f"{label} aec"] = aec_steps(name, players)
        workloads[f"{label} episode"] = episode_steps(name, players)
    for ref in REFERENCES:
        workloads[ref] = spiel_steps(ref)
    rates: dict[str, list[float]] = {k: [] for k in workloads}
    seeds = dict.fromkeys(workloads, 0)
    for _ in range(args.rounds):
        for key, play in workloads.items():
            rate, seeds[key] = measure(play, args.seconds, seeds[key])
            rates[key].append(rate)
    median = {k: statistics.median(v) for k, v in rates.items()}
    print(f"{'workload':<28}{'steps/CPU s':>13}" + "".join(f"{'÷ ' + r:>14}" for r in REFERENCES))
    for key in workloads:
        ratios = "".join(f"{median[key] / median[r]:>14.2f}" for r in REFERENCES)
        print(f"{key:<28}{median[key]:>13,.0f}{ratios}")
    if args.json:
        args.json.write_text(json.dumps({"steps_per_cpu_s": rates, "median": median}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
