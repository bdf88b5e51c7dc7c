"""The terminal's side of a game in play: a prompt for the people, the computer's turns, and
the words for what happened (issue 37). Every rule of play is the play session's
(:class:`abstracta.play.Session`): :class:`PlaySession` reads what people type, asks the session,
and prints the events it returns or why it refused.
"""

from __future__ import annotations

import contextlib
import sys
import time
from typing import Any, Sequence

from rich.markup import escape

from ..core.description import search_words, seat_name
from ..core.errors import AbstractaError, NotationError
from ..core.game import Game, State, resignation_returns, seats_out, views_differ
from ..core.records import Record
from ..play import PlayError, Progress, RequestEnded, Session, read_typed
from .base import console, err_console
from .records import describe_result, named_seat, seat_role, seats_line


#: The most searches a hint makes for one turn: the first, then more from inside a turn the
#: prompt reads whole (each search gives at least one more action of the turn).
MAX_HINT_SEARCHES = 6


PLAY_HELP = """Type a move in the game's notation, or:
  ?        list the legal moves
  hint     the analysis board's best turn for you (against the computer;
           counted in the record)
  undo     take back the last turn (the computer's replies with it)
  board    draw the board again
  resign   give up{draw}
  quit     stop (the record is saved as abandoned)
  help     this text"""

#: The help's line for the draw offer: ``draw``, or ``offer draw`` in a game with a move written
#: ``draw`` (it stays the move there).
DRAW_HELP = """\n  draw     offer the other players a draw (people at one terminal; the
           computer never agrees to one)"""
OFFER_DRAW_HELP = """\n  offer draw  offer the other players a draw (draw is a move here; people
           at one terminal; the computer never agrees to one)"""


class HungUp(KeyboardInterrupt):
    """The terminal closed (SIGHUP), the process was asked to stop (SIGTERM, ``kill``) or its
    output pipe was closed (EPIPE: ``play … | head``) during ``play``: handled as Ctrl-C is, the
    game saved as abandoned."""


@contextlib.contextmanager
def stopped_from_outside() -> Any:
    """Turn SIGHUP and SIGTERM into :class:`HungUp` while a game is played: by default they end
    the process at once, and closing the terminal window or ``kill`` lost the whole game. Yields
    an object whose ``signum`` is the signal received (else 0), for the exit code (128 + signum),
    and ``armed``: whether a signal stops the game now (after it, the record is being saved: a
    signal then is only noted; the terminal closing gives end of input and SIGHUP in either order).

    The handler runs on the main thread, but only between two steps of its Python code: a
    SIGTERM delivered to another thread (any that does not block it may take it, a native
    library's) or just before the prompt's read of the next line began leaves it waiting for that
    read to end, which ``kill`` does not do (a closed terminal does). A watcher thread hears every
    signal through the wakeup file descriptor and sends SIGTERM to the main thread itself until
    the handler has run: a delivery there interrupts the read.

    A closed output pipe (EPIPE on a write: the reader of ``play … | head -3`` is gone) stops the
    game as SIGPIPE would (``signum`` SIGPIPE, and ``output_closed``): rich's own handling ended
    the process (exit 1) before the record was saved. Python ignores SIGPIPE itself, so the
    write fails instead of the process being killed."""
    import os
    import signal
    import threading
    import types

    stop = types.SimpleNamespace(signum=0, armed=True, output_closed=False)
    wanted = [getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)]
    if threading.current_thread() is not threading.main_thread():  # only the main thread takes signals
        yield stop
        return

    def stopped(signum: int, _frame: Any) -> None:
        if stop.signum:  # once: a second raise could land in the first one's handling
            return
        stop.signum = signum
        if signum == getattr(signal, "SIGHUP", None):
            # no terminal any more: a print would fail (EIO) before the record is saved
            for out in (console, err_console):
                out.file = open(os.devnull, "w")  # noqa: SIM115 - for the rest of the process
        if stop.armed:
            raise HungUp

    def output_closed() -> None:  # rich calls it on EPIPE; its own exits
        console.quiet = True  # nothing more is written to the pipe
        # nor by Python's own flush at exit ("Exception ignored … BrokenPipeError")
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        stop.output_closed = True
        if stop.signum:
            return
        stop.signum = getattr(signal, "SIGPIPE", 13)
        if stop.armed:
            raise HungUp

    before = {signum: signal.signal(signum, stopped) for signum in wanted}
    quiet = console.quiet
    console.on_broken_pipe = output_closed  # type: ignore[method-assign]
    watcher = _watch_for_sigterm(stop) if hasattr(signal, "pthread_kill") else contextlib.nullcontext()
    try:
        with watcher:
            yield stop
    finally:
        del console.on_broken_pipe  # rich's again
        console.quiet = quiet
        for signum, handler in before.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def _watch_for_sigterm(stop: Any) -> Any:
    """While it lasts, a SIGTERM whose handler has not run is sent to the main thread again until
    it has (see :func:`stopped_from_outside`); ends before the handlers are restored, so no
    SIGTERM it sends meets the default handler."""
    import os
    import signal
    import threading
    import time

    main = threading.main_thread().ident
    r, w = os.pipe()
    os.set_blocking(w, False)  # the C handler must never wait on a full pipe
    old = signal.set_wakeup_fd(w, warn_on_full_buffer=False)

    def watch() -> None:
        while data := os.read(r, 64):
            # each delivery writes here, the ones sent below too: sent again until the handler ran
            if signal.SIGTERM in data:
                time.sleep(0.05)  # time for the main thread to run it, as it does when its read ends
                if not stop.signum:
                    signal.pthread_kill(main, signal.SIGTERM)

    thread = threading.Thread(target=watch, name="sigterm-watcher", daemon=True)
    thread.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(old)
        os.close(w)  # the watcher reads the end of the pipe and returns
        thread.join()
        os.close(r)


