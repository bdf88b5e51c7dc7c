"""The request bodies: strict pydantic models, each validating its body once, at the edge
(issue 40 §1). A field a body does not have is refused (422), and so is a value of the wrong
JSON type (``"13"`` for a number, ``1`` for a boolean); the bounds of a field (a move's length,
the number of actions in a row, a clock's seconds, the lobby's clock, rating range and seat, a
push subscription's URL and keys) are checked here and nowhere else. The domain takes the typed
values these give (a time control as :class:`abstracta.play.Live` keeps it, the seats to take as
a list or ``"all"``, the lobby's :class:`~abstracta.lobby.TimeControl`, the push concern's
:class:`~abstracta.server.webpush.Subscription`) and never names a request field: the refusals
that name one are worded here, by :func:`~.errors.validation_message` from each error's place
(``clock.initial: …``); a refusal whose type is a key of the client's catalogs (the lobby's,
``lobby.error.…``) also carries it as the 422's ``i18n`` (:func:`~.errors.validation_i18n`).

A JSON number without a fraction (``13.0``) for an integer field is the integer (:data:`Integer`):
JSON Schema's ``integer``, which /openapi.json declares for these fields, counts it among the
integers, and a client following the schema may send it.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, get_args
from urllib.parse import urlsplit

from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, JsonValue, PlainValidator, StrictBool, StrictFloat, StrictInt,
                      StrictStr, ValidationInfo, WithJsonSchema, model_validator)
from pydantic_core import PydanticCustomError

from ...lobby.controls import DAY, DAYS_MAX, DAYS_MIN, INCREMENT_MAX, INITIAL_MAX, INITIAL_MIN, TimeControl
from ...lobby.seeks import RATING_BOUNDS, RatingRange
from ...people.values import SCOPES
from ..bots import SEAT_SPEC
from ..chat import ROOMS, TEXT_LIMIT
from ..seats import CLOCK_LIMIT, MOVE_TEXT_LIMIT
from ..webpush import ENDPOINT_LIMIT, Subscription, b64url, unb64url


def integral(value: Any) -> Any:
    """A JSON number without a fraction (``13.0``) as the integer it is; anything else as it
    came, for the strict check after it (``"13"``, ``true`` and ``13.5`` stay refused). JSON
    Schema's ``integer``, which /openapi.json declares for these fields, counts ``13.0`` among
    the integers (a client following the schema, schemathesis among them, may send it), and the
    schema cannot declare a stricter rule: the two are one number in JSON's data model."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: An integer field of a request body: a JSON integer, ``13.0`` read as 13 (:func:`integral`).
Integer = Annotated[StrictInt, BeforeValidator(integral)]
#: A seat of a match (a game has at most 16; the match service checks it is one of this game's).
SeatNumber = Annotated[Integer, Field(ge=0, le=15)]
#: A number of seconds (a JSON integer or fraction; not a string, not a boolean).
Seconds = StrictFloat
def _a_move(text: str) -> str:
    if not text.strip():
        raise PydanticCustomError("move", "a move in the game's notation, not blanks")
    return text


#: One move in a game's notation.
MoveText = Annotated[StrictStr, Field(min_length=1, max_length=MOVE_TEXT_LIMIT), AfterValidator(_a_move)]
#: The most actions one request plays in a row.
ACTIONS_LIMIT = 64


class Body(BaseModel):
    """A request body: a field it does not have is refused (422), so a mistyped one ('seat'
    for 'seats') is not dropped and the request done without it."""

    model_config = ConfigDict(extra="forbid")


