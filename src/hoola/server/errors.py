"""Every HTTP error the server answers, in one shape: ``{"code": ..., "message": ...}``.

A refusal of the server's own (:class:`~hoola.core.errors.HoolaError`: a rule, a limit, the
database away) takes its status from its code (:data:`STATUS`); Starlette's and FastAPI's own
(no route, a wrong method, a body that cannot be parsed, a schema refused) are put in the same
shape; anything else is logged and answered ``internal``, with no detail. The OpenAPI schema lists
every status each route may answer (:func:`responses`, :func:`document`).
"""

from __future__ import annotations

import json
import logging
import math
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from hoola.core.errors import HoolaError
from hoola.server.limits import LimitError

__all__ = ["ALWAYS", "STATUS", "Error", "document", "install", "responses"]

log = logging.getLogger("hoola.server")

STATUS = {"no-table": 404, "bad-token": 403, "not-host": 403, "too-large": 413,
          "rate-limited": 429, "unavailable": 503, "not-signed-in": 401, "bad-sign-in": 401,
          "bad-origin": 403, "not-your-seat": 403, "no-account": 404}
"""The HTTP status of a refusal's code; any other code is 400."""


class Error(BaseModel):
    """Every HTTP error's body (and the WebSocket's ``error`` message, less its type)."""

    code: str = Field(description="A stable code: no-table, not-host, bad-json, rate-limited, "
                                  "... (docs/server.md lists them)")
    message: str = Field(description="One sentence for a person: what was refused and why")


_MEANINGS = {
    400: "Refused: the request breaks a rule of the game or the table (or its body is not "
         "JSON this server reads: bad-json)",
    401: "Not signed in (not-signed-in), or a name and password that match no account "
         "(bad-sign-in)",
    403: "Not yours: the token is not the host's, or holds no seat here; the seat is another "
         "account's (not-your-seat); the request came from another site (bad-origin)",
    404: "There is no such table (no-table) or account (no-account)",
    408: "The request's body did not arrive in time (timeout); the connection is closed",
    413: "The request's body is too large (too-large); the connection is closed",
    422: "The request does not match its schema (bad-request)",
    429: "Too many requests from this address (rate-limited): Retry-After says when to try "
         "again",
    500: "The server failed (internal): logged, with no detail given",
    503: "The database or Redis cannot be reached now (unavailable): try again",
}
ALWAYS = (408, 413, 500)
"""The statuses any route may answer: the body limits apply to every request that has one."""
_HTTP_ERRORS = {
    400: ("bad-json", "the body is not JSON this server reads (not UTF-8, or nested too "
                      "deeply)"),
    401: ("not-allowed", "that is not open to you"),
    404: ("not-found", "there is nothing here: the API is described at /docs"),
    405: ("method-not-allowed", ""),
    413: ("too-large", "the request body is too large"),
}
"""Codes and messages of Starlette's and FastAPI's own refusals, by status."""


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """A route's error answers for its OpenAPI ``responses``: these and :data:`ALWAYS`."""
    return {s: {"model": Error, "description": _MEANINGS[s]}
            for s in sorted({*statuses, *ALWAYS})}


def document(schema: dict[str, Any]) -> None:
    """Every operation of ``schema`` lists :data:`ALWAYS` as :class:`Error`, and FastAPI's own
    422 gives way to ours; what a route declares itself stays."""
    ref = "#/components/schemas/Error"
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", Error.model_json_schema())
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            answers = operation.setdefault("responses", {})
            for status in ALWAYS:
                answers.setdefault(str(status), {})
            for status, answer in answers.items():
                said = json.dumps(answer)  # FastAPI gives a text route's errors its text type
                if not answer or "HTTPValidationError" in said or "schemas/Error" in said:
                    answers[status] = {"description": _MEANINGS[int(status)], "content": {
                        "application/json": {"schema": {"$ref": ref}}}}
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)


def install(app: FastAPI) -> None:
    """Answer every error of ``app`` as ``{code, message}``, and list them in its schema."""

    @app.exception_handler(HoolaError)
    async def refused(_request: Request, exc: HoolaError) -> JSONResponse:
        headers = {}
        if isinstance(exc, LimitError) and exc.retry_after is not None:
            headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        return JSONResponse({"code": exc.code, "message": exc.message},
                            status_code=STATUS.get(exc.code, 400), headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """Starlette's and FastAPI's own refusals (no route, a wrong method, a body that cannot
        be parsed) as every other error: a code and a message, never ``detail``."""
        code, message = _HTTP_ERRORS.get(exc.status_code, (f"http-{exc.status_code}", ""))
        if exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow")
            message = f"{request.method} is not allowed here" + (
                f": use {allowed}" if allowed else "")
        elif not message:
            message = " ".join(str(exc.detail).split())[:200]
        return JSONResponse({"code": code, "message": message}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        """A request the schema refuses, in one line (FastAPI's own answer echoes the input,
        and fails on a NaN in it)."""
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        if first.get("type") == "json_invalid":  # its place is a character offset
            where = "body"
        message = " ".join(f"{where}: {first.get('msg', 'not valid')}".split())[:200]
        return JSONResponse({"code": "bad-request", "message": message}, status_code=422)

    @app.exception_handler(Exception)
    async def failed(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("request failed")
        return JSONResponse({"code": "internal", "message": "the server could not do that"},
                            status_code=500)

    schema_of = app.openapi

    def openapi() -> dict[str, Any]:
        schema = schema_of()
        document(schema)  # in place, once: FastAPI keeps the schema it made
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
