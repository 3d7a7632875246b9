"""Playing Phase 10 Dice to win: the last round (docs/dice-odds.md, "Playing to win").

Once someone has completed phase 10, a player's last try is what decides the game: the
aim is no longer to make phases but to end with a total above everyone else's. The value
of a final total ``t`` is the player's share of the win: 1 above every other final total,
``1/k`` tied at the top with ``k - 1`` others (a shared win is shared, as the tournaments
count it), 0 below. :func:`advise_to_win` gives, for the dice showing, the keep (or the
choice between scoring now and rolling on) that makes the expected share greatest.

What is exact and what is assumed:

- The turn being played is solved exactly over the dice (:mod:`phase10.solver.dice_dp`):
  each final roll is worth, when it makes the phase with ``x`` points, the value of going
  on from the next phase with the total plus ``x`` plus the bonuses the engine awards
  (:func:`phase10.dice.completion_bonuses`), and, when it does not, the value of stopping
  with the total as it is.
- The later phases of the same last try are valued as played by a fixed rule: at each
  phase, the better (for the win) of the probability-optimal and the points-optimal keeps,
  whose score distributions are exact. The player then plays each of those turns to win in
  its turn, so the share it reaches is at least the one computed (and the same when the
  phase played is the last the try can reach: phase 10).
- Players whose last try is still to come are assumed to play as the ``optimal`` bot does
  (the probability-optimal keeps, scoring a phase as soon as it is made); their final
  totals are exact under that assumption and independent of each other.
- Phase 8's points depend on which die shows which value: its later turns are valued by
  the best-chance keeps (which look at colours only), whose chance of each score is worked
  out die by die (:func:`phase10.solver.dice_colour.strategy_score_chances`).

On phase 10 with 350 points, the First Finish Bonus to come, against a final 428: the
phase alone is not enough, 39 points are (38 ties).

>>> situation = LastTry(phase=10, total=350, first_finish=True, rivals=(Rival(428),))
>>> round(win_chance(situation), 4), round(optimal_chance(situation), 4)
(0.5567, 0.4141)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from phase10.dice import (
    BONUS,
    DICE_COUNT,
    DiceStage,
    DiceView,
    TurnStarted,
    completion_bonuses,
    dice_phase,
    first_finish_open,
)

from .dice import Objective, _keeps, _tables
from .dice_colour import strategy_score_chances
from .dice_dp import Floats
from .dice_models import model

__all__ = [
    "LastTry",
    "Rival",
    "WinAdvice",
    "advise_to_win",
    "optimal_chance",
    "win_chance",
]

_PHASES = range(1, 11)
#: the most any score sheet can still gain: every die at 10 in every phase, both bonuses
_REACH = 10 * sum(dice_phase(p).dice_needed for p in _PHASES) + 2 * BONUS
_MAX_SCORE = 10 * DICE_COUNT
_EPSILON = 1e-9


@dataclass(frozen=True)
class Rival:
    """Another player: their total, and, when their last try is still to come, the phase
    it starts on and whether completing phase 10 would earn them the First Finish Bonus."""

    total: int
    phase: int | None = None
    first_finish: bool = False

    def __post_init__(self) -> None:
        _check(self.total, self.phase, "a rival")


@dataclass(frozen=True)
class LastTry:
    """The player to move in their last try: the phase, their total, whether completing
    phase 10 earns them the First Finish Bonus, and every other player."""

    phase: int
    total: int
    first_finish: bool
    rivals: tuple[Rival, ...]

    def __post_init__(self) -> None:
        _check(self.total, self.phase, "the player")
        if not self.rivals or not all(isinstance(rival, Rival) for rival in self.rivals):
            raise ValueError(f"a last try has one or more Rival rivals, not {self.rivals!r}")

    @classmethod
    def from_view(cls, view: DiceView) -> LastTry | None:
        """The last try the view's player to move is taking (None outside a last try)."""
        if view.solitaire or view.finisher is None or not view.last_try or view.is_over:
            return None
        me = view.current
        began = next(
            (
                event.phase
                for event in view.history
                if isinstance(event, TurnStarted) and event.player == me and event.last_try
            ),
            None,
        )
        rivals = []
        for seat, info in enumerate(view.seats):
            if seat == me:
                continue
            if seat in view.last_round:
                ff = first_finish_open(view.order, view.finisher, seat, info.phase)
                rivals.append(Rival(info.total, info.phase, ff))
            else:
                rivals.append(Rival(info.total))
        seat_info = view.seats[me]
        ff = first_finish_open(view.order, view.finisher, me, began)
        rivals.sort(key=lambda r: (r.total, r.phase or 0, r.first_finish))  # fewer cache misses
        return cls(seat_info.phase, seat_info.total, ff, tuple(rivals))

    @property
    def size(self) -> int:
        """The length of the total axes: beyond any total the game can still reach."""
        top = max(self.total, *(rival.total for rival in self.rivals)) + _REACH
        return top // 100 * 100 + 100  # in hundreds: fewer lengths, fewer tables kept

    @property
    def leader(self) -> int:
        return max(rival.total for rival in self.rivals)


