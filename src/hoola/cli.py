"""The ``hoola`` command line: play, verify, replay."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from hoola.records import load, record_files, verify_path

__all__ = ["cli"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="hoola", message="hoola %(version)s")
def cli() -> None:
    """Hoola (훌라), the Korean rummy game: play it, and check and replay game records."""


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable report.")
def verify(paths: tuple[Path, ...], as_json: bool) -> None:
    """Check record files (or folders of them) against the engine.

    Prints `ok NAME` or `FAIL NAME: what differs` per record; exits 0 only when all pass.
    """
    files = record_files(paths)
    verdicts = [verify_path(f) for f in files]
    if as_json:
        report = {"passed": sum(v.ok for v in verdicts), "failed": sum(not v.ok for v in verdicts),
                  "records": [{"name": v.name, "path": str(f), "ok": v.ok, "problems": v.problems}
                              for f, v in zip(files, verdicts, strict=True)]}
        click.echo(json.dumps(report, indent=2))
    else:
        for v in verdicts:
            click.echo(v.line())
    if not files:
        click.echo("no record files found", err=True)
    sys.exit(0 if files and all(v.ok for v in verdicts) else 1)


@cli.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def replay(file: Path) -> None:
    """Tell a recorded game move by move, with hands, table and payments."""
    from hoola.errors import HoolaError
    from hoola.replay import tell

    try:
        record = load(file)
        for line in tell(record):
            click.echo(line)
    except HoolaError as exc:
        raise click.ClickException(f"{file}: {exc.message}") from exc
