"""Helpers shared by the API tests."""

from __future__ import annotations

import time


def wait_for(client, mid, pred, timeout=10.0):
    """Poll the match view until ``pred(view)`` holds; return that view."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        view = client.get(f"/api/matches/{mid}").json()
        if pred(view):
            return view
        time.sleep(0.02)
    raise AssertionError(f"timed out: {view}")
