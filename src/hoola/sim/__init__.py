"""The simulation lab: many deals between named bots, statistics, ratings, charts, rule studies.

The core (:mod:`hoola.sim.simulation`, :mod:`hoola.sim.stats`) uses the standard library only;
ratings, charts, the progress bar and Ray come with the ``sim`` and ``ray`` extras.
"""

from hoola.sim.simulation import (
    BotError,
    DealOutcome,
    GameOutcome,
    SimConfig,
    run,
    run_ray,
    seatings,
)
from hoola.sim.stats import BotStats, Estimate, RulesStats, bot_stats, margin, rules_stats

__all__ = [
    "BotError",
    "BotStats",
    "DealOutcome",
    "Estimate",
    "GameOutcome",
    "RulesStats",
    "SimConfig",
    "bot_stats",
    "margin",
    "rules_stats",
    "run",
    "run_ray",
    "seatings",
]
