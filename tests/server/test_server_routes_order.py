"""The routes of a move are matched before the others (app.py, for speed): that must never
change which route answers a request."""

from __future__ import annotations

import re

from fastapi.routing import APIWebSocketRoute
from starlette.routing import Match

from abstracta.server.api.routes import FIRST_MATCHED, ROUTERS


def sample(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "x1", path)


def test_no_route_matched_first_takes_a_path_of_another():
    taken = []
    for router in ROUTERS:
        if router in FIRST_MATCHED:
            continue
        for route in router.routes:
            kind = "websocket" if isinstance(route, APIWebSocketRoute) else "http"
            for method in getattr(route, "methods", None) or {"GET"}:
                scope = {"type": kind, "method": method, "path": sample(route.path), "root_path": "",
                         "headers": [], "query_string": b""}
                taken += [(method, route.path, first.path) for hot in FIRST_MATCHED for first in hot.routes
                          if first.matches(dict(scope))[0] == Match.FULL]
    assert taken == []
    # and the check can fail: a route matched first does take a path it fits
    first = FIRST_MATCHED[0].routes[0]
    scope = {"type": "http", "method": "POST", "path": sample(first.path), "root_path": "", "headers": [],
             "query_string": b""}
    assert first.matches(scope)[0] == Match.FULL


def test_the_schema_lists_each_route_once_in_the_order_of_the_routers(client):
    paths = list(client.get("/openapi.json").json()["paths"])
    assert len(paths) == len(set(paths))
    acts_path, ws_free = "/api/matches/{match_id}/actions", "/api/games"
    assert paths.index(ws_free) < paths.index(acts_path)  # games come before the acts, as ROUTERS has them