def _seat_spec(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 32 or not SEAT_SPEC.match(value.strip()):
        raise PydanticCustomError("seat_spec", "{value} is not 'human' or 'level:1' … 'level:6'",
                                  {"value": repr(value)[:100]})
    return value.strip()


#: A seat's player: ``human`` or ``level:1`` … ``level:6`` (spaces around are dropped).
SeatSpec = Annotated[str, PlainValidator(_seat_spec), WithJsonSchema(
    {"type": "string", "maxLength": 32, "pattern": r"^\s*(human|level:[1-6])\s*$"})]


#: the two forms of a time control, by the keys each has
CLOCK_FORMS = ({"initial"}, {"initial", "increment"}, {"per_turn"})


class Clock(Body):
    """A time control: a live clock (each seat's time, with an increment after each of its
    turns: 5+3 is ``{"initial": 300, "increment": 3}``) or a deadline per turn (a
    correspondence game: ``{"per_turn": 86400}``)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "oneOf": [{"required": ["initial"], "not": {"required": ["per_turn"]}},
                  {"required": ["per_turn"], "not": {"anyOf": [{"required": ["initial"]}, {"required": ["increment"]}]}}]})

    # absent, never null ({"initial": null} was a 500): the default only marks a field of the other form
    initial: Seconds = Field(default=None, ge=1, le=CLOCK_LIMIT,
                             description="a live clock: each seat's time at the start, in seconds")
    increment: Seconds = Field(default=0.0, ge=0, le=CLOCK_LIMIT,
                               description="a live clock: seconds added after each turn (default 0)")
    per_turn: Seconds = Field(default=None, ge=1, le=CLOCK_LIMIT, description="a deadline: seconds for each turn")

    @model_validator(mode="before")
    @classmethod
    def _one_form(cls, data: Any) -> Any:
        if isinstance(data, dict) and set(data) not in CLOCK_FORMS:
            raise PydanticCustomError("clock", "{keys} is not a time control; give {'initial': s, 'increment': s} "
                                      "(a live clock) or {'per_turn': s} (a deadline per turn)",
                                      {"keys": repr(sorted(str(k)[:20] for k in data)[:5])})
        return data


def time_control(clock: Clock | None) -> dict[str, float] | None:
    """The time control as the play session keeps it (:meth:`abstracta.play.Live.with_clock`):
    ``{"initial", "increment"}`` or ``{"per_turn"}``, in seconds."""
    if clock is None:
        return None
    if clock.per_turn is not None:
        return {"per_turn": clock.per_turn}
    return {"initial": clock.initial, "increment": clock.increment}


def _take(value: Any) -> list[int] | Literal["all"] | None:
    if value is None or value == "all":
        return value
    if isinstance(value, list) and len(value) <= 16:
        seats = [integral(v) for v in value]
        if all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= 15 for s in seats):
            if len(set(seats)) != len(seats):
                raise PydanticCustomError("take", "a seat is listed twice")
            return sorted(seats)
    raise PydanticCustomError("take", 'must be "all" or a list of person seat numbers ([0], [0, 1])')


#: The person seats a creator takes: a list of seats, ``"all"`` (pass and play) or null (the
#: first person seat). One validator, so that a refusal is one sentence rather than one per
#: form in the validation library's words ("take.list[constrained-int]: …; take.literal['all']: …").
Take = Annotated[list[int] | Literal["all"] | None, PlainValidator(_take), WithJsonSchema({"anyOf": [
    {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 15}, "maxItems": 16, "uniqueItems": True},
    {"const": "all"},
    {"type": "null"},
]})]

def _option_value(value: Any) -> bool | int | float | str | list[int | str] | None:
    # which values an option takes is the game's rule (the match service refuses the others,
    # null included, naming the values allowed); here only what JSON could carry to an option
    if value is None or isinstance(value, (bool, int, float, str)):
        return integral(value)
    if isinstance(value, list) and all(isinstance(v, (int, str)) and not isinstance(v, bool) for v in value):
        return value
    raise PydanticCustomError("option_value", "{value} is not an option's value (a boolean, a number, a text, or a "
                              "list of numbers and texts)", {"value": repr(value)[:100]})


#: A rules option's value: as the game reads it, or its text form ('dimy', 'true', '5,1').
OptionValue = Annotated[bool | int | float | str | list[int | str] | None, PlainValidator(_option_value), WithJsonSchema(
    {"anyOf": [{"type": "boolean"}, {"type": "number"}, {"type": "string"},
               {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}]})]
#: Rules options by name (a name the game does not have is refused by the match service, which
#: names the game's options).
Options = dict[str, OptionValue]


class CreateMatch(Body):
    game: StrictStr = Field(max_length=64, description="registry name (GET /api/games lists them)")
    options: Options = Field(default_factory=dict,
                             description="rules options, as values or their text form ('dimy', 'true', '5,1')")
    seats: list[SeatSpec] | None = Field(default=None, max_length=16,
                                         description="one entry per seat: 'human' or 'level:1' … 'level:6' "
                                                     "(default: seat 0 human, the others level:1)")
    take: Take = Field(default=None, description=(
        "the person seats the creator takes (their tokens come back in 'tokens'); default: the "
        "first person seat. Every other person seat gets an invitation ('invites'). Pass and play "
        "on one device: \"all\" (every person seat). A match without person seats gives seat 0's "
        "token (to find, watch and delete it)."))
    clock: Clock | None = Field(default=None, description=(
        "time control: null (none), {'initial': seconds, 'increment': seconds} (a live clock, "
        "e.g. 5+3 is {'initial': 300, 'increment': 3}) or {'per_turn': seconds} (a deadline per "
        "turn, e.g. 86400). It starts once every person seat is claimed; computer seats have none."))
    rated: StrictBool = Field(default=False, description=(
        "a rated game (issue 41): the creator is signed in with an account (403 otherwise) and takes one "
        "seat, every other seat is a person's, invited, and only an account may claim it; the options make "
        "a declared variant (422 otherwise). When it ends, each account's Glicko-2 rating in the game's pool "
        "(variant and speed from the clock) changes at once: the view's 'rating_changes'."))


class ImportMatch(Body):
    # the record is a document of its own format, read once (and refused with the ply and the
    # reason) by abstracta.core.records.Record, as `abstracta replay` reads a file: here only
    # a JSON object (its fields are the format's, GET /api/matches/{id}/record's RecordDocument)
    record: dict[str, JsonValue] = Field(description="an abstracta record (format 'abstracta-record', as GET "
                                                     "/api/matches/{id}/record answers it)")
    seats: list[SeatSpec] | None = Field(default=None, max_length=16, description="override the record's players")
    take: Take = Field(default=None, description="as for POST /api/matches")
    clock: Clock | None = Field(default=None, description="as for POST /api/matches")


class InviteCode(Body):
    code: StrictStr = Field(max_length=64, description="the invitation's code (from 'invites' of the creator's "
                                                       "answer, or the '/#/join/<code>' link)")


class Answer(Body):
    # strict: pydantic's lax mode reads "no" as false and 1 as true
    accept: StrictBool = Field(description="true: agree to the pending takeback or draw offer; false: decline "
                                           "it (the seat that asked or offered: withdraw it)")


class PlayAction(Body):
    # exactly one of action, actions and turn (none may be null): the schema says so too
    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "oneOf": [{"required": ["action"]}, {"required": ["actions"]}, {"required": ["turn"]}]})

    action: MoveText = Field(default=None,
                             description="the move in the game's notation: one engine action (one of the view's "
                                         "'legal', e.g. a take 'i9' that leaves the turn open while more could "
                                         "follow), or a whole-turn string of several actions ('a1+a9')")
    actions: list[MoveText] = Field(
        default=None, min_length=1, max_length=ACTIONS_LIMIT,
        description="instead of 'action': several moves the same seat plays in a row within its turn "
                    "(e.g. a take and 'end'), applied all or none")
    turn: MoveText = Field(default=None,
                           description="instead of 'action': one whole turn as the view's 'turns' lists it, read as "
                                       "the terminal reads a typed move ('i9' takes i9 and ends the turn, 'a1+a9' "
                                       "takes both); only in games with a whole-turn notation (else 422) "
                                       "and at the start of a turn (else 409); a string that is not a whole legal "
                                       "turn is 422; nothing is played then")
    ply: Integer = Field(ge=0, description="the ply the move was chosen at (the state's 'ply', a JSON integer); "
                                           "a stale ply is refused with 409")
    seat: SeatNumber | None = Field(default=None, description="the seat playing it (checked when given; "
                                                             "or ?seat=, not both with different values)")

    @model_validator(mode="after")
    def _one_move(self) -> "PlayAction":
        given = [name for name in ("action", "actions", "turn") if getattr(self, name) is not None]
        if len(given) != 1:
            raise PydanticCustomError("one_move", "give exactly one of 'action' (one move), 'actions' (a list) or "
                                      "'turn' (a whole turn); {given} given", {"given": " and ".join(given) or "none"})
        return self

    @property
    def moves(self) -> list[str]:
        """The moves to play in a row (one, unless ``actions``)."""
        return self.actions if self.actions is not None else [self.action if self.action is not None else self.turn]

    @property
    def whole(self) -> bool:
        """Whether the move is one whole turn (``turn``)."""
        return self.turn is not None


#: a share of a fixed analysis budget (a JSON number, not "0.5")
Scale = Annotated[float, Field(gt=0, le=1, strict=True)]
#: the longest pasted position text
POSITION_LIMIT = 10_000


class AnalysisRequest(Body):
    # a match or a pasted position (with its game), not both, and no hint for a pasted one;
    # the schema says so (null counts as left out)
    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": [
        {"required": ["match_id"], "properties": {"match_id": {"type": "string"}, "position": {"type": "null"}}},
        {"required": ["game", "position"],
         "properties": {"game": {"type": "string"}, "position": {"type": "string"}, "match_id": {"type": "null"},
                        "hint": {"const": False}}},
    ]})

    match_id: StrictStr | None = Field(default=None, max_length=32, description="a match (with 'ply'), or leave "
                                                                                "out for a pasted position")
    ply: Annotated[Integer, Field(ge=0)] | None = Field(default=None, description="the position after this many "
                                                                                  "actions (default: the last)")
    game: StrictStr | None = Field(default=None, max_length=64, description="a pasted position's game")
    options: Options | None = Field(default=None, description="a pasted position's game options")
    position: StrictStr | None = Field(default=None, max_length=POSITION_LIMIT, description=(
        "a pasted position text (the game's own format, as `abstracta apply --json` prints it)"))
    seat: SeatNumber | None = Field(default=None, description="whose information the search starts from "
                                                              "(a seat the tokens hold; pasted: any seat)")
    hint: StrictBool = Field(default=False, description="a hint on your turn against the computer; counted in "
                                                        "the record's 'Hints' tag")
    scale: Scale | None = Field(default=None, description="a share in (0, 1] of the game's fixed budget")

    @model_validator(mode="after")
    def _one_source(self) -> "AnalysisRequest":
        if self.match_id is not None:
            if self.position is not None:
                raise PydanticCustomError("source", "give either 'match_id' (a match and its 'ply') or 'game' and "
                                          "'position' (a pasted position text), not both")
            return self
        if self.game is None or self.position is None:
            raise PydanticCustomError("source", "give either 'match_id' (a match and its 'ply') or 'game' and "
                                      "'position' (a pasted position text)")
        if not self.position.strip():
            raise PydanticCustomError("source", "'position': the position text is empty")
        if self.hint:
            raise PydanticCustomError("source", "hints are for matches: a pasted position gets its analysis")
        return self


class GraphRequest(Body):
    match_id: StrictStr = Field(max_length=32, description="a finished match")
    scale: Scale | None = Field(default=None, description="a share in (0, 1] of the graph's budget")


class Resign(Body):
    seat: SeatNumber | None = Field(default=None, description="the resigning seat (default: the person to move)")


# --- the people's (issue 41) ------------------------------------------------------------------
class Credentials(Body):
    username: StrictStr = Field(max_length=64, description="2–20 characters, each a letter A–Z (either case, no accents), a digit, _ or -")
    password: StrictStr = Field(max_length=1024, description="at least 8 characters")


class Recovery(Body):
    username: StrictStr = Field(max_length=64)
    code: StrictStr = Field(max_length=64, description="one of the recovery codes shown at sign-up")
    password: StrictStr = Field(max_length=1024, description="the new password (at least 8 characters)")


class NewName(Body):
    name: StrictStr = Field(max_length=64, description="2–20 characters, each a letter A–Z (either case, no accents), a digit, _ or -")


class Password(Body):
    password: StrictStr = Field(max_length=1024, description="the account's password, typed again")


class PasswordChange(Body):
    current: StrictStr = Field(max_length=1024)
    new: StrictStr = Field(max_length=1024, description="at least 8 characters")


class TokenRequest(Body):
    description: StrictStr = Field(max_length=60, description="what the token is for (1–60 characters)")
    scopes: list[StrictStr] = Field(max_length=len(SCOPES), description="some of: " + ", ".join(
        f"{k} ({v})" for k, v in SCOPES.items()))


# --- the lobby's (issue 42): its own bounds (a clock of ¼ to 180 minutes, or whole days; a rating
# range; seat 0 or 1), checked here once; each refusal's type is a key of the client's catalogs
# (``lobby.error.…``), which the 422 carries as its ``i18n`` (errors.validation_i18n) ------------------
CLOCK_TEXT = ("the time control: {'initial': seconds, 'increment': seconds} (¼–180 minutes, 0–180 s), "
              "{'per_turn': seconds} (1–14 whole days), or null (none)")


def _lobby_seconds(value: Any, info: ValidationInfo) -> float:
    # one sentence (and one catalog key) for any value that is no number of seconds
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise PydanticCustomError("lobby.error.clock_number", "{value} is not a number of seconds",
                                  {"value": repr(value)[:40], "field": info.field_name or "clock"})
    return float(value)


def _initial(seconds: float) -> float:
    if not INITIAL_MIN <= seconds <= INITIAL_MAX:
        raise PydanticCustomError("lobby.error.clock_initial", "{seconds} s is not ¼ to 180 minutes ({low} to {high} s)",
                                  {"seconds": f"{seconds:g}", "low": INITIAL_MIN, "high": INITIAL_MAX})
    return seconds


def _increment(seconds: float) -> float:
    if not 0 <= seconds <= INCREMENT_MAX:
        raise PydanticCustomError("lobby.error.clock_increment", "{seconds} s is not 0 to {max} s",
                                  {"seconds": f"{seconds:g}", "max": INCREMENT_MAX})
    return seconds


def _per_turn(seconds: float) -> float:
    days = seconds / DAY
    if days != int(days) or not DAYS_MIN <= days <= DAYS_MAX:
        raise PydanticCustomError("lobby.error.clock_days", "{seconds} s is not {min} to {max} whole days per move",
                                  {"seconds": f"{seconds:g}", "min": DAYS_MIN, "max": DAYS_MAX})
    return seconds


#: a live clock's time, an increment, and correspondence's seconds per move, each in the lobby's range
InitialSeconds = Annotated[float, PlainValidator(_lobby_seconds), AfterValidator(_initial),
                           WithJsonSchema({"type": "number", "minimum": INITIAL_MIN, "maximum": INITIAL_MAX})]
IncrementSeconds = Annotated[float, PlainValidator(_lobby_seconds), AfterValidator(_increment),
                             WithJsonSchema({"type": "number", "minimum": 0, "maximum": INCREMENT_MAX})]
DaysSeconds = Annotated[float, PlainValidator(_lobby_seconds), AfterValidator(_per_turn), WithJsonSchema(
    {"type": "number", "minimum": DAYS_MIN * DAY, "maximum": DAYS_MAX * DAY, "multipleOf": DAY})]


class LobbyClock(Body):
    """A time control people choose (:mod:`abstracta.lobby.controls`): a live clock of ¼ to 180
    minutes with an increment of 0 to 180 s, or correspondence of 1 to 14 whole days per move."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=Clock.model_config["json_schema_extra"])

    # absent, never null (the default only marks a field of the other form)
    initial: InitialSeconds = Field(default=None, description="a live clock: each seat's time at the start, in "
                                                              "seconds (15 to 10800)")
    increment: IncrementSeconds = Field(default=0.0, description="a live clock: seconds added after each turn "
                                                                 "(0 to 180)")
    per_turn: DaysSeconds = Field(default=None, description="correspondence: seconds per move, whole days "
                                                            "(86400 to 1209600)")

    @model_validator(mode="before")
    @classmethod
    def _one_form(cls, data: Any) -> Any:
        if not isinstance(data, dict) or set(data) not in CLOCK_FORMS:
            shown = sorted(str(k)[:20] for k in data)[:5] if isinstance(data, dict) else type(data).__name__
            raise PydanticCustomError("lobby.error.clock_shape", "{keys} is not a time control; give {'initial': s, "
                                      "'increment': s} (a live clock) or {'per_turn': s} (days per move)",
                                      {"keys": repr(shown)})
        return data

    def control(self) -> TimeControl:
        """The lobby's value of it."""
        if self.per_turn is not None:
            return TimeControl(per_turn=self.per_turn)
        return TimeControl.live(self.initial, self.increment)


def _lobby_option(value: Any) -> bool | int | str:
    # a seek's options are kept in their text form: a scalar each (the game refuses, in its own
    # words, a value it does not take)
    value = integral(value)
    if isinstance(value, (bool, int)) or (isinstance(value, str) and len(value) <= 200):
        return value
    raise PydanticCustomError("lobby.error.options", "{value} is not an option's value (true or false, a whole "
                              "number, or a text of at most 200 characters)", {"value": repr(value)[:60]})


#: The rules options of a seek, a challenge or a wait, by name (at most 32).
LobbyOptions = Annotated[dict[Annotated[StrictStr, Field(max_length=64)], Annotated[
    bool | int | str, PlainValidator(_lobby_option), WithJsonSchema(
        {"anyOf": [{"type": "boolean"}, {"type": "integer"}, {"type": "string", "maxLength": 200}]})]],
    Field(max_length=32)]


def _lobby_seat(value: Any) -> int | None:
    value = integral(value)
    if value is None or (type(value) is int and value in (0, 1)):
        return value
    raise PydanticCustomError("lobby.error.seat", "{value} is not 0 (the first to move), 1, or null (either, drawn "
                              "at random)", {"value": repr(value)[:40]})


#: The seat one asks for in a seek or challenge: 0 (the first to move), 1, or None (either).
LobbySeat = Annotated[int | None, PlainValidator(_lobby_seat), WithJsonSchema(
    {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 1}, {"type": "null"}]})]


