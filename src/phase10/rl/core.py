"""One game behind every environment: seeding, integer actions, rewards and the step cap.

The PettingZoo, Gymnasium and OpenSpiel adapters and the vectorised batch all step an
:class:`EnvCore`. It holds a :class:`~phase10.core.Game` and its :class:`Layout`, checks
each integer action against the mask, applies the engine's action unchecked (the mask
allows only legal ones), and turns the events into rewards.

When the compiled kernel is in use (:mod:`phase10.kernel`), episodes run in it: the mask,
the observations, the decoding of action numbers and the rewards are worked out in C,
value for value as the Python path works them out, and the engine game
(:attr:`EnvCore.game`) is brought up to date only when asked for, by replaying the actions
stepped since.

>>> core = EnvCore(2, rules=Rules(phases=(1,)))
>>> core.reset(seed=7)
>>> core.current, core.legal_actions()
(1, [0, 1])
>>> core.step(0)
[0.0, 0.0]
>>> core.game.stage
<Stage.PLAY: 'play'>
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, SupportsIndex

import numpy as np
from numpy.typing import NDArray

from phase10.bots.knowledge import HeldTracker
from phase10.core import Action, Event, Game, GameEnded, HandEnded, Refusal, Rules, Stage
from phase10.core import IllegalActionError as EngineIllegalActionError
from phase10.kernel import KernelUnsupported
from phase10.kernel.convert import action_key
from phase10.kernel.rl import fallback, load_position, new_kernel, rl_stepper

from .encoding import DECLARE, LAY_FEWEST, LAY_MOST, Layout

if TYPE_CHECKING:
    from phase10.kernel._kernel import Kernel, RLStepper

__all__ = [
    "DEFAULT_MAX_STEPS",
    "EnvCore",
    "IllegalActionError",
    "action_number",
    "check_known_cards",
    "check_seed",
]

#: the step cap: after this many actions (all players together) the episode is truncated
DEFAULT_MAX_STEPS: Final = 20_000


def _plain(array: NDArray[np.generic], dtype: type[np.generic]) -> bool:
    """Whether the kernel can write into ``array`` in place (else it writes a copy)."""
    return array.dtype == dtype and array.flags.c_contiguous and array.flags.writeable


class IllegalActionError(EngineIllegalActionError):
    """An action number the mask does not allow (code :attr:`Refusal.NOT_IN_MASK`), or a
    step after the episode ended (:attr:`Refusal.GAME_OVER`). It is the engine's
    :class:`~phase10.core.IllegalActionError` too, so one ``except`` catches both."""

    def __init__(self, message: str, code: Refusal = Refusal.NOT_IN_MASK) -> None:
        super().__init__(code, message)


def action_number(action: object) -> int:
    """``action`` as an action number: a Python or NumPy integer (a 0-d integer array too),
    never a bool, a float or a string, which would be read as some other number unseen.

    >>> action_number(np.int64(3)), action_number(np.array(4)), action_number(5)
    (3, 4, 5)
    >>> action_number(2.7)
    Traceback (most recent call last):
    ...
    TypeError: an action is an integer (an index into the action mask), not 2.7 (float)
    """
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, int | np.integer) and not isinstance(action, bool | np.bool_):
        return int(action)
    raise TypeError(
        f"an action is an integer (an index into the action mask), not {action!r} "
        f"({type(action).__name__})"
    )


def is_int(value: object) -> bool:
    """A whole number: a Python or NumPy integer, not a bool."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def check_seed(seed: object) -> None:
    """A seed is a whole number, 0 or more, or None: a negative one would deal as its
    absolute value does (Python's generator takes that), and a float or a string as some
    other number.

    >>> check_seed(-3)
    Traceback (most recent call last):
    ...
    ValueError: a seed is 0 or more (a negative one deals as its absolute value), not -3
    """
    if seed is None:
        return
    if not is_int(seed):
        raise TypeError(f"a seed is a whole number (or None), not {seed!r}")
    if seed < 0:  # type: ignore[operator]
        raise ValueError(
            f"a seed is 0 or more (a negative one deals as its absolute value), not {seed}"
        )


