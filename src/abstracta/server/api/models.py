"""The response models: what each route answers, as /openapi.json documents it. The tests walk
every route and validate its answers against these (``tests/server/test_server_responses.py``),
the hot views too, which the routes send as the bytes the match service encoded once per
revision and viewer (:meth:`~abstracta.server.views.JsonView.act_view`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..chat import ROOMS


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


class PluralMessage(BaseModel):
    """A message said by a count ``{n}``: one text per CLDR plural category the language has
    (English and Finnish: ``one`` and ``other``)."""

    zero: str | None = None
    one: str | None = None
    two: str | None = None
    few: str | None = None
    many: str | None = None
    other: str = Field(description="every count no other category takes")


#: A client catalog: every message by key, a text with ``{name}`` parameters or a plural message.
Catalog = dict[str, str | PluralMessage]


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
    """A position's evaluation and best line (README "Analysis board")."""

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
    learned: list[float] | None = Field(default=None, description=(
        "per seat, the game's learned value of the position in [-1, 1] (the model alone, no search), where "
        "the game declares one; null otherwise"))
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
    deletable: bool = Field(default=False, description=(
        "whether the request may delete it (DELETE /api/matches/{id}): nobody else is in it (against the "
        "computer, hot-seat, an invitation not claimed yet); a game another person has a seat in, one an "
        "account is seated in asked by anyone but that account signed in, or a rated one, is refused (409)"))
    due_in: float | None = Field(default=None, description=(
        "seconds until time alone changes this game in play: its first move awaited is due (past it the "
        "game is aborted) or the running clock's flag falls; null: nothing would. A list kept on screen "
        "reads the list again then (what time did is applied before a list is answered)"))


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


class BotStats(BaseModel):
    executor: str = Field(description="where searches run: process, thread or ray")
    slots: int = Field(description="searches that run at once")
    fast_executor: str = Field(description="where level 1–2 moves are found: process (a worker of their own) "
                                           "or thread (of the web process, with --bot-workers 0)")
    queued_fast: int = Field(description="level 1–2 moves waiting (answered in a worker of their own)")
    queued_deep: int = Field(description="searches waiting, first come first served across matches")
    running: int
    submitted: int
    answered: int
    cancelled: int = Field(description="jobs dropped: their match was deleted, undone, taken back or resigned")
    stopped: int = Field(description="searches asked to stop after overrunning their budget (best move so far)")
    fallbacks: int = Field(description="moves a quick search (level 2) played because a search did not answer")
    random_fallbacks: int = Field(description="random moves played because even the quick search failed (should be 0)")
    in_thread: int = Field(description="level 1–2 moves found in the web process because their worker died")


class RecordDocument(BaseModel):
    """A game record (README "Records"; :class:`abstracta.core.records.Record`): what ``abstracta
    replay`` reads and POST /api/matches/import takes."""

    format: str = Field(description="'abstracta-record'")
    version: int
    game: str
    options: dict[str, Any] = Field(description="the rules options, in their text form")
    seed: int | None = Field(description="the seed of a game with chance (rebuilds every hand), else null")
    start: str | None = Field(description="the position the game started from, when not the game's own start")
    players: list[str] = Field(description="per seat: 'human' or 'level:N'")
    tags: dict[str, str] = Field(description="header tags: date, site, Resigned, OutOfTime, DrawOffered, Hints, …")
    moves: list[str] = Field(description="the moves in the spec's notation (whole turns for some games)")
    result: list[float] | None = Field(description="per seat +1 win, -1 loss, 0 draw; null while running")
    termination: str | None = Field(description="normal | resignation | time | agreement | null")


# --- a match's company (issue 43): its chat, push notices, the live games -------------------------------
class ChatLine(BaseModel):
    id: int
    room: str = Field(description=" or ".join(ROOMS))
    seat: int | None = Field(description="the seat of a player's line; null for a spectator's")
    author: str = Field(description="whom the line is by, to mute them: 's<seat>' a player, 'p<id>' a spectator")
    name: str = Field(description="the name written then: a person's, or the seat's in the game")
    name_key: str | None = Field(description="the catalog key of a seat's name ('White'), when the name is one")
    person: bool = Field(description="false: the name is the seat's (no person holds it); a client may name "
                                     "the seat its own way")
    account: bool = Field(default=False, description="the name is an account's (a client links it to its profile)")
    text: str = Field(description="plain text: a client inserts it as text, never as markup")
    ply: int = Field(description="the game's ply when it was written (its place in the replay)")
    at: str


