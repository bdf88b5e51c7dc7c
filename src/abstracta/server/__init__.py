"""The web app: ``abstracta serve`` (issue 7).

:func:`run` starts uvicorn on :func:`abstracta.server.app.create_app`.
"""

from __future__ import annotations


def run(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, bot_workers: int | str = 2,
        allowed_hosts: list[str] | None = None, rate_limits: bool = True) -> None:
    """Serve the app at ``http://host:port/`` with matches stored at ``db`` (SQLAlchemy URL;
    default: SQLite in the user data directory); searches run in ``bot_workers`` processes,
    or on Ray (``"ray"``, ``"ray:ADDRESS"``); answering the Host names of
    :meth:`security.HostPolicy.for_bind` plus ``allowed_hosts``, with or without the rate limits
    (``rate_limits=False``: the benchmarks' switch, also ``ABSTRACTA_RATE_LIMITS=off``)."""
    import uvicorn

    from . import security
    from .app import create_app
    from .storage import default_db_url

    url = db or default_db_url()
    policy = security.HostPolicy.for_bind(host, allowed_hosts or [])
    app = create_app(url, bot_workers, security_settings=security.Security(hosts=policy, rate_limits=rate_limits))
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
    if not rate_limits:
        print("abstracta: rate limits are OFF (--no-rate-limits / ABSTRACTA_RATE_LIMITS=off).", flush=True)
    # views are a few kB, sent on every change to every subscriber: compressing them costs more
    # CPU than the bytes are worth
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5,
                ws_per_message_deflate=False)


__all__ = ["run"]
