"""The web app: ``abstracta serve`` (issue 7).

:func:`run` starts uvicorn on :func:`abstracta.server.app.create_app`.
"""

from __future__ import annotations


def run(host: str = "127.0.0.1", port: int = 8000, db: str | None = None) -> None:
    """Serve the app at ``http://host:port/`` with matches stored at ``db`` (SQLAlchemy URL;
    default: SQLite in the user data directory). ``port`` 0: a free port the system picks; the
    first line printed names the port bound (a caller that picked a "free" port itself could
    lose it to another process before binding). Raises ``OSError`` if the address is taken."""
    import uvicorn

    from .app import create_app
    from .storage import default_db_url

    sock = bind(host, port)
    port = sock.getsockname()[1]
    url = db or default_db_url()
    app = create_app(url)
    print(f"abstracta: open http://{host}:{port}/ in a browser (games stored in {url})", flush=True)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5)
    uvicorn.Server(config).run(sockets=[sock])


def bind(host: str, port: int):
    """A listening-ready TCP socket bound to ``host:port`` (0: any free port), IPv4 or IPv6 as
    ``host`` is written. Raises ``OSError`` if the address is taken or not local."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


__all__ = ["bind", "run"]
