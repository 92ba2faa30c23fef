"""The ``hoola`` command line: play, rules, sim, tournament, train, verify, replay, serve."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from hoola.core.records import printable, record_files, verify_path

__all__ = ["cli"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hoola", message="hoola %(version)s")
def cli() -> None:
    """Card games to play in the terminal, simulate and check: Hoola (훌라, the Korean rummy),
    Kalookie, and six capture games (Hola, Sedma, Sedmice, Croatian Sedmice, Ristikontra,
    Ristiklappi).

    Play one against bots with `hoola play GAME`, read how to play it and its rule presets with
    `hoola rules GAME`, let bots play many deals with `hoola sim` or a tournament with `hoola
    tournament`, check and tell game records with `hoola verify` and `hoola replay`, or host
    tables for browsers with `hoola serve`.
    GAME is hoola (the default), kalookie, capture, or a capture game by name (sedma, ...).
    """


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable report.")
def verify(paths: tuple[Path, ...], as_json: bool) -> None:
    """Check record files (or folders of them) of any game against its engine.

    Prints `ok NAME` or `FAIL NAME: what differs`, one line a record, then `N passed, N failed`
    on standard error (so that standard output holds the records' lines alone); exits 0 only
    when all pass. A file that cannot be read fails with the reason; the others go on.
    """
    files = record_files(paths)
    passed = failed = 0
    reports = []
    for path in files:
        # One at a time, printed at once: a long folder shows progress and memory stays flat.
        verdict = verify_path(path)
        passed, failed = passed + verdict.ok, failed + (not verdict.ok)
        if as_json:
            reports.append({"name": printable(verdict.name), "path": printable(str(path)),
                            "ok": verdict.ok, "problems": verdict.problems})
        else:
            click.echo(verdict.line())
    if as_json:
        click.echo(json.dumps({"passed": passed, "failed": failed, "records": reports}, indent=2))
    else:
        click.echo(f"{passed} passed, {failed} failed", err=True)
    if not files:
        click.echo("no record files found", err=True)
    sys.exit(0 if files and not failed else 1)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def replay(file: Path) -> None:
    """Tell a record of any game move by move: hands, table, and how each deal ended.

    Exits 1 when the record cannot be read or an action it holds is refused.
    """
    from hoola.core.errors import HoolaError
    from hoola.core.records import game_name_of, parse_toml, read_text
    from hoola.core.registry import get_game

    try:
        text = read_text(file)
        data = parse_toml(text)
        game = get_game(game_name_of(data))
        for line in game.tell_record(data, text):
            click.echo(line)
    except HoolaError as exc:
        raise click.ClickException(f"{printable(str(file))}: {exc.message}") from exc


def parse_option_values(pairs: tuple[str, ...]) -> dict[str, object]:
    """``key=value`` strings as rule options (values read as TOML: 10, true, "x", {2=5})."""
    import tomllib

    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"{pair!r} is not key=value", param_hint="--option")
        try:
            options[key.strip()] = tomllib.loads(f"v = {value.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            options[key.strip()] = value.strip()
    return options


@cli.command()
@click.argument("game_name", metavar="[GAME]", required=False)
@click.option("--players", "-p", default=None, type=click.IntRange(2, 10),
              help="Players at the table, you included [default: 4, or as near as the game "
                   "allows].")
@click.option("--rules", "-r", "preset", default=None,
              help="Rule preset (default: the game's first, pagat for hoola, british for "
                   "kalookie; hoola rules lists them).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="Override one rule option, e.g. -o knock_limit=15 (repeatable).")
@click.option("--seed", type=int, default=None, help="Seed for the shuffles (replayable games).")
@click.option("--bots", default=None,
              help="Opponents, comma-separated, used in turn. Every game: random, expert (the "
                   "game's own bot; random where it has none yet), learned (a trained policy; the "
                   "expert where none is shipped), ismcts (search through the expert) and the "
                   "levels beginner, easy, medium, hard, master. Hoola also: "
                   "greedy (its default).")
@click.option("--deals", default=None, type=click.IntRange(1, 1000),
              help="Deals to play at most [hoola, which has no end of its own: a match of 10 "
                   "deals with the running score; other games: until the game's own end, such "
                   "as Kalookie's pool being won or a capture game's target reached]. You may "
                   "leave at any move: the game is saved, and --resume goes on.")
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.option("--save", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to save the game record (default ~/.hoola/games/).")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Continue the game saved in this record (of the game it names).")
@click.option("--claim-seconds", default=5.0, show_default=True, type=click.FloatRange(0),
              help="How long a moment you may let pass waits for you: Hoola's Thank-you prompt, "
                   "a Kalookie warning (0: until you answer).")
@click.option("--bot-delay", default=0.6, show_default=True, type=click.FloatRange(0),
              help="Seconds a bot pauses before each move of its turn.")
@click.option("--bot-reaction", default="0.8-1.5", show_default=True, metavar="S|LOW-HIGH",
              callback=lambda _c, _p, v: parse_seconds(v),
              help="Seconds a bot takes to act where others may too (a claim on a Hoola "
                   "discard, a Kalookie warning), drawn anew each time from LOW-HIGH: be "
                   "quicker and the moment is yours.")
@click.option("--plain", is_flag=True,
              help="The line-by-line game instead of the full screen (also used when input or "
                   "output is not a terminal).")
def play(game_name: str | None, players: int | None, preset: str | None, options: tuple[str, ...],
         seed: int | None, bots: str | None, deals: int | None, name: str, save: Path | None,
         resume: Path | None, claim_seconds: float, bot_delay: float,
         bot_reaction: tuple[float, float], plain: bool) -> None:
    """Play GAME in the terminal against bots: full screen, or line by line with --plain. Every
    game is saved after every move.

    GAME is hoola (the default), kalookie, or a capture game (hola, sedma, sedmice,
    sedmice-croatian, ristikontra, ristiklappi); `hoola rules GAME` says how to play it.
    """
    from hoola.core.errors import HoolaError
    from hoola.core.registry import game_and_preset
    from hoola.terminal.front import PlayRequest, play
    from hoola.terminal.saves import game_of_save

    if resume is not None and save is not None:
        raise click.UsageError("--save and --resume do not go together: a resumed game is saved "
                               "where it was")
    if resume is not None:
        try:
            saved_game = game_of_save(resume)
        except HoolaError as exc:
            raise click.ClickException(f"cannot resume {resume}: {exc.message}") from exc
        if game_name is not None:
            try:
                named = game_and_preset(game_name, None)[0].name
            except HoolaError as exc:
                raise click.BadParameter(exc.message, param_hint="GAME") from exc
            if named != saved_game:
                raise click.UsageError(f"{resume} is a game of {saved_game}, not {game_name}")
        game_name = saved_game
    try:
        game, preset = game_and_preset(game_name, preset)
    except HoolaError as exc:
        if resume is not None:
            raise click.ClickException(f"cannot resume {resume}: {exc.message}") from exc
        raise click.BadParameter(exc.message, param_hint="GAME") from exc
    kinds = None
    if bots is not None:
        kinds = tuple(b.strip() for b in bots.split(",") if b.strip())
        if not kinds:
            raise click.BadParameter("name at least one bot", param_hint="--bots")
    if players is None:
        players = min(max(4, game.min_players), game.max_players)
    request = PlayRequest(game, players=players, preset=preset,
                          options=parse_option_values(options), seed=seed, bots=kinds,
                          deals=deals, name=name, save=save, resume=resume,
                          claim_seconds=claim_seconds, bot_delay=bot_delay,
                          bot_reaction=bot_reaction, plain=plain)
    play(request)


def parse_seconds(text: str) -> tuple[float, float]:
    """``"1.2"`` or ``"0.8-1.5"`` as a range of seconds (low, high)."""
    low, sep, high = text.partition("-")
    try:
        span = (float(low), float(high if sep else low))
    except ValueError:
        span = (-1.0, -1.0)
    if not (0 <= span[0] <= span[1] < float("inf")):
        raise click.BadParameter(f"{text!r} is not seconds (S) or a range of seconds (LOW-HIGH), "
                                 "such as 1 or 0.8-1.5", param_hint="--bot-reaction")
    return span


@cli.command()
@click.argument("game_name", metavar="[GAME]", required=False)
@click.option("--rules", "-r", "preset", default=None,
              help="Show the option values of this preset (default: the game's first).")
@click.option("--json", "as_json", is_flag=True, help="Print the same as JSON.")
def rules(game_name: str | None, preset: str | None, as_json: bool) -> None:
    """How to play a game, then its rule presets (what they play like, their sources) and
    every option: its value, meaning and allowed values, as a record's TOML spells them.

    GAME is one of the registered games (default hoola; `hoola rules kalookie`), or a capture
    game by name (`hoola rules sedma`).
    """
    import re
    import shutil
    import textwrap

    from hoola.core.errors import HoolaError
    from hoola.core.records import toml_value
    from hoola.core.registry import game_and_preset, game_names

    try:
        game, preset = game_and_preset(game_name, preset)
    except HoolaError as exc:
        raise click.BadParameter(exc.message, param_hint="GAME") from exc
    preset = preset or game.default_preset
    try:
        chosen = game.rules(preset).options()
    except HoolaError as exc:
        raise click.BadParameter(exc.message, param_hint="--rules") from exc
    presets, infos = game.presets(), game.option_infos()
    # A game from outside the project may not say how to play it yet.
    how = getattr(game, "how_to_play", None)
    how_to_play = how(preset) if callable(how) else ""
    if as_json:
        from hoola.core.rulebook import rules_data

        data = rules_data(game, preset)
        data["games"] = game_names()
        click.echo(json.dumps(data, indent=2))
        return
    width = max(80, min(100, shutil.get_terminal_size((80, 24)).columns))
    keep = "\xa0"  # joins the words of one unit ("key = value", "{2 = 5}") while wrapping

    units = re.compile(r'\{[^}]*\}|\w+ = (?:"[^"]*"|[\w.]+)|\(ruling \d+\)')

    def unit(text: str) -> str:
        return text.replace(" ", keep)

    def say(text: str, indent: str = "      ") -> None:
        text = units.sub(lambda m: unit(m.group()), text)
        lines = textwrap.wrap(text, width, initial_indent=indent, subsequent_indent="      ",
                              break_on_hyphens=False, break_long_words=False)
        for line in lines:
            click.echo(line.replace(keep, " "))

    click.echo(f"{game.title}: {game.min_players} to {game.max_players} players. Other games: "
               f"{', '.join(n for n in game_names() if n != game.name) or 'none'}.")
    if how_to_play:
        click.echo("")
        click.echo(f"How to play ({preset}):")
        for line in textwrap.wrap(how_to_play, width, initial_indent="  ",
                                  subsequent_indent="  ", break_on_hyphens=False):
            click.echo(line)
        click.echo("")
    click.echo('Presets (--rules NAME here and in play and sim; rules = "NAME" in a record):')
    for p in presets:
        say(f"{p.name}: {_sentence(p.meaning)}" if p.meaning else p.name, "  ")
        say(f"Source: {p.source}")
        sets = ", ".join(f"{k} = {toml_value(v)}" for k, v in p.changes.items())
        say(f"Sets: {sets or 'nothing (the defaults)'}.")
    click.echo("")
    click.echo(f"Options with their {preset} values (--option KEY=VALUE; [options] in a record):")
    for o in infos:
        head = f"  {o.key} = {toml_value(chosen[o.key])}"
        if len(head) < 38 and 40 + len(o.values) <= width:
            click.echo(f"{head:<40}{o.values}")
            say(_sentence(o.doc))
        else:
            click.echo(head)
            say(_sentence(o.doc))
            say(f"Values: {o.values}.")


def _sentence(text: str) -> str:
    from hoola.core.rulebook import sentence

    return sentence(text)


@cli.command()
@click.option("--game", "-g", "game_name", default="hoola", show_default=True,
              help="The game to play: any registered game (hoola, kalookie, capture) or a "
                   "capture game by name (sedma, ...); `hoola rules GAME` lists its presets and "
                   "options.")
@click.option("--bots", "-b", default=None,
              help="Bots seated in turn around the table, comma-separated (default: the game's "
                   "own, strongest first, expert,greedy for hoola; expert,random where a game "
                   "has one bot of its own): a kind (random, greedy, expert, learned, ismcts; "
                   "those the game has), a strength level (beginner, easy, medium, hard, "
                   "master), either with options "
                   "(ismcts:playouts=30:seconds=1), or an --external NAME (NAME:timeout=2 sets "
                   "its seconds per decision).")
@click.option("--deals", "-n", default=1000, show_default=True, type=click.IntRange(1),
              help="Units to play: shuffles (with --duplicate each is played under every "
                   "distinct rotation of the seats).")
@click.option("--players", "-p", default=None, type=int,
              help="Seats at the table (default 4, or as near as the game allows).")
@click.option("--rules", "-r", "preset", default=None,
              help="Rule preset (default: the game's first, pagat for hoola).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="Override one rule option (repeatable).")
@click.option("--duplicate/--rotate", default=True, show_default=True,
              help="Duplicate deals (each shuffle under every seating) or one seating per "
                   "shuffle, rotated.")
@click.option("--match-deals", default=1, show_default=True, type=click.IntRange(1),
              help="Deals per game: above 1, matches as the game plays them (Hoola's winner "
                   "deals next; Kalookie's pool game and the capture games, ended early when the "
                   "pool is won or the target reached).")
@click.option("--round-robin", is_flag=True,
              help="Play every pair of the given bots against each other (alternate seats).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of every shuffle.")
@click.option("--workers", "-j", default=None, type=click.IntRange(1),
              help="Processes (default: all cores).")
@click.option("--external", "-x", "externals", multiple=True, metavar="NAME=COMMAND",
              help="An external bot speaking docs/protocol.md, usable as NAME in --bots; a bot "
                   "that breaks the protocol forfeits the deal (docs/bots.md).")
@click.option("--python", "pythons", multiple=True, metavar="NAME=FILE:CLASS",
              help="A bot written in Python: the class CLASS of FILE, made for each seat with "
                   "its seed and options (NAME:key=value in --bots), usable as NAME in --bots.")
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Write PNG charts into this folder.")
@click.option("--records", "records_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Save every game as a record file into this folder.")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Run on a Ray cluster at ADDRESS ('local' starts one in this process).")
@click.option("--compare-rules", "compare", default=None, metavar="PRESET,...",
              help="Compare rule presets (end types, stakes, the dealer's and seats' edge).")
def sim(game_name: str, bots: str | None, deals: int, players: int | None, preset: str | None,
        options: tuple[str, ...], duplicate: bool, match_deals: int, round_robin: bool,
        seed: int, workers: int | None, externals: tuple[str, ...], pythons: tuple[str, ...],
        plot_dir: Path | None, records_dir: Path | None, ray_address: str | None,
        compare: str | None) -> None:
    """Play many deals of any game between bots and report stakes, win rates, end types and
    ratings."""
    from hoola.sim.cli import run_sim

    run_sim(bots=bots, deals=deals, players=players, preset=preset,
            options=parse_option_values(options), duplicate=duplicate, match_deals=match_deals,
            round_robin=round_robin, seed=seed, workers=workers, externals=externals,
            plot_dir=plot_dir, records_dir=records_dir, ray_address=ray_address, compare=compare,
            game_name=game_name, pythons=pythons)


@cli.command()
@click.option("--format", "-f", "format_", default="swiss", show_default=True,
              type=click.Choice(["swiss", "knockout", "blackpool"]),
              help="Swiss over tables, a knockout, or Kalookie's Blackpool tournament.")
@click.option("--game", "-g", "game_name", default=None,
              help="The game every table plays, or a capture game by name (sedma, ...) "
                   "[default: hoola; kalookie for blackpool].")
@click.option("--rules", "-r", "preset", default=None,
              help="The tables' preset (default: the game's first; blackpool for blackpool).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="Override one rule option at every table, e.g. --option target=60.")
@click.option("--entrants", "-n", default=None, type=click.IntRange(2, 1024),
              help="Bots entered [default: 16 for blackpool, which takes 8 to 32; else 8].")
@click.option("--bots", "-b", default=None,
              help="Bot kinds entered in turn, comma-separated (expert,greedy: expert-1, "
                   "greedy-2, ...) [default: expert,greedy for hoola, else expert,random].")
@click.option("--seed", type=int, default=None,
              help="Seed of every draw and shuffle (printed; the same seed plays the same "
                   "tournament).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the tournament's record here (hoola verify checks it).")
@click.option("--rounds", type=click.IntRange(1, 100), default=None,
              help="Swiss: rounds [default: 3].")
@click.option("--table-size", type=click.IntRange(2, 16), default=None,
              help="Swiss and knockout: players a table [default: 4].")
@click.option("--points", default=None, metavar="P1,P2,...",
              help="Swiss: points by place at a table [default: 3,2,1,0 at tables of four].")
@click.option("--bye", default=None, metavar="POINTS",
              help="Swiss: points of a bye [default: the mean of --points].")
@click.option("--advance", type=click.IntRange(1, 15), default=None,
              help="Knockout: places of each table that go on [default: half the table].")
@click.option("--deals", type=click.IntRange(1, 10_000), default=None,
              help="The most deals a table plays (Hoola, which has no end of its own, plays "
                   "them all) [default: 4 for hoola, 200 for other games, 1000 for blackpool].")
@click.option("--tables", type=click.IntRange(2, 64), default=None,
              help="Blackpool: tables in all, buy-in tables included [default: 8].")
def tournament(format_: str, game_name: str | None, preset: str | None,
               options: tuple[str, ...], entrants: int | None, bots: str | None,
               seed: int | None, output: Path | None, rounds: int | None,
               table_size: int | None, points: str | None, bye: str | None,
               advance: int | None, deals: int | None, tables: int | None) -> None:
    """Run a tournament of any game between bots, print its standings and write its record:
    Swiss over tables, a knockout, or Kalookie's Blackpool tournament (docs/tournaments.md).

    `hoola tournament -f blackpool -n 16 -b expert,greedy --seed 1 -o cup.toml`
    """
    try:
        from hoola.tournament.cli import run_tournament
    except ImportError as exc:
        from hoola.install import install_command

        raise click.ClickException(f"hoola tournament needs its extra: "
                                   f"{install_command('sim')} ({exc.name} is missing)") from exc
    run_tournament(format=format_, game_name=game_name, preset=preset,
                   options=parse_option_values(options), entrants=entrants, bots=bots,
                   seed=seed, output=output, rounds=rounds, table_size=table_size,
                   points=points, bye=bye, advance=advance, deals=deals, tables=tables)


def startup_line(host: str, port: int, db_url: str, lan: str | None) -> str:
    """What ``hoola serve`` says as it starts: where to open it, where the tables are kept, and
    how friends on other computers get in.

    >>> print(startup_line("127.0.0.1", 8000, "sqlite:////home/ann/.hoola/hoola-server.db", None))
    hoola server on http://127.0.0.1:8000 (tables in /home/ann/.hoola/hoola-server.db; API at /docs)
    Only this computer can open it: `hoola serve --host 0.0.0.0` lets friends on your network in.
    >>> print(startup_line("0.0.0.0", 8000, "sqlite:///t.db", "192.168.1.5"))
    hoola server on http://127.0.0.1:8000 (tables in t.db; API at /docs)
    Friends on your network open http://192.168.1.5:8000 (invite links name it).
    """
    from hoola.server.where import ALL_INTERFACES, is_loopback

    where = db_url.removeprefix("sqlite:///") if db_url.startswith("sqlite:///") else db_url
    shown = "127.0.0.1" if host in ALL_INTERFACES else f"[{host}]" if ":" in host else host
    line = f"hoola server on http://{shown}:{port} (tables in {where}; API at /docs)"
    if is_loopback(host):
        return (f"{line}\nOnly this computer can open it: `hoola serve --host 0.0.0.0` lets "
                "friends on your network in.")
    if host in ALL_INTERFACES:
        friends = f"http://{lan}:{port}" if lan else f"http://<this computer's address>:{port}"
        return f"{line}\nFriends on your network open {friends} (invite links name it)."
    return line


@cli.command()
@click.argument("game_name", metavar="GAME")
@click.option("--rules", "--preset", "-r", "preset", default=None, help="A preset of the game.")
@click.option("--players", "-p", default=2, show_default=True, type=click.IntRange(2, 10))
@click.option("--imitate", default=2000, show_default=True, type=click.IntRange(0),
              help="Games of the teacher to imitate first (0: none).")
@click.option("--epochs", default=4, show_default=True, type=click.IntRange(1),
              help="Passes over the teacher's decisions.")
@click.option("--teacher", default="expert", show_default=True, help="The bot imitated.")
@click.option("--updates", default=100, show_default=True, type=click.IntRange(0),
              help="Policy-gradient steps after imitation.")
@click.option("--batch", default=32, show_default=True, type=click.IntRange(1),
              help="Games a policy-gradient step.")
@click.option("--opponents", default="expert,greedy,random,self", show_default=True,
              help="Bot kinds the learner meets (self: its own past policies).")
@click.option("--reference", default="expert", show_default=True,
              help="The bot the learning curve is measured against.")
@click.option("--eval-deals", default=200, show_default=True, type=click.IntRange(2),
              help="Duplicate deals a point of the curve.")
@click.option("--eval-every", default=25, show_default=True, type=click.IntRange(1),
              help="Updates between points of the curve (and checkpoints).")
@click.option("--hidden", default=128, show_default=True, type=click.IntRange(8))
@click.option("--lr", default=1e-3, show_default=True, help="Adam's rate in imitation.")
@click.option("--pg-lr", default=2e-4, show_default=True, help="Adam's rate after it.")
@click.option("--entropy", default=0.01, show_default=True, help="The entropy bonus.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of everything.")
@click.option("--out", "-o", default="", help="The weights (default FAMILY-PRESET-Np.npz).")
@click.option("--resume", is_flag=True, help="Go on from OUT's checkpoint.")
def train(game_name: str, preset: str | None, resume: bool, **settings: object) -> None:
    """Train a policy for the learned bot: imitation of the expert, then policy gradient against
    the bots and its past selves; writes OUT, OUT's learning curve (.curve.json, .curve.png)
    and checkpoints. Needs the learn extra."""
    try:
        import jax  # noqa: F401  (only to say what to install, before any work)
        import matplotlib  # noqa: F401

        from hoola.rl.train import Config, run
    except ImportError:
        from hoola.install import install_command

        raise click.ClickException("hoola train needs JAX, optax and matplotlib: "
                                   f"{install_command('learn')}") from None
    config = Config(game=game_name, rules=preset, **settings)  # type: ignore[arg-type]
    try:
        last = run(config, resume=resume)
    except (ValueError, KeyError) as exc:
        raise click.ClickException(str(exc).strip("'\"")) from exc
    click.echo(f"against {config.reference}: {last['stakes']:+.2f} ± {last['interval']:.2f} "
               f"stakes a deal, win rate {last['win_rate']:.3f}")


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on: 0.0.0.0 lets friends on your network in (invite "
                   "links then name this machine's network address).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--db", "db_url", default=None,
              help="Where tables are kept: a SQLite file, or a SQLAlchemy URL (sqlite:///FILE, "
                   "postgresql+psycopg://USER@HOST/DB) [default: ~/.hoola/hoola-server.db, "
                   "or in $HOOLA_HOME].")
@click.option("--redis", "redis_url", default=None, metavar="URL",
              help="Share the tables with other server processes through this Redis "
                   "(redis://HOST:PORT/0) and the same --db.")
@click.option("--lease", "lease_seconds", default=5.0, show_default=True,
              type=click.FloatRange(0.5, 600),
              help="With --redis: seconds a silent owner keeps its tables before another "
                   "process takes them over.")
@click.option("--external", "-x", "externals", multiple=True, metavar="NAME=COMMAND",
              help="An external bot speaking docs/protocol.md, seated at tables as NAME "
                   "(repeatable); a bot that fails is replaced by the expert.")
@click.option("--limit", "limit_pairs", multiple=True, metavar="KEY=VALUE",
              help="Set one abuse limit (repeatable; 0 turns it off), such as "
                   "tables_per_minute=30 or sockets_per_address=200: docs/server.md, Limits.")
@click.option("--forwarded-allow-ips", default=None, metavar="IPS",
              help="Proxies (addresses or networks, comma-separated, or *) whose "
                   "X-Forwarded-For names the client that the per-address limits count "
                   "[default: 127.0.0.1,::1, or $FORWARDED_ALLOW_IPS].")
def serve(host: str, port: int, db_url: str | None, redis_url: str | None,
          lease_seconds: float, externals: tuple[str, ...], limit_pairs: tuple[str, ...],
          forwarded_allow_ips: str | None) -> None:
    """Host tables of every game for people and bots over HTTP and WebSocket (docs/server.md);
    the API is documented at /docs."""
    try:
        import uvicorn

        from hoola.server.app import KEEP_ALIVE, create_app
        from hoola.server.limits import Limits, http_protocol
    except ImportError as exc:
        from hoola.install import install_command

        raise click.ClickException(f"the server needs its extra: {install_command('server')} "
                                   f"({exc.name} is missing)") from exc
    from hoola.core.errors import HoolaError
    from hoola.server.where import ALL_INTERFACES, db_url_of, lan_address

    bots: dict[str, str] = {}
    for pair in externals:
        name, sep, command = pair.partition("=")
        if not sep or not name.strip() or not command.strip():
            raise click.BadParameter(f"{pair!r} is not NAME=COMMAND", param_hint="--external")
        bots[name.strip()] = command.strip()
    pairs: dict[str, str] = {}
    for pair in limit_pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--limit")
        pairs[key.strip()] = value.strip()
    try:
        limits = Limits.parse(pairs)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--limit") from exc
    db_url = db_url_of(db_url)
    lan = lan_address() if host in ALL_INTERFACES else None
    try:
        app = create_app(db_url=db_url, lan=lan, redis_url=redis_url, lease_seconds=lease_seconds,
                         externals=bots, limits=limits)
    except HoolaError as exc:
        raise click.ClickException(exc.message) from exc
    except Exception as exc:  # a database that cannot be opened
        raise click.ClickException(f"cannot open the database {db_url}: "
                                   f"{str(exc).splitlines()[0]}") from exc
    click.echo(startup_line(host, port, db_url, lan))
    # Messages are small JSON; compressing each costs more CPU than it saves on a table.
    # The protocol class bounds each request head's time and size, which uvicorn does not.
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=65536,
                ws_per_message_deflate=False, timeout_keep_alive=KEEP_ALIVE,
                http=http_protocol(limits), forwarded_allow_ips=forwarded_allow_ips)
