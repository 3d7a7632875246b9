"""The compiled simulation kernel: the engine's state machine in C, for fast play-outs.

The kernel is built from ``_kernel.c`` with the system's C compiler when the package is
installed (see docs/kernel.md). Without a compiler, or with ``PHASE10_KERNEL=off`` in the
environment, :func:`available` is False and :func:`new_game` falls back to the Python
engine (with a warning, once): the same interface, the same answers, more slowly.

The Python engine (:mod:`phase10.core`) stays the reference. The kernel plays every rule
option and every phase list for 2 to 6 players; what it cannot play (an option added to the
rules later, a hand of more than 16 cards) raises :class:`KernelUnsupported` naming it.

>>> from phase10.core import Game
>>> game = Game(3, seed=11)
>>> play = new_game(game)
>>> play.legal() == [(0,), (1,)] or play.legal() == [(0,)]
True
>>> played, _ = play.play_random(seed=5, max_actions=200)
>>> played
200
"""

from __future__ import annotations

import importlib
import os
import random
import threading
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from phase10.bots.simple import checked_rng
from phase10.core import (
    Advance,
    AntiPhase,
    Deck,
    DeclareWhen,
    EmptyDrawPile,
    EndWhen,
    Game,
    GivingUp,
    GoingOut,
    NaturalMin,
    PhaseOrder,
    PlayerView,
    Rules,
    SavedScore,
    SavePile,
    SearchLimitError,
    SkipTarget,
    Stage,
    WildDealUp,
)

from .convert import (
    KINDS,
    STAGES,
    ActionKey,
    EventKey,
    StateKey,
    apply_state,
    game_from_view,
    state_of,
    to_action,
)
from .engine import (
    SEARCH_MAX_ACTIONS,
    EngineGame,
    Playout,
    check_bounds,
    check_game,
    check_known,
    check_search,
    check_weights,
    splitmix64,
)
from .greedy import greedy_unsupported, held_knowledge, view_knowledge

if TYPE_CHECKING:
    from ._kernel import Kernel

__all__ = [
    "ENV_VAR",
    "EngineGame",
    "KernelFallbackWarning",
    "KernelGame",
    "KernelSteps",
    "KernelUnsupported",
    "Playout",
    "available",
    "bounded_steps",
    "check_rules",
    "greedy_unsupported",
    "load_error",
    "load_position",
    "new_game",
    "new_kernel",
    "splitmix64",
    "steps_left",
    "to_action",
]

#: The environment variable that turns the kernel off (``PHASE10_KERNEL=off``).
ENV_VAR = "PHASE10_KERNEL"


class KernelUnsupported(ValueError):
    """Rules or a position the kernel does not play; the message names what."""


class KernelFallbackWarning(RuntimeWarning):
    """The compiled kernel is not in use: the Python engine plays instead."""


def _load() -> tuple[ModuleType | None, str | None]:
    if os.environ.get(ENV_VAR, "").strip().lower() in ("0", "off", "no", "false"):
        return None, f"turned off by {ENV_VAR}={os.environ[ENV_VAR]}"
    try:  # (by name: the import graph's tools see no Python module there)
        module = importlib.import_module("phase10.kernel._kernel")
    except ImportError:
        return None, "the compiled kernel is not built (was there a C compiler at install time?)"
    return module, None


_MODULE, _ERROR = _load()
_warned = False


def available() -> bool:
    """Whether the compiled kernel is built and in use."""
    return _MODULE is not None


def load_error() -> str | None:
    """Why the compiled kernel is not in use (None when it is)."""
    return _ERROR


_DEFAULTS = Rules().to_dict()
#: the options the kernel plays besides the official ones: (option, value)
_ALSO_PLAYED = frozenset(
    {
        ("skip_target", SkipTarget.NEXT.value),
        ("empty_draw_pile", EmptyDrawPile.END_HAND.value),
        ("end_when", EndWhen.IMMEDIATELY.value),
        ("advance", Advance.ALL.value),
        ("wild_deal_up", WildDealUp.DEALER_CHOOSES.value),
        ("going_out", GoingOut.DISCARD.value),
        ("phase_order", PhaseOrder.ANY.value),  # declared as laid down (declare = "deal" is not)
        ("natural_min", NaturalMin.PHASE.value),
        ("declare", DeclareWhen.DEAL.value),
        ("deck", Deck.MASTERS.value),
        ("deck", Deck.MASTERS_12_WILDS.value),
        ("save_pile", SavePile.PRIVATE.value),
        ("save_pile", SavePile.PUBLIC.value),
        ("saved_score", SavedScore.PENALTY.value),
        ("give_up", GivingUp.FORFEIT.value),
        ("give_up", GivingUp.KEEP.value),
        ("anti_phase", AntiPhase.ON.value),
    }
)
_MAX_GROUPS = 11  # as many as a phase can have (it needs at most 11 cards)


