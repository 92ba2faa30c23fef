"""What an operator watches: the server's health and its Prometheus metrics (served by
:mod:`hoola.server.ops` at ``GET /health`` and ``GET /metrics``).

The metrics come from ``prometheus-client`` in a registry of the application's own (so several
servers in one process, as in the tests, keep theirs apart):

- ``hoola_tables`` (gauge): tables this process plays now;
- ``hoola_sockets{role}`` (gauge): WebSocket connections open, of seats and of spectators;
- ``hoola_decisions_total{result}`` (counter): decisions (act, pass) from clients, ``accepted``
  or ``refused``;
- ``hoola_actions_stored_total`` (counter): actions stored (every move of a table, bots' too);
- ``hoola_decision_seconds`` (histogram): from a client's decision read to its answer queued;
- ``hoola_event_loop_lag_seconds`` (histogram): how late the event loop runs a timer, sampled
  every :data:`LAG_SAMPLE_SECONDS`;
- ``hoola_store_errors_total`` (counter), ``hoola_store_ok`` (gauge): reads and writes the
  database refused; 1 while it accepts them;
- ``hoola_redis_errors_total`` (counter), ``hoola_redis_up`` (gauge), with ``--redis``: Redis
  requests that failed; 1 while Redis answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client import generate_latest as _generate
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from hoola.server.hub import Hub

__all__ = ["LAG_SAMPLE_SECONDS", "Metrics"]

LAG_SAMPLE_SECONDS = 0.25
"""How often the event loop's lag is sampled."""

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """A server's metrics, and the loop-lag sampler."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.sockets = {"seat": 0, "spectator": 0}  # WebSocket connections open, by role
        self.decisions = Counter("hoola_decisions", "Decisions (act, pass) from clients",
                                 ["result"], registry=r)
        self.stored = Counter("hoola_actions_stored", "Actions stored", registry=r)
        self.latency = Histogram("hoola_decision_seconds", "From a client's decision read to "
                                 "the server's answer queued", buckets=_LATENCY_BUCKETS,
                                 registry=r)
        self.lag = Histogram("hoola_event_loop_lag_seconds", "How late the event loop runs a "
                             "timer", buckets=_LATENCY_BUCKETS, registry=r)
        self.last_lag = 0.0
        r.register(_HubCollector(hub, self.sockets))
        hub.on_stored = self.stored.inc
        self._sampler: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin sampling the event loop's lag."""
        self._sampler = asyncio.get_running_loop().create_task(self._sample())

    async def stop(self) -> None:
        """Stop sampling."""
        if self._sampler is not None:
            self._sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sampler

    async def _sample(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + LAG_SAMPLE_SECONDS
            await asyncio.sleep(LAG_SAMPLE_SECONDS)
            self.last_lag = max(0.0, loop.time() - due)
            self.lag.observe(self.last_lag)

    @contextlib.contextmanager
    def socket(self, role: str) -> Iterator[None]:
        """Count a WebSocket connection of ``role`` (``seat``, ``spectator``) while it is
        open."""
        self.sockets[role] += 1
        try:
            yield
        finally:
            self.sockets[role] -= 1

    @contextlib.contextmanager
    def decision(self) -> Iterator[None]:
        """Time a client's decision and count it, accepted or refused (an exception)."""
        started = time.perf_counter()
        try:
            yield
        except BaseException:
            self.decisions.labels("refused").inc()
            raise
        finally:
            self.latency.observe(time.perf_counter() - started)
        self.decisions.labels("accepted").inc()

    def health(self) -> tuple[bool, dict[str, Any]]:
        """Whether the server can serve now, and what it knows of itself."""
        hub = self.hub
        store_ok = not hub.store.failing
        redis = None if hub.redis is None else ("ok" if hub.linked else "unreachable")
        ok = store_ok and redis in (None, "ok")
        return ok, {
            "status": "ok" if ok else "unavailable",
            "store": "ok" if store_ok else "failing: " + ", ".join(sorted(hub.store.failing)),
            "redis": redis,
            "tables": len(hub.rooms),
            "halted": sum(1 for room in hub.rooms.values() if room.halts),
            "sockets": sum(self.sockets.values()),
            "loop_lag_ms": round(self.last_lag * 1000, 1),
        }

    def exposition(self) -> bytes:
        """The metrics in Prometheus's text format."""
        return _generate(self.registry)


class _HubCollector(Collector):
    """What the hub and the store count themselves, read at each scrape."""

    def __init__(self, hub: Hub, sockets: dict[str, int]) -> None:
        self.hub = hub
        self.sockets = sockets

    def collect(self) -> Iterator[Metric]:
        hub = self.hub
        yield GaugeMetricFamily("hoola_tables", "Tables this process plays now",
                                value=len(hub.rooms))
        sockets = GaugeMetricFamily("hoola_sockets", "WebSocket connections open",
                                    labels=["role"])
        for role, count in sorted(self.sockets.items()):
            sockets.add_metric([role], count)
        yield sockets
        yield CounterMetricFamily("hoola_store_errors", "Reads and writes the database refused",
                                  value=hub.store.errors)
        yield GaugeMetricFamily("hoola_store_ok", "1 while the database accepts reads and "
                                "writes", value=0 if hub.store.failing else 1)
        if hub.redis_url is not None:
            yield CounterMetricFamily("hoola_redis_errors", "Redis requests that failed",
                                      value=hub.redis_errors)
            yield GaugeMetricFamily("hoola_redis_up", "1 while Redis answers",
                                    value=1 if hub.redis_up else 0)
