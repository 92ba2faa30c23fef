"""``python -m hoola`` and the ``hoola`` command."""

from __future__ import annotations

import sys


def main() -> None:
    """Run the command line (needs the ``cli`` extra: click and rich)."""
    try:
        from hoola.cli import cli
    except ImportError as exc:  # pragma: no cover - depends on the environment
        from hoola.install import install_command

        sys.exit(f"hoola: the command line needs the cli extra ({exc.name} is missing): "
                 f"{install_command('cli')}")
    cli()


if __name__ == "__main__":
    main()