class ChatLines(BaseModel):
    open: bool = Field(description="the game has a chat (people at a distance; none against the computer "
                                   "alone or on one device)")
    rooms: list[str] = Field(description="the rooms this request may read")
    write: str | None = Field(description="the room this request writes in (null: sign in or play as a guest first)")
    you: list[str] = Field(description="the author keys of this request's own lines")
    lines: list[ChatLine]


class Reported(BaseModel):
    reported: bool = Field(description="true: kept for the operator now; false: you had reported it already")


class Key(BaseModel):
    key: str = Field(description="the server's VAPID public key: base64url of the P-256 point (65 bytes)")


class Subscribed(BaseModel):
    seats: list[int] = Field(description="the seats whose turns this browser is told of")


class LiveGame(BaseModel):
    id: str
    game: str
    title: str
    title_key: str
    variant: dict[str, str] | None
    options: dict[str, Any]
    players: list[str]
    num_players: int
    names: list[dict[str, Any]] = Field(description="per seat {name, person, name_key, kind}: the person's name "
                                                    "(kind account | guest), or the seat's in the game (person false)")
    seats: list[dict[str, Any]]
    board: dict[str, str]
    board_module: str | None
    struct: dict[str, Any] = Field(description="the spectator's structured view (to draw a small board)")
    ply: int
    revision: int
    to_move: int | None
    turns_played: int
    clock: dict[str, Any] | None
    watchers: int = Field(description="how many watch it now (spectators' live connections)")


class Watchers(BaseModel):
    watchers: int


# --- the people's (issue 41): who is signed in, sessions, API tokens, profiles, standings ---------------
class TokenScopes(BaseModel):
    id: str
    scopes: list[str]


class PersonInfo(BaseModel):
    """Who a request is: ``{"kind": null, "name": null}`` for nobody (the other fields absent)."""

    kind: str | None = Field(description="guest | account; null: nobody signed in")
    name: str | None
    member_since: str | None = Field(default=None, description="when the person (or the account) began, ISO 8601")
    token: TokenScopes | None = Field(default=None, description="present when an API token is the request's key")


class SignedUp(PersonInfo):
    recovery_codes: list[str] = Field(description="shown this once; each signs in once with a new password")


class SessionInfo(BaseModel):
    id: str
    created: str
    last_seen: str
    user_agent: str
    ip: str
    current: bool = Field(description="the session of this request")


class Ended(BaseModel):
    ended: int = Field(description="how many sessions ended")


class TokenInfo(BaseModel):
    id: str
    description: str
    scopes: list[str]
    hint: str = Field(description="the token's first characters, to tell it apart")
    created: str
    last_used: str | None


class NewToken(TokenInfo):
    token: str = Field(description="the token itself (shown this once): Authorization: Bearer <token>")


class RecoveryCodes(BaseModel):
    recovery_codes: list[str]


class CodesLeft(BaseModel):
    left: int


class PlayerProfile(BaseModel):
    username: str
    member_since: str
    disabled: bool
    ratings: dict[str, dict[str, Any]] = Field(description="per pool <game>.<variant>.<speed>: {rating, rd, games, "
                                                           "provisional, wins, draws, losses, game, variant, speed, "
                                                           "label_key}")
    history: dict[str, list[dict[str, Any]]] = Field(description="per pool: [{at, rating, rd}]")
    results: dict[str, dict[str, Any]] = Field(description="per game: the person's results")
    recent_games: list[dict[str, Any]] = Field(description="finished games, the most recent first ('deleted': "
                                                           "the game was deleted since, no replay to link to)")
    current_games: list[dict[str, Any]] = Field(description="games in play")


class PoolInfo(BaseModel):
    pool: str = Field(description="<game>.<variant>.<speed>")
    game: str
    variant: str
    speed: str
    label_key: str
    label: str
    players: int = Field(description="how many are rated in it")


class Leaderboard(BaseModel):
    pool: str
    game: str
    variant: str
    speed: str
    label_key: str
    label: str
    players: list[dict[str, Any]] = Field(description="the top 50, best first")


class LevelRating(BaseModel):
    level: int
    rating: int
    rd: int
    ladder: int | None = Field(description="the level's rating on the ladder of levels (null: not measured)")
    games: int = Field(description="games of people against this level counted")


