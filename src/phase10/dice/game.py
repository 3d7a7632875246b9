"""The Phase 10 Dice game: a seeded state machine that validates every action
(docs/dice.md §3-§6).

>>> game = DiceGame(["Ann", "Bob"], seed=7)
>>> game.stage, game.order
(<DiceStage.ROLL: 'roll'>, (0, 1))
>>> [type(event).__name__ for event in game.apply("roll")]
['Rolled']
>>> game.stage, game.rolls_left
(<DiceStage.CHOOSE: 'choose'>, 2)
>>> game.apply("unkeep H1")
Traceback (most recent call last):
...
phase10.dice.errors.IllegalDiceActionError: H1 is not set aside
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import assert_never

from phase10.core.positions import player_names

from .actions import DiceAction, Keep, Pass, Roll, Score, Unkeep, die_names, parse_action
from .errors import DiceRefusal, IllegalDiceActionError, InvalidDiceActionError
from .events import (
    BonusKind,
    DiceEvent,
    DiceGameEnded,
    DiceGameStarted,
    EarnedBonus,
    FailedPhase,
    KeptDice,
    LastRoundStarted,
    OrderRolled,
    Penalised,
    Rolled,
    ScoredPhase,
    TurnStarted,
    UnkeptDice,
)
from .faces import DICE, DICE_COUNT, DiceError, Face, assign_dice, format_faces
from .phases import Way, best_way, dice_phase
from .state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PHASE_COUNT,
    ROLLS,
    DiceSeatInfo,
    DiceSetup,
    DiceStage,
    Seat,
)
from .views import DiceView

__all__ = [
    "BONUS",
    "FIVE_PHASE_OVER",
    "PENALTY",
    "DiceGame",
    "completion_bonuses",
    "first_finish_open",
]

#: the Five Phase Bonus and the First Finish Bonus
BONUS = 40
#: the Five Phase Bonus goes to a total over this right after phase 5
FIVE_PHASE_OVER = 220
#: solitaire: points off for each failed turn, at the end
PENALTY = 5


def completion_bonuses(phase: int, total: int, *, first_finish: bool) -> tuple[BonusKind, ...]:
    """The bonuses a player earns by completing ``phase`` when their total with the phase's
    points is ``total`` (docs/dice.md §4); ``first_finish``: whether the First Finish Bonus
    is open to them (:func:`first_finish_open`). Each is worth :data:`BONUS`.

    >>> completion_bonuses(5, 221, first_finish=False), completion_bonuses(5, 220, first_finish=True)
    ((<BonusKind.FIVE_PHASE: 'five_phase'>,), ())
    >>> completion_bonuses(10, 300, first_finish=True)
    (<BonusKind.FIRST_FINISH: 'first_finish'>,)
    """
    if phase == 5 and total > FIVE_PHASE_OVER:
        return (BonusKind.FIVE_PHASE,)
    if phase == PHASE_COUNT and first_finish:
        return (BonusKind.FIRST_FINISH,)
    return ()


def first_finish_open(
    order: Sequence[int], finisher: int | None, player: int, began_on: int | None
) -> bool:
    """Whether completing phase 10 earns ``player`` the First Finish Bonus in a game of
    several players (docs/dice.md §4): always before anyone has; in the last round, only
    when their last try began on phase 10 (``began_on``) and they come after the finisher
    ``finisher`` in the turn ``order``.

    >>> first_finish_open((0, 1, 2), None, 1, None), first_finish_open((0, 1, 2), 1, 2, 10)
    (True, True)
    >>> first_finish_open((0, 1, 2), 1, 0, 10), first_finish_open((0, 1, 2), 1, 2, 9)
    (False, False)
    """
    if finisher is None:
        return True
    return began_on == PHASE_COUNT and order.index(player) > order.index(finisher)


class DiceGame:
    """A game of Phase 10 Dice for 1 to 8 players (one player: solitaire).

    All chance goes through one ``random.Random`` seeded from ``seed``: the same seed and
    the same actions give the same game. ``setup`` sets a game up exactly (tests).
    """

    def __init__(
        self,
        players: int | Sequence[str] = 2,
        *,
        seed: int | None = None,
        setup: DiceSetup | None = None,
    ) -> None:
        names = player_names(players, "Phase 10 Dice", MIN_PLAYERS, MAX_PLAYERS)
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ValueError(f"the seed must be a whole number (or None), not {seed!r}")
        if setup is not None:
            if not isinstance(setup, DiceSetup):
                raise ValueError(f"setup must be a DiceSetup, not {setup!r}")
            setup.check(len(names))
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.rng = random.Random(self.seed)
        self.setup = setup
        self.seats = [Seat(name) for name in names]
        if setup is not None:
            for seat, phase in zip(self.seats, setup.phases or (), strict=False):
                seat.phase = phase
            for seat, total in zip(self.seats, setup.totals or (), strict=False):
                seat.total = total
        self._rolls = list(setup.roll_faces) if setup is not None else []
        self.history: list[DiceEvent] = []
        self.actions: list[DiceAction] = []
        self.showing: list[Face | None] = [None] * DICE_COUNT
        self.kept: set[int] = set()
        self.rolls_made = 0
        self.turn = 0
        self.current = 0
        self.finisher: int | None = None
        #: the players still to take their last try, next first (after someone finished)
        self.last_round: list[int] = []
        #: the phase each player was on as their last try began
        self.last_try_from: dict[int, int] = {}
        self.last_try = False
        self.winners: tuple[int, ...] = ()
        self.over = False
        if setup is not None and setup.order is not None:
            self.order = setup.order
        elif len(names) == 1:
            self.order = (0,)
        else:
            self.order = tuple(self._roll_order(tuple(range(len(names))), 1))
        self._emit(DiceGameStarted(self.order, self.solitaire))
        self._start_turn(self.order[0])

    # -- questions --------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.seats)

    @property
    def solitaire(self) -> bool:
        return len(self.seats) == 1

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def stage(self) -> DiceStage:
        if self.over:
            return DiceStage.GAME_OVER
        if self.rolls_made == 0:
            return DiceStage.ROLL
        return DiceStage.CHOOSE if self.rolls_made < ROLLS else DiceStage.FINAL

    @property
    def rolls_left(self) -> int:
        return 0 if self.over else ROLLS - self.rolls_made

    @property
    def phase(self) -> int:
        """The phase the player to move works on."""
        return self.seats[self.current].phase

    def way(self) -> Way | None:
        """The best-scoring way the ten dice showing make the phase of the player to move
        (None before the turn's first roll, or when they do not make it)."""
        if self.rolls_made == 0 or self.over:
            return None
        return best_way(self.phase, [face for face in self.showing if face is not None])

    def seat_info(self, seat: int) -> DiceSeatInfo:
        return self.seats[seat].info()

    def totals(self) -> tuple[int, ...]:
        return tuple(seat.total for seat in self.seats)

    def legal_actions(self) -> tuple[DiceAction, ...]:
        """The actions the player to move may take now. Keeps and unkeeps are listed one
        die at a time (any of them together is legal too); ``score`` is the best-scoring
        way, and ``score DICE`` is legal for any dice of the phase's count that make it."""
        stage = self.stage
        if stage is DiceStage.GAME_OVER:
            return ()
        if stage is DiceStage.ROLL:
            return (Roll(),)
        actions: list[DiceAction] = []
        if stage is DiceStage.CHOOSE:
            actions.append(Roll())
            actions += [Keep((i,)) for i in range(DICE_COUNT) if i not in self.kept]
            actions += [Unkeep((i,)) for i in sorted(self.kept)]
        actions.append(Score() if self.way() is not None else Pass())
        return tuple(actions)

    def view(self, viewer: int | None = None) -> DiceView:
        """What ``viewer`` sees (everything is public; None: a spectator)."""
        if viewer is not None and (
            not isinstance(viewer, int)
            or isinstance(viewer, bool)
            or not 0 <= viewer < len(self.seats)
        ):
            raise ValueError(f"there is no player {viewer!r} (seats 0 to {len(self.seats) - 1})")
        mine = viewer == self.current and not self.over
        return DiceView(
            viewer=viewer,
            order=self.order,
            stage=self.stage,
            current=self.current,
            turn=self.turn,
            last_try=self.last_try,
            rolls_left=self.rolls_left,
            showing=tuple(self.showing),
            kept=tuple(sorted(self.kept)),
            seats=tuple(seat.info() for seat in self.seats),
            way=self.way(),
            finisher=self.finisher,
            last_round=tuple(self.last_round),
            winners=self.winners,
            history=tuple(self.history),
            legal_actions=self.legal_actions() if mine else (),
        )

    def parse_action(self, text: str) -> DiceAction:
        """Read an action's text; faces (``keep O10``) are read against the dice showing."""
        return parse_action(text, self.showing, self.kept)

    # -- applying actions -------------------------------------------------------------

    def apply(self, action: DiceAction | str) -> list[DiceEvent]:
        """Check and apply an action (or its text) for the player to move; return the events.

        A malformed or illegal action raises :class:`InvalidDiceActionError` or
        :class:`IllegalDiceActionError` and leaves the game exactly as it was.
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        used = self.check(action)
        start = len(self.history)
        self.actions.append(action)
        match action:
            case Roll():
                self._roll()
            case Keep(dice):
                self.kept.update(dice)
                self._emit(KeptDice(self.current, dice, self._faces(dice)))
            case Unkeep(dice):
                self.kept.difference_update(dice)
                self._emit(UnkeptDice(self.current, dice, self._faces(dice)))
            case Score():
                assert used is not None
                self._score(*used)
            case Pass():
                self._fail()
            case _:
                assert_never(action)
        return self.history[start:]

    def check(self, action: DiceAction) -> tuple[Way, tuple[int, ...]] | None:
        """Refuse ``action`` if it is not legal now; for a score, the way and dice it uses."""
        if not isinstance(action, (Roll, Keep, Unkeep, Score, Pass)):
            raise InvalidDiceActionError(f"not a dice action: {action!r}")
        if self.over:
            raise IllegalDiceActionError(DiceRefusal.GAME_OVER, "the game is over")
        if not isinstance(action, Roll) and self.rolls_made == 0:
            raise IllegalDiceActionError(
                DiceRefusal.ROLL_FIRST, "roll the dice first: a turn starts with a roll of all ten"
            )
        if isinstance(action, (Roll, Keep, Unkeep)) and self.rolls_made >= ROLLS:
            raise IllegalDiceActionError(
                DiceRefusal.NO_ROLLS_LEFT,
                f"you have rolled {ROLLS} times: score your phase, or pass if the dice do not "
                "make it",
            )
        if isinstance(action, Keep):
            again = [i for i in action.dice if i in self.kept]
            if again:
                raise IllegalDiceActionError(
                    DiceRefusal.ALREADY_KEPT, f"{die_names(again)} {_is(again)} already set aside"
                )
        elif isinstance(action, Unkeep):
            loose = [i for i in action.dice if i not in self.kept]
            if loose:
                raise IllegalDiceActionError(
                    DiceRefusal.NOT_KEPT, f"{die_names(loose)} {_is(loose)} not set aside"
                )
        elif isinstance(action, Score):
            return self._check_score(action)
        elif isinstance(action, Pass) and self.way() is not None:
            raise IllegalDiceActionError(
                DiceRefusal.PHASE_MADE,
                f"the dice make phase {self.phase} ({dice_phase(self.phase)}): a phase the "
                "dice make is completed, so score it",
            )
        return None

    def _check_score(self, action: Score) -> tuple[Way, tuple[int, ...]]:
        phase = dice_phase(self.phase)
        dice = action.dice if action.dice is not None else tuple(range(DICE_COUNT))
        faces = self._faces(dice)
        if action.dice is not None and len(dice) != phase.dice_needed:
            raise IllegalDiceActionError(
                DiceRefusal.WRONG_COUNT,
                f"phase {phase.number} ({phase}) uses {phase.dice_needed} dice, not {len(dice)}",
            )
        way = best_way(phase, faces)
        if way is None:
            shown = (
                f"{format_faces(faces)} do not" if action.dice is not None else "the dice do not"
            )
            raise IllegalDiceActionError(
                DiceRefusal.NOT_THE_PHASE, f"{shown} make phase {phase.number} ({phase})"
            )
        # the die of each face used (the way names faces; any die showing one will do)
        left = list(dice)
        used = []
        for face in way.used:
            die = next(i for i in left if self.showing[i] == face)
            left.remove(die)
            used.append(die)
        return way, tuple(used)

    # -- what actions do --------------------------------------------------------------

    def _emit(self, event: DiceEvent) -> None:
        self.history.append(event)

    def _faces(self, dice: Sequence[int]) -> tuple[Face, ...]:
        faces = tuple(self.showing[i] for i in dice)
        assert all(face is not None for face in faces)
        return tuple(face for face in faces if face is not None)

    def _roll_order(self, players: tuple[int, ...], round_: int) -> list[int]:
        """Each of ``players`` rolls a high die; the highest plays first, and the tied roll
        again among themselves to order their places (docs/dice.md §3)."""
        values = tuple(5 + self.rng.randrange(6) for _ in players)
        self._emit(OrderRolled(round_, players, values))
        order: list[int] = []
        for value in sorted(set(values), reverse=True):
            tied = tuple(p for p, v in zip(players, values, strict=True) if v == value)
            order += tied if len(tied) == 1 else self._roll_order(tied, round_ + 1)
        return order

    def _roll(self) -> None:
        dice = tuple(i for i in range(DICE_COUNT) if i not in self.kept)
        if self._rolls:
            faces = self._rolls[0]
            try:
                if len(faces) != len(dice):
                    raise DiceError(f"it shows {len(faces)} faces for {len(dice)} dice")
                shown = assign_dice(faces, dice)
            except DiceError as error:
                self.actions.pop()
                raise DiceError(
                    f"the set-up roll {format_faces(faces)} does not fit the dice rolled "
                    f"({die_names(dice) or 'none'}): {error}"
                ) from None
            self._rolls.pop(0)
            by_die = dict(zip(shown, faces, strict=True))
            rolled = tuple(by_die[i] for i in dice)
        else:
            rolled = tuple(DICE[i].faces[self.rng.randrange(6)] for i in dice)
        for die, face in zip(dice, rolled, strict=True):
            self.showing[die] = face
        self.rolls_made += 1
        self._emit(Rolled(self.current, self.rolls_made, dice, rolled))

    def _score(self, way: Way, dice: tuple[int, ...]) -> None:
        player, seat = self.current, self.seats[self.current]
        phase = seat.phase
        seat.scores[phase - 1] = way.score
        seat.total += way.score
        seat.phase += 1
        self._emit(ScoredPhase(player, phase, dice, way.groups, way.score, seat.total))
        first_finish = phase == PHASE_COUNT and self._earns_first_finish()
        for kind in completion_bonuses(phase, seat.total, first_finish=first_finish):
            self._bonus(kind)
        seat.tries = 0
        self._end_turn(made=True)

    def _earns_first_finish(self) -> bool:
        """Who completes phase 10 earns the First Finish Bonus (docs/dice.md §4): the first
        to; in solitaire, only at the first try; in the last round, a player already on
        phase 10 as their last try began who plays after the finisher in the turn order."""
        player = self.current
        if self.solitaire:
            return self.seats[player].tries == 0
        return first_finish_open(self.order, self.finisher, player, self.last_try_from.get(player))

    def _bonus(self, kind: BonusKind) -> None:
        seat = self.seats[self.current]
        seat.total += BONUS
        seat.bonuses.append(kind)
        self._emit(EarnedBonus(self.current, kind, BONUS, seat.total))

    def _fail(self) -> None:
        seat = self.seats[self.current]
        seat.failures += 1
        seat.tries += 1
        self._emit(FailedPhase(self.current, seat.phase, seat.failures))
        self._end_turn(made=False)

    def _start_turn(self, player: int) -> None:
        self.current = player
        self.showing = [None] * DICE_COUNT
        self.kept = set()
        self.rolls_made = 0
        self.turn += 1
        self._emit(TurnStarted(player, self.seats[player].phase, self.last_try))

    def _end_turn(self, *, made: bool) -> None:
        player = self.current
        finished = self.seats[player].phase > PHASE_COUNT
        if self.solitaire:
            return self._end_game("completed phase 10") if finished else self._start_turn(player)
        if self.finisher is None:
            if not finished:
                position = self.order.index(player)
                return self._start_turn(self.order[(position + 1) % len(self.order)])
            self.finisher = player
            position = self.order.index(player)
            self.last_round = [*self.order[position + 1 :], *self.order[:position]]
            self._emit(LastRoundStarted(player, tuple(self.last_round)))
            return self._next_last_try()
        if made and not finished:  # a last try goes on to the next phase
            return self._start_turn(player)
        return self._next_last_try()

    def _next_last_try(self) -> None:
        if not self.last_round:
            names = self.seats[self.finisher if self.finisher is not None else 0].name
            return self._end_game(
                f"{names} completed phase 10 and every other player had a last try"
            )
        player = self.last_round.pop(0)
        self.last_try = True
        self.last_try_from[player] = self.seats[player].phase
        self._start_turn(player)

    def _end_game(self, reason: str) -> None:
        if self.solitaire and self.seats[0].failures:
            seat = self.seats[0]
            points = -PENALTY * seat.failures
            seat.total += points
            self._emit(Penalised(0, seat.failures, points, seat.total))
        self.over = True
        self.showing = [None] * DICE_COUNT
        self.kept = set()
        self.rolls_made = 0
        best = max(self.totals())
        self.winners = tuple(i for i, total in enumerate(self.totals()) if total == best)
        self._emit(DiceGameEnded(self.winners, self.totals(), reason))

    # -- copies -----------------------------------------------------------------------

    def copy(self, *, rng: random.Random | None = None) -> DiceGame:
        """An independent copy (its random generator ``rng``, or a copy of this one's)."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        twin.rng = rng
        twin.seats = [seat.copy() for seat in self.seats]
        twin._rolls = list(self._rolls)
        twin.history = list(self.history)
        twin.actions = list(self.actions)
        twin.showing = list(self.showing)
        twin.kept = set(self.kept)
        twin.last_round = list(self.last_round)
        twin.last_try_from = dict(self.last_try_from)
        return twin

    def __repr__(self) -> str:
        names = ", ".join(seat.name for seat in self.seats)
        return f"<DiceGame [{names}] turn {self.turn}, {self.stage}, p{self.current} to move>"


def _is(dice: Sequence[int]) -> str:
    return "is" if len(dice) == 1 else "are"
