"""Every abstracta game as an OpenSpiel Python game (extra ``[openspiel]``; issue 19).

Importing this module registers each game of ``abstracta.registered_games()`` with
``pyspiel.register_game`` as ``python_abstracta_<name>`` (``-`` → ``_``)::

    import pyspiel
    import abstracta.interop.openspiel  # registers
    game = pyspiel.load_game("python_abstracta_slide_checkers", {"players": 3})

A game that cannot be registered (a plug-in that does not load, a name OpenSpiel cannot use) is
left out with the reason in :data:`SKIPPED`; the others register.

Parameters are the game's options under their own names (a ``bool``, ``int`` or ``str`` default
keeps its type; an option absent by default that takes whole numbers — ``first_player`` — is an
``int``, −1 meaning absent; any other option — a default of ``None`` or a tuple — is a ``str`` in its
command-line text form with ``:`` for ``,`` — OpenSpiel's game strings split on commas — and
``""`` meaning "absent": ``board="5:1"``), plus ``max_turns`` (int, truncation in player
actions; 0 = the rules' own bound), ``chance`` (``"explicit"``, the default, or ``"seeded"``),
``layout_seeds`` (int K of the layout chance node) and ``seed`` (int, the seed of every
game in seeded mode; −1, the default, means none: seed 0 in seeded mode, and the only value
explicit chance accepts on a game with chance): see :mod:`abstracta.interop`; OpenSpiel's ints are 32-bit, so both stop
at 2**31 - 1 here; ``actions`` (``"compact"``, the default, or ``"engine"``: a game with a
compact action space — Slide Checkers — is played in its parts, :mod:`abstracta.core.actions`).
All configuration is in the parameters, so a pickled game rebuilds from
them; a state serializes as its history and replays. ``"5,1"`` is read as ``"5:1"``, and
:func:`load` also takes the options as abstracta does (``board=(5, 1)``).

``GameType``: sequential; chance ``EXPLICIT_STOCHASTIC`` (explicit chance on a game with
randomness) or ``DETERMINISTIC`` (no randomness, or ``chance="seeded"``: one fixed seed); information
from the description; utility ``ZERO_SUM`` for two players (results +1/−1 or 0/0), else
``GENERAL_SUM`` (Slide Checkers' draws give −1 to eliminated seats); terminal rewards.
``GameInfo``: utilities in [−1, 1], ``max_game_length`` = the rules' bound or ``max_turns``
(times the parts of one action, with compact actions).
Observers (``make_py_observer``) give one seat's view, a ``float32`` ``tensor`` written in place
(kept by differences, :class:`~abstracta.core.tensors.TensorBuffer`) with a view per plane in
``dict``; a game with hidden information refuses (``ValueError``) a public-only or all-players
observation type rather than pass a hand off as one.

OpenSpiel's own example scripts find these games through the launcher, which registers them
first and then runs the script as ``python -m`` would::

    python -m abstracta.interop.openspiel run open_spiel.python.examples.mcts \
        --game=python_abstracta_fanorona --player1=mcts --player2=random
"""

from __future__ import annotations

import argparse
import random
import runpy
import sys
from typing import Any

import numpy as np
import pyspiel

from ..core.errors import OptionError, UnknownGameError
from ..core.game import CHANCE, TERMINAL, Game, as_integer
from ..core.options import Option
from ..core.registry import game_class, load_game, registered_games
from ..core.tensors import TensorBuffer, plane_offsets
from .core import DEFAULT_LAYOUT_SEEDS, DEFAULT_MAX_TURNS, InteropGame, InteropState

PREFIX = "python_abstracta_"
#: Registered names: abstracta game name -> OpenSpiel short name.
REGISTERED: dict[str, str] = {}
#: OpenSpiel's integer parameters are C++ ints: they hold -2**31 .. 2**31 - 1.
INT_LIMIT = 2**31
#: Games left unregistered: abstracta game name -> why (a plug-in that does not load, a name
#: OpenSpiel's game strings cannot carry, an OpenSpiel name another game has already).
SKIPPED: dict[str, str] = {}
#: abstracta game name -> its pyspiel.Game subclass.
_CLASSES: dict[str, type] = {}


def short_name(game_name: str) -> str:
    """``"slide-checkers"`` -> ``"python_abstracta_slide_checkers"``."""
    return PREFIX + game_name.replace("-", "_")


