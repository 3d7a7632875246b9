"""Computer players for Phase 10 Dice (docs/dice.md): they read a :class:`DiceView`, never
the game, and return one action at a time, as the card bots do.

A turn is several actions: roll, then keep or take back dice until the chosen dice are set
aside, then roll again, and at the end score or pass. A bot decides which dice to keep once
per roll (:meth:`DicePlayer.hint`), then sets them aside one action at a time.

``random`` takes any legal action; ``greedy`` keeps the dice of the most promising way to
the phase (the one the dice showing fill most, the higher scoring on a tie) and scores as
soon as the phase is made; ``optimal`` keeps the dice that make the phase this turn most
often, by the exact solver (:mod:`phase10.solver.dice`); ``win`` plays as ``optimal`` until
someone has completed phase 10, then, in its last try, plays for the greatest share of the
win (:mod:`phase10.solver.dice_win`): it rolls on past a phase made when its points would
not be enough, and scores at once when they are.

>>> import random
>>> from phase10.dice import DiceGame
>>> game = DiceGame(["Ann", "Bob"], seed=3)
>>> play_dice_game(game, [make_dice_player("greedy", random.Random(1))] * 2)
>>> game.is_over
True
>>> make_dice_player("clever", random.Random(1))
Traceback (most recent call last):
...
ValueError: unknown dice bot 'clever': choose from random, greedy...
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from phase10.dice import (
    DICE,
    DiceAction,
    DiceGame,
    DicePhase,
    DiceStage,
    DiceView,
    Face,
    GroupKind,
    Keep,
    Pass,
    Roll,
    Score,
    Unkeep,
    dice_phase,
    die_names,
)
from phase10.solver.dice import advise
from phase10.solver.dice_win import WinAdvice, advise_to_win

__all__ = [
    "DEFAULT_DICE_BOT",
    "DICE_BOT_HELP",
    "DICE_BOT_NAMES",
    "DiceGameTooLongError",
    "DiceHint",
    "DicePlayer",
    "GreedyDicePlayer",
    "OptimalDicePlayer",
    "RandomDicePlayer",
    "WinDicePlayer",
    "greedy_keep",
    "make_dice_player",
    "play_dice_game",
]


@dataclass(frozen=True, slots=True)
class DiceHint:
    """What a bot would do now and why: the next action, the dice it wants set aside
    before the next roll (None when no roll is left), and its reason in plain words."""

    action: DiceAction
    keep: tuple[int, ...] | None
    reason: str


class DicePlayer(Protocol):
    """Anything that picks a dice action from a view."""

    def choose(self, view: DiceView) -> DiceAction: ...


def _end_of_turn(view: DiceView) -> DiceHint | None:
    """The moves every bot makes alike: the first roll, a score once the phase is made at
    the last roll, a pass when it is not."""
    if view.stage is DiceStage.ROLL:
        return DiceHint(Roll(), None, "A turn starts with a roll of all ten dice.")
    if view.stage is DiceStage.FINAL:
        if view.way is not None:
            return DiceHint(Score(), None, f"The dice make the phase: {view.way.score} points.")
        return DiceHint(Pass(), None, "The dice do not make the phase, and no roll is left.")
    return None


def _step_towards(view: DiceView, keep: Sequence[int], reason: str) -> DiceHint:
    """The next action that sets aside exactly ``keep``, then the roll."""
    target, kept = set(keep), set(view.kept)
    if target - kept:
        return DiceHint(Keep(tuple(sorted(target - kept))), tuple(sorted(target)), reason)
    if kept - target:
        return DiceHint(Unkeep(tuple(sorted(kept - target))), tuple(sorted(target)), reason)
    return DiceHint(Roll(), tuple(sorted(target)), reason)


class _Planner:
    """A bot that chooses its keep once per roll and remembers it until the roll (so that
    keeps alike in value never send it back and forth)."""

    def __init__(self) -> None:
        self._plan: tuple[object, tuple[int, ...], str] | None = None

    def plan(self, view: DiceView) -> tuple[tuple[int, ...], str]:
        raise NotImplementedError

    def hint(self, view: DiceView) -> DiceHint:
        ended = _end_of_turn(view)
        if ended is not None:
            return ended
        key = (view.turn, view.rolls_left, view.showing)
        if self._plan is None or self._plan[0] != key:
            keep, reason = self.plan(view)
            self._plan = (key, keep, reason)
        _, keep, reason = self._plan
        return _step_towards(view, keep, reason)

    def choose(self, view: DiceView) -> DiceAction:
        return self.hint(view).action


class RandomDicePlayer:
    """Any legal action, at random (a phase made at the last roll is scored: the only
    legal action then)."""

    #: decides within a millisecond (a server may play it on its event loop)
    instant = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def hint(self, view: DiceView) -> DiceHint:
        action = self.rng.choice(view.legal_actions)
        return DiceHint(action, None, "A legal action, at random.")

    def choose(self, view: DiceView) -> DiceAction:
        return self.hint(view).action


def _numbered(phase: DicePhase) -> list[list[tuple[GroupKind, int, int]]]:
    """Every choice of numbers for the phase's groups: (kind, size, number or run start)."""
    plans: list[list[tuple[GroupKind, int, int]]] = [[]]
    for kind, size in phase.groups:
        starts = range(1, 11) if kind is GroupKind.SET else range(1, 12 - size)
        plans = [[*plan, (kind, size, start)] for plan in plans for start in starts]
    return plans


