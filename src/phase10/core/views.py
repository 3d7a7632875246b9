"""What one player may know (docs/rules.md §7), and the spectator's public view.

A view is computed from the game on its own and holds nothing beyond rules §7:
the viewer's own hand and save pile; every table group with its Wilds' values; the whole
discard pile; the size of the draw pile, of every hand and of every save pile (its
cards too when save piles are public); every player's phase, score, pending skip; and
the public history. No other hand, no draw order, no
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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import Card, format_cards
from .codec import (
    RecordError,
    event_from_dict,
    event_to_dict,
    group_to_dict,
    meld_from_dict,
    read_bool,
    read_cards,
    read_int,
    read_ints,
    read_list,
    read_object,
    read_str,
)
from .events import Event, HandEnded
from .legality import Rulebook, SeatLike
from .rules import Rules, SavePile
from .state import Meld, Seat, SeatInfo, Stage

__all__ = ["PlayerView", "ViewedGame"]


class ViewedGame(Protocol):
    """What :meth:`PlayerView.of` reads: a :class:`~phase10.core.game.Game`. Named here
    rather than imported, because the game imports this module to make its views.
    """

    @property
    def rules(self) -> Rules: ...
    @property
    def stage(self) -> Stage: ...
    @property
    def current(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def players_in_hand(self) -> tuple[int, ...]: ...
    @property
    def tie_break(self) -> bool: ...
    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def melds(self) -> Sequence[Meld]: ...
    @property
    def discard_pile(self) -> Sequence[Card]: ...
    @property
    def draw_pile(self) -> Sequence[Card]: ...
    @property
    def hand_results(self) -> Sequence[HandEnded]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def num_players(self) -> int: ...
    def seen_history(self, viewer: int | None) -> tuple[Event, ...]: ...


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
    #: the viewer's own save pile, oldest first (rules ``save_pile``)
    saved: tuple[Card, ...] = ()

    @staticmethod
    def of(game: ViewedGame, viewer: int | None, *, history: bool = True) -> PlayerView:
        """``viewer``'s view of ``game``. ``history=False`` leaves out this hand's events and
        the results of earlier hands, for callers that keep their own copy of those (a server
        that encodes each event once, not once per message)."""
        seated = isinstance(viewer, int) and not isinstance(viewer, bool)
        if viewer is not None and not (seated and 0 <= viewer < game.num_players):
            raise ValueError(f"there is no player {viewer!r} (seats 0 to {game.num_players - 1})")
        public_saves = game.rules.save_pile is SavePile.PUBLIC
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
            seats=tuple(seat.info(public_saves=public_saves) for seat in game.seats),
            melds=tuple(game.melds),
            discard_pile=tuple(game.discard_pile),
            draw_size=len(game.draw_pile),
            history=game.seen_history(viewer) if history else (),
            hand_results=tuple(game.hand_results) if history else (),
            winners=game.winners,
            saved=tuple(game.seats[viewer].saved) if viewer is not None else (),
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

    # -- JSON -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The view as a JSON-ready dict (what the bot protocol sends); :meth:`from_dict`
        reads it back. Phases are numbered from 1 here, as in actions and events; cards and
        groups are written as in records. It holds only what the view holds (rules §7):

        >>> from phase10.core.game import Game
        >>> game = Game(["Ann", "Bob"], seed=3)
        >>> data = game.view(0).to_dict()
        >>> data["viewer"], data["stage"], data["seats"][1]["hand_size"], data["seats"][0]["phase"]
        (0, 'draw', 10, 1)
        >>> len(data["hand"].split()), data["phase_sequence"][0]
        (10, '2 sets of 3')
        >>> [event["cards"] for event in data["history"] if event["type"] == "Dealt"][1] is None
        True
        >>> PlayerView.from_dict(data) == game.view(0)
        True
        """
        return {
            "viewer": self.viewer,
            "rules": self.rules.to_dict(),
            "phase_sequence": [str(phase) for phase in self.rules.phase_sequence],
            "stage": self.stage.value,
            "current": self.current,
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "players_in_hand": list(self.players_in_hand),
            "tie_break": self.tie_break,
            "hand": format_cards(self.hand),
            "seats": [_seat_info_to_dict(info) for info in self.seats],
            "melds": [
                {
                    "owner": meld.owner,
                    "group": group_to_dict(meld.group),
                    "text": meld.group.written(),
                    "faces": str(meld.group),
                }
                for meld in self.melds
            ],
            "discard_pile": format_cards(self.discard_pile),
            "draw_size": self.draw_size,
            "history": [event_to_dict(event) for event in self.history],
            "hand_results": [event_to_dict(event) for event in self.hand_results],
            "winners": list(self.winners),
            "saved": format_cards(self.saved),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> PlayerView:
        """Read a view written by :meth:`to_dict` (derived entries such as ``phase_sequence``
        and a group's ``text`` are not read). Raises :class:`~phase10.core.codec.RecordError`
        for a malformed one.
        """
        data = read_object(data, "a view")
        try:
            viewer = data["viewer"]
            results = [event_from_dict(e) for e in read_list(data["hand_results"], "hand_results")]
            if not all(isinstance(event, HandEnded) for event in results):
                raise RecordError("hand_results holds only HandEnded events")
            view = PlayerView(
                viewer=None if viewer is None else read_int(viewer, "viewer"),
                rules=Rules.from_dict(read_object(data["rules"], "rules")),
                stage=Stage(read_str(data["stage"], "stage")),
                current=read_int(data["current"], "current"),
                dealer=read_int(data["dealer"], "dealer"),
                hand_number=read_int(data["hand_number"], "hand_number"),
                players_in_hand=read_ints(data["players_in_hand"], "players_in_hand"),
                tie_break=read_bool(data["tie_break"], "tie_break"),
                hand=read_cards(data["hand"], "hand"),
                seats=tuple(_seat_info_from_dict(s) for s in read_list(data["seats"], "seats")),
                melds=tuple(meld_from_dict(m) for m in read_list(data["melds"], "melds")),
                discard_pile=read_cards(data["discard_pile"], "discard_pile"),
                draw_size=read_int(data["draw_size"], "draw_size"),
                history=tuple(event_from_dict(e) for e in read_list(data["history"], "history")),
                hand_results=tuple(event for event in results if isinstance(event, HandEnded)),
                winners=read_ints(data["winners"], "winners"),
                saved=read_cards(data.get("saved", ""), "saved"),
            )
        except KeyError as error:
            raise RecordError(f"the view has no {error.args[0]!r}") from None
        except RecordError:
            raise
        except (TypeError, ValueError) as error:
            raise RecordError(f"the view is malformed: {error}") from None
        view._check_seats()
        return view

    def _check_seats(self) -> None:
        """Refuse a view whose seat numbers point outside its seats."""
        seats = len(self.seats)
        if not 2 <= seats <= 6:
            raise RecordError(f"a view has 2 to 6 seats, not {seats}")
        named = {"current": self.current, "dealer": self.dealer}
        if self.viewer is not None:
            named["viewer"] = self.viewer
        named.update((f"players_in_hand {seat}", seat) for seat in self.players_in_hand)
        named.update((f"winners {seat}", seat) for seat in self.winners)
        for what, seat in named.items():
            if not 0 <= seat < seats:
                raise RecordError(f"{what} is seat {seat}, but the seats are 0 to {seats - 1}")

    def _acting_hand(self) -> Sequence[Card] | None:
        return self.hand if self.is_my_turn else None

    def _acting_saved(self) -> Sequence[Card]:
        return self.saved if self.is_my_turn else ()


def _number(phase: int | None) -> int | None:
    """A 0-based phase index as the phase's number (from 1)."""
    return None if phase is None else phase + 1


def _index(number: Any, what: str) -> int:
    return read_int(number, what) - 1


def _seat_info_to_dict(info: SeatInfo) -> dict[str, Any]:
    return {
        "name": info.name,
        "hand_size": info.hand_size,
        "score": info.score,
        "phase": info.phase + 1,
        "completed": sorted(phase + 1 for phase in info.completed),
        "laid": _number(info.laid),
        "declared": _number(info.declared),
        "pending_skip": info.pending_skip,
        "floating": info.floating,
        "saved_count": info.saved_count,
        "saved": None if info.saved is None else format_cards(info.saved),
        "saved_this_hand": info.saved_this_hand,
        "gave_up": info.gave_up,
        "refill": info.refill,
    }


def _seat_info_from_dict(data: Any) -> SeatInfo:
    data = read_object(data, "a seat")
    laid, declared, saved = data["laid"], data["declared"], data.get("saved")
    return SeatInfo(
        name=read_str(data["name"], "a seat's name"),
        hand_size=read_int(data["hand_size"], "a seat's hand_size"),
        score=read_int(data["score"], "a seat's score"),
        phase=_index(data["phase"], "a seat's phase"),
        completed=frozenset(
            _index(p, "a completed phase") for p in read_list(data["completed"], "completed")
        ),
        laid=None if laid is None else _index(laid, "a seat's laid phase"),
        declared=None if declared is None else _index(declared, "a seat's declared phase"),
        pending_skip=read_bool(data["pending_skip"], "a seat's pending_skip"),
        floating=read_bool(data["floating"], "a seat's floating"),
        # (absent from views written before save piles and Variant #2)
        saved_count=read_int(data.get("saved_count", 0), "a seat's saved_count"),
        saved=None if saved is None else read_cards(saved, "a seat's save pile"),
        saved_this_hand=read_bool(data.get("saved_this_hand", False), "saved_this_hand"),
        gave_up=read_bool(data.get("gave_up", False), "a seat's gave_up"),
        refill=read_bool(data.get("refill", False), "a seat's refill"),
    )