def check_rules(rules: Rules) -> None:
    """Raise :class:`KernelUnsupported` naming the first option the kernel does not play.

    The kernel plays every option and preset there is; an option or value added to the
    rules later is refused here, by name, until the kernel learns it.

    >>> from phase10.core import PRESETS
    >>> for rules in PRESETS.values():
    ...     check_rules(rules)
    """
    options = rules.to_dict()
    for name, value in options.items():
        if name in ("phase_list", "phases") or value == _DEFAULTS[name]:
            continue
        if (name, value) in _ALSO_PLAYED:
            continue
        raise KernelUnsupported(
            f"the kernel does not play {name} = {value!r} (the official value is "
            f"{_DEFAULTS[name]!r})"
        )
    for number, phase in enumerate(rules.phase_sequence, start=1):
        if len(phase.groups) > _MAX_GROUPS:
            raise KernelUnsupported(f"phase {number} ({phase}) has more than {_MAX_GROUPS} groups")


def _check_position(game: Game) -> None:
    for seat, info in enumerate(game.seats):
        if len(info.hand) > 16:
            raise KernelUnsupported(f"player {seat} holds {len(info.hand)} cards (at most 16)")


def new_kernel(players: int, rules: Rules) -> Kernel:
    """A kernel game of ``players`` players under ``rules``, holding no position yet (load
    one with ``load(state_of(game))``). The rules must pass :func:`check_rules`."""
    if _MODULE is None:
        raise RuntimeError(f"the compiled kernel is not available: {_ERROR}")
    kinds = {kind: code for code, kind in enumerate(KINDS)}
    phases = [
        [(kinds[spec.kind], spec.size) for spec in phase.groups] for phase in rules.phase_sequence
    ]
    kernel: Kernel = _MODULE.Kernel(
        players,
        phases,
        skip_next=rules.skip_target is SkipTarget.NEXT,
        end_on_empty=rules.empty_draw_pile is EmptyDrawPile.END_HAND,
        end_at_once=rules.end_when is EndWhen.IMMEDIATELY,
        advance_all=rules.advance is Advance.ALL,
        dealer_gives_wild=rules.wild_deal_up is WildDealUp.DEALER_CHOOSES,
        floating=rules.going_out is GoingOut.DISCARD,
        any_order=rules.phase_order is PhaseOrder.ANY,
        all_wild=rules.natural_min is NaturalMin.PHASE,
        declare_deal=rules.declare is DeclareWhen.DEAL,
        wilds=rules.deck.wilds,
        skips=rules.deck.skips,
        save_pile=(SavePile.OFF, SavePile.PRIVATE, SavePile.PUBLIC).index(rules.save_pile),
        saved_penalty=rules.saved_score is SavedScore.PENALTY,
        give_up=(GivingUp.OFF, GivingUp.FORFEIT, GivingUp.KEEP).index(rules.give_up),
        antis=rules.anti_phase is AntiPhase.ON,
    )
    return kernel


def load_position(kernel: Kernel, game: Game) -> None:
    """Put ``game``'s position in ``kernel`` (one :func:`new_kernel` made for its players and
    rules), with what the bots know of this hand (read off its history). Raises
    :class:`KernelUnsupported` for a position the kernel cannot hold."""
    _check_position(game)
    kernel.load(state_of(game))
    kernel.set_knowledge(*held_knowledge(game))


