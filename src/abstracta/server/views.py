"""The views of a match: what each seat, or a spectator, may see of it (lila's JsonView; issue
7 §2, issue 13, issue 14 §2).

A view is computed once per revision and viewer (``to_struct`` is the costly part) and shared by
every request and subscriber asking for it; only the clock is fresh each time. It reads the
match (a play session: whose move, the requests pending, who may offer a draw), the computer's
concern (whether it thinks, its last error) and the clock's figures; it changes nothing. A
replay (``GET …/positions``) is computed page by page outside the match's lock and kept in a
cache of encoded pages.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import orjson

from ..core.description import english
from ..core.errors import AbstractaError
from ..core.game import Game, State, views_differ
from ..core.records import ABORTED_TAG, HINTS_TAG, LEFT_TAG, NO_START_TAG, Record, tag_seats
from ..play.opening import start_deadline
from .clocks import Clocks
from .computer import Computer
from .errors import Forbidden, Hidden, InvalidRequest
from .matches import Kernel, Match, Who, clip, message
from .owners import Owners, is_rated
from .results import Results

#: Most plies one answer of GET …/positions replays (a page): a whole long game was one answer
#: (1,666 plies of Fibonacci: 26 MB, 1.1-1.3 s of CPU each time).
REPLAY_PAGE = 100
#: Bytes of encoded replay pages kept, all matches and viewers together (least recently used
#: dropped first).
REPLAY_CACHE_BYTES = 64_000_000
#: What a view says of the computer at a match: whether it thinks, its last error (message, i18n)
Concern = tuple[bool, "tuple[str, dict[str, Any]] | None"]


class PageCache:
    """Encoded answers (bytes) kept up to ``budget`` bytes in all, the least recently used
    dropped first; one larger than the whole budget is not kept. Thread-safe (routes run in
    worker threads)."""

    def __init__(self, budget: int):
        self.budget, self.size = budget, 0
        self._items: OrderedDict[Any, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> bytes | None:
        with self._lock:
            data = self._items.get(key)
            if data is not None:
                self._items.move_to_end(key)
            return data

    def put(self, key: Any, data: bytes) -> None:
        if len(data) > self.budget:
            return
        with self._lock:
            old = self._items.pop(key, None)
            self.size += len(data) - (len(old) if old is not None else 0)
            self._items[key] = data
            while self.size > self.budget:
                _, dropped = self._items.popitem(last=False)
                self.size -= len(dropped)


def replay_range(last_ply: int, start: Any, stop: Any) -> tuple[int, int]:
    """The plies ``start``…``stop`` (both included) of a game at ``last_ply``, at most
    :data:`REPLAY_PAGE` of them: ``start`` defaults to 0, ``stop`` to the end of the page
    (or the last ply). InvalidRequest for a range outside the game or longer than a page."""
    first = 0 if start is None else start
    for value in (start, stop):
        if value is not None and value > last_ply:
            raise InvalidRequest(f"ply {value} is past the game's last ply ({last_ply})")
    last = min(first + REPLAY_PAGE - 1, last_ply) if stop is None else stop
    if last < first:
        raise InvalidRequest(f"the page ends at ply {last}, before it starts ({first})")
    if last - first + 1 > REPLAY_PAGE:
        raise InvalidRequest(f"at most {REPLAY_PAGE} plies per page ({first}…{last} is {last - first + 1}); "
                             "ask for the others in further pages")
    return first, last


#: The view's fields that list the whole game (one entry per ply or turn): encoded once per
#: revision for all its viewers, each from the last revision's encoding plus its new entries
#: (:func:`grown`), since encoding them afresh grew with the game at every move (a move list of
#: 1,000 turns: 0.2 ms per viewer).
HISTORIES = ("moves", "movers", "turn_numbers", "record_moves", "move_list")


def _joined(head: bytes, tail: bytes) -> bytes:
    """The JSON arrays ``head`` and ``tail`` (encoded) as one array."""
    if head == b"[]":
        return tail
    if tail == b"[]":
        return head
    return head[:-1] + b"," + tail[1:]


def grown(carried: dict[str, Any], name: str, items: list[Any]) -> bytes:
    """``items`` (a list of a view's field ``name``) as orjson encodes it, from the encoding of
    the list the last revision had (``carried``: :attr:`~abstracta.play.base.SessionBase.carried`)
    when ``items`` begins with it: only the new entries are encoded. Every entry but the last is
    kept for the next (the last may still change: a turn in progress); a list that does not
    begin with the kept entries (a takeback) is encoded whole. Byte for byte what
    ``orjson.dumps(items)`` gives, for entries that are equal only when they encode alike (the
    histories' strings, ints and dicts of them: never ``True`` for ``1``)."""
    kept = carried.get(name)
    n = 0
    closed = b"[]"
    if kept is not None and len(items) >= len(kept[0]) and items[:len(kept[0])] == kept[0]:
        n, closed = len(kept[0]), kept[1]
    if len(items) > n + 1:
        closed = _joined(closed, orjson.dumps(items[n:-1], option=orjson.OPT_NON_STR_KEYS))
        n = len(items) - 1
        carried[name] = (items[:-1], closed)
    return _joined(closed, orjson.dumps(items[n:], option=orjson.OPT_NON_STR_KEYS))


def seat_styles(game: Game) -> list[dict[str, Any]]:
    """Per seat of ``game``: its name in the game (or None) and colours, from the description."""
    return [{"name": str(st.name) if st.name is not None else None, "colour": st.colour, "ink": st.ink,
             "name_key": st.name.key if st.name is not None else None}
            for st in game.description.seats]


def variant_named(game: Game) -> dict[str, str] | None:
    """The declared variant ``game``'s options make, as its heading and its row in a list name it
    ("Fibonacci — Card variant", as lichess says "Chess960"): ``{label, label_key}``; None for the
    variant of the game's defaults (the game itself) and for options no declared variant matches."""
    variant = game.description.variant_of(game.options)
    if variant is None:
        return None
    defaults = {spec.name: spec.default for spec in game.option_specs}
    if all(defaults.get(name) == value for name, value in variant.options.items()):
        return None
    return {"label": str(variant.label), "label_key": variant.label.key}

class JsonView:
    """The views of every match of one process."""

    def __init__(self, kernel: Kernel, computer: Computer, clocks: Clocks, owners: Owners | None = None,
                 results: Results | None = None):
        self.kernel, self.computer, self.clocks = kernel, computer, clocks
        self.owners, self.results = owners, results  # the people at the seats, their ratings (issue 41)
        self.pages = PageCache(REPLAY_CACHE_BYTES)  # GET …/positions answers

    def viewer(self, match: Match, held: set[int], seat: Any = None) -> int | None:
        """Whose eyes a view uses: ``seat`` (``?seat=``; the tokens must hold it, else 403),
        else the held seat to move, else the one held seat; holding several seats and none to
        move (pass and play while the computer moves, or over): the lowest of them while a
        hidden-information game runs, else ``None``, which shows every seat's last turn.
        ``None`` too (a spectator: public information only) when the tokens hold no seat of
        this match. While a game hides cards only person seats count."""
        n = len(match.players)
        if match.hides_cards:  # a computer seat's cards stay hidden, even from its match's creator
            held = {s for s in held if match.players[s] == "human"}
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise InvalidRequest(f"seat {clip(seat)} does not exist in this game (0…{n - 1})")
            if seat not in held:
                raise Forbidden(f"no token given holds seat {seat}: a spectator sees public "
                                    "information only (leave out ?seat=)")
            return seat
        if not held:
            return None
        mover = match.to_move()
        if mover in held:
            return mover
        if len(held) == 1 or (match.hides_cards and match.persons):
            return min(held)
        return None

    @staticmethod
    def position(match: Match, state: State, viewer: int | None) -> str:
        """The position text ``viewer`` may see: everything once the game is over or without
        hidden information; a seat's observation; a spectator's public observation (``""``
        when the game has no public text)."""
        if not match.game.has_hidden_information or match.over:
            return state.to_text()
        if viewer is None:
            return state.public_observation() or ""
        return state.observation(viewer)

    @staticmethod
    def struct(match: Match, state: State, viewer: int | None, shared: dict[str, Any] | None = None,
               carried: dict[str, Any] | None = None) -> dict[str, Any]:
        """``state.to_struct`` for ``viewer``. Once the match is over every hidden card is shown
        at every ply, to everyone who may view it (its record, whose seed rebuilds the deal, is
        public then too); the struct is still the viewer's (its legal moves, its recent turns).
        ``shared``: kept with ``state`` for all its viewers; ``carried``: along the match's line
        of revisions (``State.to_struct``)."""
        return state.to_struct(viewer, reveal=match.over, shared=shared, carried=carried)

    def record_json(self, match: Match) -> str:
        """The record for a client: refused (409) while hidden cards are still hidden, because
        its seed rebuilds every hand and the stock (the stored record keeps the seed)."""
        if match.hides_cards:
            raise Hidden("the record of a game with hidden cards is available when it is over")
        return match.record().to_json()

    def view(self, match: Match, held: set[int] = frozenset(), seat: Any = None) -> dict[str, Any]:
        """The match as the seats ``held`` may see it (``seat``: which of them; none held: a
        spectator). Legal moves only for a held seat to move.

        Computed once per revision and viewer (``to_struct`` is the costly part) and shared by
        every request and subscriber asking for it; only the clock is fresh each time. The
        answer is shared: callers must not change it."""
        return self._cached_view(match, held, seat)[0]

    def view_json(self, match: Match, held: set[int] = frozenset(), seat: Any = None,
                  concern: Concern | None = None) -> bytes:
        """:meth:`view` as JSON (UTF-8), encoded once per revision and viewer (a match with a
        clock: each time, since the clock's figures are of the moment). ``concern``: the
        computer's :meth:`concern` for the match now, when the caller has it."""
        entry = self._cached_view(match, held, seat, concern)
        if entry[1] is None:
            encoded = orjson.dumps(self._fragments(match, entry[0]), option=orjson.OPT_NON_STR_KEYS)
            if match.live.clock is None:
                entry[1] = encoded
            return encoded
        return entry[1]

    def concern(self, match: Match) -> Concern:
        """What a view says of the computer at ``match`` now: ``(whether it thinks, its last
        error)`` (:meth:`Computer.shows_thinking`, :meth:`Computer.bot_error`)."""
        return self.computer.shows_thinking(match), self.computer.bot_error(match)

    def _cached_view(self, match: Match, held: set[int], seat: Any, concern: Concern | None = None) -> list[Any]:
        """``[view, its JSON or None]`` from the match's cache of views (per revision: a new
        revision is a new Match object), the clock fresh."""
        # asked once for the view (the key, then the fields): each asking walks the computer's
        # state of the match again
        thinking, bot_error = concern if concern is not None else self.concern(match)
        # the people's names and rating changes are read apart from the revision (a guest
        # renames itself; the game's record reaches the standings): a view per what they are
        people = self._people(match)
        key = (frozenset(held), seat, thinking, bot_error and bot_error[0], orjson.dumps(people))
        views = match.__dict__.setdefault("_views", {})
        entry = views.get(key)
        if entry is None:
            entry = views[key] = [{**self._view(match, held, seat, (thinking, bot_error)), **people}, None]
        if match.live.clock is None:
            return entry
        return [{**entry[0], "clock": self.clocks.view(match)}, None]

    def _fragments(self, match: Match, view: dict[str, Any]) -> dict[str, Any]:
        """``view`` to encode: its :data:`HISTORIES` as encoded already (``orjson.Fragment``:
        once per revision for every viewer, each from the last revision's; :func:`grown`)."""
        encoded = self._shared(match, "_encoded")
        out = dict(view)
        for name in HISTORIES:
            items = view.get(name)
            if not isinstance(items, list):
                continue
            done = encoded.get(name)
            if done is None or done[0] is not items:
                if name == "record_moves" and items is view.get("moves"):  # a game writing an entry per action
                    done = encoded[name] = (items, out["moves"])
                else:
                    done = encoded[name] = (items, orjson.Fragment(grown(match.carried, name, items)))
            out[name] = done[1]
        # what every viewer of a game without hidden information sees alike (the struct's board,
        # legal moves and choices: the very same objects, State.to_struct's shared parts, the
        # legal moves twice in a view): encoded once per revision
        alike = self._shared(match, "_struct")
        struct = view.get("struct")
        if alike.get("board") is not None and isinstance(struct, dict):
            out["struct"] = struct = dict(struct)
            for name in ("board", "legal", "choices"):
                if struct.get(name) is alike[name]:
                    struct[name] = self._fragment(encoded, name, alike[name])
            if out.get("legal") is alike["legal"]:
                out["legal"] = self._fragment(encoded, "legal", alike["legal"])
        return out

    @staticmethod
    def _fragment(encoded: dict[str, Any], name: str, value: Any) -> orjson.Fragment:
        """``value`` encoded once per revision under ``name`` (kept with it: the same object)."""
        done = encoded.get(name)
        if done is None or done[0] is not value:
            done = encoded[name] = (value, orjson.Fragment(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)))
        return done[1]

    def _people(self, match: Match) -> dict[str, Any]:
        """The view's fields of people (issue 41): ``people`` (per seat ``{name, kind}`` or
        None), ``rated``, ``rating_changes`` (per seat, at the end of a rated game)."""
        n = len(match.players)
        return {"people": list(self.owners.names(match)) if self.owners is not None else [None] * n,
                "rated": is_rated(match),
                "rating_changes": (list(changes) if self.results is not None
                                   and (changes := self.results.changes(match)) is not None else None)}

    # --- what the routes ask for (each under the match's lock) -----------------------------------
    def snapshot(self, match_id: str, tokens: Who, seat: Any = None) -> bytes:
        """The view of ``match_id`` for ``tokens`` (a fallen flag applied first), as JSON."""
        def look() -> bytes:  # one hold of the lock: the match as it is, then its view
            match = self.kernel.tick(self.kernel.load(match_id))
            return self.view_json(match, self.kernel.held(match, tokens), seat)

        return self.kernel.change(match_id, look)

    def act_view(self, match: Match, tokens: Who, seat: Any = None) -> bytes:
        """The view of ``match`` (just changed) for ``tokens``, as JSON."""
        with self.kernel.locked(match.id):
            return self.view_json(match, self.kernel.held(match, tokens), seat)

    def positions_page(self, match_id: str, tokens: Who, seat: Any = None,
                       start: int | None = None, stop: int | None = None) -> bytes:
        """The plies ``start``…``stop`` of the replay (see :func:`replay_range`) as JSON:
        ``{"ply", "revision", "viewer", "from", "to", "moves", "positions", "structs"}``, the
        position text and the structured view after each of those plies as :meth:`viewer` may
        see them (``revision`` and ``viewer``: which state and whose eyes, so a client can tell
        an answer for a view it no longer shows). Computed
        once per revision, viewer and range and kept in :attr:`pages`. The replay runs outside
        the match's lock, on the match as it was asked for (a change makes a new
        :class:`Match`, never alters the one stored), so a spectator asking for it again and
        again never holds up the players."""
        match = self.kernel.current(match_id)
        with self.kernel.locked(match_id):
            viewer = self.viewer(match, self.kernel.held(match, tokens), seat)
        first, last = replay_range(match.ply, start, stop)
        key = (match.id, match.revision, match.ply, match.over, viewer, first, last)
        page = self.pages.get(key)
        if page is None:
            texts, structs = self._replay(match, viewer, first, last)
            page = orjson.dumps({"ply": match.ply, "revision": match.revision, "viewer": viewer,
                                 "from": first, "to": last, "moves": match.strings,
                                 "positions": texts, "structs": structs}, option=orjson.OPT_NON_STR_KEYS)
            self.pages.put(key, page)
        return page

    def record_of(self, match_id: str) -> tuple[Match, str]:
        """``(match, record JSON)``: see :meth:`record_json`."""
        with self.kernel.locked(match_id):
            match = self.kernel.load(match_id)
            return match, self.record_json(match)

    def seats_of(self, match_id: str, tokens: Who) -> set[int]:
        """The seats ``tokens`` (a holder: its person's too) hold in ``match_id`` (NotFound if absent)."""
        with self.kernel.locked(match_id):
            return self.kernel.held(self.kernel.load(match_id), tokens)

    def _view(self, match: Match, held: set[int], seat: Any, concern: Concern) -> dict[str, Any]:
        """The view for ``held`` and ``seat``: the match's fields every viewer sees alike
        (:meth:`_common`, computed once per revision and computer state), with the viewer's own
        filled in (their places kept: the view's fields stay in the documented order)."""
        viewer = self.viewer(match, held, seat)
        view = dict(self._common(match, concern))
        mover = view["to_move"]
        # no move is played before every seat is taken (issue 38 §1): none offered either
        show_legal = view["human_to_move"] and mover in held and not match.waiting_for
        # the one rule an offer meets: the seats these tokens would offer a draw for, and why not now
        mine_draw, draw_refused = match.draw_refusal(held)
        position = self._position(match, viewer)
        struct = self.struct(match, match.state, viewer, self._shared(match, "_struct"),
                             match.carried.setdefault("struct", {}))
        view.update({
            "private_views": self._private_views(match, held),
            "viewer": viewer,
            "my_seats": sorted(held),
            "position": position,
            "struct": struct,
            "legal": self._legal(match, struct) if show_legal else [],
            "turns": self._turns(match) if show_legal else None,
            # whether these tokens may offer a draw now (docs: playing/distance.md "Draw offers")
            "draw_offerable": match.live.draw is None and draw_refused is None,
            # the turns of its own the seat these tokens offer for still plays before offering again
            "draw_again_in": match.draw_again_in(min(mine_draw)) if mine_draw else 0,
            # the start and end between people: per viewer (whether these tokens may abort)
            **self._start_and_end(match, held),
        })
        return view

    @staticmethod
    def _shared(match: Match, name: str) -> dict[str, Any]:
        """A dict kept with ``match`` (one revision: a change makes a new Match) under ``name``."""
        kept = match.__dict__.get(name)
        if kept is None:  # (not setdefault: a dict made at every call for nothing)
            kept = match.__dict__[name] = {}
        return kept

    def _position(self, match: Match, viewer: int | None) -> str:
        """:meth:`position` of the match now, computed once for every viewer when they all see
        the same text (no hidden information, or the game is over)."""
        if match.game.has_hidden_information and not match.over:
            return self.position(match, match.state, viewer)
        kept = self._shared(match, "_legal")
        if "position" not in kept:
            kept["position"] = self.position(match, match.state, viewer)
        return kept["position"]

    def _legal(self, match: Match, struct: dict[str, Any] | None = None) -> list[str]:
        """The legal action strings now, once per revision: the struct's when it has them (a
        game without hidden information shares them between its viewers; ``struct``, the
        viewer's, lists them when the viewer is the seat to move), since listing them names
        every legal action (80 of them in a hex game's middle: a tenth of a move's view)."""
        kept = self._shared(match, "_legal")
        if "legal" not in kept:
            alike = self._shared(match, "_struct")
            state = match.state  # the struct lists them for a seat to move only
            shared = (not match.game.has_hidden_information and "legal" in alike and not state.is_terminal()
                      and state.current_player() >= 0)
            if shared:
                kept["legal"] = alike["legal"]
            elif struct is not None and struct["to_move"] is not None and struct["viewer"] == struct["to_move"]:
                kept["legal"] = struct["legal"]  # build_struct's state.legal_action_strings()
            else:
                kept["legal"] = state.legal_action_strings()
        return kept["legal"]

    def _common(self, match: Match, concern: Concern) -> dict[str, Any]:
        """The fields of the view that do not depend on whose eyes (per revision and computer
        state ``concern``: whether it thinks, its last error), in the view's order; the viewer's
        fields are placeholders :meth:`_view` fills in. Shared: do not change it."""
        thinking, bot_error = concern
        kept = self._shared(match, "_common")
        key = (thinking, bot_error and bot_error[0])
        if key in kept:
            return kept[key]
        game = match.game
        mover = match.to_move()
        pending = match.live.takeback
        offer = match.live.draw
        # the record's options and move list, not the record (formatting its date and copying
        # its move list at every revision for two fields)
        # each of these walks the whole game: once per revision, not once per field
        movers, numbers = match.played_by(), match.turn_numbers()
        fixed = self._of_game(match)
        kept[key] = common = {
            "id": match.id,
            "game": game.name,
            "title": game.title,
            "title_key": game.description.title.key,
            "variant": fixed["variant"],
            "options": fixed["options"],
            # the seed fixes every hidden card: only shown once a hidden-information game is over
            "seed": (match.initial.seed if game.has_chance and not match.hides_cards else None),
            "players": match.players,
            "num_players": len(match.players),
            "seats": fixed["seats"],
            "board": fixed["board"],
            "board_module": f"/games/{game.name}/board.js" if game.description.web is not None else None,
            "hidden_information": game.has_hidden_information,
            "private_views": None,
            "viewer": None,
            "my_seats": None,
            "claimed": [i in match.claimed for i in range(len(match.players))],
            # the person seats not taken yet: the game waits for them (issue 38 §1)
            "waiting_for": match.waiting_for,
            "ply": match.ply,
            "revision": match.revision,
            "to_move": mover,
            "human_to_move": mover is not None and match.players[mover] == "human",
            "thinking": thinking,
            "position": None,
            "struct": None,
            "legal": None,
            "turns": None,
            "last_action": match.strings[-1] if match.strings else None,
            "moves": match.strings,
            "movers": movers,
            "turn_numbers": numbers,
            # the count Your games stores and lists, so that a page says it rather than counts it
            "turns_played": match.turns_played(),
            "record_moves": match.record_moves(),
            "move_list": self._move_list(match, movers, numbers),
            "result": match.result,
            "termination": match.termination,
            "resigned": match.resigned,
            "out_of_time": match.out_of_time,
            "out_at": match.out_at(),
            "hints": match.hint_counts() if HINTS_TAG in match.tags else None,
            "status": "over" if match.over else "playing",
            "created": match.tags.get("date"),
            "clock": self.clocks.view(match),
            "takeback": dict(pending) if pending is not None else None,
            "draw_offer": ({**offer, "waiting": match.draw_waiting(offer)}
                           if offer is not None and not match.over else None),
            "draw_offerable": None,  # per viewer: filled in by the caller
            # how the last offer and takeback request that did not happen ended, at this position
            "draw_offer_ended": match.live.draw_ended if not match.over else None,
            "takeback_ended": match.live.takeback_ended if not match.over else None,
            "draw_again_in": None,
            # the refused move of a computer seat may name a card of its hidden hand
            "bot_error": (None if bot_error is None else english(message("error.bot_hidden"))
                          if match.hides_cards else bot_error[0]),
            "bot_error_i18n": (None if bot_error is None else message("error.bot_hidden")
                               if match.hides_cards else bot_error[1]),
        }
        return common

    @staticmethod
    def _of_game(match: Match) -> dict[str, Any]:
        """The view's fields that the match's game alone makes (its variant, seats, board, options),
        made once for the match's line of revisions (:attr:`~abstracta.play.base.SessionBase.carried`;
        its game never changes). Shared: do not change them."""
        kept = match.carried.get("of_game")
        if kept is None or kept[0] is not match.game:
            game = match.game
            kept = match.carried["of_game"] = (game, {"variant": variant_named(game), "seats": seat_styles(game),
                                                      "board": dict(game.description.board),
                                                      "options": Record.options_of(game)})
        return kept[1]

    @staticmethod
    def _start_and_end(match: Match, held: set[int]) -> dict[str, Any]:
        """The view's fields of a game's start and end between people (issue 42): who must make
        a first move by when, whether these tokens may abort, how an aborted game or one a
        player left ended, and the rematch."""
        tags = match.tags
        aborted = None
        if match.aborted:
            for tag, why in ((ABORTED_TAG, "abort"), (NO_START_TAG, "no_start")):
                seats = tag_seats(tags.get(tag), len(match.players))
                if seats:
                    aborted = {"seat": seats[0], "why": why}
        left = tag_seats(tags.get(LEFT_TAG), len(match.players)) if match.termination == "left" else None
        unmoved = match.unmoved if not match.over else []
        return {
            "start_deadline": start_deadline(match),
            "abortable": not match.over and any(i in unmoved and i in match.persons for i in held),
            "aborted": aborted,
            "left": left[0] if left else None,
            "rematch": dict(match.live.rematch) if match.live.rematch is not None and match.over else None,
        }

    def _move_list(self, match: Match, movers: list[int] | None = None,
                   numbers: list[int] | None = None) -> list[dict[str, Any]]:
        """The turns played as the terminal's replay writes them (``Game.format_turn``: Nibble's
        ``b2+i8`` and ``a1``), each with the ply after each of its entries, where a click on it
        goes (an entry that writes the turn whole goes to its end). ``movers`` and ``numbers``:
        the match's :meth:`played_by` and :meth:`turn_numbers`, when the caller has them."""
        if movers is None or numbers is None:
            movers, numbers = match.played_by(), match.turn_numbers()
        turns = match.turn_texts(movers, numbers)
        # the rows of the turns over are the last revision's (a move writes its own turn's only)
        kept = match.carried.get("move_list_rows")
        n, rows = 0, []
        if kept is not None and len(turns) >= len(kept[0]) and turns[:len(kept[0])] == kept[0]:
            n, rows = len(kept[0]), kept[1]
        rows = rows + [{"number": t.number, "seat": t.seat, "from": t.first, "to": t.stop, "moves": t.moves,
                        "plies": t.plies} for t in turns[n:]]
        if len(turns) > n + 1:  # every turn but the last is over
            match.carried["move_list_rows"] = (turns[:-1], rows[:-1])
        return rows

    @staticmethod
    def _turns(match: Match) -> list[str] | None:
        """The legal whole turns in the game's whole-turn notation (``Game.turn_strings``), or
        None for games without one and in the middle of a turn."""
        if not match.game.description.whole_turn_notation:
            return None
        try:
            return list(match.game.turn_strings(match.state)) or None
        except AbstractaError:  # in the middle of a turn there are no whole turns to list
            return None

    @staticmethod
    def _private_views(match: Match, held: set[int]) -> bool:
        """Whether the persons whose seats ``held`` holds see different things (then people
        sharing a device need a hand-over screen)."""
        return views_differ(match.state, [i for i in match.persons if i in held])

    def positions(self, match: Match, held: set[int] = frozenset(),
                  seat: Any = None) -> tuple[list[str], list[dict[str, Any]]]:
        """The position text and the structured view after each ply (index 0 = start), as the
        viewer of :meth:`viewer` may see them."""
        return self._replay(match, self.viewer(match, held, seat))

    def _replay(self, match: Match, viewer: int | None, first: int = 0,
                last: int | None = None) -> tuple[list[str], list[dict[str, Any]]]:
        """The texts and structs of plies ``first``…``last`` (default: every ply). Playing an
        action costs little beside describing a position (``to_struct``), so only the plies
        asked for are described."""
        last = match.ply if last is None else last
        state = match.initial.clone()
        texts: list[str] = []
        structs: list[dict[str, Any]] = []
        for ply in range(last + 1):
            if ply:
                state.apply_action(match.actions[ply - 1])
            if ply >= first:
                texts.append(self.position(match, state, viewer))
                structs.append(self.struct(match, state, viewer))
        return texts, structs



__all__ = ["JsonView", "PageCache", "REPLAY_PAGE", "replay_range", "seat_styles", "variant_named"]
