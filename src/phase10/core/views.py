"""What one player may know (RULES §7), and the spectator's public view.

A view is computed from the game on its own and holds nothing beyond RULES §7:
the viewer's own hand; every table group with its Wilds' values; the whole
discard pile; the size of the draw pile and of every hand; every player's phase,
score, pending skip; and the public history. No other hand, no draw order, no
random state. (The history is the current hand's events; earlier hands are summed
up in the scores, the phases and ``hand_results``.) Views answer the same legality questions as the game:

>>> from phase10.core.game import Game
>>> game = Game(["Ann", "Bob", "Cy"], seed=3)
>>> view = game.view(game.current)
>>> len(view.hand), view.draw_size, view.is_my_turn
(10, 77, True)
>>> view.legal_actions.count()
2
>>> game.view(None).hand
()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Card
from .events import Event, HandEnded
from .legality import Rulebook, SeatLike
from .rules import Rules
from .state import Meld, SeatInfo, Stage

if TYPE_CHECKING:
    from .game import Game

__all__ = ["PlayerView"]


@dataclass(frozen=True, slots=True, eq=True)
class PlayerView(Rulebook):
    """Everything ``viewer`` may know; ``viewer`` None is a spectator (public information only)."""

    viewer: int | None
    rules: Rules
    stage: Stage
    current: int
    dealer: int
    hand_number: int
    players_in_hand: tuple[int, ...]
    tie_break: bool
    hand: tuple[Card, ...]
    seats: tuple[SeatInfo, ...]
    melds: tuple[Meld, ...]
    discard_pile: tuple[Card, ...]
    draw_size: int
    #: this hand's events as the viewer may know them
    history: tuple[Event, ...]
    #: the end of every hand so far
    hand_results: tuple[HandEnded, ...]
    winners: tuple[int, ...]

    @staticmethod
    def of(game: Game, viewer: int | None) -> PlayerView:
        seated = isinstance(viewer, int) and not isinstance(viewer, bool)
        if viewer is not None and not (seated and 0 <= viewer < game.num_players):
            raise ValueError(f"there is no player {viewer!r} (seats 0 to {game.num_players - 1})")
        return PlayerView(
            viewer=viewer,
            rules=game.rules,
            stage=game.stage,
            current=game.current,
            dealer=game.dealer,
            hand_number=game.hand_number,
            players_in_hand=game.players_in_hand,
            tie_break=game.tie_break,
            hand=tuple(game.seats[viewer].hand) if viewer is not None else (),
            seats=tuple(seat.info() for seat in game.seats),
            melds=tuple(game.melds),
            discard_pile=tuple(game.discard_pile),
            draw_size=len(game.draw_pile),
            history=tuple(event.seen_by(viewer) for event in game.history[game.hand_start :]),
            hand_results=tuple(game.hand_results),
            winners=game.winners,
        )

    @property
    def num_players(self) -> int:
        return len(self.seats)

    @property
    def is_my_turn(self) -> bool:
        return (
            self.viewer is not None
            and self.viewer == self.current
            and self.stage is not Stage.GAME_OVER
        )

    @property
    def is_over(self) -> bool:
        return self.stage is Stage.GAME_OVER

    def _seat(self, seat: int) -> SeatLike:
        return self.seats[seat]

    def _acting_hand(self) -> Sequence[Card] | None:
        return self.hand if self.is_my_turn else None