def _option_params(game: Game) -> dict[str, Any]:
    """The game's options as OpenSpiel parameter defaults (typed as documented above)."""
    out: dict[str, Any] = {}
    for spec in game.option_specs:
        if spec.name == "seed":
            continue  # the adapter's own ``seed`` parameter (seeded mode) replaces it
        d = spec.default
        if isinstance(d, (bool, int, str)):
            out[spec.name] = d
        elif _absent_int(spec):
            out[spec.name] = ABSENT
        else:
            out[spec.name] = "" if d is None else _to_param(spec.text_of(d))
    return out


#: The parameter of an option that is absent by default and takes whole numbers (``first_player``):
#: an int, -1 meaning absent. OpenSpiel's game strings read ``first_player=1`` as an int, so a text
#: parameter holding "1" could not be read back from the game string.
ABSENT = -1


def _absent_int(spec: Option) -> bool:
    """An option absent by default whose values are whole numbers ≥ 0 (its parameter: an int)."""
    return spec.default is None and bool(spec.choices) and all(
        isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in spec.choices)


def _to_param(text: str) -> str:
    return text.replace(",", ":")


def _from_param(value: Any) -> Any:
    """A parameter value as the game's option takes it (``""`` -> absent, ``5:1`` -> ``5,1``)."""
    if value == "":
        return None
    return value.replace(":", ",") if isinstance(value, str) else value


def _game_type(name: str, game: Game, chance: str, params: dict[str, Any]) -> pyspiel.GameType:
    d = game.description
    if not d.chance:
        chance_mode = pyspiel.GameType.ChanceMode.DETERMINISTIC
    elif chance == "seeded":  # one fixed seed; SAMPLED_STOCHASTIC needs GetRNGState
        chance_mode = pyspiel.GameType.ChanceMode.DETERMINISTIC
    else:
        chance_mode = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    info = (pyspiel.GameType.Information.IMPERFECT_INFORMATION if d.hidden_information
            else pyspiel.GameType.Information.PERFECT_INFORMATION)
    utility = (pyspiel.GameType.Utility.ZERO_SUM if game.num_players == 2
               else pyspiel.GameType.Utility.GENERAL_SUM)
    return pyspiel.GameType(
        short_name=short_name(name), long_name=f"abstracta {d.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=chance_mode,
        information=info, utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=d.max_players, min_num_players=d.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params)


def _game_class(name: str) -> type:
    """The pyspiel.Game subclass of abstracta game ``name``."""
    default = load_game(name)
    absent_ints = {s.name for s in default.option_specs if _absent_int(s)}
    defaults: dict[str, Any] = {**_option_params(default), "max_turns": 0 if default.max_game_length() is not None
                                else DEFAULT_MAX_TURNS, "chance": "explicit",
                                "layout_seeds": DEFAULT_LAYOUT_SEEDS, "seed": ABSENT, "actions": "compact"}

    class AbstractaSpielGame(pyspiel.Game):
        __doc__ = f"abstracta's {name} as an OpenSpiel game (see abstracta.interop.openspiel)."
        abstracta_name = name
        parameter_defaults = defaults

        def __init__(self, params: dict[str, Any] | None = None):
            given = {**defaults, **(params or {})}
            unknown = set(given) - set(defaults)
            if unknown:
                raise ValueError(f"{short_name(name)}: unknown parameter(s) {sorted(unknown)}")
            # "5,1" (the command line's form) is read too, but kept as "5:1": the game string,
            # which pickling and serialization rebuild from, splits on commas
            given = {k: _to_param(v) if isinstance(v, str) else v for k, v in given.items()}
            options = {k: None if k in absent_ints and v == ABSENT else _from_param(v) for k, v in given.items()
                       if k not in ("max_turns", "chance", "layout_seeds", "seed", "actions")}
            # OpenSpiel fills in every default before this runs, so "no seed" needs a value of its
            # own (-1): a seed of 0 given with explicit chance is refused like any other
            seed = None if given["seed"] == ABSENT and not isinstance(given["seed"], bool) else given["seed"]
            self.interop = InteropGame(name, max_turns=given["max_turns"], chance=given["chance"],
                                       layout_seeds=given["layout_seeds"], seed=seed, actions=given["actions"],
                                       **options)
            g = self.interop
            game_type = _game_type(name, g.game, g.chance, defaults)
            game_info = pyspiel.GameInfo(
                num_distinct_actions=g.num_distinct_actions, max_chance_outcomes=g.max_chance_outcomes,
                num_players=g.num_players, min_utility=-1.0, max_utility=1.0,
                utility_sum=0.0 if g.num_players == 2 else None, max_game_length=g.max_game_length)
            super().__init__(game_type, game_info, given)

        def __reduce__(self) -> tuple:
            # pyspiel's own pickling restores the C++ game but never runs this __init__, so the
            # copy had no ``interop`` and could not start a game: rebuild from the parameters
            return _load_registered, (name, self.get_parameters())

        def new_initial_state(self) -> "AbstractaSpielState":
            return AbstractaSpielState(self, self.interop.new_initial_state())

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "AbstractaObserver":
            if params:
                raise ValueError(f"observation parameters not supported; passed {params}")
            if (iig_obs_type is not None and self.interop.game.description.hidden_information
                    and (not iig_obs_type.public_info
                         or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER)):
                # the tensors are one seat's view, its own cards included: handing them out as a
                # public observation would show that hand to every eye
                raise ValueError(f"{short_name(name)}: only a seat's own observation is provided "
                                 "(public_info=True, private_info=SINGLE_PLAYER)")
            infostate = iig_obs_type is not None and iig_obs_type.perfect_recall
            return AbstractaObserver(self.interop, infostate)

        def max_chance_nodes_in_history(self) -> int:
            return self.interop.max_chance_nodes

    AbstractaSpielGame.__name__ = AbstractaSpielGame.__qualname__ = \
        "Spiel" + "".join(p.capitalize() for p in name.replace("-", "_").split("_"))
    return AbstractaSpielGame


