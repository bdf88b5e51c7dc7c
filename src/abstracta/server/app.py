"""The web app (issue 7): a JSON API documented by its OpenAPI schema (``/docs``,
``/openapi.json``) and the static browser client at ``/``.

Every refused request gets a 4xx status and a JSON body ``{"error": "..."}`` naming the
problem (echoed input cut at 100 characters); the match it was aimed at is unchanged.

Decisions (the API's rules, also stated in the OpenAPI description):

* Seats belong to people (docs: api/guide.md). Creating a match answers
  with a secret token for each seat the creator takes (``take``, default the first person
  seat) and an invitation code for every other person seat; ``POST /api/invites/claim``
  (``{"code": ...}``) claims that seat once and answers with its token. Every act (move,
  resign, undo, takeback request and answer, draw offer and answer, flag, delete, new invitations) carries
  ``Authorization: Bearer <token>``
  (several tokens of one browser: comma-separated): none is 401, none of this match or not
  the acting seat's is 403; one longer than 64 characters (no seat token is) is 401 on any
  request, never read as no token. ``GET /api/matches`` lists only the matches of the tokens sent.
* People (issue 41): a request from a browser signed in (its session cookie) or with a personal
  API token of scope ``play`` (``Bearer abst_…``) acts as that person too: the seats they took
  signed in (creating the match, claiming its invitation) are theirs on every device, beside
  the tokens. Every act, view and list accepts the cookie instead of a seat token. A rated
  game (``rated`` at creation) is between accounts only; its end changes their ratings.
* Each response is the view of the seats the request's tokens hold; no token of the match:
  a spectator, who sees public information only. ``?seat=`` picks one of the held seats and
  is 403 for any other. A WebSocket sends ``{"tokens": [...]}`` (or ``[]``) as its first
  message, never in its URL.
* Undo is immediate when the tokens hold every person seat (against the computer, pass and
  play); otherwise a takeback is asked for and happens once every other person accepts. An
  action that revealed hidden information or a chance outcome is never taken back (409).
* A draw is offered (``POST …/draw``) and happens once every other seat still in accepts
  (``POST …/draw/answer``); a move by a seat that has still to answer declines it. The
  computer never agrees to a draw: none is offered where it would have to (409).
* Clocks (``clock`` at creation): none, ``{"initial": s, "increment": s}`` or
  ``{"per_turn": s}``; the server keeps time and applies a fallen flag by itself.
* Request bodies are limited to 1 MB (record imports: 2 MB); a larger one gets 413. A POST or
  DELETE that sends a body must send JSON (415 otherwise; 422 if it is not valid UTF-8 JSON,
  or names a field the request does not have); an act without any token is 401 before its
  body is read.
* Safe defaults (``security.py``): a Host header the server does not serve is 400, a WebSocket
  from another origin is refused (close 1008), too many requests from one address or token are
  429 with ``Retry-After``, a method a path does not answer is 405 with ``Allow``.
* Hidden information stays hidden while such a game runs: positions are the viewing seat's
  observation, a computer seat's view is refused (403), the record (whose seed rebuilds every
  hand) is refused with 409 until the game is over; the stored record keeps the seed.
* A move names its seat either in the body (``seat``) or as ``?seat=``; both given and
  different is 422. A move naming a seat that is not to move is 409; a move without a token
  of the seat to move is 403.
* Imports: the record's ``players`` must be valid seat specs, one per player (or empty: people
  everywhere); a termination that contradicts the rules (``resignation`` on a game the rules
  ended, ``normal`` on one they did not, ``time`` on one they ended but for a 3-4 player game
  whose result is the rules' with its ``OutOfTime`` seats at -1) or an ending that could not
  have happened (a result other than the resigning seat's or the flags' give, a ``Resigned``
  seat already out, ``Resigned`` without termination ``resignation``) does not replay and is
  refused with 422, as ``abstracta replay`` refuses it; a seed on a game without chance
  is dropped (normalised to null), as it is for matches created with one.
* Finished games cannot be taken back (undo is 409 once the game is over).
* A spectator never sees a hidden card while the game runs, computer against computer
  included; a finished game shows everything.
* WebSocket clients may send short text frames (ignored); a binary or long frame closes the
  socket with code 1003.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import threading
from contextlib import asynccontextmanager
from pathlib import Path
import json
import re
from typing import Annotated, Any, AsyncIterator, Callable, Sequence, TypeVar

from fastapi import Depends, FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, WithJsonSchema
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..core.description import OptionText
from ..core.errors import AbstractaError, UnknownGameError
from ..core.game import Game
from ..core.options import Option, parse_bool, parse_int
from ..core.registry import game_class, load_game, registered_games
from ..people import People
from ..people.throttle import Throttle
from . import i18n, lobby_routes, metrics, ops, people_routes, push, security, teaching
from .errors import (Conflict, Forbidden, Gone, InvalidRequest, MatchError, NotFound, TooBusy, Unauthorized,
                     Unavailable)
from .fanout import make_fanout
from .fields import Integer, integral
from .matches import Holder, clip, cut
from .owners import RATED_TAG, is_rated
from .seats import CLOCK_LIMIT, ending
from .routes import chat as chat_routes, live as live_routes, notices as notices_routes
from .routes.deps import Creator, Tokens, acting_person, split_tokens
from .service import MatchService
from .social import Social
from .views import REPLAY_PAGE, seat_styles, variant_named
from .storage import Store

T = TypeVar("T")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("abstracta.server")


#: Largest request body in bytes, per path (default: ``None`` key).
BODY_LIMITS: dict[str | None, int] = {None: 1_000_000, "/api/matches/import": 2_000_000}
#: Seconds a request's whole body may take to arrive (uvicorn has no read timeout: a client that
#: declared more than it sent was waited for without end). 2 MB in 30 s is 67 kB/s.
BODY_SECONDS = 30.0

#: The HTTP status of each kind of refusal (the one place the domain's errors become statuses;
#: subclasses answer as their nearest listed base).
STATUS: dict[type[MatchError], int] = {
    Unauthorized: 401, Forbidden: 403, NotFound: 404, Conflict: 409, Gone: 410, InvalidRequest: 422,
    TooBusy: 429, Unavailable: 503,
}


def status_of(exc: MatchError) -> int:
    for kind in type(exc).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 400


class ApiError(MatchError):
    """A refusal only HTTP has words for (a body of the wrong media type): its ``status``."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message, **extra)
        self.status = status


# the pattern is the match service's (which words the refusal better than a pattern would)
SeatSpec = Annotated[str, Field(max_length=32), WithJsonSchema(
    {"type": "string", "maxLength": 32, "pattern": r"^\s*(human|level:[1-6])\s*$"})]

SeatNumber = Annotated[Integer, Field(ge=0, le=15)]

#: What the match service accepts as a time control (seats.check_clock), for the schema.
CLOCK_SCHEMA = {"anyOf": [
    {"type": "null"},
    {"type": "object", "additionalProperties": False, "required": ["initial"],
     "properties": {"initial": {"type": "number", "minimum": 1, "maximum": CLOCK_LIMIT},
                    "increment": {"type": "number", "minimum": 0, "maximum": CLOCK_LIMIT}}},
    {"type": "object", "additionalProperties": False, "required": ["per_turn"],
     "properties": {"per_turn": {"type": "number", "minimum": 1, "maximum": CLOCK_LIMIT}}},
]}
Clock = Annotated[dict[str, Any] | None, WithJsonSchema(CLOCK_SCHEMA)]
#: The person seats a creator takes, as the match service checks them (seats.check_take),
#: which says what is wrong in a sentence where the schema's two forms were refused one by one
#: in the validation library's words ("take.list[constrained-int]: …; take.literal['all']: …").
Take = Annotated[Any, BeforeValidator(lambda v: [integral(x) for x in v] if isinstance(v, list) else v),
                 WithJsonSchema({"anyOf": [
    {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 15}, "maxItems": 16, "uniqueItems": True},
    {"const": "all"},
    {"type": "null"},
]})]

#: Longest first WebSocket message (the tokens), and how long the server waits for it.
WS_AUTH_LIMIT, WS_AUTH_SECONDS = 16_000, 10.0
#: Largest WebSocket message the transport reads (``abstracta serve`` gives it to uvicorn, whose
#: default, 16 MiB, let one address hold half a gigabyte in 32 sockets): the longest first
#: message in UTF-8's widest characters; a longer one is closed with 1009 before the app sees it.
WS_MESSAGE_BYTES = 4 * WS_AUTH_LIMIT

# who a request acts as (its seat tokens and the person signed in): routes/deps.py, shared with
# the routes by resource

#: The header a browser names its session with (a random id it keeps), so that the analyses of
#: people behind one address are counted per person (analysis.ANALYSIS_PER_CLIENT)
SESSION_HEADER = "X-Abstracta-Session"
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


Session = Annotated[str | None, Header(alias=SESSION_HEADER, description=(
    "optional: a browser's own random id (8-64 letters, digits, - or _), kept for its session: "
    "the analyses of people behind one address are counted per person, not per address"))]


