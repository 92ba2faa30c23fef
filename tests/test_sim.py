"""The simulation lab: seatings, duplicate deals, statistics, ratings, the sim command, Ray."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from hoola.cli import cli
from hoola.records import verify_path
from hoola.rules import Rules
from hoola.sim import SimConfig, bot_stats, margin, rules_stats, run, seatings
from hoola.sim.simulation import parse_spec, play_unit
from hoola.sim.stats import mean_ci

PAGAT = Rules.preset("pagat")


def test_seatings_are_the_distinct_rotations() -> None:
    assert seatings(["a", "b", "c", "d"], 4) == [("a", "b", "c", "d"), ("d", "a", "b", "c"),
                                                 ("c", "d", "a", "b"), ("b", "c", "d", "a")]
    assert seatings(["x"], 3) == [("x", "x", "x")]
    assert len(seatings(["a", "b"], 5)) == 5


def test_a_duplicate_unit_deals_the_same_cards_to_every_seating() -> None:
    config = SimConfig(("expert", "greedy"), PAGAT, units=1, seed=3, records=True)
    first, second = play_unit(config, 0)
    assert (first.seats, second.seats) == (("expert", "greedy") * 2, ("greedy", "expert") * 2)
    hands = [g.record.split("hands = ")[1].split("\n")[0] for g in (first, second)  # type: ignore
             ]
    strip = [h.replace("expert", "X").replace("greedy", "X") for h in hands]
    assert strip[0] == strip[1]


def test_units_are_independent_of_the_number_of_processes() -> None:
    config = SimConfig(("expert", "random"), PAGAT, units=6, seed=1)
    one = run(config, workers=1)
    two = run(config, workers=2)
    assert [(g.unit, g.rotation, g.deals) for g in one] == \
        [(g.unit, g.rotation, g.deals) for g in two]
    for g in one:
        for d in g.deals:
            assert abs(sum(d.payments)) < 1e-9


def test_statistics_over_units() -> None:
    m = mean_ci([2.0] * 10)
    assert (m.mean, m.half, m.n) == (2.0, 0.0, 10)
    assert mean_ci([1.0, -1.0] * 50).excludes_zero is False
    config = SimConfig(("expert", "random"), PAGAT, units=30, seed=2)
    games = run(config, workers=1)
    expert, rnd = bot_stats(games, ["expert", "random"])
    assert expert.seat_deals == rnd.seat_deals == 30 * 2 * 2
    assert expert.stakes.mean == pytest.approx(-rnd.stakes.mean)
    assert margin(games, "expert", "random").mean == pytest.approx(2 * expert.stakes.mean)
    assert expert.stakes.mean > 0 and margin(games, "expert", "random").excludes_zero
    assert 0 < expert.win_rate < 1 and sum(expert.ends.values()) == pytest.approx(expert.win_rate)
    rules = rules_stats(games, 4)
    assert rules.deals == 60 and sum(rules.ends.values()) == pytest.approx(1)
    assert sum(e.mean for e in rules.seat_edges) == pytest.approx(0, abs=1e-9)


def test_matches_pass_the_deal_to_the_winner() -> None:
    config = SimConfig(("greedy",), PAGAT, units=2, seed=5, match_deals=3, duplicate=False)
    for g in run(config, workers=1):
        assert len(g.deals) == 3
        for before, after in zip(g.deals, g.deals[1:], strict=False):
            assert after.dealer in before.winners


def test_ratings_put_the_stronger_bot_first() -> None:
    pytest.importorskip("openskill")
    from hoola.sim.ratings import rate

    games = run(SimConfig(("expert", "random"), PAGAT, units=25, seed=4), workers=1)
    ratings = rate(games, ["random", "expert"])
    assert [r.bot for r in ratings] == ["expert", "random"]
    assert ratings[0].mu > ratings[1].mu


def test_bot_specs_carry_options() -> None:
    assert parse_spec("ismcts:playouts=30:seconds=0.5") == ("ismcts",
                                                           {"playouts": 30, "seconds": 0.5})
    with pytest.raises(ValueError, match="key=value"):
        parse_spec("ismcts:30")


def test_hoola_sim_reports_plots_and_saves_records_that_verify(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plots, records = tmp_path / "plots", tmp_path / "records"
    result = CliRunner().invoke(cli, ["sim", "-n", "4", "-j", "1", "--bots", "expert,greedy",
                                      "--plot", str(plots), "--records", str(records)])
    assert result.exit_code == 0, result.output
    for word in ("stakes/deal", "expert - greedy", "openskill", "ordinal"):
        assert word in result.output
    assert sorted(p.name for p in plots.iterdir()) == ["ends.png", "running.png", "stakes.png"]
    files = sorted(records.iterdir())
    assert len(files) == 8
    assert all(verify_path(f).ok for f in files)


def test_hoola_sim_round_robin_and_rotated_seats() -> None:
    result = CliRunner().invoke(cli, ["sim", "-n", "6", "-j", "1", "--bots",
                                      "random,greedy,expert", "--round-robin", "--rotate"])
    assert result.exit_code == 0, result.output
    assert "random - greedy" in result.output and "greedy - expert" in result.output


def test_hoola_sim_refuses_unknown_bots_and_options() -> None:
    runner = CliRunner()
    assert "unknown bot" in runner.invoke(cli, ["sim", "--bots", "nobody"]).output
    assert runner.invoke(cli, ["sim", "-o", "knock_limit=banana", "-n", "1"]).exit_code != 0


def test_hoola_sim_compares_rules(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = CliRunner().invoke(cli, ["sim", "--compare-rules", "pagat,classic,online", "-n",
                                      "5", "-j", "1", "--bots", "greedy", "--plot",
                                      str(tmp_path)])
    assert result.exit_code == 0, result.output
    for word in ("pagat", "classic", "online", "dealer", "dealer+3"):
        assert word in result.output
    assert (tmp_path / "rules-seats.png").exists()


def test_ray_runs_the_same_simulation() -> None:
    ray = pytest.importorskip("ray")
    from hoola.sim.simulation import run_ray

    config = SimConfig(("expert", "greedy"), PAGAT, units=3, seed=8)
    try:
        on_ray = run_ray(config, "local")
    finally:
        ray.shutdown()
    here = run(replace(config), workers=1)
    assert [(g.unit, g.rotation, g.deals) for g in on_ray] == \
        [(g.unit, g.rotation, g.deals) for g in here]
