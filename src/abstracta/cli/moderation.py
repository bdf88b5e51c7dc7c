"""``abstracta moderation``: the chat reports kept for the operator, and chat bans (issue 43 §2)
— a thin wrapper over :class:`abstracta.server.chat.ChatLog`, on the server's database (``--db``,
as ``abstracta serve``)."""

from __future__ import annotations

from typing import Any, Optional

import typer
from rich.markup import escape

from ..server.chat import ChatLog
from ..server.errors import MatchError
from ..server.storage import DatabaseError, Store, default_db_url
from .base import _Group, _Typer, app, CliError, console, database_url, guarded

moderation_app = _Typer(cls=_Group, help="The chat of the web app: the lines people reported, and chat bans.",
                        no_args_is_help=True)
app.add_typer(moderation_app, name="moderation")
ModerationDb = typer.Option(None, "--db", help="The web app's database: SQLAlchemy URL or an SQLite file's path "
                            "(default: SQLite in the user data directory).")


def _chat_do(db: str | None, act: Any) -> Any:
    try:
        store = Store(database_url(db) or default_db_url())  # its schema upgraded: every table there
    except DatabaseError as exc:
        raise CliError(f"the database cannot be used: {exc}") from None
    try:
        return act(ChatLog(store))
    except MatchError as exc:
        raise CliError(exc.message) from None
    finally:
        store.dispose()


@moderation_app.command("list")
@guarded
def moderation_list_cmd(db: Optional[str] = ModerationDb) -> None:
    """The reported lines, newest first (who wrote it, what, how many reported it), and the bans."""
    reports, bans = _chat_do(db, lambda log: (log.reports(), log.bans()))
    if not reports:
        console.print("no line has been reported")
    for r in reports:  # a line each (the line's text may be long): greppable, readable in a narrow terminal
        author = r["author"] + (" (banned)" if r["author_banned"] else "")
        times = f", {r['reports']} reports of this line" if r["reports"] > 1 else ""
        console.print(f"{r['at']:%Y-%m-%d %H:%M}  game {r['match_id']} ({r['room']})  {escape(author)}: "
                      f"{escape(repr(r['text']))}  reported by {escape(r['reporter'])}{times}", soft_wrap=True)
    if bans:
        console.print("banned from chat: " + ", ".join(escape(name) for name, _ in bans))


@moderation_app.command("ban")
@guarded
def moderation_ban_cmd(name: str = typer.Argument(..., metavar="NAME"), db: Optional[str] = ModerationDb) -> None:
    """Ban a person (an account or a guest, by name) from every chat; their lines are hidden."""
    shown, hidden = _chat_do(db, lambda log: log.ban(name))
    console.print(f"{escape(shown)} is banned from chat; {hidden} of their lines are hidden")


@moderation_app.command("unban")
@guarded
def moderation_unban_cmd(name: str = typer.Argument(..., metavar="NAME"), db: Optional[str] = ModerationDb) -> None:
    """Lift a chat ban: the person may write again, and their lines show again."""
    shown = _chat_do(db, lambda log: log.unban(name))
    console.print(f"{escape(shown)} may chat again")