def asker_of(who: Holder | Sequence[str], session: str | None) -> str:
    """Who asks for an analysis from the request's address: the person signed in, else its
    seat tokens (a digest: the count never holds a usable token), else the browser session it
    names, else "" (the address alone). A client may invent sessions; its address still has a
    bound of its own."""
    holder = Holder.of(who)
    if holder.person is not None:
        return f"person:{holder.person.id}"
    if holder.tokens:
        return "token:" + hashlib.sha256(",".join(sorted(holder.tokens)).encode()).hexdigest()[:32]
    return "session:" + session if session and SESSION_ID.fullmatch(session) else ""


async def no_body(request: Request) -> None:
    """For acts that take no body: an empty body or JSON ``{}``/``null``; anything else is
    refused (415 for another content type, 422 for other JSON), so a garbled request acts on
    nothing."""
    body = await request.body()
    if not body.strip():
        return
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise ApiError(415, f"this request takes no body, or JSON {{}} (Content-Type: application/json), "
                            f"not {clip(ctype or 'a body without a type')}")
    try:
        data = json.loads(body)
    except ValueError:
        raise InvalidRequest("the request body is not valid JSON") from None
    if data not in (None, {}):
        raise InvalidRequest("this request takes no body (or {})")


NoBody = Depends(no_body)