def line_reader(interactive: bool | None = None) -> Any:
    """A function ``read(prompt) -> str`` for the terminal: prompt_toolkit's line editing and
    history (Up arrow) when both ends are a terminal that moves its cursor (or ``interactive``),
    else plain input (pipes, tests, ``TERM=dumb``: prompt_toolkit's escapes would show as text).
    Raises ``EOFError`` at the end of input, ``KeyboardInterrupt`` on Ctrl-C."""
    if interactive is None:
        from prompt_toolkit.utils import is_dumb_terminal

        interactive = sys.stdin.isatty() and sys.stdout.isatty() and not is_dumb_terminal()
    if interactive:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory

        session: PromptSession = PromptSession(history=InMemoryHistory())
        return lambda prompt: session.prompt(prompt)
    return lambda prompt: console.input(prompt, markup=False)


class PlaySession:
    """A game at the terminal: the computer's seats move by themselves, people type at a prompt.

    The game is a play session (:attr:`session`, :class:`abstracta.play.Session`), whose rules
    decide every act; this class reads what people type, asks the session and says what
    happened. All the people at one terminal hold every person seat between them, as one
    browser holding them all does (pass and play): an undo is theirs at once, and a draw
    offer is answered by each of the others in turn."""

    def __init__(self, game: Game, initial: State, seats: list[str], bots: list[Any],
                 read: Any = None, actions: Sequence[int] = (), tags: dict[str, str] | None = None,
                 start: str | None = None):
        self.game = game
        self.initial = initial
        self.seats = seats
        self.bots = bots
        #: the game in play: replaced by each act's new session
        self.session = Session.begin(game, initial, seats, actions, tags=dict(tags or {}), start=start)
        self.read = read or line_reader()
        #: whether the game stopped on Ctrl-C (the command then exits 130, as match does)
        self.interrupted = False
        #: whether a person's hidden cards were shown (two people at one terminal: a hand-over hides them)
        self.hand_shown = False

    @property
    def state(self) -> State:
        return self.session.state

    @property
    def actions(self) -> list[int]:
        return self.session.actions

    @property
    def hints(self) -> list[int]:
        """Hints given per seat (the record's ``Hints``)."""
        return self.session.hint_counts()

    @property
    def resigned(self) -> int | None:
        """The seat that resigned (None: nobody did)."""
        return self.session.resigned

    @property
    def humans(self) -> set[int]:
        """The seats people play: all of them are at this terminal."""
        return {i for i, b in enumerate(self.bots) if b is None}

    def act(self, progress: Progress) -> Progress:
        """Make ``progress`` (an act of :attr:`session`) the game as it is now."""
        self.session = progress.after
        return progress

    def record(self, termination: str | None) -> Record:
        """The record of the game as it stands: ``termination`` (``abandoned``) for one that is
        not over; the session's tags (the ending's, the hints) and its result."""
        return self.session.record(termination)

    def who(self, player: int) -> str:
        """The seat's name in the game (White, Red), else "You" for the only person, else
        Player N (numbered from 1, as the browser names it; --seat N-1)."""
        seats = self.game.description.seats
        if seats[player].name is None and self.only_person(player):
            return "You"
        return seat_name(seats, player)

    def only_person(self, player: int) -> bool:
        """Whether ``player`` is the one seat a person plays (the others are bots): "you"."""
        return [i for i, b in enumerate(self.bots) if b is None] == [player]

    def role(self, player: int) -> str:
        """Who plays the seat: "you" when you are the only person, else :func:`seat_role`."""
        return "you" if self.only_person(player) else seat_role(self.seats[player])

    def seats_line(self) -> str:
        """Every seat by its name, its number for ``--seat`` and who plays it."""
        return seats_line(self.game, [self.role(i) for i in range(len(self.seats))])

    def prompt(self, player: int) -> str:
        """The move prompt: whose turn, and that it is yours when you are the only person
        ("Your move (White)> ", as the browser's status says); else the seat's name."""
        name = self.who(player)
        if self.role(player) == "you":
            return f"Your move ({seat_name(self.game.description.seats, player)})> "
        return f"{name} move> "

    def winners_text(self, returns: list[float]) -> str:
        winners = [self.who(i) for i, r in enumerate(returns) if r > 0]
        drawn = [self.who(i) for i, r in enumerate(returns) if r == 0]
        if not winners and len(returns) > 2 and drawn and any(r < 0 for r in returns):
            # three or four players: the seats still in share a draw (a resignation), the others lost
            return ", ".join(drawn) + (" draw" if len(drawn) > 1 or drawn[0] == "You" else " draws")
        if not winners:
            return "nobody wins"
        return ", ".join(winners) + (" win" if len(winners) > 1 or winners[0] == "You" else " wins")

    def view_for(self) -> int | None:
        humans = [i for i, b in enumerate(self.bots) if b is None]
        if not self.game.has_hidden_information or self.state.is_terminal():
            return None  # a finished game shows the whole deal, as replay shows it
        player = self.state.current_player()
        if player in humans:
            return player
        return humans[0] if humans else None

    def show(self) -> None:
        from rich.cells import cell_len

        board = self.game.render(self.state, self.view_for())
        console.print(board)
        lines = (board.plain if hasattr(board, "plain") else str(board)).splitlines()
        # rows of a board wrapped look like a broken board: say why (a line or two of a legend
        # wraps as any text does)
        if sum(cell_len(line.rstrip()) > console.width for line in lines) > 4:
            console.print(f"[dim](the board is wider than this terminal's {console.width} columns: "
                          "widen it to see the board whole)[/]")

    def legal_moves_for_humans(self) -> list[str]:
        """Whole turns where the game has a whole-turn notation (at a turn start), else actions."""
        if self.game.description.whole_turn_notation:
            try:
                return self.game.turn_strings(self.state)
            except AbstractaError:  # mid-turn: the single actions that continue it
                pass
        return self.state.legal_action_strings()

    def undo(self) -> str | None:
        """Take back to the start of the latest turn of a person (the computer's replies
        after it with it): ``Session.undo`` for every person seat. Returns None when done, else
        the session's reason why not (nothing to take back; an action since then showed a card
        or a chance outcome, which replaying would show again)."""
        try:
            self.act(self.session.undo(self.humans, now()))
        except PlayError as exc:
            return str(exc)
        for bot in self.bots:
            if bot is not None:
                bot.restart()
        return None

    def hint(self, player: int) -> str:
        """The analysis board's best turn for ``player`` (to move) from what that seat knows, in
        the notation typed at the prompt, and its evaluation; counted in the record's ``Hints``
        (``Session.count_hint``: an answer that names no turn is not a hint given, and is not
        counted)."""
        from ..ai.analysis import analyse

        result = analyse(self.state, player)
        if not result.line or result.line[0].player != player:
            return "no hint here"
        self.act(self.session.count_hint(player, self.session.actions, True))
        probe, actions = self.state.clone(), []

        def take(line: Any) -> None:
            for text in line[0].actions:
                actions.append(probe.string_to_action(text))
                probe.apply_action(actions[-1])

        def open_turn() -> bool:
            return not probe.is_terminal() and probe.current_player() == player

        take(result.line)
        # a turn the prompt reads whole cannot be typed in part (a typed entry that plays other
        # actions than the search's, e.g. one that ends the turn too): search on from inside it
        # until it ends, so the hint names a turn that can be typed
        for _ in range(MAX_HINT_SEARCHES):
            if not open_turn() or self.typed_as(self.game.format_turn(self.state, actions)) == actions:
                break
            more = analyse(probe, player)
            if not more.line or more.line[0].player != player:
                break
            take(more.line)
        first, *rest = self.game.format_turn(self.state, actions)  # each entry typed at its own prompt
        then = f", then {', '.join(rest)}" if rest else ""
        # a search that stops inside a long turn (Fibonacci's six moves, a capture chain) names
        # only its start: say so, or the hint reads as a whole turn that leaves moves over
        if open_turn():
            then += ", then the rest of the turn is yours to choose (the search stopped there)"
        whom = self.who(player)
        whom = "you" if whom == "You" else whom  # mid-sentence
        return (f"hint: {first}{then}   (evaluation {result.display} for {whom}; "
                f"{search_words(result.search, result.iterations)})")

    def typed_as(self, entries: list[str]) -> list[int] | None:
        """The actions ``entries`` play when typed one at a prompt each from this position
        (``Game.parse_turn``), or None where one is refused."""
        trial, actions = self.state.clone(), []
        try:
            for entry in entries:
                for action in self.game.parse_turn(trial, entry):
                    trial.apply_action(action)
                    actions.append(action)
        except AbstractaError:
            return None
        return actions

    def draw_is_a_move(self) -> bool:
        """Whether the game writes a move ``draw`` (a card drawn from the stock), legal here or
        not: typed, it is that move, and ``offer draw`` offers a draw."""
        try:
            self.game.parse_turn(self.state, "draw")
        except NotationError:
            return False
        except AbstractaError:  # the game's notation, not legal now
            return True
        return True

    def draw_help(self) -> str:
        """The help's line for the draw offer; none in a game whose rules have no draws
        (``draw`` is then refused with the session's words, as the server refuses it)."""
        if not self.game.description.draws:
            return ""
        return OFFER_DRAW_HELP if self.draw_is_a_move() else DRAW_HELP

    def draw_refusal(self, player: int) -> str | None:
        """Why ``player`` may offer no draw now, by the session's rule (docs: playing/distance.md "Draw offers"; a
        seat still in is the computer's, which never agrees to one). None: it may."""
        _, refused = self.session.draw_refusal({player})
        if refused is None:
            return None
        said = refused.i18n or {}
        if said.get("key") == "error.draw_computer":  # the seat by its name here
            seat = said["params"]["seat"]
            return f"no draw: {named_seat(self.state, seat)} is played by the computer, which does not agree to draws"
        return f"no draw: {refused}"

    def offer_draw(self, player: int, humans: list[int]) -> str | None:
        """``player`` offers a draw (no :meth:`draw_refusal`); each other seat still in is asked
        in turn (``Session.answer_draw``), and all must accept — a seat out has lost whatever
        the others agree. Returns None when drawn, else what to tell the offerer. People who see
        different cards pass the terminal before each answer."""
        console.print(f"{self.who(player)} offers a draw")
        hidden = views_differ(self.state, humans)
        progress = self.act(self.session.offer_draw({player}, now()))
        while not self.session.over:
            offer = self.session.live.draw
            assert offer is not None
            seat = self.session.draw_waiting(offer)[0]
            answer = ""
            if not hidden or self._hand_over(seat):  # end of input at the hand-over: not accepted
                try:
                    answer = self.read(f"{self.who(seat)}, accept a draw? [y/N] ").strip().lower()
                except HungUp:  # the game stops: saved as abandoned
                    raise
                except (EOFError, KeyboardInterrupt):
                    answer = ""
            progress = self.act(self.session.answer_draw({seat}, answer in ("y", "yes"), now()))
            if progress.has(RequestEnded):
                return f"{self.who(seat)} declines the draw; play on"
        return None

    def run(self, humans: list[int]) -> str | None:
        """Play until the game ends; returns the record's termination."""
        try:
            return self._run(humans)
        except KeyboardInterrupt:  # Ctrl-C while a bot thinks: keep what was played
            self.interrupted = True
            # stopped while the end was being told (the last board, a resignation): it ended
            if self.session.over:
                return self.session.termination
            console.print("\ngame abandoned")
            return "abandoned"

    def _hand_over(self, player: int) -> bool:
        """Between two people at one terminal with hidden cards: hide the screen until the next
        person is there. Returns False at end of input."""
        if console.is_terminal and not console.is_dumb_terminal:
            if self.hand_shown:  # before the first hand, the title and "type help" stay
                # the screen, then the scrollback (3J, after 2J for xterm): scrolling alone
                # leaves the last hand one scroll away
                console.file.write("\x1b[2J\x1b[H\x1b[3J")
                console.file.flush()
        else:  # a dumb terminal or a pipe understands no escape
            console.print("\n" * console.size.height)
        try:
            name = self.who(player)
            seat = f" (seat {player})"  # the number --seat gives it
            self.read(f"pass the terminal to {name}{seat}, then press Enter ")
        except EOFError:
            return False
        return True

    def _computer_turn(self, player: int, bot: Any) -> str:
        """The computer's whole turn at seat ``player``, each action through the session (which
        writes the turn in the game's canonical order when it ends, as the server does); the
        turn as a person types it (e.g. Nibble's a1+a9, a1)."""
        before, first = self.state.clone(), self.session.ply
        while not self.session.over and self.session.to_move() == player:
            self.act(self.session.play_computer(bot.step(self.state.clone()), now()))
        return ", ".join(self.game.format_turn(before, self.session.actions[first:]))

    def _run(self, humans: list[int]) -> str | None:
        if humans:
            console.print(f"[bold]{self.game.title}[/] — type [bold]help[/] for the commands and how to write a move")
            console.print(escape(self.seats_line()), soft_wrap=True)
            if not views_differ(self.state, humans):
                self.show()
        shown_ply = len(self.actions)
        last_human: int | None = None
        bot_turns_in_a_row = 0
        told_out = set(seats_out(self.state))
        #: what to tell the next person after a hand-over (a draw offer declined behind their back)
        tell: str | None = None
        while not self.session.over:
            for gone in self.state.eliminated_struct():  # a 3-4 player game goes on without them
                if gone["seat"] not in told_out:
                    told_out.add(gone["seat"])
                    console.print(f"[bold]{self.who(gone['seat'])} is out[/] — {gone['text']}")
            player = self.state.current_player()
            bot = self.bots[player] if 0 <= player < len(self.bots) else None
            if bot is not None:
                text = self._computer_turn(player, bot)
                console.print(f"{self.who(player)} ({escape(self.role(player))}) plays [bold]{text}[/]")
                bot_turns_in_a_row += 1
                if humans and bot_turns_in_a_row == 3 * self.state.num_players:
                    # e.g. every human seat eliminated in a 3-4 player game: say so, keep showing play
                    console.print("[yellow]no person has a turn any more; the computer plays on "
                                  "(Ctrl-C stops and saves)[/]")
                if humans and bot_turns_in_a_row >= 3 * self.state.num_players \
                        and bot_turns_in_a_row % self.state.num_players == 0:
                    self.show()
                continue
            bot_turns_in_a_row = 0
            # people who see different things (their own hands) pass the terminal on, as in the web app
            if player != last_human and views_differ(self.state, humans):
                if not self._hand_over(player):
                    console.print("\ngame abandoned")
                    return "abandoned"
                self.show()
                self.hand_shown = True
                shown_ply = len(self.actions)
                if tell:
                    console.print(tell)
                    tell = None
            last_human = player
            if len(self.actions) != shown_ply:
                self.show()
                shown_ply = len(self.actions)
            try:
                line = self.read(self.prompt(player)).strip()
            except (EOFError, KeyboardInterrupt) as exc:
                console.print("\ngame abandoned")
                self.interrupted = isinstance(exc, KeyboardInterrupt)
                return "abandoned"
            if not line:
                continue
            word = line.lower()
            if word in ("help", "h"):
                console.print(PLAY_HELP.format(draw=self.draw_help()))
                console.print(f"\n{self.game.title}: {self.game.description.notation_help}")
            elif word in ("?", "moves"):
                console.print("  ".join(self.legal_moves_for_humans()))
            elif word == "board":
                self.show()
            elif word == "hint":
                try:
                    self.session.check_assistance(self.humans)  # as the web app: against the computer
                except PlayError as exc:
                    console.print(str(exc), soft_wrap=True)
                    continue
                console.print("thinking…")
                console.print(self.hint(player), soft_wrap=True)
            elif word == "undo":
                refused = self.undo()
                if refused:
                    console.print(refused, soft_wrap=True)
                else:
                    console.print("taken back")
                    self.show()
                    shown_ply = len(self.actions)
                    told_out = set(seats_out(self.state))  # a seat back in is told again when put out again
            elif word == "resign":
                result = resignation_returns(self.state.num_players, player, seats_out(self.state))
                try:
                    answer = self.read(f"Resign? Then {self.winners_text(result)}. [y/N] ").strip().lower()
                except HungUp:  # the game stops: saved as abandoned, not resigned
                    raise
                except (EOFError, KeyboardInterrupt):
                    answer = ""
                if answer not in ("y", "yes"):
                    console.print("not resigned; play on")
                    continue
                self.act(self.session.resign(player, now()))
                name = self.who(player)
                console.print(f"{name} {'resign' if name == 'You' else 'resigns'} — {self.winners_text(result)}")
                return "resignation"
            elif " ".join(word.split()) == "offer draw" or (word == "draw" and not self.draw_is_a_move()):
                refused = self.draw_refusal(player)
                if refused:
                    console.print(refused, soft_wrap=True)
                    continue
                declined = self.offer_draw(player, humans)
                if declined is None:
                    console.print("[bold]Drawn by agreement.[/]")
                    console.print(describe_result(self.state, self.record(None)), soft_wrap=True)
                    return "agreement"
                if not views_differ(self.state, humans):
                    console.print(declined, soft_wrap=True)
                else:  # the terminal goes back to the offerer, who is told then
                    tell, last_human = declined, None
            elif word in ("quit", "exit"):
                console.print("game abandoned")
                return "abandoned"
            else:
                try:
                    self.act(self.session.play({player}, [line], self.session.ply, now(), read=read_typed))
                except PlayError as exc:
                    legal = self.legal_moves_for_humans()
                    hint = ("legal here: " + "  ".join(legal)) if len(legal) <= 24 else "type ? for the legal moves"
                    console.print(f"[red]{escape(str(exc))}[/]\n{hint}  (help: the notation)", soft_wrap=True)
                    continue
        self.show()
        end = self.state.to_struct(None)["end"]
        line = self.winners_text(self.state.returns())
        # the reason is a sentence of its own (its words start one, as in the browser's board
        # descriptions): "Green wins. Only Green pieces are left on the board."
        why = f" {end['text']}." if end and end.get("text") else ""
        console.print(f"[bold]{line[0].upper() + line[1:]}{'.' if why else ''}[/]{escape(why)}")
        console.print(describe_result(self.state))
        return "normal"


def now() -> float:
    """The time the session's acts are given (Unix seconds): a terminal game has no clock, so
    nothing depends on it."""
    return time.time()
