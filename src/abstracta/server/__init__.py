"""The web app: ``abstracta serve`` (issue 7).

:func:`run` starts uvicorn on :func:`abstracta.server.app.create_app`.
"""

from __future__ import annotations

from . import allocator  # ctypes alone: light enough for the CLI, which imports this package for bind()


def run(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, bot_workers: int | str = 2,
        allowed_hosts: list[str] | None = None, rate_limits: bool = True, redis_url: str | None = None,
        log_format: str = "text") -> None:
    """Serve the app at ``http://host:port/`` with matches stored at ``db`` (SQLAlchemy URL;
    default: SQLite in the user data directory); searches run in ``bot_workers`` processes,
    or on Ray (``"ray"``, ``"ray:ADDRESS"``); answering the Host names of
    :meth:`security.HostPolicy.for_bind` plus ``allowed_hosts``, with or without the rate limits
    (``rate_limits=False``: the benchmarks' switch, also ``ABSTRACTA_RATE_LIMITS=off``).
    ``redis_url``: the Redis several processes share (rate limits, fan-out; default
    ``ABSTRACTA_REDIS_URL``); ``log_format``: ``text`` or ``json`` (one JSON object per line, with
    the request's id: :mod:`.ops`).
    ``port`` 0: a free port the system picks; the first line printed names the port bound (a
    caller that picked a "free" port itself could lose it to another process before binding).
    Raises ``OSError`` if the address is taken, :class:`~abstracta.server.storage.DatabaseError`
    if the database cannot be used (another process serves its SQLite file)."""
    allocator.tune()  # before any thread: fewer malloc arenas, large blocks given back (allocator.py)
    import uvicorn

    # the web app (FastAPI, SQLAlchemy, uvicorn) loads when a server starts, not with this
    # package (the CLI and the tests import it for bind() alone): start-up time
    from . import ops, security
    from .api.routes.live import WS_MESSAGE_BYTES
    from .app import create_app
    from .storage import default_db_url, serve_alone

    if log_format != "text":  # text: Python's and uvicorn's own lines, as before
        ops.configure_logging(log_format)
    redis_url = redis_url or security.redis_url_from_env()
    if redis_url:
        security.limits_storage(redis_url)  # a URL of another scheme is refused now, not at the first request
    sock = bind(host, port)
    port = sock.getsockname()[1]
    url = db or default_db_url()
    policy = security.HostPolicy.for_bind(host, allowed_hosts or [])
    app = create_app(url, bot_workers, security_settings=security.Security(hosts=policy, rate_limits=rate_limits),
                     redis_url=redis_url)
    alone = serve_alone(url)  # noqa: F841 - held while this process serves
    shown = f"[{host}]" if ":" in host else host
    print(f"abstracta: open http://{'localhost' if host in security.WILDCARD_BINDS else shown}:{port}/ "
          f"in a browser (games stored in {url})", flush=True)
    if not security.is_loopback(host):
        names = ", ".join(sorted(policy.names))
        print(f"abstracta: listening on {host}: this server is now REACHABLE BY OTHERS on the network. "
              f"Host names it answers: {names}{' and any IP address' if policy.any_ip else ''}; "
              f"add a DNS name with --allowed-host NAME.", flush=True)
    if "*" in policy.names:
        print("abstracta: warning: --allowed-host '*' answers any Host header: a DNS-rebinding page can "
              "reach this server through a visitor's browser.", flush=True)
    if redis_url:
        print("abstracta: rate limits and the fan-out are shared through Redis", flush=True)
    if not rate_limits:
        print("abstracta: rate limits are OFF (--no-rate-limits / ABSTRACTA_RATE_LIMITS=off).", flush=True)
    # views are a few kB, sent on every change to every subscriber: compressing them costs more
    # CPU than the bytes are worth
    # an idle connection between requests is closed after 5 s; a body must arrive within
    # api.middleware.BODY_SECONDS (read_body). uvicorn has no timeout for a request's headers: a
    # server open to the Internet belongs behind a reverse proxy (docs: club/deployment.md)
    # JSON lines: uvicorn gets no log config of its own, its loggers propagate to the handler
    # ops.configure_logging installed
    logging = {} if log_format == "text" else {"log_config": None}
    # no access log: at log level "warning" uvicorn writes none of its lines (they are "info"), yet
    # with it on each answer still formatted the client's address and path for the logger to drop
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5, **logging,
                            timeout_keep_alive=5, ws_per_message_deflate=False, ws_max_size=WS_MESSAGE_BYTES,
                            access_log=False)
    settle_garbage_collector()
    uvicorn.Server(config).run(sockets=[sock])


#: Allocations of container objects between two young collections of a serving process
#: (Python's default, 700, ran one every few requests: a move allocates thousands).
GC_YOUNG_THRESHOLD = 20_000


def settle_garbage_collector() -> None:
    """Before serving: what start-up made (modules, the app, its routes, the games) is moved out
    of the collector's view (``gc.freeze``): it lives as long as the process, and every full
    collection would walk it again (two of ~85 ms in 3,000 moves, each a pause of every
    request); and the young generation is collected every :data:`GC_YOUNG_THRESHOLD`
    allocations rather than every 700."""
    import gc

    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


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