def check_known_cards(known_cards: object, version: object) -> None:
    """``known_cards`` is a bool, and False only with version 0 (or no version): versions
    1 to 3 hold the known-cards block."""
    if not isinstance(known_cards, bool):
        raise TypeError(f"known_cards is True or False, not {known_cards!r}")
    if not known_cards and version not in (None, 0):
        raise ValueError(
            f"version {version!r} holds the known-cards block: known_cards=False is version 0"
        )


class EnvCore:
    """A seeded game stepped by action numbers.

    ``reset(seed)`` reseeds in place and keeps every setting. Rewards: at the end of the
    game each winner gets ``1 / len(winners)`` (1 for a sole winner) and every other
    player -1; with ``phase_reward`` each player also gets that much for every phase
    completed at the end of a hand, and loses as much for a phase lost there to the
    Anti-phase card (the change in ``HandEnded.phases_completed``, which counts it). An
    episode is truncated after ``max_steps`` actions. ``version`` is the encoding's
    (:class:`Layout`; by default 1 with ``known_cards``, else 0).

    ``kernel``: None (the default) steps in the compiled kernel when it is in use, and in
    the Python engine otherwise (with a ``KernelFallbackWarning``); False always in Python;
    True only in the kernel (RuntimeError without it). The two give the same observations,
    masks, rewards and games, seed for seed.
    """

    def __init__(
        self,
        players: int = 2,
        *,
        rules: Rules | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        phase_reward: float = 0.0,
        known_cards: bool = False,
        version: int | None = None,
        kernel: bool | None = None,
    ) -> None:
        if not is_int(players):
            raise TypeError(f"players is a whole number of seats, not {players!r}")
        players = int(players)  # (a NumPy integer too)
        if rules is not None and not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules object (see preset()), not {rules!r}")
        if not isinstance(known_cards, bool):
            raise TypeError(f"known_cards is True or False, not {known_cards!r}")
        if not isinstance(kernel, bool | None):
            raise TypeError(f"kernel is True, False or None (where it can), not {kernel!r}")
        self.layout = Layout(players, rules, known_cards=known_cards, version=version)
        self.players = players
        self.rules = self.layout.rules
        if not is_int(max_steps):
            raise TypeError(f"max_steps is a whole number, not {max_steps!r}")
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        self.max_steps = int(max_steps)
        finite = isinstance(phase_reward, numbers.Real) and math.isfinite(phase_reward)
        if isinstance(phase_reward, bool) or not finite:
            raise ValueError(f"phase_reward is a finite number, not {phase_reward!r}")
        self.phase_reward = float(phase_reward)
        self._seeder = random.Random()
        self._game = Game(players, rules=self.rules, seed=0)
        self._steps = 0
        self._truncated = False
        self.aborted = False
        self._last_events: list[Event] = []
        self._completed = [0] * players
        self._mask_key = -1
        self._mask = np.zeros(self.layout.num_actions, np.int8)
        # the cards each seat is known to hold, fed every event (observations with them)
        self.tracker = HeldTracker(players) if self.layout.known_cards else None
        self._stepper: RLStepper | None = None
        self._kernel: Kernel | None = None  # the episode's game in the kernel, if it runs there
        if kernel is not False:
            self._stepper = rl_stepper(
                players,
                self.rules,
                version=self.layout.version,
                groups=self.layout.groups_per_phase,
                phase_reward=self.phase_reward,
                required=kernel is True,
            )
        if self._stepper is not None:
            self._spare: Kernel = new_kernel(players, self.rules)
            self.load(self._game)

    # -- episodes ---------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; ``seed`` reseeds the sequence of games (same seed, same games).
        A seed is a whole number, 0 or more (:func:`check_seed`)."""
        check_seed(seed)
        if seed is not None:
            self._seeder.seed(int(seed))
        self.load(Game(self.players, rules=self.rules, seed=self._seeder.randrange(2**63)))

    def load(self, game: Game) -> None:
        """Start an episode from ``game`` (a new game, with this core's players and rules)."""
        self._game = game
        self._steps = 0
        self._truncated = False
        self.aborted = False
        self._last_events = list(self._game.history)
        # (an arranged game may start with phases completed: only changes are rewarded)
        self._completed = [len(seat.completed) for seat in game.seats]
        self._mask_key = -1
        if self.tracker is not None:
            self.tracker.clear()
            for event in game.history[game.hand_start :]:
                self.tracker.feed(event)
        self._kernel = None
        if self._stepper is not None:
            try:
                load_position(self._spare, game)
            except KernelUnsupported as error:  # this episode runs in Python
                fallback(str(error))
                return
            self._kernel = self._spare
            self._stepper.start(self._kernel)

    def copy(self, *, rng: random.Random | None = None) -> EnvCore:
        """An independent copy of this episode (the game by :meth:`Game.copy`). Given ``rng``,
        the copy's game shuffles with it and the copy shares this core's sequence of games
        (cheaper, for search copies that never reset)."""
        game = self.game  # (brought up to date)
        twin = object.__new__(EnvCore)
        twin.__dict__.update(self.__dict__)
        twin._game = game.copy(rng=rng)
        twin._completed = list(self._completed)
        twin._mask = self._mask.copy()
        if rng is None:
            twin._seeder = random.Random.__new__(random.Random)
            twin._seeder.setstate(self._seeder.getstate())
        twin.tracker = self.tracker.copy() if self.tracker is not None else None
        if self._stepper is not None:
            twin._spare = self._spare.copy()
            twin._kernel = twin._spare if self._kernel is not None else None
            if twin._kernel is not None and rng is not None:  # (shuffles with the new rng)
                load_position(twin._kernel, twin._game)
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> EnvCore:
        # (the kernel's objects cannot be copied field by field; copy() copies them)
        return self.copy()

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        if self._stepper is not None:
            raise TypeError(
                "an environment stepping in the compiled kernel cannot be pickled: make it "
                "with kernel=False to pickle it (copy.deepcopy works either way)"
            )
        return super().__reduce_ex__(protocol)

    def refresh(self) -> None:
        """Forget what was worked out from the game (after its cards were moved by hand)."""
        self._mask_key = -1
        if self._kernel is not None:
            load_position(self._kernel, self._game)

    @property
    def game(self) -> Game:
        """The engine game (in the kernel's episodes, brought up to date when asked for)."""
        if self._kernel is not None:
            self._replay()
        return self._game

    @property
    def uses_kernel(self) -> bool:
        """Whether this episode runs in the compiled kernel."""
        return self._kernel is not None

    def _replay(self) -> None:
        """Play the action numbers the kernel stepped since in the engine game."""
        assert self._stepper is not None and self._kernel is not None
        logged = self._stepper.take_log(self._kernel)
        if not logged:
            return
        game, decode, tracker = self._game, self.layout.decode, self.tracker
        for action in logged:
            self._last_events = game.apply_unchecked(decode(game, action))
            if tracker is not None:
                for event in self._last_events:
                    tracker.feed(event)

    @property
    def last_events(self) -> list[Event]:
        """The events of the last action played."""
        if self._kernel is not None:
            self._replay()
        return self._last_events

    @property
    def steps(self) -> int:
        """The actions played this episode."""
        if self._kernel is not None:
            return self._stepper.status(self._kernel)[2]  # type: ignore[union-attr]
        return self._steps

    @property
    def current(self) -> int:
        """The seat to act."""
        if self._kernel is not None:
            return self._kernel.current
        return self._game.current

    @property
    def terminated(self) -> bool:
        if self._kernel is not None:
            return self._kernel.stage == 2
        return self._game.stage is Stage.GAME_OVER

    @property
    def truncated(self) -> bool:
        if self._kernel is not None:
            return self._stepper.ended(self._kernel, self.max_steps) == 2  # type: ignore[union-attr]
        return self._truncated

    @property
    def done(self) -> bool:
        if self._kernel is not None:
            return self.aborted or self._stepper.ended(self._kernel, self.max_steps) > 0  # type: ignore[union-attr]
        return self.terminated or self._truncated or self.aborted

    def abort(self) -> None:
        """Stop the episode where it is (an adapter's answer to an illegal action)."""
        self.aborted = True
        self._mask_key = -1  # the mask is now empty

    # -- what the player to act sees --------------------------------------------------

    def mask(self, out: NDArray[np.int8] | None = None) -> NDArray[np.int8]:
        """The legal actions of the player to act as 0/1 (a cached array: copy to keep;
        or written into ``out``)."""
        if self._kernel is not None:
            into = self._mask if out is None or not _plain(out, np.int8) else out
            if self.done:
                into[:] = 0
            else:
                self._stepper.mask(self._kernel, into)  # type: ignore[union-attr]
            if out is not None and into is not out:
                out[:] = into
                return out
            return into
        if out is not None:
            out[:] = self.mask()
            return out
        key = len(self._game.actions)
        if key != self._mask_key:
            if self.done:
                self._mask[:] = 0
            else:
                self.layout.mask(self._game, self._mask)
            self._mask_key = key
        return self._mask

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.mask())]

    def observe(self, seat: int, out: NDArray[np.float32] | None = None) -> NDArray[np.float32]:
        """Seat ``seat``'s observation (its own hand and the public state only)."""
        if self._kernel is not None and (out is None or _plain(out, np.float32)):
            if out is None:
                out = np.empty(self.layout.observation_size, np.float32)
            self._stepper.observe(self._kernel, seat, out)  # type: ignore[union-attr]
            return out
        # (another array: the Python encoder writes its values as they are, unrounded)
        return self.layout.observe_game(self.game, seat, out, self.tracker)

    # -- acting -----------------------------------------------------------------------

    def step(self, action: int) -> list[float]:
        """Play the action number for the player to act; return every seat's reward."""
        if self.done:
            raise IllegalActionError("the episode is over: reset it", Refusal.GAME_OVER)
        if self._kernel is not None:
            try:
                return list(self._stepper.step(self._kernel, action))  # type: ignore[union-attr]
            except (ValueError, OverflowError):
                self._check_legal(action)  # (refused: said as the Python path says it)
                raise
        self._check_legal(action)
        return self.apply(self.layout.decode(self._game, action), checked=False)

    def _check_legal(self, action: int) -> None:
        mask = self.mask()
        if not 0 <= action < len(mask) or not mask[action]:
            raise IllegalActionError(
                f"action {action} ({self.describe(action)}) is not legal now; "
                f"legal: {self.legal_actions()}"
            )

    def apply(self, action: Action, *, checked: bool = True) -> list[float]:
        """Play an engine action (checked unless it came from the mask)."""
        if self.done:
            raise IllegalActionError("the episode is over: reset it", Refusal.GAME_OVER)
        game = self.game
        events = game.apply(action) if checked else game.apply_unchecked(action)
        self._last_events = events
        tracker = self.tracker
        if tracker is not None:
            for event in events:
                tracker.feed(event)
        if self._kernel is not None:  # the kernel plays it too, and counts the rewards
            return list(self._stepper.apply(self._kernel, action_key(action)))  # type: ignore[union-attr]
        self._steps += 1
        rewards = [0.0] * self.players
        for event in events:
            if isinstance(event, HandEnded):
                for seat, count in enumerate(event.phases_completed):
                    rewards[seat] += self.phase_reward * (count - self._completed[seat])
                self._completed = list(event.phases_completed)
            elif isinstance(event, GameEnded):
                for seat in range(self.players):
                    rewards[seat] += 1.0 / len(event.winners) if seat in event.winners else -1.0
        if not self.terminated and self._steps >= self.max_steps:
            self._truncated = True
        return rewards

    def describe(self, action: int) -> str:
        """The action number's meaning for the player to act: the engine's text if legal."""
        if 0 <= action < self.layout.num_actions and self.mask()[action]:
            text = str(self.layout.decode(self.game, action))
            if LAY_MOST <= action < DECLARE:  # the two lay-downs may be the same
                text += " (most cards)" if action < LAY_FEWEST else " (fewest cards)"
            return text
        if 0 <= action < self.layout.num_actions:
            return self.layout.action_name(action)
        return "no such action"

    def winners(self) -> Sequence[int]:
        if self._kernel is not None:
            return self._stepper.winners(self._kernel)  # type: ignore[union-attr]
        return self._game.winners