def _check(total: int, phase: int | None, who: str) -> None:
    if isinstance(total, bool) or not isinstance(total, int) or total < 0:
        raise ValueError(f"{who}'s total is a whole number, 0 or more, not {total!r}")
    if phase is not None and (isinstance(phase, bool) or phase not in _PHASES):
        raise ValueError(f"{who}'s phase runs from 1 to 10, not {phase!r}")


@cache
def _score_distribution(phase: int, objective: Objective) -> Floats:
    """The chance of making ``phase`` in one turn with each score (index: points), played
    by the objective's optimal keeps; the chance of failing is what the sum leaves."""
    shape = model(phase)
    if shape.by_colour:
        return _phase8_distribution(phase)
    space = shape.space
    mass: Floats = np.zeros(space.shape)
    mass[tuple(cls.levels[0][0] for cls in space.classes)] = 1.0
    keeps = _tables(phase, objective).best_keep
    full = space.roll_forward(mass)
    for rolls in (2, 1):
        kept = np.bincount(keeps[rolls].reshape(-1), weights=full.reshape(-1), minlength=mass.size)
        full = space.roll_forward(kept.astype(np.float64).reshape(space.shape))
    made = shape.final_values(points=False).reshape(-1) > 0
    score = shape.final_values(points=True).reshape(-1).astype(np.int64)
    chances = np.bincount(score[made], weights=full.reshape(-1)[made], minlength=_MAX_SCORE + 1)
    return chances.astype(np.float64)


def _phase8_distribution(phase: int) -> Floats:
    """Phase 8, played by the best-chance keeps (which look at colours only): the exact
    chance of making it with each score (:mod:`phase10.solver.dice_colour`)."""
    shape = model(phase)
    keeps = _tables(phase, Objective.PROBABILITY).best_keep
    return strategy_score_chances(shape.die_class, shape.space, keeps)


def _objectives(phase: int) -> tuple[Objective, ...]:
    return (
        (Objective.PROBABILITY, Objective.POINTS)
        if model(phase).has_points
        else (Objective.PROBABILITY,)
    )


@lru_cache(maxsize=128)
def _after(phase: int, first_finish: bool, size: int) -> np.ndarray[Any, np.dtype[np.int64]]:
    """For each total with a phase's points, the total once its bonuses are added."""
    totals = np.arange(size, dtype=np.int64)
    bonus = [
        BONUS * len(completion_bonuses(phase, t, first_finish=first_finish)) for t in range(size)
    ]
    return np.minimum(totals + np.array(bonus, dtype=np.int64), size - 1)


def _final_totals(rival: Rival, size: int) -> Floats:
    """The chance of each final total for a rival, their last try played as the optimal bot
    plays (a rival whose total is final: that total for certain)."""
    done = np.zeros(size)
    now = np.zeros(size)
    now[rival.total] = 1.0
    if rival.phase is None:
        return now
    for phase in range(rival.phase, 11):
        made = _score_distribution(phase, Objective.PROBABILITY)
        after = _after(phase, rival.first_finish and phase == 10, size)
        done += (1.0 - made.sum()) * now
        moved = np.zeros(size)
        for x in np.flatnonzero(made):
            np.add.at(moved, after[np.minimum(np.arange(size) + x, size - 1)], made[x] * now)
        now = moved
    return done + now


@lru_cache(maxsize=64)
def _share(situation: LastTry) -> Floats:
    """The player's expected share of the win with each final total."""
    size = situation.size
    # the chance each rival ends below t and at t, as a polynomial in the number tied at t
    ties = np.zeros((len(situation.rivals) + 1, size))
    ties[0] = 1.0
    for rival in situation.rivals:
        at = _final_totals(rival, size)
        below = np.concatenate([[0.0], np.cumsum(at)[:-1]])
        ties[1:] = ties[1:] * below + ties[:-1] * at
        ties[0] = ties[0] * below
    return np.asarray((ties / np.arange(1, len(situation.rivals) + 2)[:, None]).sum(axis=0))


@lru_cache(maxsize=64)
def _values(situation: LastTry) -> dict[int, Floats]:
    """The value of starting a turn at each later phase with each total (phase 11: the
    try is over), the later turns played by the better of the two fixed rules."""
    size = situation.size
    share = _share(situation)
    values = {11: share}
    totals = np.arange(size)
    for phase in range(10, situation.phase, -1):
        after = _after(phase, situation.first_finish and phase == 10, size)
        best = np.zeros(size)
        for objective in _objectives(phase):
            made = _score_distribution(phase, objective)
            value = (1.0 - made.sum()) * share
            for x in np.flatnonzero(made):
                value = value + made[x] * values[phase + 1][after[np.minimum(totals + x, size - 1)]]
            best = np.maximum(best, value)
        values[phase] = best
    return values


