"""PNG charts of a simulation with matplotlib (the ``sim`` extra).

``stakes.png``: each bot's stakes won per deal with its 95% interval; ``ends.png``: how each bot
won (by the game's end kinds, above the axis) and what befell it (the game's tags, such as Hoola's
undercut and paying for all, below);
``running.png``: each bot's running mean of stakes per deal over the units, which shows when the
estimate settles.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hoola.sim.simulation import GameOutcome
from hoola.sim.stats import BotStats, RulesStats

__all__ = ["plot_bots", "plot_rules"]


def _pyplot() -> Any:
    """matplotlib's pyplot on the file-only backend (imported late: an optional extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(p: Any, fig: Any, path: Path) -> Path:
    """Lay out, write and close one figure."""
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    p.close(fig)
    return path


def plot_bots(stats: Sequence[BotStats], games: Sequence[GameOutcome], out: Path) -> list[Path]:
    """Write the bot charts into ``out``; return the files written."""
    p = _pyplot()
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    names = [s.bot for s in stats]

    fig, ax = p.subplots(figsize=(6, 3.5))
    ax.bar(names, [s.stakes.mean for s in stats], yerr=[s.stakes.half for s in stats],
           capsize=6, color="#4C72B0")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("stakes won per deal (95% CI)")
    ax.set_title("Stakes per deal")
    written.append(_save(p, fig, out / "stakes.png"))

    kinds = list(dict.fromkeys(k for s in stats for k in s.ends))
    fig, ax = p.subplots(figsize=(7, 3.8))
    bottom = [0.0] * len(stats)
    for kind in kinds:
        values = [s.ends.get(kind, 0.0) for s in stats]
        ax.bar(names, values, bottom=bottom, label=f"won: {kind}")
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    # What befell the bot (the game's tags) goes below the axis.
    below = [0.0] * len(stats)
    for tag in dict.fromkeys(t for s in stats for t in s.tags):
        values = [s.tags.get(tag, 0.0) for s in stats]
        ax.bar(names, [-v for v in values], bottom=below, label=tag, hatch="//")
        below = [b - v for b, v in zip(below, values, strict=True)]
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("share of the bot's deals")
    ax.set_title("Wins by end type (above), what befell the bot (below)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1, 1))
    written.append(_save(p, fig, out / "ends.png"))

    fig, ax = p.subplots(figsize=(7, 3.8))
    for bot in names:
        per_unit: dict[int, list[float]] = {}
        for g in games:
            for d in g.deals:
                for s, b in enumerate(g.seats):
                    if b == bot:
                        per_unit.setdefault(g.unit, []).append(d.payments[s])
        running, total = [], 0.0
        for i, u in enumerate(sorted(per_unit), start=1):
            total += sum(per_unit[u]) / len(per_unit[u])
            running.append(total / i)
        ax.plot(range(1, len(running) + 1), running, label=bot)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("units (shuffles)")
    ax.set_ylabel("running mean of stakes per deal")
    ax.legend(fontsize=8)
    written.append(_save(p, fig, out / "running.png"))
    return written


def plot_rules(by_rules: Sequence[tuple[str, RulesStats]], out: Path) -> list[Path]:
    """Write the rule-comparison charts (end types, seat edges) into ``out``."""
    p = _pyplot()
    out.mkdir(parents=True, exist_ok=True)
    names = [n for n, _ in by_rules]
    written: list[Path] = []
    kinds = list(dict.fromkeys(k for _, r in by_rules for k in r.ends))
    fig, ax = p.subplots(figsize=(7, 3.8))
    bottom = [0.0] * len(names)
    for kind in kinds:
        values = [r.ends.get(kind, 0.0) for _, r in by_rules]
        ax.bar(names, values, bottom=bottom, label=kind)
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    ax.set_ylabel("share of deals")
    ax.set_title("How deals end")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1, 1))
    written.append(_save(p, fig, out / "rules-ends.png"))

    fig, ax = p.subplots(figsize=(7, 3.8))
    players = len(by_rules[0][1].seat_edges) if by_rules else 0
    width = 0.8 / max(players, 1)
    from_dealer = any(r.from_dealer for _, r in by_rules)
    for k in range(players):
        xs = [i + k * width for i in range(len(names))]
        ax.bar(xs, [r.seat_edges[k].mean for _, r in by_rules], width,
               yerr=[r.seat_edges[k].half for _, r in by_rules], capsize=3,
               label=("dealer" if k == 0 else f"dealer+{k}") if from_dealer else
               f"seat {k + 1}")
    ax.set_xticks([i + width * (players - 1) / 2 for i in range(len(names))], names)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("stakes per deal (95% CI)")
    ax.set_title("Seat edge, counted from the dealer" if from_dealer else "Seat edge")
    ax.legend(fontsize=8)
    written.append(_save(p, fig, out / "rules-seats.png"))
    return written