class KernelGame:
    """A game played in the compiled kernel, started from an engine game's position.

    Raises :class:`KernelUnsupported` for what it does not play (see :func:`check_rules`)
    and RuntimeError when the kernel is not available (use :func:`new_game` to fall back
    instead).
    """

    def __init__(self, game: Game) -> None:
        if _MODULE is None:
            raise RuntimeError(f"the compiled kernel is not available: {_ERROR}")
        check_game(game)
        check_rules(game.rules)
        _check_position(game)
        self.game = game
        self._kernel: Kernel = new_kernel(game.num_players, game.rules)
        load_position(self._kernel, game)

    @property
    def is_over(self) -> bool:
        return bool(self._kernel.stage == 2)

    @property
    def stage(self) -> Stage:
        """The stage of the turn, as the engine names it."""
        return STAGES[self._kernel.stage]

    @property
    def current(self) -> int:
        """The seat to move."""
        return int(self._kernel.current)

    def legal(self) -> list[ActionKey]:
        """The legal actions, in the order :class:`EngineGame` lists them too."""
        return list(self._kernel.legal())

    def apply(self, action: ActionKey) -> list[EventKey]:
        """Apply a legal action (ValueError if it is not legal now, saying why as the
        engine does); return its events, as :func:`~phase10.kernel.convert.event_key`
        writes the engine's."""
        if action not in self._kernel.legal():  # (the kernel reads only what it needs)
            raise ValueError(f"not a legal action now: {self._refusal(action)}")
        self._kernel.apply(action)
        return self._kernel.events()

    def _refusal(self, action: object) -> str:
        """Why the engine refuses ``action`` here (only on the way to an error)."""
        try:
            self.to_game().check(to_action(action))  # type: ignore[arg-type]
        except ValueError as error:
            return str(error)
        return f"{action!r}"

    def state(self) -> StateKey:
        """The state, as :func:`~phase10.kernel.convert.state_of` writes an engine game's."""
        return tuple(self._kernel.dump())

    def to_game(self) -> Game:
        """The engine game in this state (without a history)."""
        return apply_state(self.game, self.state())

    def play_random(
        self, seed: int, max_actions: int = -1, *, record: bool = False
    ) -> tuple[int, list[ActionKey] | None]:
        """Play uniformly random legal actions (chosen by :func:`splitmix64` from ``seed``)
        until the game ends or ``max_actions`` are played; return how many were, and the
        actions if ``record``."""
        check_bounds(0, max_actions)
        played, actions = self._kernel.play_random(seed, max_actions, record)
        return int(played), actions

    def greedy_action(self, player: int, rng: random.Random) -> ActionKey:
        """The action :class:`~phase10.bots.greedy.GreedyPlayer` with ``rng`` would choose
        for ``player`` (who must be the one to move), drawing on ``rng`` as the bot does.
        Raises :class:`KernelUnsupported` for rules whose greedy play the kernel lacks."""
        self._greedy_rules()
        checked_rng(rng)
        if self.is_over or player != self._kernel.current:
            raise ValueError(f"player {player} has nothing to do: it is not their turn")
        version, _, gauss = rng.getstate()
        action, state = self._kernel.greedy_action(rng.getstate()[1])
        rng.setstate((version, state, gauss))
        return action

    def play_greedy(
        self, rngs: Sequence[random.Random], max_actions: int = -1, *, record: bool = False
    ) -> tuple[int, list[ActionKey] | None]:
        """Every seat greedy (``rngs``: each seat's generator, drawn on as the bot draws on
        it) until the game ends or ``max_actions`` are played: how many were, and the
        actions if ``record``."""
        self._greedy_rules()
        check_bounds(0, max_actions)
        for rng in rngs:
            checked_rng(rng)
        if len(rngs) != len(self.game.seats):
            raise ValueError(f"one generator per seat ({len(self.game.seats)}), not {len(rngs)}")
        played, actions, states = self._kernel.play_greedy(
            [rng.getstate()[1] for rng in rngs], max_actions, record
        )
        for rng, state in zip(rngs, states, strict=True):
            version, _, gauss = rng.getstate()
            rng.setstate((version, state, gauss))
        return int(played), actions

    def greedy_playouts(
        self,
        viewer: int,
        known: Sequence[Sequence[int]],
        count: int,
        seed: int,
        max_actions: int = -1,
    ) -> list[Playout]:
        """:meth:`playouts` with every seat greedy: after each determinization each seat's
        generator is seeded from the same stream (``random.Random(number)``), as
        :meth:`EngineGame.greedy_playouts` seeds the Python bots'."""
        self._greedy_rules()
        check_bounds(0, max_actions)
        check_known(known, self._hand_sizes(), viewer)
        return [
            (tuple(w), tuple(s), int(n))
            for w, s, n in self._kernel.greedy_playouts(viewer, known, count, seed, max_actions)
        ]

    def _hand_sizes(self) -> list[int]:
        return [len(seat[0]) for seat in self.state()[11]]

    def search(
        self,
        viewer: int,
        known: Sequence[Sequence[int]],
        candidates: Sequence[int],
        count: int,
        seed: int,
        hands: int = 1,
        max_actions: int = SEARCH_MAX_ACTIONS,
        settled: int = 0,
        declined: Sequence[Sequence[int]] | None = None,
        *,
        redeal: bool = True,
        weights: Sequence[Sequence[float] | None] | None = None,
    ) -> NDArray[np.int32]:
        """Each candidate (an index into :meth:`legal`) of ``viewer``, the player to move,
        played over the same ``count`` determinizations: the candidate, then every seat
        greedy until ``hands`` hands have ended since now (0: the game's end), each seat's
        generator seeded after the deal as :meth:`greedy_playouts` seeds it and the same for
        every candidate. A deal that disagrees with what the other seats showed, as the greedy
        policy reads it, is dealt again (up to ``SEARCH_REDEALS`` times): ``settled`` is a
        bit mask of the seats that ended a turn since they could last have laid their phase
        (so they hold none they may lay), ``declined`` the top discards each seat passed over
        this hand (card indices; none may now bring them closer to their phase; the last
        ``SEARCH_DECLINED`` count). ``redeal=False`` deals nothing afresh: every play-out
        starts from the cards as they lie (an oracle's search, for experiments).
        ``weights`` (per seat, 51 numbers by card index from above 0 to
        ``SEARCH_MAX_WEIGHT``, or None) deal each seat's hidden cards one by one in
        proportion to them rather than uniformly: a model of what each player holds (say,
        one learned from their play) plugs in here. An array ``[count, candidate, seat]``
        of (phases completed, score, 1 if a winner); :meth:`EngineGame.search` gives the
        same, seed for seed."""
        self._greedy_rules()
        check_search(
            self._kernel.current, self.is_over, len(self.legal()), viewer, candidates, count
        )
        check_bounds(hands, max_actions)
        check_known(known, self._hand_sizes(), viewer)
        weighted = check_weights(weights, len(self.game.seats), viewer)
        raw = self._kernel.search(
            viewer,
            known,
            list(candidates),
            count,
            seed,
            hands,
            max_actions,
            settled,
            declined,
            redeal,
            weighted,
        )
        shape = (count, len(candidates), len(self.game.seats), 3)
        return np.frombuffer(raw, dtype=np.int32).reshape(shape)

    @classmethod
    def from_view(cls, view: PlayerView) -> KernelGame:
        """A kernel game that agrees with all ``view`` shows, for searching from it: the
        cards its player cannot see are dealt in no particular order (:meth:`determinize`
        and :meth:`search` deal them afresh), and the greedy policy knows what the view's
        history tells (the cards each player took from the discard pile)."""
        if view.viewer is None:
            raise ValueError("a spectator's view has no player to search for")
        play = cls(game_from_view(view))
        play._kernel.set_knowledge(*view_knowledge(view))
        return play

    def _greedy_rules(self) -> None:
        why = greedy_unsupported(self.game.rules)
        if why is not None:
            raise KernelUnsupported(why)

    def copy(self) -> KernelGame:
        twin = object.__new__(KernelGame)
        twin.game = self.game
        twin._kernel = self._kernel.copy()
        return twin

    def determinize(self, viewer: int, known: Sequence[Sequence[int]], seed: int) -> KernelGame:
        """A copy with the cards ``viewer`` cannot see dealt afresh: every other hand but
        the cards ``known`` lists for it (card indices, per seat), and the draw pile,
        shuffled together and dealt back in the same numbers; the shuffles to come are
        drawn afresh too. Seeded: :class:`EngineGame` deals the same."""
        check_known(known, self._hand_sizes(), viewer)
        twin = self.copy()
        twin._kernel.determinize(viewer, known, seed)
        return twin

    def playouts(
        self,
        viewer: int,
        known: Sequence[Sequence[int]],
        count: int,
        seed: int,
        max_actions: int = -1,
    ) -> list[Playout]:
        """``count`` random play-outs, each from a fresh :meth:`determinize` for ``viewer``:
        (winners, scores, actions played) each, as :meth:`EngineGame.playouts` gives them."""
        check_bounds(0, max_actions)
        check_known(known, self._hand_sizes(), viewer)
        return [
            (tuple(w), tuple(s), int(n))
            for w, s, n in self._kernel.playouts(viewer, known, count, seed, max_actions)
        ]