def _rating_range(value: Any) -> RatingRange:
    if value is None:
        return None, None
    bounds = [integral(v) for v in value] if isinstance(value, list) else None
    if bounds is None or len(bounds) != 2 or not all(
            v is None or (type(v) is int and RATING_BOUNDS[0] <= v <= RATING_BOUNDS[1]) for v in bounds):
        raise PydanticCustomError("lobby.error.range", "[low, high]: two ratings from {low} to {high} (or null for no "
                                  "bound)", {"low": RATING_BOUNDS[0], "high": RATING_BOUNDS[1]})
    low, high = bounds
    if low is not None and high is not None and low > high:
        raise PydanticCustomError("lobby.error.range", "{low} is above {high}", {"low": low, "high": high})
    return low, high


#: A seek's rating range ``[low, high]`` (either null: open), the lobby's ``(low, high)``.
RatingRangeBody = Annotated[RatingRange, PlainValidator(_rating_range), WithJsonSchema({"anyOf": [
    {"type": "array", "minItems": 2, "maxItems": 2, "items": {"anyOf": [
        {"type": "integer", "minimum": RATING_BOUNDS[0], "maximum": RATING_BOUNDS[1]}, {"type": "null"}]}},
    {"type": "null"}]})]


class GameBody(Body):
    game: StrictStr = Field(min_length=1, max_length=64, description="registry name (GET /api/games); a game of "
                                                                      "two players")
    options: LobbyOptions = Field(default_factory=dict, description="rules options, as for POST /api/matches "
                                                                    "(true or false, a whole number or a text each)")
    clock: LobbyClock | None = Field(default=None, description=CLOCK_TEXT)
    rated: StrictBool = Field(default=False, description="rated (accounts only; options that make a declared "
                                                         "variant) or casual")

    @property
    def control(self) -> TimeControl | None:
        """The time control, as the lobby takes it (None: no clock)."""
        return self.clock.control() if self.clock is not None else None