def _fill(plan: Sequence[tuple[GroupKind, int, int]], faces: dict[int, Face]) -> list[int]:
    """The dice (indices) that go towards ``plan``: a die of each number it asks for, then
    Wilds for the numbers missing."""
    free = dict(faces)
    used: list[int] = []
    missing = 0
    for kind, size, start in plan:
        numbers = [start] * size if kind is GroupKind.SET else list(range(start, start + size))
        for number in numbers:
            die = next(
                (i for i, face in free.items() if not face.is_wild and face.value == number), None
            )
            if die is None:
                missing += 1
            else:
                used.append(die)
                del free[die]
    wilds = [i for i, face in free.items() if face.is_wild][:missing]
    return used + wilds


def greedy_keep(phase: int, showing: Sequence[Face | None]) -> tuple[tuple[int, ...], str]:
    """The dice a simple human-like player keeps for ``phase``, and why: for the colour
    phase, the dice of the colour showing most; otherwise the dice that fill the most of
    one way to the phase (its sets' numbers, its runs' ends), the higher scoring on a tie.

    >>> from phase10.dice import DiceGame, die_names, format_faces
    >>> game = DiceGame(["Ann"], seed=0)
    >>> _ = game.apply("roll")
    >>> format_faces(game.showing)
    'G8 O8 O5 O7 R9 R8 G4 G3 B4 B3'
    >>> keep, reason = greedy_keep(1, game.showing)
    >>> die_names(keep), reason
    ('H1 H2 H6 L1 L3', '5 of 6 dice for 2 sets of 3: 8 8 8 + 4 4')
    >>> greedy_keep(8, game.showing)[1]
    '3 of 7 orange dice for 7 of one colour'
    """
    chosen = dice_phase(phase)
    faces = {i: face for i, face in enumerate(showing) if face is not None}
    if chosen.groups[0][0] is GroupKind.COLOUR:
        size = chosen.groups[0][1]
        counts = {
            colour: [i for i, face in faces.items() if face.colour is colour]
            for colour in {face.colour for face in faces.values()}
        }
        colour, dice = max(
            sorted(counts.items(), key=lambda item: item[0].value),
            key=lambda item: (len(item[1]), sum(faces[i].points for i in item[1])),
        )
        keep = tuple(sorted(dice)[:size])
        return keep, f"{len(keep)} of {size} {colour.display_name} dice for {chosen}"
    best: tuple[tuple[int, int], list[int], Sequence[tuple[GroupKind, int, int]]] | None = None
    for plan in _numbered(chosen):
        used = _fill(plan, faces)
        key = (len(used), sum(faces[i].points for i in used))
        if best is None or key > best[0]:
            best = (key, used, plan)
    assert best is not None
    _, used, chosen_plan = best
    groups = _describe_groups(chosen_plan, [faces[i] for i in used])
    reason = f"{len(used)} of {chosen.dice_needed} dice for {chosen}: {groups}"
    return tuple(sorted(used)), reason


def _describe_groups(plan: Sequence[tuple[GroupKind, int, int]], faces: Sequence[Face]) -> str:
    """``9 9 9 + 5 5 W``: each group of the plan with the values kept for it (W for a Wild)."""
    wilds = sum(1 for face in faces if face.is_wild)
    values = sorted((face.value for face in faces if not face.is_wild), reverse=True)
    shown = []
    for kind, size, start in plan:
        numbers = [start] * size if kind is GroupKind.SET else list(range(start, start + size))
        marks = []
        for number in numbers:
            if number in values:
                values.remove(number)
                marks.append(str(number))
            elif wilds:
                wilds -= 1
                marks.append("W")
        shown.append(" ".join(marks) or "-")
    order = sorted(range(len(shown)), key=lambda n: -len(shown[n]))
    return " + ".join(shown[n] for n in order)


class GreedyDicePlayer(_Planner):
    """Keeps the dice of the most promising way to the phase, rolls the rest, and scores
    as soon as the phase is made."""

    #: decides within a millisecond (a server may play it on its event loop)
    instant = True

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__()
        self.rng = rng

    def hint(self, view: DiceView) -> DiceHint:
        if view.stage is DiceStage.CHOOSE and view.way is not None:
            return DiceHint(Score(), None, f"The dice make the phase: {view.way.score} points.")
        return super().hint(view)

    def plan(self, view: DiceView) -> tuple[tuple[int, ...], str]:
        return greedy_keep(view.seats[view.current].phase, view.showing)


