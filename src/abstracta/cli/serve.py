"""``abstracta serve``: the web app.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .base import app, CliError, database_url, guarded


# --------------------------------------------------------------------------- serve
@app.command("serve")
@guarded
def serve_cmd(
    host: str = typer.Option("127.0.0.1", "--host", help="Bind address (0.0.0.0: every interface, reachable by others)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="0: a free port (printed)."),
    db: Optional[str] = typer.Option(None, "--db", help="SQLAlchemy URL or an SQLite file's path (default: SQLite in the user data directory); "
                                     "several processes may serve one PostgreSQL database (postgresql+psycopg://…)."),
    bot_workers: str = typer.Option("2", "--bot-workers", help="Where computer players search: N local worker "
                                    "processes, ray (a local Ray started here) or ray:ADDRESS (a Ray cluster). "
                                    "Levels 1-2 are answered apart, in one more process of their own (0: in a thread)."),
    allowed_host: Optional[list[str]] = typer.Option(
        None, "--allowed-host", help="A name the server answers in the Host header (repeatable; any port; "
        "'*.example.org' for subdomains, '*' for any). Default: the bind address, localhost, 127.0.0.1, [::1]; "
        "bound to 0.0.0.0 also any IP address and this machine's name."),
    rate_limits: bool = typer.Option(
        True, "--rate-limits/--no-rate-limits", envvar="ABSTRACTA_RATE_LIMITS",
        help="Per-IP and per-token rate limits and the per-IP WebSocket bound (off: loopback benchmarks; "
             "env ABSTRACTA_RATE_LIMITS=off)."),
    redis: Optional[str] = typer.Option(
        None, "--redis", envvar="ABSTRACTA_REDIS_URL",
        help="Redis shared by several processes (redis://host:port/db): rate limits count there and "
             "presence and seeks fan out through it (docs/club.md)."),
    log_format: str = typer.Option("text", "--log-format", help="text, or json: one JSON object per line "
                                   "with the request's id (a log collector's format)."),
) -> None:
    """Start the web app: open http://HOST:PORT/ in a browser."""
    from ..executors import check_ray_address
    from ..server import run
    from ..server.botjobs import parse_workers
    from ..server.storage import DatabaseError

    try:
        kind, address = parse_workers(bot_workers)
        if kind == "ray" and address:  # checked here: the workers start in the app's lifespan,
            check_ray_address(address)  # where a refusal would be uvicorn's traceback
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        run(host, port, database_url(db), bot_workers, allowed_hosts=allowed_host or [], rate_limits=rate_limits,
            redis_url=redis, log_format=log_format)
    except DatabaseError as exc:
        raise CliError(f"cannot use the database (--db): {exc}") from None
    except OSError as exc:
        raise CliError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    except ValueError as exc:  # --redis of another scheme, --log-format of another name
        raise CliError(str(exc)) from None