class SeekBody(GameBody):
    rating_range: RatingRangeBody = Field(default=(None, None), description=(
        "[low, high]: only players rated within it (in this game's pool) may take it; null bounds: open"))
    seat: LobbySeat = Field(default=None, description="the seat you want: 0 (the first to move), 1, or null (either)")


class ChallengeBody(GameBody):
    to: StrictStr = Field(min_length=1, max_length=64, description="the challenged player's name")
    seat: LobbySeat = Field(default=None, description="your seat: 0, 1, or null (either)")


class NameBody(Body):
    name: StrictStr = Field(min_length=1, max_length=64, description="a player's name")


class Claim(Body):
    draw: StrictBool = Field(default=False, description="false: claim the game; true: call it a draw")


class RematchAnswer(Body):
    accept: StrictBool = Field(default=True, description="true: offer or accept; false: decline (or withdraw)")


# --- a match's company's (issue 43) ----------------------------------------------------------------
#: A chat room of a match (:data:`abstracta.server.chat.ROOMS`).
Room = Literal["players", "spectators"]
assert get_args(Room) == ROOMS


class ChatBody(Body):
    text: StrictStr = Field(description=f"the line: 1–{TEXT_LIMIT} characters of text (white space runs read as "
                                        "one space; no control characters)")
    room: Room | None = Field(default=None, description=f"{' or '.join(ROOMS)}; default: the players' chat for a "
                                                        "seat, the spectators' for anyone else")