class OptimalDicePlayer(_Planner):
    """Keeps the dice that complete the phase this turn most often, by the exact solver
    (:func:`phase10.solver.dice.advise`), and scores a phase as soon as it is made (a
    certainty no keep can beat)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__()
        self.rng = rng

    def hint(self, view: DiceView) -> DiceHint:
        if view.stage is DiceStage.CHOOSE and view.way is not None:
            return DiceHint(Score(), None, f"The dice make the phase: {view.way.score} points.")
        return super().hint(view)

    def plan(self, view: DiceView) -> tuple[tuple[int, ...], str]:
        faces = [face for face in view.showing if face is not None]
        # after the first roll, dice set aside are this choice's, not yet made: any may be
        # taken back, so they bind nothing (the solver would hold them aside)
        advice = advise(
            view.seats[view.current].phase,
            faces,
            rolls_left=view.rolls_left,
            kept=view.kept if view.rolls_left < 2 else (),
            dice=range(len(DICE)),
        )
        chance = _percent(advice.best.probability)
        return (
            advice.keep_dice,
            f"The phase is made this turn {chance} of the time, the best chance.",
        )


class WinDicePlayer(OptimalDicePlayer):
    """Plays as :class:`OptimalDicePlayer` until the last round; in its last try, keeps,
    scores or rolls on for the greatest expected share of the win (a shared win counts
    as its share), by :func:`phase10.solver.dice_win.advise_to_win`."""

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self._advice: tuple[object, WinAdvice | None] | None = None

    def _advise(self, view: DiceView) -> WinAdvice | None:
        key = (view.turn, view.rolls_left, view.showing)
        if self._advice is None or self._advice[0] != key:
            self._advice = (key, advise_to_win(view))
        return self._advice[1]

    def hint(self, view: DiceView) -> DiceHint:
        advice = self._advise(view) if view.stage is DiceStage.CHOOSE else None
        if advice is None:
            return super().hint(view)
        if advice.score:
            return DiceHint(Score(), None, _win_reason(advice))
        return _Planner.hint(self, view)

    def plan(self, view: DiceView) -> tuple[tuple[int, ...], str]:
        advice = self._advise(view)
        if advice is None:
            return super().plan(view)
        return advice.keep, _win_reason(advice)


def _win_reason(advice: WinAdvice) -> str:
    """``Needs 37 more points to pass the leader: keeping H1 H2, the game is won 42% of
    the time.`` (a shared win counted as its share)."""
    if advice.short >= 0:
        where = f"Needs {advice.short + 1} more points to pass the leader"
    else:
        where = f"Leads by {-advice.short} points"
    if advice.score:
        chance = _percent(advice.chance)
        return f"{where}: scoring {advice.points} now, the game is won {chance} of the time."
    if advice.score_chance is not None:
        return (
            f"{where}: rolling on wins {_percent(advice.chance)} of the time, scoring "
            f"{advice.points} now {_percent(advice.score_chance)}."
        )
    kept = f"keeping {die_names(advice.keep)}" if advice.keep else "rolling every die"
    return f"{where}: {kept}, the game is won {_percent(advice.chance)} of the time."


def _percent(probability: float) -> str:
    """A chance in words that never rounds a chance to a certainty (or to nothing).

    >>> _percent(0.9971), _percent(1.0), _percent(0.4551), _percent(0.0004)
    ('99.7%', '100%', '46%', '0.04%')
    """
    if probability >= 1 or probability <= 0:
        return f"{probability:.0%}"
    for digits in (0, 1, 2, 3):
        text = f"{probability * 100:.{digits}f}"
        if 0 < float(text) < 100:
            shown = f"{text}%"
            if digits or 0.01 <= probability <= 0.99:
                return shown
    return f"{probability:.4%}"


_FACTORIES: dict[str, Callable[[random.Random], DicePlayer]] = {
    "random": RandomDicePlayer,
    "greedy": GreedyDicePlayer,
    "optimal": OptimalDicePlayer,
    "win": WinDicePlayer,
}
#: every dice bot, weakest first
DICE_BOT_NAMES = tuple(_FACTORIES)
DICE_BOT_HELP = ", ".join(DICE_BOT_NAMES[:-1]) + f" or {DICE_BOT_NAMES[-1]}"
#: the opponent a new dice game gets unless asked otherwise, and whose hints ``?`` shows
DEFAULT_DICE_BOT = "optimal"


def make_dice_player(spec: str, rng: random.Random) -> DicePlayer:
    """A new dice bot by name (any case); ValueError naming the choices."""
    name = spec.strip().lower() if isinstance(spec, str) else None
    factory = _FACTORIES.get(name) if name is not None else None
    if factory is None:
        raise ValueError(f"unknown dice bot {spec!r}: choose from {DICE_BOT_HELP}")
    return factory(rng)


class DiceGameTooLongError(RuntimeError):
    """A game that did not end within its action budget (a bot that never finishes)."""


def play_dice_game(
    game: DiceGame, players: Sequence[DicePlayer], *, max_actions: int = 200_000
) -> None:
    """Play ``game`` to its end, each seat by its player (seat order)."""
    if len(players) != game.num_players:
        raise ValueError(f"{game.num_players} players play this game, not {len(players)}")
    for _ in range(max_actions):
        if game.is_over:
            return
        player = game.current
        game.apply(players[player].choose(game.view(player)))
    if not game.is_over:
        raise DiceGameTooLongError(f"the game did not end within {max_actions} actions")
