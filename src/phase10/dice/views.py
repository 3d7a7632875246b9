"""What a player sees of a dice game (docs/dice.md §3): everything, since the dice are
rolled in the open, plus whose turn it is and, for the player to move, the legal actions.

>>> from phase10.dice.game import DiceGame
>>> game = DiceGame(["Ann", "Bob"], seed=7)
>>> view = game.view(game.current)
>>> view.is_my_turn, [str(action) for action in view.legal_actions]
(True, ['roll'])
>>> game.view(None).legal_actions
()
>>> data = view.to_dict()
>>> data["stage"], data["seats"][0]["phase"], data["showing"][:2]
('roll', 1, [None, None])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import DiceAction
from .events import DiceEvent, event_to_dict
from .faces import Face
from .phases import Way
from .state import DiceSeatInfo, DiceStage

__all__ = ["DiceView"]


@dataclass(frozen=True, slots=True)
class DiceView:
    """The public state of a dice game as ``viewer`` (None: a spectator) sees it."""

    viewer: int | None
    #: the turn order, first player first
    order: tuple[int, ...]
    stage: DiceStage
    current: int
    #: turns started so far, from 1
    turn: int
    #: whether this turn is part of a last try (someone has completed phase 10)
    last_try: bool
    rolls_left: int
    #: each die's face (indices into DICE), None where not rolled this turn
    showing: tuple[Face | None, ...]
    #: the dice set aside
    kept: tuple[int, ...]
    seats: tuple[DiceSeatInfo, ...]
    #: the best-scoring way the dice showing make the current phase, if they do
    way: Way | None
    #: who completed phase 10 first, once someone has
    finisher: int | None
    #: the players still to take their last try, next first
    last_round: tuple[int, ...]
    winners: tuple[int, ...]
    history: tuple[DiceEvent, ...]
    #: what the viewer may do now (empty unless it is the viewer's turn)
    legal_actions: tuple[DiceAction, ...]

    @property
    def is_my_turn(self) -> bool:
        return self.viewer is not None and self.viewer == self.current and not self.is_over

    @property
    def is_over(self) -> bool:
        return self.stage is DiceStage.GAME_OVER

    @property
    def solitaire(self) -> bool:
        return len(self.seats) == 1

    def to_dict(self) -> dict[str, Any]:
        """The view as a JSON-ready dict (faces as text, actions in their text form)."""
        return {
            "viewer": self.viewer,
            "order": list(self.order),
            "stage": self.stage.value,
            "current": self.current,
            "turn": self.turn,
            "last_try": self.last_try,
            "rolls_left": self.rolls_left,
            "showing": [None if face is None else str(face) for face in self.showing],
            "kept": list(self.kept),
            "seats": [
                {
                    "name": seat.name,
                    "phase": seat.phase,
                    "total": seat.total,
                    "scores": list(seat.scores),
                    "failures": seat.failures,
                    "bonuses": [kind.value for kind in seat.bonuses],
                }
                for seat in self.seats
            ],
            "way": None
            if self.way is None
            else {
                "score": self.way.score,
                "groups": [[str(face) for face in group] for group in self.way.groups],
            },
            "finisher": self.finisher,
            "last_round": list(self.last_round),
            "winners": list(self.winners),
            "history": [event_to_dict(event) for event in self.history],
            "legal_actions": [str(action) for action in self.legal_actions],
        }