class BodyLimit:
    """ASGI middleware: refuse request bodies over :data:`BODY_LIMITS` with 413 and a JSON
    error, before the app sees them (by Content-Length, or while reading a chunked body), and
    bodies that do not arrive within :data:`BODY_SECONDS` with 408 (the connection closed)."""

    def __init__(self, app: Any, limits: dict[str | None, int] | None = None):
        self.app = app
        self.limits = limits or BODY_LIMITS

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = self.limits.get(scope.get("path"), self.limits[None])
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await self._reply(send, 400, "the Content-Length header is not a number")
                return
            if declared > limit:
                await self._reply(send, 413, f"request body too large: {declared} bytes, at most {limit}")
                return
        chunks, total = [], 0
        seconds = BODY_SECONDS
        deadline = asyncio.get_running_loop().time() + seconds
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - asyncio.get_running_loop().time()))
            except asyncio.TimeoutError:
                await self._reply(send, 408, f"the request body did not arrive within {seconds:g} s")
                return
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            total += len(chunk)
            if total > limit:
                await self._reply(send, 413, f"request body too large: more than {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Any:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _reply(send: Any, status: int, message: str) -> None:
        data = json.dumps({"error": message}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(data)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": data})


def internal_error(method: str, path: str, exc: BaseException) -> JSONResponse:
    """The 500 answer to a bug (or a stored match that does not replay), logged. The match is
    unchanged, since every change is computed on a copy. The message of an unexpected error
    may quote a position, hidden cards included: it leaves the server neither in the answer
    nor in the log (the type, the place it was raised and the path do)."""
    where = ""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None:
        where = f" at {tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{tb.tb_lineno}"
    log.error("internal error %s%s on %s %s", type(exc).__name__, where, method, path)
    metrics.error(type(exc).__name__)
    return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)


class CatchAll:
    """ASGI middleware around the routes: an exception no handler took (a bug) ends here as
    :func:`internal_error`'s answer. Starlette's handler of ``Exception`` would answer and then
    re-raise it to the server, which logs the whole traceback, message included, and drops
    the connection."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:  # noqa: BLE001 - a bug: answered and logged here, not re-raised
            response = internal_error(scope.get("method", ""), scope.get("path", ""), exc)
            if not started:  # else the answer is cut short: the client sees a broken response
                await response(scope, receive, send)


# --- request bodies ------------------------------------------------------------------------
class Body(BaseModel):
    """A request body: a field it does not have is refused (422), so a mistyped one ('seat'
    for 'seats') is not dropped and the request done without it."""

    model_config = ConfigDict(extra="forbid")


class CreateMatch(Body):
    game: str = Field(max_length=64, description="registry name (GET /api/games lists them)")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="rules options, as values or their text form ('dimy', 'true', '5,1')")
    seats: list[SeatSpec] | None = Field(default=None, max_length=16,
                                    description="one entry per seat: 'human' or 'level:1' … 'level:6' "
                                                "(default: seat 0 human, the others level:1)")
    take: Take = Field(default=None, description=(
        "the person seats the creator takes (their tokens come back in 'tokens'); default: the "
        "first person seat. Every other person seat gets an invitation ('invites'). Pass and play "
        "on one device: \"all\" (every person seat). A match without person seats gives seat 0's "
        "token (to find, watch and delete it)."))
    clock: Clock = Field(default=None, description=(
        "time control: null (none), {'initial': seconds, 'increment': seconds} (a live clock, "
        "e.g. 5+3 is {'initial': 300, 'increment': 3}) or {'per_turn': seconds} (a deadline per "
        "turn, e.g. 86400). It starts once every person seat is claimed; computer seats have none."))
    rated: StrictBool = Field(default=False, description=(
        "a rated game (issue 41): the creator is signed in with an account (403 otherwise) and takes one "
        "seat, every other seat is a person's, invited, and only an account may claim it; the options make "
        "a declared variant (422 otherwise). When it ends, each account's Glicko-2 rating in the game's pool "
        "(variant and speed from the clock) changes at once: the view's 'rating_changes'."))


class ImportMatch(Body):
    record: dict[str, Any] = Field(description="an abstracta record (format 'abstracta-record')")
    seats: list[SeatSpec] | None = Field(default=None, max_length=16, description="override the record's players")
    take: Take = Field(default=None, description="as for POST /api/matches")
    clock: Clock = Field(default=None, description="as for POST /api/matches")


class InviteCode(Body):
    code: str = Field(max_length=64, description="the invitation's code (from 'invites' of the creator's answer, "
                                                 "or the '/#/join/<code>' link)")


class Answer(Body):
    # strict: pydantic's lax mode reads "no" as false and 1 as true
    accept: StrictBool = Field(description="true: agree to the pending takeback or draw offer; false: decline "
                                           "it (the seat that asked or offered: withdraw it)")


class PlayAction(Body):
    # exactly one of action, actions and turn (none may be null): the schema says so too
    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "oneOf": [{"required": ["action"]}, {"required": ["actions"]}, {"required": ["turn"]}]})

    action: str = Field(default=None, min_length=1, max_length=1000,
                        description="the move in the game's notation: one engine action (one of the view's "
                                    "'legal', e.g. a take 'i9' that leaves the turn open while more could "
                                    "follow), or a whole-turn string of several actions ('a1+a9')")
    actions: list[Annotated[str, Field(min_length=1, max_length=1000)]] = Field(
        default=None, min_length=1, max_length=64,
        description="instead of 'action': several moves the same seat plays in a row within its turn "
                    "(e.g. a take and 'end'), applied all or none")
    turn: str = Field(default=None, min_length=1, max_length=1000,
                      description="instead of 'action': one whole turn as the view's 'turns' lists it, read as "
                                  "the terminal reads a typed move ('i9' takes i9 and ends the turn, 'a1+a9' "
                                  "takes both); only in games with a whole-turn notation (else 422) "
                                  "and at the start of a turn (else 409); a string that is not a whole legal "
                                  "turn is 422; nothing is played then")
    ply: Integer = Field(ge=0, description="the ply the move was chosen at (the state's 'ply', a JSON integer); "
                                       "a stale ply is refused with 409")
    seat: SeatNumber | None = Field(default=None, description="the seat playing it (checked when given; "
                                                             "or ?seat=, not both with different values)")


#: a share of a fixed analysis budget, as the match service checks it (a JSON number, not "0.5")
Scale = Annotated[float, Field(gt=0, le=1, strict=True)]


class AnalysisRequest(Body):
    # a match or a pasted position (with its game), not both, and no hint for a pasted one:
    # the service checks it, and the schema says so (null counts as left out)
    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": [
        {"required": ["match_id"], "properties": {"match_id": {"type": "string"}, "position": {"type": "null"}}},
        {"required": ["game", "position"],
         "properties": {"game": {"type": "string"}, "position": {"type": "string"}, "match_id": {"type": "null"},
                        "hint": {"const": False}}},
    ]})

    match_id: str | None = Field(default=None, max_length=32, description="a match (with 'ply'), or leave out "
                                                                          "for a pasted position")
    ply: Integer | None = Field(default=None, description="the position after this many actions "
                                                            "(default: the last)")
    game: str | None = Field(default=None, max_length=64, description="a pasted position's game")
    options: dict[str, Any] | None = Field(default=None, description="a pasted position's game options")
    position: str | None = Field(default=None, description="a pasted position text (the game's own format, "
                                                           "as `abstracta apply --json` prints it)")
    seat: Integer | None = Field(default=None, description="whose information the search starts from "
                                                             "(a seat the tokens hold; pasted: any seat)")
    hint: StrictBool = Field(default=False, description="a hint on your turn against the computer; counted in "
                                                        "the record's 'Hints' tag")
    scale: Scale | None = Field(default=None, description="a share in (0, 1] of the game's fixed budget")


class GraphRequest(Body):
    match_id: str = Field(max_length=32, description="a finished match")
    scale: Scale | None = Field(default=None, description="a share in (0, 1] of the graph's budget")


class Resign(Body):
    seat: SeatNumber | None = Field(default=None, description="the resigning seat (default: the person to move)")


# --- responses (documentation of the JSON shapes) -------------------------------------------
class OptionInfo(BaseModel):
    name: str
    label: str = Field(description="the option's name in players' words")
    default: str | None = Field(description="text form of the default; null: absent (e.g. a seed drawn at creation)")
    help: str
    choice_labels: dict[str, str] = Field(description="a label per choice (by its text form), where the game gives one")
    unset_label: str | None = Field(description="what leaving the option out means (e.g. 'At random'), if it has no default; for a text option it may say instead what to type (its box's placeholder)")
    kind: str = Field(description="bool | int | text")
    choices: list[str] | None = Field(description="allowed values (text form), or null for any")
    keys: dict[str, Any] = Field(description="translation keys of the words above: label, help, unset "
                                             "and choices (by text form); see /api/i18n/{lang}")


class VariantInfo(BaseModel):
    options: dict[str, Any] = Field(description="the options that make this variant (text form); others default")
    label: str
    num_players: int
    chance: bool = Field(description="randomness in the rules of this variant")
    hidden_information: bool = Field(description="players see different things in this variant")
    label_key: str = Field(description="translation key of the label")
    levels: list[int] = Field(description="the computer's strengths this variant declares (1 … its top level; "
                                          "a seat naming a level above plays the top one)")


class SeatInfo(BaseModel):
    name: str | None = Field(description="the seat's name in the game (White, Red); null: no colours, "
                                         "a client names the seat (You, Computer, Player 2)")
    colour: str | None = Field(description="CSS colour of the seat's pieces")
    ink: str | None = Field(description="CSS colour of text on 'colour'")
    name_key: str | None = Field(default=None, description="translation key of the name")


class GameInfo(BaseModel):
    name: str
    title: str
    summary: str
    title_key: str = Field(description="translation key of the title (see /api/i18n/{lang})")
    summary_key: str = Field(description="translation key of the summary")
    min_players: int
    max_players: int
    num_players: int = Field(description="players with default options")
    hidden_information: bool = Field(description="with default options (see variants)")
    chance: bool = Field(description="with default options (see variants)")
    whole_turn_notation: bool
    printable_board: bool
    board_module: str | None = Field(description="URL of the game's browser board module, null if it has none")
    levels: list[int] = Field(description="the computer's strengths the game declares with these options (1 … its "
                                          "top level, six for most games; a seat naming a level above plays the top one)")
    options: list[OptionInfo]
    variants: list[VariantInfo]
    lessons: list[dict[str, Any]] = Field(default_factory=list, description="the game's first lessons: "
                                          "{id, steps} each (GET /api/games/{name}/lessons has them)")


class GameDetail(GameInfo):
    """One game with everything a client shows of it, for a given option set."""

    notation_help: str
    notation_help_key: str = Field(description="translation key of the notation help")
    rules: str = Field(description="the rules page, an HTML fragment, in the language asked for "
                                   "(?lang=fi) where the game has it")
    rules_lang: str = Field(description="the language of 'rules' (en when the game has no page in the one asked)")
    seats: list[SeatInfo] = Field(description="per seat of this option set: name and colours")
    board: dict[str, str] = Field(description="named colours of the board (the board module's palette)")
    texts: dict[str, str] = Field(description="every human-readable string of the description by "
                                              "translation key")


class MoveListTurn(BaseModel):
    """One turn of the move list, written as the terminal's replay writes it."""

    number: int = Field(description="its number, as 'turn_numbers' gives it (0: before the rules' first turn)")
    seat: int = Field(description="the seat that played it (-1: chance)")
    from_: int = Field(alias="from", description="the ply before it: its actions are plies from+1 … to")
    to: int = Field(description="the ply after it")
    moves: list[str] = Field(description="its text, entry by entry, as the game writes a turn for a person "
                                         "(Game.format_turn: 'b4-c5W', 'end' for a capture chain, 'b2+i8' or "
                                         "'a1' for a turn written whole)")
    plies: list[int] = Field(description="per entry of 'moves', the ply after it (where a click on it goes): "
                                         "an entry per action is a step of its own; an entry that writes the "
                                         "whole turn goes to its end")


class SeatOut(BaseModel):
    seat: int
    ply: int = Field(description="the actions played when the seat was out (its turn: 'turn_numbers'[ply - 1])")


class VariantName(BaseModel):
    label: str = Field(description="the variant's name ('Card variant')")
    label_key: str = Field(description="translation key of the label")


class SeatPerson(BaseModel):
    name: str | None = Field(description="the person's name (null: a deleted account)")
    kind: str = Field(description="guest | account | deleted")


class RatingChangeInfo(BaseModel):
    pool: str = Field(description="<game>.<variant>.<speed>")
    before: int
    after: int
    change: int = Field(description="after − before, as the two are rounded")
    rd: int = Field(description="the rating deviation after the game")
    provisional: bool = Field(description="RD above 110: shown with a question mark ('1623?')")


class MatchView(BaseModel):
    """A match as one seat may see it."""

    id: str
    game: str
    title: str
    title_key: str = Field(description="translation key of the title")
    variant: VariantName | None = Field(description="the declared variant the options make (the game's "
                                                    "'variants'), null for the game at its defaults")
    options: dict[str, Any]
    seed: int | None = Field(description="null for games without chance, and while a hidden-information game runs")
    players: list[str] = Field(description="per seat: 'human' or 'level:N'")
    num_players: int
    seats: list[SeatInfo] = Field(description="per seat: its name in the game and its colours")
    board: dict[str, str] = Field(description="named colours of the board (the board module's palette)")
    board_module: str | None = Field(description="URL of the game's browser board module")
    hidden_information: bool
    private_views: bool = Field(description="the persons at this match see different things (hand-over screen)")
    viewer: int | None = Field(description="whose eyes 'position' and 'struct' show: a seat the request's tokens "
                                           "hold; null: a spectator (public information only)")
    my_seats: list[int] = Field(description="the seats the request's tokens hold (empty: a spectator)")
    claimed: list[bool] = Field(description="per seat: someone holds its token (false: an invitation is open, "
                                            "or a computer seat)")
    waiting_for: list[int] = Field(description="the person seats not taken yet: no move is played, by a person "
                                               "or the computer, before every seat is taken (409 until then)")
    ply: int = Field(description="actions played so far; send it back with the next action")
    revision: int = Field(description="increases with every stored change (moves, undo, resignation)")
    to_move: int | None = Field(description="seat to move, null when the game is over")
    human_to_move: bool
    thinking: bool = Field(description="a computer seat is computing its move")
    position: str = Field(description="the game's position text (an observation for hidden information)")
    struct: dict[str, Any] = Field(description="the structured view of the position for this viewer "
                                               "(State.to_struct: board, whose turn, legal actions grouped, the "
                                               "turns since the viewer last moved, the end reason; see "
                                               "docs/board-modules.md)")
    legal: list[str] = Field(description="legal actions in notation, only for a person's seat to move")
    turns: list[str] | None = Field(
        default=None, description="legal whole turns (e.g. 'a1+a9') when the game has a whole-turn "
        "notation and a person's seat is at the start of a turn; null otherwise. Play one as listed "
        "with the move body's 'turn' (an entry of one cell is the whole turn, not the single action)")
    last_action: str | None
    moves: list[str] = Field(description="notation of every action so far")
    movers: list[int] = Field(description="the seat that played each action")
    turn_numbers: list[int] = Field(description="the number of the turn each action belongs to, as the "
                                    "board says it: the rules' own numbers (0 before their first turn, e.g. "
                                    "a placement phase), else one more at every change of seat")
    turns_played: int = Field(description="turns played as 'move_list' lists them: the turns 'turn_numbers' "
                                          "number, and before the rules' first turn (number 0, a placement "
                                          "phase) each seat's entry; the count Your games lists as 'turns'")
    record_moves: list[str] = Field(description="the record's move list (whole turns for some games)")
    move_list: list[MoveListTurn] = Field(description="the turns played as a person reads them, as "
                                          "'abstracta replay' prints them (a turn written whole: 'a1', "
                                          "where 'moves' has 'a1', 'end'), each with the plies its entries "
                                          "step to: the web app's move list")
    result: list[float] | None = Field(description="per seat +1 win, -1 loss, 0 draw; null while running")
    termination: str | None = Field(description="normal | resignation | time | agreement (a draw the players "
                                                "agreed; the record's 'DrawOffered' tag names who offered it) | "
                                                "left (a player gone on their turn; 'left' names them) | aborted "
                                                "(ended before it began: no result, never rated) | null")
    resigned: int | None = Field(default=None, description="the seat that resigned (the record's 'Resigned' tag); "
                                 "null unless the game ended by resignation")
    out_of_time: list[int] = Field(default_factory=list, description="the seats that ran out of time, in the order "
                                   "their flags fell (the record's 'OutOfTime' tag)")
    out_at: list[SeatOut] = Field(default_factory=list, description="the seats the rules have put out of a 3–4 "
                                  "player game, each with the ply that put it out, in that order")
    hints: list[int] | None = Field(default=None, description="hints asked per seat (the record's 'Hints' "
                                                              "tag), null when none was asked")
    status: str = Field(description="playing | over")
    created: str | None
    clock: dict[str, Any] | None = Field(default=None, description=(
        "null without a clock, else {'control': {'initial', 'increment'} or {'per_turn'}, 'left': seconds "
        "left per seat at 'now', 'running': the seat whose time runs (null: none; a client counts it "
        "down from 'left'), 'now': server Unix time, 'out': seats out of a 3-4 player game on time}"))
    takeback: dict[str, Any] | None = Field(default=None, description=(
        "a pending takeback request {'by': seat, 'to_ply': ply it goes back to, 'at_ply': ply asked "
        "at, 'accepted': seats that agreed}, or null"))
    draw_offer: dict[str, Any] | None = Field(default=None, description=(
        "a pending draw offer {'by': seat, 'at_ply': ply offered at, 'accepted': seats that agreed, "
        "'waiting': seats still to answer}, or null"))
    draw_offerable: bool = Field(default=False, description=(
        "whether the tokens given may offer a draw now (POST …/draw): a person's seat still in, the game "
        "running, no offer pending and no computer seat still in (the computer never agrees to a draw)"))
    draw_again_in: int = Field(default=0, description=(
        "the turns of its own the seat these tokens would offer for still plays before it may offer a draw "
        "again, after its last offer was declined, withdrawn or lapsed (0: no wait); 409 error.draw_again until then"))
    draw_offer_ended: dict[str, Any] | None = Field(default=None, description=(
        "how the last draw offer that did not end the game ended, while the position is the one it ended "
        "at: {'by': seat that offered, 'how': 'declined' (by 'seat') | 'withdrawn' (by 'seat', the "
        "offerer) | 'lapsed' ('seat', still to answer, moved instead) | 'void' (who must agree changed: a "
        "flag, a seat put out), 'seat', 'at_ply', 'accepted': the seats that had accepted it}, or null"))
    takeback_ended: dict[str, Any] | None = Field(default=None, description=(
        "how the last takeback request ended, as 'draw_offer_ended' ('lapsed': another seat moved, which "
        "cancels it; the asker playing on withdraws it), or 'how': 'accepted' when it happened ('seat': the "
        "last to accept, 'at_ply': the ply gone back to), kept until the next move"))
    bot_error: str | None = Field(description="why the last computer move was played by a quick search (level 2) "
                                              "instead of its own, if it was, or why the computer cannot move; "
                                              "null again once an undo or takeback takes that move (or "
                                              "position) back")
    bot_error_i18n: dict[str, Any] | None = Field(description="'bot_error' as {key, params} of the client's "
                                                              "catalogs (as an error's 'i18n'), for a reader of "
                                                              "another language; null with it")
    start_deadline: dict[str, Any] | None = Field(default=None, description=(
        "{'seat', 'at'}: the seat that must make its first move by 'at' (server Unix time), or the game is "
        "aborted (people at a distance: 30 s, a day in correspondence); null when no such wait runs"))
    abortable: bool = Field(default=False, description=(
        "whether the tokens given may abort the game now (POST …/abort): a seat of theirs has not made its "
        "first move"))
    aborted: dict[str, Any] | None = Field(default=None, description=(
        "an aborted game (termination 'aborted', no result): {'seat', 'why': 'abort' (the seat aborted it) | "
        "'no_start' (the seat did not make its first move in time)}, else null"))
    left: int | None = Field(default=None, description=(
        "termination 'left': the seat that was gone on its turn, whose game (or a draw) the other claimed"))
    rematch: dict[str, Any] | None = Field(default=None, description=(
        "once the game is over: a rematch offer {'by', 'accepted', 'next': the new match's id once agreed, "
        "else null}, or how the last one ended {'by', 'how': 'declined' | 'withdrawn', 'seat'}; null"))
    people: list[SeatPerson | None] = Field(default_factory=list, description=(
        "per seat: the person it belongs to ({name, kind}: a guest, an account, or a deleted account, whose "
        "name is null and reads 'deleted player'), or null (a computer, an open seat, a seat held by its "
        "token alone)"))
    rated: bool = Field(default=False, description="a rated game (POST /api/matches 'rated')")
    rating_changes: list[RatingChangeInfo | None] | None = Field(default=None, description=(
        "at the end of a rated game, per seat, what it did to the person's rating in the game's pool; null "
        "while the game runs, for an unrated game, and while its record waits"))


class LineTurnInfo(BaseModel):
    turn: int = Field(description="1-based index of the turn within the line")
    player: int = Field(description="the seat playing it")
    actions: list[str] = Field(description="its actions in the game's notation")
    touched: list[list[str]] = Field(description="per action, the cells it touches (to draw the line)")


class AnalysisAnswer(BaseModel):
    """A position's evaluation and best line (docs: playing/analysis.md)."""

    ply: int
    values: list[float] = Field(description="per seat, the expected result in [-1, 1] (+1 win, -1 loss)")
    to_move: int | None = Field(description="the seat to move; null at the end")
    value: float = Field(description="values[to_move]")
    viewer: int | None = Field(description="the seat whose information the search started from")
    display: str = Field(description="value for people: '+0.42', '#5' (wins in 5 actions), '#-5' (loses in 5)")
    viewer_display: str = Field(description="the same for the viewer's seat (seat 0 when viewer is null)")
    line: list[LineTurnInfo] = Field(description="the best line, grouped by turns")
    line_cut: str | None = Field(description="'hidden': the next action could name a hidden card; 'revealed': "
                                             "the last action shows something chance decides; null")
    mate: int | None = Field(description="a proved result: actions to the end (positive: to_move wins)")
    search: str = Field(description="search and budget: 'alphabeta:n100000' (positions), 'mcts:i3000' (iterations)")
    iterations: int = Field(description="playouts (MCTS) or positions (alpha-beta) searched")
    depth: int | None = Field(description="alpha-beta's deepest completed depth in actions")
    terminal: bool
    hints: list[int] | None = Field(default=None, description="after a hint: hints asked per seat")
    struct: dict[str, Any] | None = Field(default=None, description="a pasted position: its structured view "
                                                                    "for the viewer (to draw it)")


class GraphPoint(BaseModel):
    ply: int
    values: list[float] = Field(description="per seat, the expected result in [-1, 1]")
    display: list[str] = Field(description="per seat, the value for people")
    terminal: bool


class Graph(BaseModel):
    points: list[GraphPoint] = Field(description="one per turn start (at most 120), and the end")
    search: str


class SeatToken(BaseModel):
    seat: int
    token: str = Field(description="the seat's secret: send it as Authorization: Bearer <token>; shown once")


class Invite(BaseModel):
    seat: int
    code: str = Field(description="the invitation's secret code (claim it with POST /api/invites/claim); shown once")
    path: str = Field(description="the page a browser opens to accept it: '/#/join/<code>' on this server")


class MatchCreated(MatchView):
    """A match with the secrets of its creator (or of the person who claimed an invitation)."""

    tokens: list[SeatToken] = Field(description="the tokens of the seats taken; keep them, the server "
                                                "stores only their SHA-256")
    invites: list[Invite] = Field(description="one invitation per other person seat")


class Invites(BaseModel):
    invites: list[Invite]


class InvitationInfo(BaseModel):
    match: str
    game: str
    title: str
    title_key: str
    seat: int
    claimed: bool = Field(description="the invitation was used already")
    players: list[str]
    seats: list[SeatInfo]
    variant: VariantName | None = Field(default=None, description="as the match view's")
    rated: bool = Field(default=False, description="a rated game: only an account may claim the seat")
    people: list[SeatPerson | None] = Field(default_factory=list, description="as the match view's")


class MatchSummary(BaseModel):
    id: str
    game: str
    status: str
    ply: int = Field(description="actions played")
    turns: int = Field(description="turns played as the view's 'move_list' lists them, the view's "
                                   "'turns_played': the turns 'turn_numbers' number, and before the rules' "
                                   "first turn (number 0, a placement phase) each seat's entry (the record's "
                                   "entries in a database of an earlier version)")
    players: list[str]
    to_move: int | None = Field(default=None, description=(
        "the seat to move, as the match view's 'to_move' (null: the game is over, or no seat is to move "
        "now: a chance outcome comes next); Your games says 'your move' when it is one of my_seats"))
    claimed: list[bool] = Field(default_factory=list, description=(
        "per seat: someone holds its token, as the match view's 'claimed' (a person seat not claimed waits "
        "for the friend invited to it)"))
    seats: list[SeatInfo] | None = Field(description="per seat: name and colours (null if the game is not installed)")
    variant: VariantName | None = Field(default=None, description="as the match view's")
    options: dict[str, Any]
    result: list[float] | None
    termination: str | None
    resigned: int | None = Field(default=None, description="as the match view's")
    out_of_time: list[int] = Field(default_factory=list, description="as the match view's")
    created: str | None
    updated: str | None
    my_seats: list[int] = Field(description="the seats the request's tokens (or the person signed in) hold")
    people: list[SeatPerson | None] = Field(default_factory=list, description="as the match view's")
    rated: bool = Field(default=False, description="as the match view's")


class Positions(BaseModel):
    ply: int = Field(description="the game's last ply")
    revision: int = Field(description="the match's revision the page was computed at (as the view's)")
    viewer: int | None = Field(description="whose eyes (as the view's viewer; null: a spectator's)")
    from_: int = Field(alias="from", description="the first ply of this page")
    to: int = Field(description="the last ply of this page (included)")
    moves: list[str] = Field(description="every action of the game, as the view's 'moves' (the turns as a "
                                         "person reads them: the 'move_list' of the view of the same revision)")
    positions: list[str] = Field(description="position text after each ply of the page; index 0 = ply 'from'")
    structs: list[dict[str, Any]] = Field(description="the structured view after each ply of the page; index 0 = ply 'from'")


class ErrorBody(BaseModel):
    error: str
    i18n: dict[str, Any] | None = Field(default=None, description="common refusals (illegal move, not your "
                                           "turn, game over, too many requests) also as {key, params} of the "
                                           "client's catalogs; a refused move as the engine words it, its "
                                           "reason included (a parameter may itself be {key, params})")


ERROR_TEXT: dict[int, str] = {
    400: "Invalid host header (not a name this server serves; see abstracta serve --allowed-host), "
         "or a Content-Length that is not a number",
    401: "no seat token given (Authorization: Bearer <token>), and nobody signed in (session cookie, or an "
         "API token of scope play)",
    403: "no token given holds the seat this needs (another seat's or another match's token; for a draw "
         "offer, a seat out of the game, or the offering seat accepting its own offer; for a takeback, "
         "the asking seat accepting its own request, or a seat out of time answering)",
    404: "no such match, game or invitation",
    409: "conflict: stale ply, game over, not a person's turn, a takeback past a revealed card, a whole "
         "'turn' sent in the middle of a turn, a draw offer already pending or none to answer, a draw the "
         "computer would have to agree, a resignation by a seat already out",
    410: "the invitation was used already",
    413: "request body too large (1 MB; imports 2 MB)",
    415: "a body that is not JSON (Content-Type: application/json), or one where the request takes none",
    422: "the request names something invalid (the message says what): a value the rules refuse, "
         "an illegal or unreadable move, a record that does not replay, a body that is not JSON",
    429: "too many requests from this address or with this token: wait Retry-After seconds "
         "(or, for analyses, too many of yours running at once)",
    503: "the server cannot answer this now (stopping, an analysis that did not finish in time, or the "
         "database refused to store a change or to be read: nothing was changed, try again after "
         "Retry-After seconds)",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route answering ``codes`` besides its success (each with the
    error body); every route can also answer 400 (a foreign Host header)."""
    out: dict[int | str, dict[str, Any]] = {}
    for code in sorted({400, *codes}):
        out[code] = {"model": ErrorBody, "description": ERROR_TEXT[code]}
        if code in (429, 503):  # 503: when the database refused a write
            out[code]["headers"] = {"Retry-After": {"description": "seconds to wait",
                                                    "schema": {"type": "integer"}}}
        if code == 401:
            out[code]["headers"] = {"WWW-Authenticate": {"description": "Bearer", "schema": {"type": "string"}}}
    return out


#: every status an act answers (a move, undo, takeback, draw offer, flag, resign)
ACT = errors(401, 403, 404, 409, 413, 415, 422, 429, 503)
#: the security of a route that also answers without a token (a spectator, an empty list)
TOKEN_OPTIONAL = {"security": [{}]}


def option_json(spec: Option, words: OptionText | None = None) -> dict[str, Any]:
    """An option for a client: text forms of its default and choices, and the description's
    label, help and choice labels (players' words) where the game gives them."""
    kind = "bool" if spec.parser is parse_bool else "int" if spec.parser is parse_int else "text"
    choices = [option_text(spec, c) for c in spec.choices] if spec.choices is not None else None
    return {"name": spec.name, "default": option_text(spec, spec.default),
            "help": str(words.help) if words else spec.help, "kind": kind, "choices": choices,
            "label": str(words.label) if words else spec.name.replace("_", " "),
            "choice_labels": {k: str(v) for k, v in words.choices.items()} if words else {},
            "unset_label": str(words.unset) if words and words.unset else None,
            "keys": {"label": words.label.key, "help": words.help.key,
                     "unset": words.unset.key if words.unset else None,
                     "choices": {k: v.key for k, v in words.choices.items()}} if words else {}}


def option_text(spec: Option, value: Any) -> Any:
    """A value in the text form the API and records use (``None`` stays ``None``)."""
    return None if value is None else spec.text_of(value)


def game_info(game: Game) -> dict[str, Any]:
    """The catalogue entry of ``game`` (its description with default options, and its variants)."""
    d = game.description
    variants = []
    specs = {o.name: o for o in game.option_specs}
    for variant in d.variants:
        try:
            v = type(game)(**variant.options).description
        except AbstractaError as exc:  # a variant the game declares but refuses: a bug in the game
            raise RuntimeError(f"{d.name}: declared variant {dict(variant.options)} is refused: {exc}") from exc
        variants.append({"options": {k: option_text(specs[k], val) for k, val in variant.options.items()},
                         "label": str(variant.label), "label_key": variant.label.key, "num_players": v.num_players,
                         "chance": v.chance, "hidden_information": v.hidden_information,
                         "levels": list(v.level_numbers)})
    return {"name": d.name, "title": str(d.title), "summary": str(d.summary),
            "title_key": d.title.key, "summary_key": d.summary.key,
            "min_players": d.min_players, "max_players": d.max_players, "num_players": d.num_players,
            "hidden_information": d.hidden_information, "chance": d.chance,
            "whole_turn_notation": d.whole_turn_notation, "printable_board": d.printable_board,
            "board_module": f"/games/{d.name}/board.js" if d.web is not None else None,
            "levels": list(d.level_numbers),
            "options": [option_json(o, d.options.get(o.name)) for o in game.option_specs], "variants": variants,
            "lessons": [{"id": lesson.id, "steps": len(lesson.steps)} for lesson in d.lessons]}


def game_detail(game: Game, lang: str = i18n.BASE) -> dict[str, Any]:
    """The detail of ``game``, its rules page in ``lang`` where the game has one."""
    d = game.description
    rules, rules_lang = i18n.rules_html(game, lang)
    return {**game_info(game), "notation_help": str(d.notation_help), "notation_help_key": d.notation_help.key,
            "rules": rules, "rules_lang": rules_lang,
            "seats": seat_styles(game), "board": dict(d.board), "texts": d.texts()}


def catalog() -> list[dict[str, Any]]:
    """Every registered game that loads; a broken plug-in is logged and left out of the list."""
    out = []
    for name in registered_games():
        try:
            game = load_game(name)
        except AbstractaError as exc:
            log.warning("game %s is left out of the catalogue: %s", name, exc)
            continue
        out.append(game_info(game))
    return out


async def _refuse(ws: WebSocket, message: str, code: int) -> None:
    """Tell a WebSocket client why, then close with ``code`` (a client already gone is fine)."""
    try:
        await ws.send_json({"error": message})
    except Exception:  # noqa: BLE001
        pass
    await _close(ws, code)


async def _close(ws: WebSocket, code: int) -> None:
    if ws.client_state.name == "CONNECTED":
        try:
            await ws.close(code=code)
        except Exception:  # noqa: BLE001
            pass


class BotStats(BaseModel):
    executor: str = Field(description="where searches run: process, thread or ray")
    slots: int = Field(description="searches that run at once")
    queued_fast: int = Field(description="level 1–2 moves waiting (answered in the web process)")
    queued_deep: int = Field(description="searches waiting, first come first served across matches")
    running: int
    submitted: int
    answered: int
    cancelled: int = Field(description="jobs dropped: their match was deleted, undone, taken back or resigned")
    stopped: int = Field(description="searches asked to stop after overrunning their budget (best move so far)")
    fallbacks: int = Field(description="moves a quick search (level 2) played because a search did not answer")
    random_fallbacks: int = Field(description="random moves played because even the quick search failed (should be 0)")


class StoppedService:
    """What the routes of an app whose lifespan has ended hold in place of its match service.

    FastAPI keeps the endpoints it has served in module-level caches (its classification of
    callables: ``lru_cache`` of 4096 entries each), and an endpoint's closure holds the service:
    each app's service, with its store, engine, matches and page caches, stayed alive as long
    as the process. A test run makes hundreds of apps; its workers' heaps grew to 650,000
    objects, and their last garbage collections outlasted the 5 s pytest-xdist gives a worker
    to end, which then interrupts it (a ``KeyboardInterrupt`` traceback after a passing run).
    A request to a stopped app is 503."""

    closed = True  # (the WebSocket loop's look at whether to stop)

    def __getattr__(self, name: str) -> Any:
        raise Unavailable("the server has stopped")


def create_app(db_url: str | None = None, bot_workers: int | str = 2,
               security_settings: security.Security | None = None, analysis_scale: float = 1.0,
               redis_url: str | None = None) -> FastAPI:
    """The ASGI app storing matches at ``db_url`` (default: SQLite in the user data dir),
    running searching bots in ``bot_workers`` worker processes (0: one thread, for tests;
    ``"ray"`` or ``"ray:ADDRESS"``: Ray tasks; see :mod:`abstracta.server.botjobs`), with the
    abuse limits and safe defaults of ``security_settings`` (default: a server on localhost,
    rate limits on unless ``ABSTRACTA_RATE_LIMITS=off``); ``analysis_scale`` multiplies every
    game's analysis budget (tests: small); ``redis_url`` (default: the settings', else
    ``ABSTRACTA_REDIS_URL``, else none) is the Redis of a deployment of several processes: the
    rate limits count there and the fan-out (:mod:`.fanout`) goes through it (docs/club.md)."""
    settings = security_settings or security.Security(rate_limits=security.rate_limits_from_env())
    redis_url = redis_url or settings.redis_url or security.redis_url_from_env()
    if redis_url and settings.redis_url is None:
        settings = dataclasses.replace(settings, redis_url=redis_url)
    store = Store(db_url)
    # people (issue 41): accounts, sessions, ratings on the match store's database, sign-in
    # limits counted where the request limits are (one Redis for every worker, when given);
    # the match service seats them and records their games
    people = People(store.engine, throttle=Throttle(storage=security.sync_limits_uri(settings.redis_url),
                                                    enabled=settings.rate_limits))
    service = MatchService(store, bot_workers=bot_workers, analysis_scale=analysis_scale, people=people)
    fanout = make_fanout(redis_url, service.store.listen_url())

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        nonlocal service
        service.hub.attach(asyncio.get_running_loop())
        listener = None
        url = service.store.listen_url()
        if url is not None:  # other processes may serve this database: hear their changes
            ready = asyncio.Event()
            listener = asyncio.create_task(push.listen(url, service.changed_elsewhere, ready, service.forget_all))
            try:
                await asyncio.wait_for(ready.wait(), timeout=10)
            except asyncio.TimeoutError:
                log.warning("LISTEN on the database is not ready yet; changes by other processes "
                            "reach this one once it is")
        await fanout.start()
        await _app.state.social.start()
        await asyncio.to_thread(service.resume_bots)
        try:
            yield
        finally:
            _app.state.social.close()
            await fanout.close()
            if listener is not None:
                listener.cancel()
                with contextlib.suppress(BaseException):
                    await listener
            service.close()
            # the routes let go of the service (see StoppedService); app.state keeps it for
            # whoever holds the app
            service = StoppedService()  # type: ignore[assignment]

    app = FastAPI(title="abstracta", version="0.1.0", lifespan=lifespan,
                  description="Play abstract games (GET /api/games lists them). "
                              "Errors are 4xx with a body {\"error\": \"...\"}.\n\n"
                              + __doc__.split("Decisions (the API's rules, also stated in the OpenAPI description):", 1)[-1].strip()
                              .replace("``", "`"))
    app.state.service = service
    app.state.fanout = fanout  # presence, seeks, lobby: one channel to every process (fanout.py)
    app.state.people = people
    app.include_router(people_routes.router)
    # a match's company (issue 43): its chat, Web Push notices of correspondence games, live games;
    # its lines and watchers reach every process through the fan-out, its limits count where the
    # request limits do
    app.state.social = Social(service, fanout, rate_limits=settings.rate_limits,
                              limits_storage=security.sync_limits_uri(settings.redis_url))
    for module in (chat_routes, live_routes, notices_routes):
        app.include_router(module.router)
    lobby_routes.install(app)  # seeks, quick pairing, challenges, blocks; abort, claim, rematch (issue 42)
    app.add_middleware(CatchAll)  # first added: the innermost, right around the routes
    app.add_middleware(BodyLimit)
    security.install(app, settings)
    ops.install(app, fanout)  # /metrics, /healthz, /readyz; request ids (outermost)

    @app.exception_handler(MatchError)
    async def _refused(_request: Request, exc: MatchError) -> JSONResponse:
        status = exc.status if isinstance(exc, ApiError) else status_of(exc)
        message = exc.message if len(exc.message) <= 500 else exc.message[:499] + "…"
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else {}
        if exc.retry_after is not None:
            headers["Retry-After"] = str(exc.retry_after)
        return JSONResponse({"error": message, **exc.extra}, status_code=status, headers=headers or None)

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            if err.get("type") == "json_invalid":  # loc is ('body', <character>): say it in words
                loc = err.get("loc", ())
                at = f" (at character {loc[-1]})" if loc and isinstance(loc[-1], int) else ""
                parts.append(f"the request body is not valid JSON{at}")
                continue
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
            parts.append(f"{where}: {err.get('msg')}")
        return JSONResponse({"error": "; ".join(parts) or "invalid request"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        # only a bug in a middleware outside CatchAll gets here (Starlette re-raises it to the
        # server after this answer)
        return internal_error(request.method, request.url.path, exc)

    # --- API --------------------------------------------------------------------------------
    @app.get("/api/games", summary="The games you can play, their options and variants", response_model=list[GameInfo],
             responses=errors())
    def list_games() -> list[dict[str, Any]]:
        return catalog()

    @app.get("/api/games/{name}", summary="One game: rules page, notation help, seat names and colours",
             response_model=GameDetail, responses=errors(404, 422))
    def get_game(name: str, request: Request) -> dict[str, Any]:
        """Query parameters other than the path are the game's options (e.g. ``?players=3``)."""
        options = {k: v for k, v in request.query_params.items() if k != "lang"}
        try:
            game = load_game(name, **options)
        except UnknownGameError as exc:
            raise NotFound(cut(str(exc))) from None
        except AbstractaError as exc:
            raise InvalidRequest(cut(str(exc))) from None
        return game_detail(game, request.query_params.get("lang", i18n.BASE))

    @app.get("/api/i18n", summary="The languages of the client's message catalogs", responses=errors())
    def get_languages() -> list[str]:
        return i18n.languages()

    @app.get("/api/i18n/{lang}", summary="Every message of the client in one language, by key",
             responses=errors(404, 422))
    def get_catalog(lang: str) -> dict[str, Any]:
        """``{key: message}``: the shell's and every game's (description, board module, view).
        A message has ``{name}`` parameters, or is ``{"one": …, "other": …}`` by the count ``{n}``."""
        try:
            return i18n.catalog(lang)
        except KeyError:
            raise NotFound(f"no catalog for language {clip(lang)}") from None

    app.include_router(teaching.router(errors))  # rules pages with diagrams, first lessons

    @app.get("/games/{name}/{path:path}", include_in_schema=False)
    def game_asset(name: str, path: str) -> Response:
        """A file of a game's browser module, from the game's own package (``web/``)."""
        try:
            web = game_class(name)().description.web
        except AbstractaError:
            raise NotFound(f"no game {clip(name)}") from None
        if web is None or not path or any(part in ("", ".", "..") for part in path.split("/")):
            raise NotFound(f"no file {clip(path)} for {name}")
        target = web
        for part in path.split("/"):
            target = target / part
        if not target.is_file():
            raise NotFound(f"no file {clip(path)} for {name}")
        media = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml",
                 "json": "application/json", "png": "image/png"}.get(path.rsplit(".", 1)[-1], "application/octet-stream")
        return Response(target.read_bytes(), media_type=media, headers={"Cache-Control": "no-cache"})

    async def promptly(match_id: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, a short act on one match: on the event loop when the match's lock is
        free (nearly always: no hop to a worker thread and back, which on a busy machine costs
        more than the act), else in a worker thread (the loop never waits for a lock)."""
        if not isinstance(match_id, str) or len(match_id) > 32:
            return fn(*args)
        lock = service.lock_for(match_id)
        if lock.acquire(blocking=False):
            try:
                return fn(*args)
            finally:
                lock.release()
        return await asyncio.to_thread(fn, *args)

    async def unless_gone(request: Request, fn: Callable[[threading.Event], T]) -> T:
        """``fn(gone)`` in a worker thread (the pool of the plain ``def`` routes: asyncio's default
        one has a few threads, and an analysis waits in it for up to ANALYSIS_TIMEOUT, which would
        hold back every ``asyncio.to_thread``); ``gone`` is set once the client has gone before the
        answer (its connection closed: a page reloaded or closed), so that the service gives up
        work nobody waits for, or when this request is cancelled (the server stopping). Waits for
        the server's ``http.disconnect`` message rather than polling ``is_disconnected()``: the
        body has been read, nothing else comes on this request, and the search stops at once."""
        gone = threading.Event()

        async def disconnected() -> None:
            while (await request.receive())["type"] != "http.disconnect":
                pass

        work = asyncio.ensure_future(run_in_threadpool(fn, gone))
        watch = asyncio.ensure_future(disconnected())
        try:
            await asyncio.wait({work, watch}, return_when=asyncio.FIRST_COMPLETED)
            if not work.done():
                gone.set()
            return await work
        finally:
            gone.set()
            watch.cancel()
            if not work.done():  # cancelled: its refusal (the service gave up) goes to nobody
                work.add_done_callback(lambda done: done.cancelled() or done.exception())

    @app.get("/api/bots", summary="The computer players' job queue: lanes, counters, fallbacks",
             response_model=BotStats, responses=errors())
    def bot_stats() -> dict[str, Any]:
        return service.jobs.summary()

    def created(match: Any, grant: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
        """The view for the seats just handed out, with the secrets (shown once)."""
        with service.locked(match.id):
            view = service.view(match, {t["seat"] for t in grant["tokens"]})
        invites = [{**i, "path": f"/#/join/{i['code']}"} for i in grant["invites"]]
        return {**view, "tokens": grant["tokens"], "invites": invites}

    def act_view(match: Any, tokens: list[str], seat: int | None = None) -> Response:
        # the view's JSON is encoded once per revision and viewer and shared with the WebSocket
        # pushes; it has exactly the fields of MatchView (the documented response model)
        return Response(service.act_view(match, tokens, seat), media_type="application/json")

    @app.get("/api/matches", summary="Your matches: those of the tokens sent or the person signed in, most recently played first",
             response_model=list[MatchSummary], responses=errors(422, 503), openapi_extra=TOKEN_OPTIONAL)
    def list_matches(request: Request, tokens: Tokens, limit: int = Query(50, ge=1, le=500)) -> list[dict[str, Any]]:
        """Only the matches a token of the request holds a seat of (send every token the browser
        keeps, comma-separated), and those of the person signed in (the session cookie); with
        neither the list is empty. Never every match on the server."""
        out = []
        listed = service.mine(tokens, limit)
        ids = [row.id for row, _ in listed]
        claimed = service.store.claimed_of(ids)
        seated = service.owners.people_of_matches(ids)
        for row, seats_held in listed:
            try:
                record = json.loads(row.record)
            except ValueError:
                record = {}
            try:
                game = load_game(row.game, **(record.get("options") or {}))
                seats, variant = seat_styles(game), variant_named(game)
            except (AbstractaError, TypeError):
                seats, variant = None, None
            players = record.get("players") or []
            people = seated.get(row.id, {})
            tags = record.get("tags") if isinstance(record.get("tags"), dict) else {}
            out.append({"id": row.id, "game": row.game, "status": row.status, "ply": row.plies,
                        # NULL in databases of an earlier version, whose records hold every move
                        "turns": row.turns if row.turns is not None else len(record.get("moves") or []),
                        "players": players,
                        "to_move": row.to_move if row.status == "playing" else None,
                        "claimed": [i in claimed[row.id] or i in people for i in range(len(players))],
                        "seats": seats, "variant": variant,
                        "options": record.get("options") or {},
                        "result": record.get("result"), "termination": record.get("termination"),
                        **ending(record),
                        "created": row.created_at.isoformat() if row.created_at else None,
                        "updated": row.updated_at.isoformat() if row.updated_at else None,
                        "my_seats": seats_held,
                        "people": [people.get(i) for i in range(len(players))],
                        "rated": tags.get(RATED_TAG) == "true"})
        return out

    @app.post("/api/matches", status_code=201, summary="Create a match: its tokens and invitations",
              response_model=MatchCreated, responses=errors(404, 413, 415, 422, 429, 503))
    def create_match(body: CreateMatch, creator: Creator) -> dict[str, Any]:
        """The answer is the only place the tokens of the seats taken and the invitation codes
        appear: a client keeps them (the server stores only their SHA-256). The seats taken by
        a person signed in (the session cookie) are theirs too, wherever they sign in."""
        return created(*service.create(body.game, body.options, body.seats, body.take, body.clock,
                                       creator=creator, rated=body.rated))

    @app.post("/api/matches/import", status_code=201,
              summary="Import a record (validated by replay: errors name the ply and the reason)",
              response_model=MatchCreated, responses=errors(404, 413, 415, 422, 429, 503))
    def import_match(body: ImportMatch, creator: Creator) -> dict[str, Any]:
        return created(*service.import_record(body.record, body.seats, body.take, body.clock, creator=creator))

    @app.post("/api/invites/lookup", summary="What an invitation is for (without claiming it)",
              response_model=InvitationInfo, responses=errors(404, 413, 415, 422, 429, 503))
    def lookup_invite(body: InviteCode) -> dict[str, Any]:
        """The code goes in the body, never in a URL (URLs end up in logs)."""
        match, seat, claimed = service.invitation(body.code)
        return {"match": match.id, "game": match.game.name, "title": match.game.title,
                "title_key": match.game.description.title.key, "seat": seat,
                "claimed": claimed, "players": match.players, "seats": seat_styles(match.game),
                "variant": variant_named(match.game), "rated": is_rated(match),
                "people": list(service.owners.names(match))}

    @app.post("/api/invites/claim", summary="Claim an invitation: the seat's token (once)",
              response_model=MatchCreated, responses=errors(404, 410, 413, 415, 422, 429, 503))
    def claim_invite(body: InviteCode, claimer: Creator) -> dict[str, Any]:
        """Answers with the match as that seat sees it and the seat's token in 'tokens'; a second
        claim of the same code is 410, an unknown code 404. Claimed by a person signed in, the
        seat is theirs too; a rated game's seat only an account claims (403)."""
        return created(*service.claim(body.code, Holder((), claimer)))

    @app.post("/api/matches/{match_id}/invites", summary="New invitation codes for the unclaimed person seats",
              response_model=Invites, responses=ACT)
    def reinvite(match_id: str, tokens: Tokens) -> dict[str, Any]:
        """Any seat's token. The earlier unclaimed codes stop working."""
        grant = service.reinvite(match_id, tokens)
        return {"invites": [{**i, "path": f"/#/join/{i['code']}"} for i in grant["invites"]]}

    @app.get("/api/matches/{match_id}", summary="A match as the request's tokens may see it",
             response_model=MatchView, responses=errors(403, 404, 422, 503), openapi_extra=TOKEN_OPTIONAL)
    async def get_match(match_id: str, request: Request, tokens: Tokens,
                        seat: int | None = Query(None, ge=0, le=15, description="which held seat's eyes (403 for a seat not held)")
                        ) -> Response:
        """Without a token of this match (nor a session of a person seated in it): the
        spectator's view (public information only)."""
        return Response(await promptly(match_id, service.snapshot, match_id, tokens, seat),
                        media_type="application/json")

    @app.get("/api/matches/{match_id}/positions",
             summary=f"The position after each ply, a page of at most {REPLAY_PAGE} plies, as the request's tokens may see it",
             response_model=Positions, responses=errors(403, 404, 422, 429, 503), openapi_extra=TOKEN_OPTIONAL)
    def get_positions(match_id: str, tokens: Tokens,
                      seat: int | None = Query(None, ge=0, le=15, description="as for GET /api/matches/{match_id}"),
                      start: int | None = Query(None, alias="from", ge=0, description="the first ply (default 0)"),
                      stop: int | None = Query(None, alias="to", ge=0, description=(
                          f"the last ply, included (default: the page's end, {REPLAY_PAGE} plies, or the game's "
                          f"last ply); at most {REPLAY_PAGE} plies per answer"))) -> Response:
        """Kept once computed (per revision, viewer and range): the browser asks for aligned
        pages (0…99, 100…199, …) as it steps through a game. Rate-limited per address and token
        (429): a page of a long game takes a fraction of a second to compute."""
        return Response(service.positions_page(match_id, tokens, seat, start, stop), media_type="application/json")

    @app.post("/api/matches/{match_id}/actions", summary="Play a move for the seat to move (its token)",
              response_model=MatchView, responses=ACT)
    async def post_action(match_id: str, body: PlayAction, tokens: Tokens,
                          seat: int | None = Query(None, ge=0, le=15, description="the seat playing (or 'seat' in the body)")
                          ) -> Response:
        """The body gives exactly one of: ``action``, one engine action in the game's notation (a
        view's ``legal`` entry) or a whole-turn string; ``actions``, several engine actions the seat
        plays in a row within its turn (all or none); ``turn``, one whole turn as the view's
        ``turns`` lists it, for games with a whole-turn notation (``{"turn": "i9", "ply": 4}``
        takes i9 and ends the turn, where ``{"action": "i9", ...}`` may leave it open).

        409 if the ply is stale, the game is over, a computer seat is to move or a ``turn`` is
        sent in the middle of a turn; 403 if no token given holds the seat to move; 422 for a
        move that is not legal (a ``turn`` that is not a whole legal turn, or in a game without
        a whole-turn notation). A refused move changes nothing."""
        if seat is not None and body.seat is not None and seat != body.seat:
            raise InvalidRequest(f"seat: ?seat={seat} and the body's seat {body.seat} differ (give one)")
        acting = body.seat if body.seat is not None else seat
        given = [name for name in ("action", "actions", "turn") if getattr(body, name) is not None]
        if len(given) != 1:
            raise InvalidRequest("give exactly one of 'action' (one move), 'actions' (a list) or 'turn' "
                                 f"(a whole turn); {' and '.join(given) or 'none'} given")
        whole = given == ["turn"]
        match = await promptly(match_id, service.play, match_id, getattr(body, given[0]), body.ply, acting,
                               tokens, whole)
        return Response(await promptly(match_id, service.act_view, match, tokens, acting),
                        media_type="application/json")

    @app.post("/api/matches/{match_id}/undo",
              summary="Take back at once to the start of your latest turn (when nobody else must agree)",
              response_model=MatchView, responses=ACT)
    def post_undo(match_id: str, tokens: Tokens, _body: None = NoBody,
                  seat: int | None = Query(None, ge=0, le=15, description="whose eyes the answer shows")) -> Response:
        """Immediate when the tokens hold every person seat (against the computer, pass and play);
        with other people at the match 409 (ask with POST …/takeback). 409 past a revealed card."""
        match = service.undo(match_id, tokens)
        return act_view(match, tokens, seat)

    @app.post("/api/matches/{match_id}/takeback", summary="Ask the other people for a takeback",
              response_model=MatchView, responses=ACT)
    def post_takeback(match_id: str, tokens: Tokens, _body: None = NoBody) -> Response:
        """The view's 'takeback' shows the pending request to everyone; any move cancels it. Done
        at once when nobody else needs to agree."""
        match = service.request_takeback(match_id, tokens)
        return act_view(match, tokens)

    @app.post("/api/matches/{match_id}/takeback/answer", summary="Accept or decline the pending takeback",
              response_model=MatchView, responses=ACT)
    def post_takeback_answer(match_id: str, body: Answer, tokens: Tokens) -> Response:
        match = service.answer_takeback(match_id, body.accept, tokens)
        return act_view(match, tokens)

    @app.post("/api/matches/{match_id}/draw", summary="Offer the other players a draw",
              response_model=MatchView, responses=ACT)
    def post_draw(match_id: str, tokens: Tokens, _body: None = NoBody) -> Response:
        """The view's 'draw_offer' shows the pending offer to everyone; a move by a seat that has
        still to answer declines it. Drawn at once when nobody else needs to agree; an offer
        while another seat's offer waits for yours accepts it. 409 against the computer (it
        never agrees to a draw), while an offer is pending, and once the game is over."""
        match = service.offer_draw(match_id, tokens)
        return act_view(match, tokens)

    @app.post("/api/matches/{match_id}/draw/answer", summary="Accept or decline the pending draw offer",
              response_model=MatchView, responses=ACT)
    def post_draw_answer(match_id: str, body: Answer, tokens: Tokens) -> Response:
        match = service.answer_draw(match_id, body.accept, tokens)
        return act_view(match, tokens)

    @app.post("/api/matches/{match_id}/flag", summary="Claim a fallen flag (the server also applies it by itself)",
              response_model=MatchView, responses=ACT)
    def post_flag(match_id: str, tokens: Tokens, _body: None = NoBody) -> Response:
        match = service.claim_flag(match_id, tokens)
        return act_view(match, tokens)

    @app.post("/api/matches/{match_id}/resign", summary="Resign (a seat the tokens hold)", response_model=MatchView,
              responses=ACT)
    def post_resign(match_id: str, tokens: Tokens, body: Resign | None = None) -> Response:
        seat = body.seat if body is not None else None
        match = service.resign(match_id, seat, tokens)
        return act_view(match, tokens)

    @app.delete("/api/matches/{match_id}", status_code=204, summary="Delete a match (a token of one of its seats)",
                responses=errors(401, 403, 404, 413, 415, 422, 429, 503))
    def delete_match(match_id: str, tokens: Tokens, _body: None = NoBody) -> Response:
        service.delete(match_id, tokens)
        return Response(status_code=204)

    @app.get("/api/matches/{match_id}/record",
             summary="The match's record (JSON download); 409 while a game with hidden cards runs",
             responses=errors(404, 409, 422, 503))
    def get_record(match_id: str, download: bool = Query(False)) -> Response:
        match, text = service.record_of(match_id)
        headers = {}
        if download:
            headers["Content-Disposition"] = f'attachment; filename="{match.game.name}-{match.id}.json"'
        return Response(text + "\n", media_type="application/json", headers=headers)

    @app.post("/api/analysis", summary="Analysis board: a position's evaluation and best line",
              response_model=AnalysisAnswer, responses=errors(401, 403, 404, 409, 413, 415, 422, 429, 503),
              openapi_extra=TOKEN_OPTIONAL)
    async def post_analysis(body: AnalysisRequest, request: Request, tokens: Tokens, session: Session = None) -> dict[str, Any]:
        """Either a match (`match_id`, `ply`) or a pasted position (`game`, `options`,
        `position`). Any ply of a finished match (for anyone who may view it); in a running
        match against the computer, the current position or an earlier one for the seat of the
        tokens given (`hint`: the current one, counted in the record's `Hints` tag); refused
        (409) in a running game between people. The strongest search of the game with a fixed
        budget: the same position always gets the same answer. A request whose client has gone
        (the connection closed) has its search stopped."""
        client = request.client.host if request.client else ""
        asker = asker_of(tokens, session)
        return await unless_gone(request, lambda gone: service.analyse(
            match_id=body.match_id, ply=body.ply, game=body.game, options=body.options, position=body.position,
            seat=body.seat, hint=body.hint, scale=body.scale, tokens=tokens, client=client, asker=asker, gone=gone))

    @app.post("/api/analysis/graph", summary="Analysis board: a finished match's evaluation at each turn",
              response_model=Graph, responses=errors(401, 403, 404, 409, 413, 415, 422, 429, 503),
              openapi_extra=TOKEN_OPTIONAL)
    async def post_analysis_graph(body: GraphRequest, request: Request, tokens: Tokens, session: Session = None) -> dict[str, Any]:
        """One point per turn start (at most 120, evenly spread) on a small budget; 409 while
        the game runs. Stopped as an analysis is when its client has gone."""
        client = request.client.host if request.client else ""
        asker = asker_of(tokens, session)
        return await unless_gone(request, lambda gone: service.analyse(
            match_id=body.match_id, graph=True, scale=body.scale, tokens=tokens, client=client, asker=asker, gone=gone))

    @app.websocket("/api/matches/{match_id}/ws")
    async def match_socket(ws: WebSocket, match_id: str) -> None:
        """Live updates: the match view (as GET /api/matches/{id} with the same tokens) each time
        it changes. The client's first message authenticates: ``{"tokens": ["<token>", ...]}``
        (``[]``: a spectator, unless the session cookie of the handshake names a person who holds
        a seat); tokens never go in the URL. With ``"presence": true`` in it, who is connected is
        sent too (``{"presence": …}`` as GET …/presence) whenever it changes. A first message that is not such an
        object, or none within 10 s, closes the socket (1008); a token of another match, 4403; one
        longer than 64 characters, 4401; more than 200 tokens, 4422 (as 422 on a request).
        Later frames: short text (ignored); anything else closes the socket (1003)."""
        await ws.accept()
        try:
            first = await asyncio.wait_for(ws.receive(), timeout=WS_AUTH_SECONDS)
        except (asyncio.TimeoutError, Exception):  # noqa: BLE001
            await _close(ws, 1008)
            return
        if first.get("type") == "websocket.disconnect":
            return
        try:  # the person signed in: the session cookie of the handshake
            person = await acting_person(ws)
        except MatchError as exc:
            await _refuse(ws, exc.message, 4000 + status_of(exc))
            return
        text = first.get("text")
        tokens = None
        present = False  # the client asks for who is connected too ({"presence": true}; issue 42)
        if text is not None and len(text) <= WS_AUTH_LIMIT:
            try:
                data = json.loads(text)
            except (ValueError, RecursionError):  # not JSON, or nested too deep for the parser
                data = None
            present = isinstance(data, dict) and data.get("presence") is True
            if isinstance(data, dict) and isinstance(data.get("tokens"), list) and all(
                    isinstance(t, str) for t in data["tokens"]):
                try:
                    tokens = split_tokens(",".join(data["tokens"]))
                except MatchError as exc:
                    await _refuse(ws, exc.message, 4000 + status_of(exc))
                    return
        if tokens is None:
            await _refuse(ws, 'the first message must be {"tokens": [...]} (empty: a spectator)', 1008)
            return
        try:
            held = await asyncio.to_thread(service.seats_of, match_id, Holder(tuple(tokens), person))
        except MatchError as exc:
            await _refuse(ws, exc.message, 4000 + status_of(exc))
            return
        if tokens and not held:
            await _refuse(ws, "no token given is a token of this match", 4403)
            return
        rounds = app.state.rounds
        closed = asyncio.Event()

        async def receiver() -> None:
            """Clients have nothing more to say; any frame but short text closes the socket (1003)."""
            try:
                while True:
                    message = await ws.receive()
                    if message.get("type") == "websocket.disconnect":
                        break
                    if message.get("bytes") is not None or len(message.get("text") or "") > 100:
                        await ws.close(code=1003, reason="only short text frames are accepted")
                        break
            except Exception:  # noqa: BLE001 - any failure ends the connection
                pass
            finally:
                closed.set()

        reader = asyncio.create_task(receiver())
        last = last_presence = None
        try:
            with service.hub.subscribe(match_id, spectator=not held) as changed, app.state.presence.connected(
                    match_id, held, person.id if person is not None else None):  # spectators counted (issue 43)
                while not closed.is_set() and not service.closed:
                    # woken by a change of this match (set at once for the first view)
                    waiter = asyncio.create_task(changed.wait())
                    done, _ = await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
                    if waiter not in done:
                        waiter.cancel()
                        break
                    changed.clear()
                    try:
                        key, payload = await promptly(match_id, service.push_view, match_id, held)
                    except MatchError as exc:
                        await ws.send_json({"error": exc.message})
                        await ws.close(code=4000 + status_of(exc))
                        return
                    if key != last and (key is not None or last is None):
                        await ws.send_text(payload.decode())
                        last = key if key is not None else (-1, False)  # a first view mid-turn
                    if not present:
                        continue
                    seen = await promptly(match_id, rounds.presence_view, match_id, held)
                    same = json.dumps({**seen["presence"], "now": None})
                    if same != last_presence:  # who is connected, when a claim opens
                        await ws.send_text(json.dumps(seen))
                        last_presence = same
        except (WebSocketDisconnect, OSError):  # the client went away
            pass
        except Exception as exc:  # noqa: BLE001 - a bug: logged (its type, not its message), socket closed
            if ws.client_state.name == "CONNECTED" and ws.application_state.name == "CONNECTED":
                log.error("internal error %s in the live updates of match %s", type(exc).__name__, clip(match_id))
                metrics.error(type(exc).__name__)
        finally:
            reader.cancel()
            await _close(ws, 1001)

    # --- client -----------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
    return app
