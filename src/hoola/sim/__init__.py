"""The simulation lab: many deals of any registered game between named bots, statistics (per bot,
per team where the game has teams), ratings, charts, rule studies.

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
from hoola.sim.stats import (
    BotStats,
    Estimate,
    MissionStats,
    RulesStats,
    TeamStats,
    bot_stats,
    margin,
    mission_stats,
    rules_stats,
    team_stats,
)

__all__ = [
    "BotError",
    "BotStats",
    "DealOutcome",
    "Estimate",
    "GameOutcome",
    "MissionStats",
    "RulesStats",
    "SimConfig",
    "TeamStats",
    "bot_stats",
    "margin",
    "mission_stats",
    "rules_stats",
    "run",
    "run_ray",
    "seatings",
    "team_stats",
]