def _endpoint(url: str) -> str:
    # a URL with a host (and a port that is a number): whether the server posts there (https,
    # no local address) is the push concern's rule, webpush.check_endpoint
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port that is no number raises here
    except ValueError:
        raise PydanticCustomError("endpoint", "not a URL") from None
    if not parts.scheme or not parts.hostname:
        raise PydanticCustomError("endpoint", "not a URL with a host")
    return url


def _base64url(text: str) -> bytes:
    try:
        return unb64url(text)
    except ValueError:
        raise PydanticCustomError("base64url", "not base64url") from None


def _p256dh(text: str) -> str:
    from cryptography.hazmat.primitives.asymmetric import ec

    point = _base64url(text)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise PydanticCustomError("p256dh", "not a P-256 public key") from None
    return b64url(point)


def _auth(text: str) -> str:
    secret = _base64url(text)
    if len(secret) != 16:
        raise PydanticCustomError("auth", "{n} bytes, not 16", {"n": len(secret)})
    return b64url(secret)


class PushKeys(Body):
    p256dh: Annotated[StrictStr, Field(max_length=200), AfterValidator(_p256dh)] = Field(
        description="the browser's P-256 public key: the 65-byte uncompressed point, base64url")
    auth: Annotated[StrictStr, Field(max_length=100), AfterValidator(_auth)] = Field(
        description="the browser's 16-byte secret, base64url")