#: the bound of this thread's kernel calls (bounded_steps), if any
_BOUND = threading.local()


class KernelSteps:
    """What :func:`bounded_steps` allowed, and (once its block is left) what was taken."""

    __slots__ = ("spent", "steps", "taken")

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.taken = 0
        self.spent = False


def steps_left() -> int | None:
    """The steps left to the searches inside the :func:`bounded_steps` block this thread
    is in (None outside one): for a search that is worth making only if it fits.

    >>> steps_left() is None
    True
    >>> with bounded_steps(10_000):
    ...     _ = KernelGame(Game(4, seed=1)).play_greedy([random.Random(s) for s in range(4)])
    ...     0 < steps_left() < 10_000
    True
    """
    count: KernelSteps | None = getattr(_BOUND, "count", None)
    if count is None or _MODULE is None:
        return None
    return max(0, count.steps - int(_MODULE.steps_taken()))


@contextmanager
def bounded_steps(steps: int) -> Iterator[KernelSteps]:
    """Bound the kernel's lay-down and phase searches of the calls made inside, on this
    thread, to ``steps`` steps together (a step: one node of a search; inside another
    bound, the outer one counts on). Under the official phases a greedy play-out takes a few hundred; under some
    house phases ("11 sets of 1") one greedy decision takes millions. Once the steps are
    spent every search finds nothing at once, and leaving the block raises
    :class:`~phase10.core.errors.SearchLimitError`: what the calls inside answered is
    not to be trusted, nor is any :class:`KernelGame` they used (throw it away).

    >>> from phase10.core import Game, Phase, Rules
    >>> rules = Rules(phase_list=(Phase.parse("11 sets of 1"),) * 10)
    >>> play = KernelGame(Game(4, rules=rules, seed=1))
    >>> with bounded_steps(10_000):
    ...     _ = play.play_greedy([random.Random(seat) for seat in range(4)])
    Traceback (most recent call last):
    ...
    phase10.core.errors.SearchLimitError: the kernel's searches ran out of their 10000 steps
    >>> with bounded_steps(10_000) as count:
    ...     _ = KernelGame(Game(4, seed=1)).play_greedy([random.Random(s) for s in range(4)])
    >>> 0 < count.taken < 10_000
    True
    """
    if _MODULE is None:
        raise RuntimeError(f"the compiled kernel is not available: {_ERROR}")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise ValueError(f"steps is a whole number from 0, not {steps!r}")
    module = _MODULE
    outer: KernelSteps | None = getattr(_BOUND, "count", None)
    if outer is not None:  # inside another bound: the outer one goes on counting
        yield outer
        if module.steps_spent():
            raise SearchLimitError(f"the kernel's searches ran out of their {outer.steps} steps")
        return
    count = KernelSteps(steps)
    _BOUND.count = count

    def unbound() -> None:
        _BOUND.count = None
        spent, count.taken = module.bound_steps(-1)
        count.spent = bool(spent)
        if count.spent:  # (whatever else went wrong inside followed from it)
            raise SearchLimitError(f"the kernel's searches ran out of their {steps} steps")

    module.bound_steps(steps)
    try:
        yield count
    except BaseException:
        unbound()
        raise
    unbound()


def new_game(game: Game) -> KernelGame | EngineGame:
    """The fastest player of ``game`` there is: the kernel, or the engine as a fallback.

    Falls back with a :class:`KernelFallbackWarning` when the kernel is not built or is
    turned off (once), or when it does not play these rules (each time, naming the option).
    """
    global _warned
    check_game(game)
    if _MODULE is None:
        if not _warned:
            warnings.warn(
                f"phase10.kernel: using the Python engine: {_ERROR}",
                KernelFallbackWarning,
                stacklevel=2,
            )
            _warned = True
        return EngineGame(game)
    try:
        return KernelGame(game)
    except KernelUnsupported as error:
        warnings.warn(
            f"phase10.kernel: using the Python engine: {error}", KernelFallbackWarning, stacklevel=2
        )
        return EngineGame(game)
