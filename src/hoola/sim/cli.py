"""Glue between the ``hoola sim`` command's options and the simulation."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

import click

from hoola.errors import HoolaError
from hoola.rules import Rules
from hoola.sim.simulation import SimConfig, parse_spec

__all__ = ["run_sim"]


def run_sim(*, bots: str, deals: int, players: int, preset: str, options: dict[str, object],
            duplicate: bool, match_deals: int, round_robin: bool, seed: int,
            workers: int | None, externals: Sequence[str], plot_dir: Path | None,
            records_dir: Path | None, ray_address: str | None, compare: str | None) -> None:
    """Check the options, build the :class:`SimConfig` and run it (or the rules comparison)."""
    from hoola.bots import BOTS
    from hoola.sim.report import compare_rules, simulate

    external: list[tuple[str, str]] = []
    for pair in externals:
        name, sep, command = pair.partition("=")
        if not sep or not name.strip() or not command.strip():
            raise click.BadParameter(f"{pair!r} is not NAME=COMMAND", param_hint="--external")
        external.append((name.strip(), command.strip()))
    lineup = tuple(b.strip() for b in bots.split(",") if b.strip())
    if not lineup:
        raise click.BadParameter("name at least one bot", param_hint="--bots")
    known = set(BOTS) | {n for n, _ in external}
    for spec in lineup:
        try:
            name, _ = parse_spec(spec)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--bots") from exc
        if name not in known:
            raise click.BadParameter(f"unknown bot {name!r}; bots are {', '.join(sorted(known))}",
                                     param_hint="--bots")
    try:
        rules = Rules.preset(preset, **options)
    except HoolaError as exc:
        raise click.BadParameter(exc.message, param_hint="--rules/--option") from exc
    pairs: tuple[tuple[str, ...], ...] = ()
    distinct = tuple(dict.fromkeys(lineup))
    if round_robin:
        if len(distinct) < 2:
            raise click.BadParameter("a round robin needs two bots or more", param_hint="--bots")
        pairs = tuple(itertools.combinations(distinct, 2))
    config = SimConfig(lineup, rules, players=players, units=deals, seed=seed,
                       duplicate=duplicate, match_deals=match_deals, external=tuple(external),
                       round_robin=pairs)
    if compare:
        presets = [p.strip() for p in compare.split(",") if p.strip()]
        for p in presets:
            try:
                Rules.preset(p, **options)
            except HoolaError as exc:
                raise click.BadParameter(exc.message, param_hint="--compare-rules") from exc
        compare_rules(config, presets, options, workers=workers, ray_address=ray_address,
                      plot_dir=plot_dir)
        return
    simulate(config, workers=workers, ray_address=ray_address, plot_dir=plot_dir,
             records_dir=records_dir)
