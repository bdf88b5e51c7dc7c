"""The web app: ``abstracta serve`` (issue 7).

:func:`run` starts uvicorn on :func:`abstracta.server.app.create_app`.
"""

from __future__ import annotations


def run(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, bot_workers: int | str = 2,
        rate_limits: bool = True) -> None:
    """Serve the app at ``http://host:port/`` with matches stored at ``db`` (SQLAlchemy URL;
    default: SQLite in the user data directory); searches run in ``bot_workers`` processes,
    or on Ray (``"ray"``, ``"ray:ADDRESS"``). ``rate_limits=False`` (or the environment's
    ``ABSTRACTA_RATE_LIMITS=off``) is the benchmarks' switch for the abuse limits (issue 14 §4)."""
    import os

    import uvicorn

    if not rate_limits:
        os.environ["ABSTRACTA_RATE_LIMITS"] = "off"

    from .app import create_app
    from .storage import default_db_url

    url = db or default_db_url()
    app = create_app(url, bot_workers)
    print(f"abstracta: open http://{host}:{port}/ in a browser (games stored in {url})", flush=True)
    # views are a few kB, sent on every change to every subscriber: compressing them costs more
    # CPU than the bytes are worth
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5,
                ws_per_message_deflate=False)


__all__ = ["run"]