class GameLevels(BaseModel):
    family: str | None = Field(description="<game>.<variant> (null: the options make no declared variant)")
    levels: list[LevelRating]


# --- the lobby's (issue 42): seeks, quick pairing, challenges, blocks --------------------------------------
Number = int | float  # a rating as the lobby gives it (a whole number stays one)


class SeekInfo(BaseModel):
    id: str
    player: str
    player_kind: str | None = Field(default=None, description="account | guest: an account's name links to its profile")
    rating: Number = Field(description="the seeker's rating in the game's pool now (a game rated since the seek was made moves it)")
    provisional: bool
    game: str
    options: dict[str, Any]
    clock: dict[str, float] | None = Field(description="as the match view's 'clock' control: {initial, increment} "
                                                      "or {per_turn}; null: none")
    rated: bool
    seat: int | None = Field(description="the seat the seeker wants (null: either)")
    rating_range: list[int | None] | None
    created: str
    mine: bool
    acceptable: bool = Field(description="whether this request's person may take it")
    refusal: str | None = Field(description="why not: own, range, rated_guest, signed_out; null: it may")


class QuickWait(BaseModel):
    game: str
    options: dict[str, Any]
    clock: dict[str, float] | None
    rated: bool
    since: str
    computer_at: str | None = Field(description="when the computer is offered to someone waiting alone")
    computer: dict[str, Any] | None = Field(description="{level}: the computer offered (POST /api/quick/computer)")
    match: Any = Field(description="the match once paired (the lobby's WebSocket takes the browser there); null")


class ChallengeInfo(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    id: str
    from_: str = Field(alias="from")
    to: str
    from_kind: str | None = Field(default=None, description="account | guest: an account's name links to its profile")
    to_kind: str | None = Field(default=None, description="account | guest")
    game: str
    options: dict[str, Any]
    clock: dict[str, float] | None
    rated: bool
    seat: int | None = Field(description="the challenger's seat (null: either)")
    status: str = Field(description="open | accepted | declined | cancelled | expired")
    match: str | None
    mine: bool
    rating: Number
    provisional: bool
    created: str
    expires: str


class Challenges(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    in_: list[ChallengeInfo] = Field(alias="in", description="challenges to you")
    out: list[ChallengeInfo] = Field(description="yours")


class ChallengeAnswered(BaseModel):
    status: str
    match: str | None


class GameStarted(BaseModel):
    id: str = Field(description="the new match")
    my_seats: list[int] = Field(description="the seats that are yours (held by your session: no token)")
    path: str = Field(description="the page of the match in the browser")


class Blocked(BaseModel):
    name: str


class BlockInfo(BaseModel):
    name: str
    kind: str | None = Field(default=None, description="account | guest: an account's name links to its profile")
    since: str


class LobbyStart(BaseModel):
    id: str
    at: str
    source: str = Field(description="seek | quick | challenge | rematch | computer")


class LobbyView(BaseModel):
    me: PersonInfo
    seeks: list[SeekInfo]
    challenges: Challenges
    quick: QuickWait | None
    started: list[LobbyStart] = Field(description="the games the lobby started for you in the last two minutes, "
                                                  "newest first")
    waiting: int = Field(description="how many wait in quick pairing")


# --- the rounds' (issue 42): who is connected, the rematch --------------------------------------------
class PresenceInfo(BaseModel):
    online: list[bool] = Field(description="per seat: connected now")
    gone_since: list[float | None] = Field(description="per seat: since when it has had no connection (server Unix "
                                                       "time; null while connected)")
    claim_at: float | None = Field(description="when the seats held may claim against the player to move (null: "
                                               "they may not come to)")
    spectators: int
    now: float = Field(description="the server's time (Unix seconds)")


class Presence(BaseModel):
    presence: PresenceInfo


class RematchState(BaseModel):
    """What a rematch request answers: offered (202), declined (200), or started (201 when this
    request agreed it, 200 once it had started)."""

    status: str = Field(description="offered | declined | started")
    rematch: dict[str, Any] | None = Field(default=None, description="offered, declined: the offer as the match "
                                                                     "view's 'rematch'")
    id: str | None = Field(default=None, description="started: the new match")
    from_: str | None = Field(default=None, alias="from", description="started: the game it follows")
    tokens: list[SeatToken] | None = Field(default=None, description="started: tokens of the new seats held by "
                                                                    "a token alone (a session holds its own)")
    my_seats: list[int] | None = Field(default=None, description="started: your seats in the new match")