@dataclass(frozen=True)
class _Turn:
    """The turn being played, solved for the win: what keeping each state is worth with 1
    or 2 rolls left, and the worth of the turn from its start."""

    keep_value: dict[int, Floats]
    start: float


@lru_cache(maxsize=8)  # a turn's tables are a few megabytes
def _turn(situation: LastTry) -> _Turn:
    phase, total = situation.phase, situation.total
    shape = model(phase)
    space = shape.space
    made = shape.final_values(points=False) > 0
    share = _share(situation)
    if shape.by_colour:
        worth = _made_worth(situation, _score_distribution(phase, Objective.PROBABILITY))
        final = np.where(made, worth, share[total])
    else:
        score = shape.final_values(points=True).astype(np.int64)
        reached = _reached(situation, np.minimum(total + score, situation.size - 1))
        final = np.where(made, reached, share[total])
    keep_value: dict[int, Floats] = {}
    values = final
    for rolls in (1, 2):
        keep_value[rolls] = space.roll_expectation(values)
        values = space.full_values(space.best_below(keep_value[rolls])[0])
    start = space.roll_expectation(values)[tuple(cls.levels[0][0] for cls in space.classes)]
    return _Turn(keep_value, float(start))


def _reached(situation: LastTry, totals: Any) -> Any:
    """The value of completing the phase played with ``totals`` (its points included)."""
    size = situation.size
    after = _after(situation.phase, situation.first_finish and situation.phase == 10, size)
    return _values(situation)[situation.phase + 1][after[totals]]


def _made_worth(situation: LastTry, made: Floats) -> float:
    """Phase 8 made, its points unseen: the value averaged over its points when made."""
    points = np.flatnonzero(made)
    totals = np.minimum(situation.total + points, situation.size - 1)
    return float((made[points] * _reached(situation, totals)).sum() / made.sum())


def win_chance(situation: LastTry) -> float:
    """The player's expected share of the win from the start of the turn, played to win."""
    return _clean(_turn(situation).start)


def optimal_chance(situation: LastTry) -> float:
    """The player's expected share of the win from the start of the turn when the rest of
    their last try is played as the ``optimal`` bot plays it (for comparison)."""
    me = Rival(situation.total, situation.phase, situation.first_finish)
    totals = _final_totals(me, situation.size)
    return _clean((totals * _share(situation)).sum())


@dataclass(frozen=True)
class WinAdvice:
    """What to do in a last try: score now (``score``), or set aside ``keep`` (dice) and
    roll on. ``chance`` is the expected share of the win that way, ``score_chance`` that
    of scoring now when the dice make the phase (else None); ``points`` what they score
    now (else None) and ``short`` the points the player is behind the leader (below 0:
    ahead)."""

    score: bool
    keep: tuple[int, ...]
    chance: float
    score_chance: float | None
    points: int | None
    short: int


def advise_to_win(view: DiceView) -> WinAdvice | None:
    """The play that wins most for the player to move in a last try, with rolls left
    (None outside a last try or when no roll is left)."""
    situation = LastTry.from_view(view)
    if situation is None or view.stage is not DiceStage.CHOOSE:
        return None
    faces = tuple(face for face in view.showing if face is not None)
    shape = model(situation.phase)
    turn = _turn(situation)
    rolls = view.rolls_left
    fixed = view.kept if rolls == 2 else ()  # with two rolls left, dice aside stay aside
    keeps, flats = _keeps(shape, faces, range(DICE_COUNT), fixed, prefer=view.kept)
    shares = turn.keep_value[rolls].reshape(-1)[flats]
    # among keeps of the same share (the game won, or out of reach, whatever happens): the
    # most points this turn (phase 8: the best chance), then keeping more
    other = Objective.POINTS if shape.has_points else Objective.PROBABILITY
    points = _tables(situation.phase, other).keep_value[rolls].reshape(-1)[flats]
    sizes = np.array([len(keep) for keep in keeps])
    best = int(np.lexsort((-sizes, -np.round(points, 9), -np.round(shares, 9)))[0])
    keep, chance = tuple(sorted(keeps[best])), _clean(shares[best])
    short = situation.leader - situation.total
    if view.way is None:
        return WinAdvice(False, keep, chance, None, None, short)
    total = min(situation.total + view.way.score, situation.size - 1)
    now = _clean(_reached(situation, np.array([total]))[0])
    if now >= chance - _EPSILON:
        return WinAdvice(True, (), now, now, view.way.score, short)
    return WinAdvice(False, keep, chance, now, view.way.score, short)


def _clean(value: Any) -> float:
    """A share as a float in [0, 1], rounding away the sums' last bits."""
    return min(1.0, max(0.0, round(float(value), 12)))
