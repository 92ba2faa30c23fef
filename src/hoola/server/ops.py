"""What an operator asks of a server: ``GET /health`` and ``GET /metrics`` (Prometheus), from
:class:`~hoola.server.metrics.Metrics`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST

from hoola.server.context import Server, server

__all__ = ["router"]

Context = Annotated[Server, Depends(server)]

router = APIRouter()


@router.get("/health", response_class=JSONResponse,
            responses={503: {"description": "The database or Redis is failing"}})
def health(srv: Context) -> JSONResponse:
    """Whether this server can serve: 200 with ``status`` ``ok``, or 503 with ``status``
    ``unavailable`` while its database refuses or Redis is unreachable; the tables it plays
    (and those halted, waiting to write), its sockets and its event loop's lag."""
    ok, body = srv.metrics.health()
    return JSONResponse(body, status_code=200 if ok else 503)


@router.get("/metrics", response_class=Response,
            responses={200: {"content": {CONTENT_TYPE_LATEST: {}}}})
def prometheus(srv: Context) -> Response:
    """Prometheus metrics (text format): tables, sockets, decisions, latency, loop lag, store
    and Redis errors."""
    return Response(srv.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
