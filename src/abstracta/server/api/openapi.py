"""The statuses the HTTP edge answers before any route runs, documented on every operation of
/openapi.json they can reach, so that the schema names every status an operation may answer.

A route documents its own refusals (:func:`~.errors.errors`, the people's and the lobby's
``answers``); the middleware (:mod:`abstracta.server.security`, :mod:`.middleware`) refuses a
foreign Host, a token too long to be one, another origin's state-changing request, a body too
large, too slow, not JSON or of another type, and too many requests, for whichever route the
request was for. Those are written here once, beside the rules that say which requests each
middleware looks at, and added to each operation that does not document the status already
(its own words are kept). FastAPI's way to add to the schema it generates is a function in
place of ``app.openapi`` ("Extending OpenAPI" in its docs), which :func:`install` sets.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from fastapi import FastAPI

from ..security import LIMITED, STATE_CHANGING
from .middleware import BODY_LIMITS

ERROR_BODY = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
RETRY_AFTER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
BEARER = {"WWW-Authenticate": {"description": "Bearer", "schema": {"type": "string"}}}


def _api(method: str, path: str) -> bool:
    return path.startswith("/api/")


def _with_body(method: str, path: str) -> bool:
    # security.Gate reads the body (read_body) of every request but GET, HEAD and OPTIONS
    return method not in ("GET", "HEAD", "OPTIONS")


def _state_changing(method: str, path: str) -> bool:
    return method in STATE_CHANGING


def _state_changing_api(method: str, path: str) -> bool:
    return method in STATE_CHANGING and path.startswith("/api/")


def _rate_limited(method: str, path: str) -> bool:
    sample = re.sub(r"\{[^}/]+\}", "x", path)  # a path of the template, as a request names it
    return any(m == method and pattern.fullmatch(sample) for m, pattern, _ in LIMITED)


#: (status, what the edge means by it, the operations it can reach, headers it sends)
EDGE: list[tuple[int, str, Callable[[str, str], bool], dict[str, Any]]] = [
    (400, "Invalid host header (not a name this server serves), or a Content-Length that is not a number",
     lambda method, path: True, {}),
    (401, "a bearer token longer than any token is (64 characters): refused rather than read as no token",
     _api, BEARER),
    (403, "cross-origin request refused: a browser's Origin that is not this server", _state_changing_api, {}),
    (408, "the request body did not arrive in time (the connection is closed)", _with_body, {}),
    (413, f"request body too large (at most {BODY_LIMITS[None]:,} bytes; a record import "
          f"{BODY_LIMITS['/api/matches/import']:,})", _with_body, {}),
    (415, "a body that is not JSON (Content-Type: application/json)", _state_changing, {}),
    (422, "the request body is not valid JSON (UTF-8)", _state_changing, {}),
    (429, "too many requests from this address or with this token: wait Retry-After seconds", _rate_limited,
     RETRY_AFTER),
]


def document_edge(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (an OpenAPI document) with every status of :data:`EDGE` on each operation it
    can reach, unless the operation documents that status already (changed in place)."""
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for status, text, reaches, headers in EDGE:
                if str(status) not in responses and reaches(method.upper(), path):
                    responses[str(status)] = {"description": text, "content": ERROR_BODY,
                                              **({"headers": headers} if headers else {})}
            operation["responses"] = dict(sorted(responses.items()))
    return schema


def install(app: FastAPI) -> None:
    """``app.openapi`` answers FastAPI's schema with :func:`document_edge` applied (once: FastAPI
    keeps the schema it made in ``app.openapi_schema``)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_edge(generate())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


__all__ = ["EDGE", "document_edge", "install"]