class PushSubscription(Body):
    """A browser's ``PushSubscription.toJSON()``."""

    endpoint: Annotated[StrictStr, Field(min_length=1, max_length=ENDPOINT_LIMIT), AfterValidator(_endpoint)] = Field(
        description="the push service's URL for this browser (https; not a local address)")
    expirationTime: Annotated[StrictFloat, BeforeValidator(integral)] | None = Field(  # noqa: N815 - the browser's name
        default=None, description="when the push service ends it (Unix milliseconds), if it says; not kept")
    keys: PushKeys

    def subscription(self) -> Subscription:
        """The push concern's value of it."""
        return Subscription(self.endpoint, self.keys.p256dh, self.keys.auth)


class Subscribe(Body):
    subscription: PushSubscription = Field(description="the browser's PushSubscription.toJSON(): "
                                                       "{endpoint, keys: {p256dh, auth}} (an https endpoint)")
    lang: StrictStr | None = Field(default=None, max_length=8, description="the language of the notices (en, fi; "
                                                                          "another: English)")


class Unsubscribe(Body):
    endpoint: StrictStr = Field(max_length=ENDPOINT_LIMIT, description="the subscription's endpoint URL")


__all__ = ["ACTIONS_LIMIT", "AnalysisRequest", "Answer", "Body", "ChallengeBody", "ChatBody", "Subscribe", "Unsubscribe", "Clock", "CreateMatch", "Credentials",
           "Claim", "GameBody", "GraphRequest", "LobbyClock", "LobbyOptions", "LobbySeat", "NameBody", "PushKeys",
           "PushSubscription", "RatingRangeBody", "RematchAnswer", "Room", "SeekBody",
           "ImportMatch", "Integer", "InviteCode", "NewName", "Password", "PasswordChange", "PlayAction", "Recovery",
           "Resign", "SeatNumber", "SeatSpec", "Take", "TokenRequest", "integral", "time_control"]
