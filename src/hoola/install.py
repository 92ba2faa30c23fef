"""How to install an optional extra, said the way that works for how hoola itself was installed.

A source checkout installed with ``pip install -e .`` needs ``pip install -e "PATH[extra]"``
(the package on the index is another copy); an install from the index or a wheel needs
``pip install 'hoola[extra]'``. pip leaves ``direct_url.json`` in the installed metadata saying
which (PEP 610). Standard library only: the message is needed when the extras are missing.

>>> install_command("sim", source=None)
"pip install 'hoola[sim]'"
>>> install_command("sim,ray", source="/src/hoola")
'pip install -e "/src/hoola[sim,ray]"'
"""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

__all__ = ["install_command", "source_checkout"]

_UNSET = object()


def source_checkout() -> str | None:
    """The folder hoola was installed from in editable mode (``pip install -e``), else None."""
    try:
        text = metadata.distribution("hoola").read_text("direct_url.json")
        info = json.loads(text) if text else {}
    except (metadata.PackageNotFoundError, ValueError, OSError):
        return None
    url = info.get("url", "") if isinstance(info, dict) else ""
    editable = isinstance(info, dict) and bool((info.get("dir_info") or {}).get("editable"))
    if not editable or not isinstance(url, str) or not url.startswith("file:"):
        return None
    path = Path(unquote(urlparse(url).path))
    try:
        here = Path.cwd().resolve()
        if path.resolve() == here:
            return "."
    except OSError:
        pass
    return str(path)


def install_command(extras: str, source: str | object | None = _UNSET) -> str:
    """The pip command that adds ``extras`` (``"sim"``, ``"sim,ray"``) to this install of hoola.

    ``source`` overrides where hoola was installed from (None: from a package index).
    """
    folder = source_checkout() if source is _UNSET else source
    if isinstance(folder, str):
        return f'pip install -e "{folder}[{extras}]"'
    return f"pip install 'hoola[{extras}]'"
