"""How a server process keeps Python's garbage collector from stalling its event loop.

A server with many tables holds about a thousand tracked objects a table (its match, its deal's
state and history, the views of its current state), each living for seconds: a person's think.
CPython's collector is generational, and counts a generation's growth as allocations *minus
deallocations*, so replacing a table's state (the old views freed, the new ones made) grows the
young generations without ever counting as growth: at 1,000 tables a young collection went
through 100,000 objects or more (60-160 ms with the event loop stopped), and every twenty
seconds or so a full one through a million (0.5-0.9 s). Every table waited.

:func:`tend` moves every object alive to the collector's permanent generation once a second
(:func:`gc.freeze`, which costs nothing), so a collection only ever looks at what was made in
the last second. Objects frozen are still freed when nothing refers to them; only reference
cycles among them (an HTTP connection's objects, found in no table) wait for the sweep: every
:data:`SWEEP_SECONDS` everything is thawed and collected once, a pause of the full collection's
length at a time of the process's choosing instead of Python's.
"""

from __future__ import annotations

import asyncio
import gc
import time

__all__ = ["SWEEP_SECONDS", "TENURE_SECONDS", "tend"]

TENURE_SECONDS = 1.0
"""How often everything alive is frozen."""
SWEEP_SECONDS = 600.0
"""How often everything frozen is thawed and collected (reference cycles among long-lived
objects are freed then)."""


async def tend(tenure: float = TENURE_SECONDS, sweep: float = SWEEP_SECONDS) -> None:
    """Freeze what is alive every ``tenure`` seconds, thaw and collect every ``sweep``; until
    cancelled, when everything is thawed again."""
    swept = time.monotonic()
    try:
        while True:
            await asyncio.sleep(tenure)
            if time.monotonic() - swept >= sweep:
                gc.unfreeze()
                gc.collect()
                swept = time.monotonic()
            gc.freeze()
    finally:
        gc.unfreeze()
