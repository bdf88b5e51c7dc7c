"""JSON over HTTP for the browser tests (the server runs in a thread, the tests talk to it directly)."""

from __future__ import annotations

import json
import urllib.request


def get_json(url: str):
    with urllib.request.urlopen(url) as r:
        return json.load(r)


def post_json(url: str, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)