class AbstractaSpielState(pyspiel.State):
    """An abstracta game in progress, for OpenSpiel (wraps an :class:`InteropState`).

    Everything lives in ``self._s``, which deep-copies by cloning and pickles as its history
    (OpenSpiel serializes Python states by pickling ``__dict__``)."""

    def __init__(self, game: pyspiel.Game, s: InteropState):
        super().__init__(game)
        self._s = s

    @property
    def abstracta_state(self) -> InteropState:
        return self._s

    def current_player(self) -> int:
        # OpenSpiel asks several times per action: the ids are the same numbers (CHANCE = -1,
        # TERMINAL = -4), so the wrapped state's answer is passed on as it is
        return self._s.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._s.legal_actions(player)

    # --- Python callers' fast path ---------------------------------------------------------------
    # OpenSpiel answers these through C++, which calls back into Python several times per
    # question (current_player, is_terminal, the observer and a new game to learn the tensor's
    # shape). Called from Python they go straight to the wrapped state, with the same answers;
    # C++ algorithms still take OpenSpiel's way.
    def legal_actions(self, player: int | None = None) -> list[int]:
        """As OpenSpiel's: the legal actions of ``player`` (default: the mover), ascending; the
        chance outcomes at a chance node."""
        s = self._s
        mover = s.current_player()
        if mover >= 0:
            return sorted(s.legal_ids()) if player is None or player == mover else []
        if mover == CHANCE:
            return [a for a, _ in s.chance_outcomes()]
        return []

    def is_chance_node(self) -> bool:
        return self._s.current_player() == CHANCE

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """As OpenSpiel's (default: the mover's): a list of floats, as OpenSpiel's API gives it
        (Shimmy and others build float64 arrays from it), the values of the float32 tensor. A
        copy of a list kept by differences per player (:class:`~abstracta.core.tensors.ListBuffer`):
        no float is made per entry. In place, as float32: the observer (``make_observation(game)``)."""
        s = self._s
        if player is None:
            player = s.current_player()
        return s.game.list_pools[0].array(player, s.observation_features(player))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """As OpenSpiel's (default: the mover's): a list of floats, as :meth:`observation_tensor`."""
        s = self._s
        if player is None:
            player = s.current_player()
        return s.game.list_pools[1].array(player, s.information_state_features(player))

    def observation_string(self, player: int | None = None) -> str:
        s = self._s
        return s.observation_string(s.current_player() if player is None else player)

    def information_state_string(self, player: int | None = None) -> str:
        s = self._s
        return s.information_state_string(s.current_player() if player is None else player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._s.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._s.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._s.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._s.current_player() == TERMINAL

    def returns(self) -> list[float]:
        return self._s.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> "AbstractaSpielState":
        """A state ``player_id`` cannot tell from this one (the game's own determinization),
        with this state's history and move number (OpenSpiel's clone carries them; its hidden
        part is then replaced)."""
        rng = random.Random(_RESAMPLE.getrandbits(64))
        sample = self._s.resample_from_infostate(player_id, rng)
        other = self.clone()
        other._s = sample
        return other

    def __str__(self) -> str:
        return str(self._s)


#: Determinizations draw from here (OpenSpiel passes a sampler abstracta cannot use).
_RESAMPLE = random.Random(0x5EED)


class AbstractaObserver:
    """OpenSpiel's Python observer: ``tensor`` (flat float32, written in place) with named views
    in ``dict``, filled by ``set_from(state, player)``; ``string_from`` gives the observation
    (or, with perfect recall, the information-state) string. Planes: ``Game.observation_planes()``
    or ``Game.information_state_planes()`` (and the compact actions' planes).

    The tensor is kept by differences from the last state written (:class:`TensorBuffer`), in
    two buffers: one for start positions, one for the rest — OpenSpiel's
    ``state.observation_tensor()`` first writes a new game's start to learn the shape, and
    alternating with it would rewrite the whole board each time."""

    def __init__(self, game: InteropGame, infostate: bool):
        self._infostate = infostate
        layout = game.information_state_layout if infostate else game.observation_layout
        self._buffers = (TensorBuffer(layout), TensorBuffer(layout))
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {name: self.tensor[off:off + p.size].reshape(p.shape)
                     for name, (off, p) in plane_offsets(layout.planes).items()}

    def set_from(self, state: AbstractaSpielState, player: int) -> None:
        s = state._s
        features = s.information_state_features(player) if self._infostate else s.observation_features(player)
        buffer = self._buffers[0 if s._history else 1]
        np.copyto(self.tensor, buffer.update(features))

    def string_from(self, state: AbstractaSpielState, player: int) -> str:
        s = state._s
        return s.information_state_string(player) if self._infostate else s.observation_string(player)


def _unusable(name: str) -> str | None:
    """Why ``name`` cannot be registered under :func:`short_name`, or None."""
    short = short_name(name)
    if "(" in short or ")" in short:  # (OpenSpiel's parser would print its refusal to stderr too)
        return f"{short!r} is no name in an OpenSpiel game string (brackets hold the parameters)"
    read = pyspiel.game_parameters_from_string(f"{short}(max_turns=1)")
    if read.get("name") != short or set(read) != {"name", "max_turns"}:
        return f"{short!r} is no name in an OpenSpiel game string (it reads it as {read.get('name')!r})"
    other = next((g for g, s in REGISTERED.items() if s == short and g != name), None)
    if other is not None:  # pyspiel.register_game would quietly give the other's name this game
        return f"its OpenSpiel name {short} is {other}'s"
    return None


def register_all() -> dict[str, str]:
    """Register every game of ``abstracta.registered_games()`` not yet registered; returns
    :data:`REGISTERED`. A game that cannot be registered (a plug-in that does not load, a name
    OpenSpiel cannot use) is left out, with the reason in :data:`SKIPPED`, and the others
    register. Called on import."""
    for name in registered_games():
        if name in REGISTERED:
            continue
        why = _unusable(name)
        if why is None:
            try:
                cls = _game_class(name)
                game_type = _game_type(name, load_game(name), "explicit", cls.parameter_defaults)
            except Exception as exc:  # one broken plug-in must not take every game's import down
                why = str(exc) if isinstance(exc, UnknownGameError) else f"{type(exc).__name__}: {exc}"
        if why is not None:
            SKIPPED[name] = why
            continue
        globals()[cls.__name__] = cls  # pickled games name their class by module attribute
        pyspiel.register_game(game_type, cls)
        REGISTERED[name] = short_name(name)
        _CLASSES[name] = cls
        SKIPPED.pop(name, None)
    return REGISTERED


def _load_registered(game_name: str, params: dict[str, Any]) -> pyspiel.Game:
    """Unpickling a game: register (a fresh worker process has not imported this module's
    games yet) and load it with its parameters."""
    register_all()
    return pyspiel.load_game(short_name(game_name), params)


def _as_param(spec: Option, default: Any, value: Any) -> Any:
    """An option's value (its Python form, e.g. ``(5, 1)``, or its text) as its parameter:
    ``bool``/``int`` where the parameter is one, else the text form with ``:`` for ``,``.
    Raises :class:`OptionError` for a value the option refuses."""
    if value is None and spec.default is None:
        return ABSENT if _absent_int(spec) else ""
    if _absent_int(spec) and value == ABSENT and not isinstance(value, bool):
        return ABSENT  # already the parameter's form
    if isinstance(default, (bool, int)):
        return spec.coerce(value)
    if isinstance(value, str):
        return value
    return _to_param(spec.text_of(spec.coerce(value)))


def load(game_name: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` of abstracta game ``game_name`` with ``params``: the adapter's
    parameters, and the game's options either as parameters (``board="5:1"``) or as the game
    takes them (``board=(5, 1)``, ``first_player=1``, ``None`` for absent).

    Raises :class:`UnknownGameError`, :class:`OptionError` (a value an option refuses, an
    integer beyond OpenSpiel's 32 bits) or OpenSpiel's error for an unknown parameter."""
    cls = game_class(game_name)  # UnknownGameError naming the games, GameLoadError
    register_all()
    if cls.name not in _CLASSES:
        raise UnknownGameError(f"{cls.name} is not registered with OpenSpiel: {SKIPPED.get(cls.name)}")
    defaults = _CLASSES[cls.name].parameter_defaults
    # ``seed`` is the adapter's parameter (the game's own seed option is not one)
    specs = {s.name: s for s in cls.option_specs if s.name in defaults and s.name != "seed"}
    params = {k: _as_param(specs[k], defaults[k], v) if k in specs else v for k, v in params.items()}
    if "seed" in params and params["seed"] is None:
        params["seed"] = ABSENT
    # a NumPy integer is an integer; pybind11 would refuse it ("not iterable")
    params = {k: v if isinstance(v, (bool, str)) or as_integer(v) is None else as_integer(v) for k, v in params.items()}
    for k, v in params.items():
        if isinstance(v, int) and not isinstance(v, bool) and not -INT_LIMIT <= v < INT_LIMIT:
            raise OptionError(f"{k}: OpenSpiel's integer parameters are 32-bit (at most 2**31 - 1), got {v} "
                              "(the PettingZoo and Gymnasium environments take any seed)")
    return pyspiel.load_game(short_name(cls.name), params)


def launch(argv: list[str] | None = None) -> int:
    """``python -m abstracta.interop.openspiel run MODULE [ARG ...]``: run OpenSpiel's example
    script ``MODULE`` (``open_spiel.python.examples.mcts``) as ``python -m MODULE ARG ...``
    would, with every abstracta game registered first (``--game=python_abstracta_fanorona``);
    ``python -m abstracta.interop.openspiel list`` prints the registered names. Returns the
    exit status."""
    parser = argparse.ArgumentParser(prog="python -m abstracta.interop.openspiel",
                                     description="OpenSpiel's example scripts with the abstracta games registered.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run MODULE as python -m MODULE would, the games registered")
    run.add_argument("module", help="e.g. open_spiel.python.examples.mcts")
    run.add_argument("args", nargs=argparse.REMAINDER, help="the script's own flags (--game=python_abstracta_<name> …)")
    sub.add_parser("list", help="print the OpenSpiel names of the registered games")
    args = parser.parse_args(argv)
    register_all()
    if args.command == "list":
        for game, short in sorted(REGISTERED.items()):
            print(f"{short}\t{game}")
        for game, why in sorted(SKIPPED.items()):
            print(f"# {game} not registered: {why}", file=sys.stderr)
        return 0
    sys.argv = [args.module, *args.args]
    try:
        runpy.run_module(args.module, run_name="__main__", alter_sys=True)
    except SystemExit as exc:  # absl's app.run ends with sys.exit
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


if __name__ == "__main__":
    # ``python -m`` runs this file as __main__, a second copy of the module: the games register
    # through the real one (abstracta.interop.openspiel), once
    from abstracta.interop.openspiel import launch as _launch

    raise SystemExit(_launch())
register_all()

__all__ = ["AbstractaObserver", "AbstractaSpielState", "PREFIX", "REGISTERED", "SKIPPED", "load",
           "launch", "register_all", "short_name"]
