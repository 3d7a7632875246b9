"""The game: a seeded state machine that validates every action (docs/rules.md §3-§6).

>>> game = Game(["Ann", "Bob"], seed=7)
>>> game.stage, game.current, len(game.hand(game.current))
(<Stage.DRAW: 'draw'>, 0, 10)
>>> events = game.apply("draw")
>>> type(events[0]).__name__, game.stage
('Drew', <Stage.PLAY: 'play'>)
>>> game.apply("draw")
Traceback (most recent call last):
...
phase10.core.errors.IllegalActionError: you have already drawn this turn
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import assert_never

from .actions import (
    Action,
    Declare,
    Discard,
    Draw,
    GiveUp,
    GiveWild,
    Hit,
    LayDown,
    Save,
    TakeDiscard,
    TakeSaved,
    parse_action,
)
from .cards import (
    ANTI,
    Card,
    CardError,
    check_deck_can_hold,
    full_deck,
    hand_points,
    is_plain_number,
)
from .errors import InvalidActionError
from .events import (
    CardHit,
    Dealt,
    Declared,
    Discarded,
    Drew,
    Event,
    Floating,
    GameEnded,
    GaveUp,
    HandEnded,
    HandStarted,
    LaidDown,
    MovedDown,
    Refilled,
    Reshuffled,
    Saved,
    Skipped,
    TieBreakStarted,
    TookDiscard,
    TookSaved,
    WentOut,
    WildGiven,
)
from .feasibility import can_lay, hand_counts
from .legality import Rulebook, SeatLike
from .phases import Phase
from .positions import (
    Arrangement,
    GameState,
    check_arrangement,
    copy_seat,
    is_int,
    player_names,
)
from .rules import (
    HAND_SIZE,
    Advance,
    EmptyDrawPile,
    EndWhen,
    GivingUp,
    GoingOut,
    Rules,
    SavedScore,
    SavePile,
    SkipTarget,
    WildDealUp,
)
from .standings import decide
from .state import Meld, Seat, Stage
from .views import PlayerView

__all__ = ["HAND_SIZE", "MAX_PLAYERS", "MIN_PLAYERS", "Arrangement", "Game", "GameState"]

MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(slots=True)
class _Hand:
    """Per-hand bookkeeping that is not part of any seat."""

    declare_queue: list[int] = field(default_factory=list)
    first_player: int = 0


class _SeenHistory:
    """One viewer's copy of this hand's events (see :meth:`Game.seen_history`)."""

    __slots__ = ("events", "frozen", "history", "read", "start")

    def __init__(self, history: list[Event], start: int) -> None:
        self.history = history  # the game's list it was read from
        self.start = start
        self.read = start  # how far into ``history`` it has read
        self.events: list[Event] = []
        self.frozen: tuple[Event, ...] | None = ()


class Game(Rulebook):
    """A game of Phase 10 between 2 and 6 players.

    All chance goes through one ``random.Random`` seeded from ``seed``: the same seed
    and the same actions give the same game. A negative seed deals as its absolute value
    does (that generator takes it so; kept, so that every record made replays), so give
    distinct seeds from 0 up. Pass ``players`` as a count or as names.
    """

    _hold_deal = False

    def __init__(
        self,
        players: int | Sequence[str] = 2,
        *,
        rules: Rules | None = None,
        seed: int | None = None,
        dealer: int | None = None,
        arrangement: Arrangement | None = None,
    ) -> None:
        names = player_names(players, "Phase 10", MIN_PLAYERS, MAX_PLAYERS)
        if dealer is not None and (not is_int(dealer) or not 0 <= dealer < len(names)):
            raise ValueError(
                f"the dealer must be a seat from 0 to {len(names) - 1}, not {dealer!r}"
            )
        if seed is not None and not is_int(seed):
            raise ValueError(f"the seed must be a whole number (or None), not {seed!r}")
        if rules is not None and not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules object (see preset()), not {rules!r}")
        if arrangement is not None and not isinstance(arrangement, Arrangement):
            raise ValueError(f"arrangement must be an Arrangement, not {arrangement!r}")
        self.rules = rules if rules is not None else Rules()
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.rng = random.Random(self.seed)
        self.seats = [Seat(name) for name in names]
        self.hand_number = 0
        drawn_dealer = self.rng.randrange(len(names))  # drawn even when given: same shuffles
        self.first_dealer = dealer if dealer is not None else drawn_dealer
        self.dealer = self.first_dealer
        self.current = 0
        self.stage = Stage.DRAW
        self.players_in_hand = tuple(range(len(names)))
        self.tie_break = False
        self.draw_pile: list[Card] = []
        self.discard_pile: list[Card] = []
        self.melds: list[Meld] = []
        self.history: list[Event] = []
        self.hand_start = 0  # where this hand's events begin in the history
        # this hand's events as each viewer sees them, kept as the history grows
        self._seen: dict[int | None, _SeenHistory] = {}
        self.hand_results: list[HandEnded] = []
        self.actions: list[Action] = []
        self.winners: tuple[int, ...] = ()
        self.arrangement = arrangement
        self._hand = _Hand()
        if arrangement is not None:
            self._apply_start(arrangement)
        self._start_hand(arrangement)

    @classmethod
    def from_state(
        cls,
        players: int | Sequence[str],
        state: GameState,
        *,
        rules: Rules | None = None,
        seed: int | None = None,
        dealer: int | None = None,
        arrangement: Arrangement | None = None,
    ) -> Game:
        """The game with this header (the arguments of :class:`Game`) in ``state``.

        The header is checked as :class:`Game` checks it (:class:`ValueError`); the state
        is taken as it is, not checked against the header or the rules. Use
        :func:`phase10.core.snapshots.restore` for a state read from outside: it refuses
        any state a legal game does not reach.
        """
        game = cls(players, rules=rules, seed=seed, dealer=dealer, arrangement=arrangement)
        game._load(state)
        return game

    def state(self) -> GameState:
        """Every field of the game's state now (a copy: see :class:`GameState`)."""
        return GameState(
            rng=self.rng.getstate(),
            hand_number=self.hand_number,
            dealer=self.dealer,
            current=self.current,
            stage=self.stage,
            players_in_hand=self.players_in_hand,
            tie_break=self.tie_break,
            winners=self.winners,
            draw_pile=tuple(self.draw_pile),
            discard_pile=tuple(self.discard_pile),
            melds=tuple(self.melds),
            seats=tuple(copy_seat(seat) for seat in self.seats),
            declare_queue=tuple(self._hand.declare_queue),
            first_player=self._hand.first_player,
            hand_start=self.hand_start,
            history=tuple(self.history),
            actions=tuple(self.actions),
        )

    def copy(self, *, rng: random.Random | None = None) -> Game:
        """An independent copy of the game, made without a deal (far faster than
        ``copy.deepcopy``: search and simulators copy games many times). Its random generator
        is ``rng``, or by default a copy of this game's (the same shuffles to come).

        >>> game = Game(2, seed=5)
        >>> twin = game.copy()
        >>> _ = twin.apply("draw")
        >>> len(twin.hand(twin.current)), len(game.hand(game.current))
        (11, 10)
        >>> game.apply("draw") == twin.history[-1:] and game.hand(0) == twin.hand(0)
        True
        """
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        if rng is None:
            rng = random.Random.__new__(random.Random)  # no seeding: the state is set next
            rng.setstate(self.rng.getstate())
        twin.rng = rng
        twin.seats = [copy_seat(seat) for seat in self.seats]
        twin.draw_pile = list(self.draw_pile)
        twin.discard_pile = list(self.discard_pile)
        twin.melds = list(self.melds)
        twin.history = list(self.history)
        twin.hand_results = list(self.hand_results)
        twin.actions = list(self.actions)
        twin._hand = _Hand(list(self._hand.declare_queue), self._hand.first_player)
        twin._seen = {}
        for viewer, seen in self._seen.items():  # each viewer's events so far stay valid
            if seen.history is self.history and seen.start == self.hand_start:
                kept = twin._seen[viewer] = _SeenHistory(twin.history, seen.start)
                kept.read, kept.events, kept.frozen = seen.read, list(seen.events), seen.frozen
        return twin

    def _load(self, state: GameState) -> None:
        """Replace every field of the state (the header stays: see :meth:`from_state`)."""
        self.rng.setstate(state.rng)
        self.hand_number = state.hand_number
        self.dealer = state.dealer
        self.current = state.current
        self.stage = state.stage
        self.players_in_hand = tuple(state.players_in_hand)
        self.tie_break = state.tie_break
        self.winners = tuple(state.winners)
        self.draw_pile = list(state.draw_pile)
        self.discard_pile = list(state.discard_pile)
        self.melds = list(state.melds)
        self.seats = [copy_seat(seat) for seat in state.seats]
        self._hand = _Hand(list(state.declare_queue), state.first_player)
        self.hand_start = state.hand_start
        self.history = list(state.history)
        self._seen = {}
        self.hand_results = [event for event in self.history if isinstance(event, HandEnded)]
        self.actions = list(state.actions)

    # -- what the rulebook reads ------------------------------------------------------

    @property
    def num_players(self) -> int:
        return len(self.seats)

    @property
    def draw_size(self) -> int:  # type: ignore[override]
        return len(self.draw_pile)

    def _seat(self, seat: int) -> SeatLike:
        return self.seats[seat]

    def _acting_hand(self) -> Sequence[Card] | None:
        return self.seats[self.current].hand if self.stage is not Stage.GAME_OVER else None

    def _acting_saved(self) -> Sequence[Card]:
        return self.seats[self.current].saved

    # -- public questions -------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.stage is Stage.GAME_OVER

    @property
    def first_player(self) -> int:
        """Who plays this hand's first turn (the player after the dealer)."""
        return self._hand.first_player

    @property
    def declare_queue(self) -> tuple[int, ...]:
        """The players still to declare a phase this hand, next first."""
        return tuple(self._hand.declare_queue)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A player's hand (the whole truth: use :meth:`view` for what a player may see)."""
        return tuple(self.seats[seat].hand)

    def current_phase(self, seat: int) -> Phase | None:
        """The phase ``seat`` works on in order (None once all are done or in any order)."""
        allowed = self.allowed_phases(seat)
        return self.phase_of(allowed[0]) if len(allowed) == 1 else None

    def seen_history(self, viewer: int | None) -> tuple[Event, ...]:
        """This hand's events as ``viewer`` may know them (what :meth:`view` holds)."""
        history = self.history
        seen = self._seen.get(viewer)
        if (
            seen is None
            or seen.history is not history
            or seen.start != self.hand_start
            or seen.read > len(history)
        ):
            seen = self._seen[viewer] = _SeenHistory(history, self.hand_start)
        if seen.read < len(history):
            events = seen.events
            for event in history[seen.read :]:
                events.append(event.seen_by(viewer))
            seen.read = len(history)
            seen.frozen = None
        if seen.frozen is None:
            seen.frozen = tuple(seen.events)
        return seen.frozen

    def view(self, player: int | None) -> PlayerView:
        """What ``player`` may know (rules §7); ``None`` gives the spectator's public view."""
        return PlayerView.of(self, player)

    def parse_action(self, text: str) -> Action:
        """Read an action's text for the player to move (a lay-down is read against their phase)."""
        phase: Phase | None = None
        if not isinstance(text, str):
            raise InvalidActionError(f"an action's text must be a string, not {text!r}")
        if text.strip().lower().startswith("lay"):
            allowed = self.allowed_phases(self.current) or (self.seats[self.current].phase,)
            rest = text.strip()[3:].strip()
            head, colon, _ = rest.partition(":")
            if colon and is_plain_number(head.strip()):
                index = int(head) - 1
                if not 0 <= index < self.rules.phase_count:
                    raise InvalidActionError(f"there is no phase {head.strip()}")
                phase = self.phase_of(index)
            elif len(allowed) > 1:
                phases = ", ".join(str(i + 1) for i in allowed)
                raise InvalidActionError(
                    f"say which phase you lay down: lay N: ... (you may lay phase {phases})"
                )
            elif allowed and allowed[0] < self.rules.phase_count:
                phase = self.phase_of(allowed[0])
        return parse_action(text, phase)

    # -- applying actions -------------------------------------------------------------

    def check(self, action: Action | str) -> Action:
        """The action (or its text, read as :meth:`apply` reads it) in canonical form if it
        is legal now; the specific error if not. Nothing changes either way.

        >>> game = Game(2, seed=1)
        >>> game.check("draw") == game.check(game.parse_action("draw"))
        True
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        return super().check(action)

    def apply(self, action: Action | str) -> list[Event]:
        """Check and apply an action (or its text); return the events it caused.

        An illegal or malformed action raises :class:`IllegalActionError` or
        :class:`InvalidActionError` and leaves the game exactly as it was.
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        return self.apply_unchecked(self.check(action))

    def table_as_hand_ends(self, action: Action | str) -> Game:
        """A copy of the game after ``action``, stopped where the hand ends, before the next deal.

        The engine deals the next hand in the same step that ends one; a replay uses this to
        show the table and hands as they were when the hand ended. The copy is for looking
        at: it plays on no further. This game is unchanged.

        >>> game = Game(2, seed=1)
        >>> game.table_as_hand_ends("draw").stage, game.stage
        (<Stage.PLAY: 'play'>, <Stage.DRAW: 'draw'>)
        """
        game = copy.deepcopy(self)
        game._hold_deal = True
        game.apply(action)
        return game

    def apply_unchecked(self, action: Action) -> list[Event]:
        """Apply an action already known to be legal and canonical (from :attr:`legal_actions`
        or :meth:`check`), skipping the checks. For simulators; a wrong action corrupts the game.
        """
        start = len(self.history)
        self.actions.append(action)
        seat = self.current
        match action:
            case Draw():
                self._draw(seat)
            case TakeDiscard():
                card = self.discard_pile.pop()
                self.seats[seat].hand.append(card)
                self._emit(TookDiscard(seat, card))
                self.stage = Stage.PLAY
            case LayDown():
                self._lay_down(seat, action)
            case Hit():
                self._hit(seat, action)
            case Discard():
                self._discard(seat, action)
            case Declare():
                self._declare(seat, action)
            case GiveWild():
                self._give_wild(action)
            case Save():
                self._save(seat, action)
            case TakeSaved():
                self.seats[seat].saved.remove(action.card)
                self.seats[seat].hand.append(action.card)
                self._emit(TookSaved(seat, action.card, self._public_saves))
                self.stage = Stage.PLAY
            case GiveUp():
                self._give_up(seat)
            case _:
                assert_never(action)
        return self.history[start:]

    def _emit(self, event: Event) -> None:
        self.history.append(event)

    def _draw(self, seat: int) -> None:
        self._refill_draw_pile()
        card = self.draw_pile.pop()
        self.seats[seat].hand.append(card)
        self._emit(Drew(seat, card))
        self.stage = Stage.PLAY

    def _refill_draw_pile(self) -> None:
        """An empty draw pile takes the discard pile but its top card, shuffled."""
        if not self.draw_pile and len(self.discard_pile) >= 2:
            top = self.discard_pile.pop()
            self.draw_pile = self.discard_pile
            self.rng.shuffle(self.draw_pile)
            self.discard_pile = [top]
            self._emit(Reshuffled(len(self.draw_pile)))

    @property
    def _public_saves(self) -> bool:
        return self.rules.save_pile is SavePile.PUBLIC

    def _save(self, seat: int, action: Save) -> None:
        info = self.seats[seat]
        info.hand.remove(action.card)
        info.saved.append(action.card)
        info.saved_this_hand = True
        self._emit(Saved(seat, action.card, self._public_saves))
        self._end_turn(seat)

    def _give_up(self, seat: int) -> None:
        """Variant #2: the player's groups leave the table for the bottom of the discard pile."""
        info = self.seats[seat]
        laid = info.laid
        assert laid is not None  # checked: the phase is down
        ids = tuple(i for i, meld in enumerate(self.melds) if meld.owner == seat)
        cards = [card for i in ids for card in self.melds[i].group.cards]
        self.melds = [meld for meld in self.melds if meld.owner != seat]
        self.discard_pile[0:0] = cards
        if self.rules.give_up is GivingUp.KEEP:  # completed now: the next lay-down is another
            info.completed.add(laid)
            info.phase = min(
                (i for i in range(self.rules.phase_count) if i not in info.completed),
                default=self.rules.phase_count,
            )
        info.laid = None
        info.gave_up = info.refill = True
        self._emit(GaveUp(seat, laid + 1, ids, len(cards)))

    def _end_turn(self, seat: int) -> None:
        """After a discard or a save that leaves cards in hand: any refill, then the next turn."""
        info = self.seats[seat]
        if info.refill:
            info.refill = False
            drawn: list[Card] = []
            reshuffles = self.rules.empty_draw_pile is EmptyDrawPile.RESHUFFLE
            while len(info.hand) < HAND_SIZE:
                if reshuffles:
                    self._refill_draw_pile()
                if not self.draw_pile:
                    break
                drawn.append(self.draw_pile.pop())
                info.hand.append(drawn[-1])
            self._emit(Refilled(seat, len(drawn), tuple(drawn)))
        self._next_turn()

    def _lay_down(self, seat: int, action: LayDown) -> None:
        info = self.seats[seat]
        index = action.phase - 1 if action.phase is not None else self.allowed_phases(seat)[0]
        for card in action.cards:
            info.hand.remove(card)
        first_id = len(self.melds)
        self.melds.extend(Meld(seat, group) for group in action.groups)
        info.laid = index
        ids = tuple(range(first_id, len(self.melds)))
        self._emit(LaidDown(seat, index + 1, action.groups, ids))
        if self._wins_at_once(seat, index):
            self._end_hand(None, "laid down the last phase", winner=seat)
        elif not info.hand:
            self._hand_emptied(seat)

    def _wins_at_once(self, seat: int, index: int) -> bool:
        """``end_when = "immediately"``: a lone player on the last phase lays it down."""
        if self.rules.end_when is not EndWhen.IMMEDIATELY or self.tie_break:
            return False
        last = self.rules.phase_count - 1
        on_last = [p for p in self.players_in_hand if len(self.seats[p].completed) == last]
        return on_last == [seat] and index not in self.seats[seat].completed

    def _hit(self, seat: int, action: Hit) -> None:
        info = self.seats[seat]
        info.hand.remove(action.card)
        meld = self.melds[action.group]
        group = meld.group.hit(action.card, action.number)
        self.melds[action.group] = Meld(meld.owner, group)
        self._emit(CardHit(seat, action.card, action.group, action.number, group))
        if not info.hand:
            self._hand_emptied(seat)

    def _hand_emptied(self, seat: int) -> None:
        if self.rules.going_out is GoingOut.DISCARD:
            self.seats[seat].floating = True
            self._emit(Floating(seat))
            self._next_turn()
        else:
            self._emit(WentOut(seat))
            self._end_hand(seat, "went out")

    def _discard(self, seat: int, action: Discard) -> None:
        info = self.seats[seat]
        info.hand.remove(action.card)
        self.discard_pile.append(action.card)
        target = action.target
        if action.card.is_skip and target is None and self.rules.skip_target is SkipTarget.NEXT:
            targets = self.skip_targets(seat)
            target = targets[0] if targets else None
        if target is not None and action.card.is_skip:
            self.seats[target].pending_skip = True
        self._emit(Discarded(seat, action.card, target))
        if self.stage is Stage.WILD_DISCARD:
            self._after_setup()
        elif not info.hand:
            self._emit(WentOut(seat))
            self._end_hand(seat, "went out", named=target if action.card.is_anti else None)
        else:
            self._end_turn(seat)

    def _declare(self, seat: int, action: Declare) -> None:
        self.seats[seat].declared = action.phase - 1
        self._emit(Declared(seat, action.phase))
        queue = self._hand.declare_queue
        queue.pop(0)
        if queue:
            self.current = queue[0]
        else:
            self.current = self._hand.first_player
            self._begin_turn()

    def _give_wild(self, action: GiveWild) -> None:
        wild = self.discard_pile.pop()
        self.seats[action.player].hand.append(wild)
        self._emit(WildGiven(self.dealer, action.player))
        self.current = action.player
        self.stage = Stage.WILD_DISCARD

    # -- turns ------------------------------------------------------------------------

    def _next_in_hand(self, seat: int) -> int:
        return self._turn_order_from(seat)[0]

    def _next_turn(self) -> None:
        self.current = self._next_in_hand(self.current)
        self._begin_turn()

    def _begin_turn(self) -> None:
        """Pass the turns of skipped players, then see whether the hand can go on."""
        while self.seats[self.current].pending_skip:
            self.seats[self.current].pending_skip = False
            self._emit(Skipped(self.current))
            self.current = self._next_in_hand(self.current)
        if not self.draw_pile and self.rules.empty_draw_pile is EmptyDrawPile.END_HAND:
            self._end_hand(None, "the draw pile ran out")
            return
        if not self.can_draw() and not self.can_take() and not self.seats[self.current].saved:
            self._end_hand(None, "the draw pile is exhausted and the top discard cannot be taken")
            return
        if not self.draw_pile and self.hand_is_dead():
            self._end_hand(None, "nobody can go out any more")
            return
        self.stage = Stage.DRAW

    def hand_is_dead(self) -> bool:
        """Whether this hand can never end: nobody floats, no card off the table fits a group
        on the table, and nobody still to lay down can make their phase from the cards off
        the table (checked exactly, all groups together). Nobody can then hit or lay down, so no hand can ever empty.

        Checked when the draw pile runs out: such a hand ends as if nobody went out.
        """
        if any(self.seats[p].floating for p in self.players_in_hand):
            return False
        loose = Counter(card for seat in self.seats for card in [*seat.hand, *seat.saved])
        loose.update(self.draw_pile)
        loose.update(self.discard_pile)
        if any(meld.group.placements(card) for card in loose for meld in self.melds):
            return False
        counts = hand_counts(loose.elements())
        for player in self.players_in_hand:
            for index in self.allowed_phases(player):
                if can_lay(self.phase_of(index), counts, self.rules.natural_min):
                    return False
        return True

    # -- hands ------------------------------------------------------------------------

    def _apply_start(self, arrangement: Arrangement) -> None:
        check_arrangement(arrangement, self.num_players, self.rules)
        for seat, phase in zip(self.seats, arrangement.phases or (), strict=False):
            seat.phase = phase - 1
            seat.completed = set(range(phase - 1))
        for seat, score in zip(self.seats, arrangement.scores or (), strict=False):
            seat.score = score
        for seat, pile in zip(self.seats, arrangement.saved or (), strict=False):
            seat.saved = list(pile)

    def _deal_deck(self, arrangement: Arrangement | None) -> list[Card]:
        """The deck for this hand, top card last, dealt as in :meth:`_start_hand`."""
        deck = full_deck(self.rules.deck_counts)
        saved = [card for seat in self.seats for card in seat.saved]
        for card in saved:  # saved cards stay out of the deal (no save, no change to the shuffle)
            deck.remove(card)
        self.rng.shuffle(deck)
        if arrangement is None:
            return deck
        if len(arrangement.hands) != self.num_players:
            raise ValueError(f"the arrangement needs one hand per player ({self.num_players})")
        if not arrangement.discard:
            raise ValueError("the arrangement needs at least one card on the discard pile")
        for seat, hand in enumerate(arrangement.hands):
            if not hand:
                raise ValueError(f"the arrangement gives player {seat} no cards")
        placed = [c for hand in arrangement.hands for c in hand] + [
            *arrangement.discard,
            *arrangement.draw,
        ]
        try:
            check_deck_can_hold(placed + saved, self.rules.deck_counts)
        except CardError as error:
            raise ValueError(f"the arrangement holds more cards than the deck: {error}") from None
        rest = list(deck)
        for card in placed:
            rest.remove(card)
        return rest + list(reversed(arrangement.draw))

    def _start_hand(self, arrangement: Arrangement | None = None) -> None:
        self.hand_number += 1
        for info in self.seats:
            info.hand = []
            info.laid = info.declared = None
            info.pending_skip = info.floating = False
            info.saved_this_hand = info.gave_up = info.refill = False
        self.melds = []
        deck = self._deal_deck(arrangement)
        participants = self.players_in_hand
        first = self._next_in_hand(self.dealer)
        order = [first, *[p for p in self._turn_order_from(first) if p != first]]
        if arrangement is not None:
            for seat, cards in enumerate(arrangement.hands):
                self.seats[seat].hand = list(cards)
            self.discard_pile = list(arrangement.discard)
        else:
            for _ in range(HAND_SIZE):
                for seat in order:
                    self.seats[seat].hand.append(deck.pop())
            self.discard_pile = [deck.pop()]
        self.draw_pile = deck
        top = self.discard_pile[-1]
        self._hand = _Hand(first_player=first)
        self.hand_start = len(self.history)
        self._emit(
            HandStarted(self.hand_number, self.dealer, participants, first, top, self.tie_break)
        )
        for seat in participants:
            self._emit(Dealt(seat, tuple(self.seats[seat].hand)))
        if top.is_skip:
            self.seats[first].pending_skip = True
        if top.is_wild and self.rules.wild_deal_up is WildDealUp.DEALER_CHOOSES:
            self.current = self.dealer
            self.stage = Stage.GIVE_WILD
        else:
            self._after_setup()

    def _after_setup(self) -> None:
        """After the deal (and any wild deal-up): declarations if any, then the first turn."""
        first = self._hand.first_player
        if self.declares_after_deal:
            self._hand.declare_queue = [
                first,
                *[p for p in self._turn_order_from(first) if p != first],
            ]
            self.current = first
            self.stage = Stage.DECLARE
        else:
            self.current = first
            self._begin_turn()

    def _end_hand(
        self,
        went_out: int | None,
        reason: str,
        winner: int | None = None,
        named: int | None = None,
    ) -> None:
        """Score the hand and move players on; ``named``: whom the Anti-phase card, the
        last card of ``went_out``, moves down a phase."""
        participants = self.players_in_hand
        points: list[int | None] = [None] * self.num_players
        saved_score = self.rules.saved_score is SavedScore.PENALTY
        for seat in participants:
            held = hand_points(self.seats[seat].hand) if seat != went_out else 0
            points[seat] = held + (hand_points(self.seats[seat].saved) if saved_score else 0)
        advanced: list[int] = []
        moved: tuple[int, ...] = ()
        if not self.tie_break:
            for seat in participants:
                info = self.seats[seat]
                info.score += points[seat] or 0
                if info.laid is not None:
                    info.completed.add(info.laid)
                kept = info.gave_up and self.rules.give_up is GivingUp.KEEP
                if self.rules.advance is Advance.ALL:
                    info.phase += 1
                    advanced.append(seat)
                elif info.laid is not None or kept:
                    info.phase = min(
                        (i for i in range(self.rules.phase_count) if i not in info.completed),
                        default=self.rules.phase_count,
                    )
                    advanced.append(seat)
            if winner is None:  # (a game won at once changes no phase)
                moved = self._move_down(named, participants, went_out)
        totals = tuple(seat.score for seat in self.seats)
        completed = tuple(len(seat.completed) for seat in self.seats)
        result = HandEnded(
            self.hand_number,
            went_out,
            reason,
            tuple(points),
            totals,
            tuple(advanced),
            completed,
            tuple(len(seat.hand) for seat in self.seats),
            moved,
        )
        self.hand_results.append(result)
        self._emit(result)
        self._after_hand(went_out, winner)

    def _move_down(
        self, named: int | None, participants: tuple[int, ...], went_out: int | None
    ) -> tuple[int, ...]:
        """The Anti-phase card (rules §4): the player it named, and anyone still holding it,
        lose their highest completed phase."""
        movers = [(named, went_out)] if named is not None else []
        movers += [(p, None) for p in participants if ANTI in self.seats[p].hand]
        for player, named_by in movers:
            info = self.seats[player]
            lost = max(info.completed, default=None)
            if lost is not None:
                info.completed.discard(lost)
                info.phase = min(
                    (i for i in range(self.rules.phase_count) if i not in info.completed),
                    default=self.rules.phase_count,
                )
            self._emit(MovedDown(player, None if lost is None else lost + 1, named_by))
        return tuple(player for player, _ in movers)

    def _after_hand(self, went_out: int | None, winner: int | None) -> None:
        if winner is not None:
            return self._end_game((winner,), "the only player on the last phase laid it down")
        if self.tie_break:
            if went_out is not None:
                return self._end_game((went_out,), "went out first in the tie-break hand")
            return self._next_hand(self.players_in_hand)
        outcome = decide(
            self.rules,
            scores=[seat.score for seat in self.seats],
            completed=[len(seat.completed) for seat in self.seats],
            positions=[seat.phase for seat in self.seats],
            players=self.players_in_hand,
        )
        if outcome is None:
            return self._next_hand(self.players_in_hand)
        if outcome.tie_break:
            self.tie_break = True
            self._emit(TieBreakStarted(outcome.tie_break))
            return self._next_hand(outcome.tie_break)
        return self._end_game(outcome.winners, outcome.reason)

    def _next_hand(self, players: tuple[int, ...]) -> None:
        if self._hold_deal:  # a copy made by table_as_hand_ends
            return
        self.players_in_hand = players
        self.dealer = (self.dealer + 1) % self.num_players
        while self.tie_break and self.dealer not in players:
            self.dealer = (self.dealer + 1) % self.num_players
        self._start_hand()

    def _end_game(self, winners: tuple[int, ...], reason: str) -> None:
        self.winners = winners
        self.stage = Stage.GAME_OVER
        self._emit(GameEnded(winners, reason, tuple(seat.score for seat in self.seats)))

    # -- invariants -------------------------------------------------------------------

    def all_cards(self) -> list[Card]:
        """Every physical card the game holds: hands, save piles, piles and table (always the
        whole deck)."""
        cards = [card for seat in self.seats for card in [*seat.hand, *seat.saved]]
        cards += self.draw_pile + self.discard_pile
        cards += [card for meld in self.melds for card in meld.group.cards]
        return cards

    def __repr__(self) -> str:
        names = ", ".join(seat.name for seat in self.seats)
        return f"<Game [{names}] hand {self.hand_number}, {self.stage}, p{self.current} to move>"
