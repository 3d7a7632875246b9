"""What may be done now: one rulebook shared by the game and by each player's view.

Everything here reads only what the player to move may know (docs/rules.md §7), so a view
answers the same questions as the game: a bot or a screen that holds a view gets
exactly the engine's verdicts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Protocol, assert_never

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
)
from .cards import Card
from .errors import IllegalActionError, InvalidActionError, Refusal
from .groups import Group
from .laydowns import check_lay_down, lay_downs
from .phases import Phase
from .positions import save_pile_room
from .rules import DeclareWhen, GivingUp, PhaseOrder, Rules, SavePile, SkipTarget
from .state import Meld, Stage

__all__ = ["LegalActions", "Rulebook", "SeatLike"]


class SeatLike(Protocol):
    @property
    def phase(self) -> int: ...
    @property
    def completed(self) -> set[int] | frozenset[int]: ...
    @property
    def laid(self) -> int | None: ...
    @property
    def declared(self) -> int | None: ...
    @property
    def pending_skip(self) -> bool: ...
    @property
    def floating(self) -> bool: ...
    @property
    def saved_this_hand(self) -> bool: ...
    @property
    def saved_count(self) -> int: ...
    @property
    def gave_up(self) -> bool: ...
    @property
    def refill(self) -> bool: ...


class Rulebook:
    """Legality over a position. Subclasses provide the attributes listed below."""

    __slots__ = ()

    rules: Rules
    stage: Stage
    current: int
    dealer: int
    players_in_hand: tuple[int, ...]
    tie_break: bool
    melds: Sequence[Meld]
    discard_pile: Sequence[Card]
    draw_size: int

    def _seat(self, seat: int) -> SeatLike:
        raise NotImplementedError

    def _acting_hand(self) -> Sequence[Card] | None:
        """The hand of the player to move, or None where it may not be seen."""
        raise NotImplementedError

    def _acting_saved(self) -> Sequence[Card]:
        """The save pile of the player to move (asked only when their hand may be seen)."""
        raise NotImplementedError

    # -- questions about the position -------------------------------------------------

    @property
    def num_players(self) -> int:
        raise NotImplementedError

    @property
    def discard_top(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    def phase_of(self, index: int) -> Phase:
        """The phase with that 0-based index in the phase sequence."""
        return self.rules.phase_sequence[index]

    def allowed_phases(self, seat: int) -> tuple[int, ...]:
        """The phases (0-based) ``seat`` may lay down now: none once one is down this hand."""
        info = self._seat(seat)
        if info.laid is not None:
            return ()
        last = self.rules.phase_count - 1
        if self.tie_break:
            return (last,)
        if self.rules.phase_order is PhaseOrder.ANY:
            if self.rules.declare is DeclareWhen.DEAL:
                return () if info.declared is None else (info.declared,)
            return tuple(i for i in range(last + 1) if i not in info.completed)
        return (info.phase,) if info.phase <= last else ()

    @property
    def names_phase_when_laid(self) -> bool:
        """Whether a lay-down names its phase (``lay N: ...``): phases in any order, each
        named as it is laid down (``declare = "laydown"``), outside a tie-break hand."""
        rules = self.rules
        return (
            rules.phase_order is PhaseOrder.ANY
            and rules.declare is DeclareWhen.LAYDOWN
            and not self.tie_break
        )

    @property
    def declares_after_deal(self) -> bool:
        """Whether this hand's players name their phase after the deal: phases in any
        order, declared for the hand (``declare = "deal"``), outside a tie-break hand."""
        rules = self.rules
        return (
            rules.phase_order is PhaseOrder.ANY
            and rules.declare is DeclareWhen.DEAL
            and not self.tie_break
        )

    def can_draw(self) -> bool:
        """The draw pile has a card, or the discard pile can be reshuffled into one."""
        return self.draw_size > 0 or len(self.discard_pile) >= 2

    def can_take(self) -> bool:
        top = self.discard_top
        return top is not None and not top.is_skip

    def fits_anywhere(self, card: Card) -> bool:
        return any(meld.group.placements(card) for meld in self.melds)

    def skip_targets(self, seat: int) -> tuple[int, ...]:
        """Whom a Skip discarded by ``seat`` may name (empty: the Skip skips nobody)."""
        others = [p for p in self._turn_order_from(seat) if p != seat]
        if self.rules.skip_target is SkipTarget.NEXT:
            nxt = others[0] if others else None
            return () if nxt is None or self._seat(nxt).pending_skip else (nxt,)
        return tuple(sorted(p for p in others if not self._seat(p).pending_skip))

    def anti_targets(self, seat: int) -> tuple[int, ...]:
        """Whom the Anti-phase card may name when ``seat`` goes out with it (rules §4): every
        other player in the hand; nobody in a tie-break hand, where no phase changes."""
        if self.tie_break:
            return ()
        return tuple(sorted(p for p in self.players_in_hand if p != seat))

    def _anti_names(self, hand: Sequence[Card]) -> bool:
        """Whether a discard of the Anti-phase card from ``hand`` now names a player: it is
        the last card, so the discard goes out."""
        return self.stage is Stage.PLAY and len(hand) == 1 and hand[0].is_anti

    def _turn_order_from(self, seat: int) -> list[int]:
        """The players in the hand in turn order, starting after ``seat``."""
        n = self.num_players
        return [(seat + k) % n for k in range(1, n + 1) if (seat + k) % n in self.players_in_hand]

    # -- legality ---------------------------------------------------------------------

    @property
    def legal_actions(self) -> LegalActions:
        """The legal actions now, as a lazy view: ``in``, iteration, ``count()``, ``bool``."""
        return LegalActions(self)

    def is_legal(self, action: Action) -> bool:
        """Whether the action may be applied now (cheap: no enumeration)."""
        try:
            self.check(action)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    def check(self, action: Action) -> Action:
        """Return the action in canonical form if it is legal now; raise the specific error if not.

        Raises :class:`InvalidActionError` for a malformed action and
        :class:`IllegalActionError` for one against the rules.
        """
        if not isinstance(action, Action):
            raise InvalidActionError(f"not an action: {action!r}")
        _check_fields(action)
        stage = self.stage
        if stage is Stage.GAME_OVER:
            raise IllegalActionError(Refusal.GAME_OVER, "the game is over")
        hand = self._acting_hand()
        if hand is None:
            raise IllegalActionError(Refusal.NOT_YOUR_TURN, "it is not your turn")
        # an action these rules do not have at all says so, whatever the stage; then the
        # stage's own actions; any other is refused with what the stage waits for
        match action:
            case Save() | TakeSaved() if self.rules.save_pile is SavePile.OFF:
                raise IllegalActionError(Refusal.NO_SAVE_PILE, "these rules have no save piles")
            case GiveUp() if self.rules.give_up is GivingUp.OFF:
                raise IllegalActionError(
                    Refusal.NO_GIVE_UP, "these rules do not let a phase be given up"
                )
            case GiveWild():
                return self._check_give(action)
            case Declare():
                return self._check_declare(action)
            case _ if stage is Stage.GIVE_WILD:
                raise IllegalActionError(
                    Refusal.MUST_GIVE_WILD,
                    "the dealer must first give the turned-up Wild to a player",
                )
            case _ if stage is Stage.DECLARE:
                raise IllegalActionError(
                    Refusal.MUST_DECLARE, "every player must first declare a phase for this hand"
                )
            case Discard() if stage is Stage.DRAW:
                raise self._draw_first()
            case Discard():
                return self._check_discard(action, hand)
            case _ if stage is Stage.WILD_DISCARD:
                raise IllegalActionError(
                    Refusal.MUST_DISCARD, "you must discard a card for the Wild you were given"
                )
            case Draw() | TakeDiscard():
                return self._check_draw(action)
            case TakeSaved():
                return self._check_take_saved(action)
            case _ if stage is Stage.DRAW:
                raise self._draw_first()
            case Save():
                return self._check_save(action, hand)
            case GiveUp():
                return self._check_give_up(action)
            case LayDown() | Hit() if self._seat(self.current).refill:
                raise IllegalActionError(
                    Refusal.GAVE_UP_THIS_TURN,
                    "you gave up your phase this turn: end it with a discard or a save",
                )
            case LayDown():
                return self._check_lay_down(action, hand)
            case Hit():
                return self._check_hit(action, hand)
            case _:
                assert_never(action)

    def _draw_first(self) -> IllegalActionError:
        """The refusal of a move before the turn's draw, naming only the draws there are (a
        Skip on top cannot be taken)."""
        if self.is_legal(TakeDiscard()):
            why = "you must draw a card (or take the top discard) first"
        else:
            why = "you must draw a card first (the top discard cannot be taken)"
        return IllegalActionError(Refusal.MUST_DRAW_FIRST, why)

    def _check_save(self, action: Save, hand: Sequence[Card]) -> Action:
        info = self._seat(self.current)
        if info.saved_this_hand:
            raise IllegalActionError(
                Refusal.ALREADY_SAVED, "you have already saved a card this hand (one per hand)"
            )
        if action.card not in hand:
            raise IllegalActionError(Refusal.NOT_HELD, f"you have no {action.card} to save")
        if action.card.is_anti:
            raise IllegalActionError(
                Refusal.ANTI_NOT_SAVED,
                "the Anti-phase card cannot be saved: it stays in your hand until you discard it",
            )
        if len(hand) == 1:
            raise IllegalActionError(
                Refusal.SAVE_LAST_CARD,
                "you cannot save your last card: going out takes a discard or a hit",
            )
        saved = sum(self._seat(seat).saved_count for seat in range(self.num_players))
        if saved + 1 > save_pile_room(self.rules, self.num_players):
            raise IllegalActionError(
                Refusal.SAVE_PILES_FULL,
                f"the save piles hold {saved} cards, all the deck can spare: one more would "
                "leave too few out of them to deal the next hand (ten a player and the "
                "turned-up card)",
            )
        if info.floating and self.fits_anywhere(action.card):
            raise IllegalActionError(
                Refusal.FLOATING_MUST_HIT,
                f"you are floating: {action.card} fits on the table, so you must hit it",
            )
        return action

    def _check_take_saved(self, action: TakeSaved) -> Action:
        if self.stage is not Stage.DRAW:
            raise IllegalActionError(Refusal.ALREADY_DREW, "you have already drawn this turn")
        if action.card not in self._acting_saved():
            raise IllegalActionError(
                Refusal.NOT_SAVED, f"there is no {action.card} on your save pile"
            )
        top = self.discard_top
        floating = self._seat(self.current).floating
        if floating and self.can_take() and top is not None and self.fits_anywhere(top):
            raise IllegalActionError(
                Refusal.FLOATING_MUST_TAKE, f"you are floating: you must take {top} and hit it"
            )
        return action

    def _check_give_up(self, action: GiveUp) -> Action:
        if self.tie_break:
            raise IllegalActionError(Refusal.NO_GIVE_UP, "a phase is not given up in a tie-break")
        info = self._seat(self.current)
        if info.gave_up:
            raise IllegalActionError(
                Refusal.NO_GIVE_UP, "you have already given up a phase this hand (one per hand)"
            )
        if info.laid is None:
            raise IllegalActionError(Refusal.NO_GIVE_UP, "you have no phase down to give up")
        return action

    def _check_give(self, action: GiveWild) -> Action:
        if self.stage is not Stage.GIVE_WILD:
            raise IllegalActionError(Refusal.NO_WILD_TO_GIVE, "there is no turned-up Wild to give")
        if action.player not in self.players_in_hand:
            raise InvalidActionError(f"there is no player {action.player} in this hand")
        return action

    def _check_declare(self, action: Declare) -> Action:
        if self.stage is not Stage.DECLARE:
            raise IllegalActionError(
                Refusal.NOT_DECLARING, "phases are declared only right after the deal"
            )
        if not 1 <= action.phase <= self.rules.phase_count:
            raise InvalidActionError(f"there is no phase {action.phase}")
        if action.phase - 1 in self._seat(self.current).completed:
            raise IllegalActionError(
                Refusal.PHASE_DONE, f"you have already completed phase {action.phase}"
            )
        return action

    def _check_draw(self, action: Draw | TakeDiscard) -> Action:
        if self.stage is not Stage.DRAW:
            raise IllegalActionError(Refusal.ALREADY_DREW, "you have already drawn this turn")
        floating = self._seat(self.current).floating
        top = self.discard_top
        if isinstance(action, Draw):
            if not self.can_draw():
                raise IllegalActionError(
                    Refusal.DRAW_PILE_EMPTY,
                    "the draw pile is empty and cannot be refilled: take the top discard",
                )
            if floating and self.can_take() and top is not None and self.fits_anywhere(top):
                raise IllegalActionError(
                    Refusal.FLOATING_MUST_TAKE, f"you are floating: you must take {top} and hit it"
                )
            return action
        if top is None:
            raise IllegalActionError(Refusal.DISCARD_EMPTY, "the discard pile is empty")
        if top.is_skip:
            raise IllegalActionError(
                Refusal.SKIP_NOT_TAKEN, "a Skip can never be taken from the discard pile"
            )
        if floating and not self.fits_anywhere(top) and self.can_draw():
            raise IllegalActionError(
                Refusal.FLOATING_MUST_DRAW,
                f"you are floating and {top} fits nowhere: you must draw",
            )
        return action

    def _check_discard(self, action: Discard, hand: Sequence[Card]) -> Action:
        card = action.card
        if card not in hand:
            raise IllegalActionError(Refusal.NOT_HELD, f"you have no {card} to discard")
        seat = self.current
        if self._seat(seat).floating and self.fits_anywhere(card) and self.stage is Stage.PLAY:
            raise IllegalActionError(
                Refusal.FLOATING_MUST_HIT,
                f"you are floating: {card} fits on the table, so you must hit it",
            )
        if card.is_anti:
            return self._check_anti_discard(action, hand)
        if not card.is_skip:
            return action
        targets = self.skip_targets(seat)
        if self.rules.skip_target is SkipTarget.NEXT:
            if action.target is not None and action.target not in targets:
                nxt = f"player {targets[0]}" if targets else "nobody"
                raise IllegalActionError(
                    Refusal.SKIP_NEXT_ONLY,
                    f"a Skip skips the next player ({nxt}), not {action.target}",
                )
            return Discard(card, None)
        if action.target is None:
            if targets:
                names = ", ".join(f"p{t}" for t in targets)
                raise IllegalActionError(
                    Refusal.NAME_SKIP_TARGET,
                    f"name the player to skip: discard S>pN with N one of {names}",
                )
            return action
        if action.target == seat:
            raise IllegalActionError(Refusal.SKIP_SELF, "you cannot skip yourself")
        if action.target not in self.players_in_hand:
            raise InvalidActionError(f"there is no player {action.target} in this hand")
        if action.target not in targets:
            raise IllegalActionError(
                Refusal.ALREADY_SKIPPED,
                f"player {action.target} already has a Skip waiting; choose another",
            )
        return action

    def _check_anti_discard(self, action: Discard, hand: Sequence[Card]) -> Action:
        seat = self.current
        targets = self.anti_targets(seat) if self._anti_names(hand) else ()
        if action.target is None:
            if targets:
                names = ", ".join(f"p{t}" for t in targets)
                raise IllegalActionError(
                    Refusal.NAME_ANTI_TARGET,
                    "you go out with the Anti-phase card: name who moves down a phase "
                    f"(discard A>pN with N one of {names})",
                )
            return action
        if action.target == seat and targets:
            raise IllegalActionError(
                Refusal.ANTI_SELF, "name another player: you cannot move yourself down"
            )
        if not targets:
            when = (
                "nobody moves down in a tie-break hand"
                if self.tie_break
                else "it names a player only when it is your last card"
            )
            raise IllegalActionError(
                Refusal.ANTI_NAMES_NOBODY, f"discard A without naming anyone: {when}"
            )
        if action.target not in targets:
            raise InvalidActionError(f"there is no player {action.target} in this hand")
        return action

    def _check_lay_down(self, action: LayDown, hand: Sequence[Card]) -> Action:
        seat = self.current
        info = self._seat(seat)
        if info.laid is not None:
            raise IllegalActionError(
                Refusal.ALREADY_LAID, "you have already laid down a phase this hand (one per hand)"
            )
        allowed = self.allowed_phases(seat)
        if not allowed:
            raise IllegalActionError(Refusal.NO_LAY_DOWN, "you have no phase to lay down this hand")
        if action.phase is None:
            if len(allowed) > 1:
                raise IllegalActionError(
                    Refusal.NAME_PHASE, "say which phase you lay down: lay N: ..."
                )
            index = allowed[0]
        else:
            index = action.phase - 1
            if not 0 <= index < self.rules.phase_count:
                raise InvalidActionError(f"there is no phase {action.phase}")
            if index not in allowed:
                wanted = ", ".join(str(i + 1) for i in allowed)
                raise IllegalActionError(
                    Refusal.PHASE_NOT_ALLOWED,
                    f"you cannot lay down phase {action.phase} now (you may: {wanted})",
                )
        phase = self.phase_of(index)
        groups = check_lay_down(phase, action.groups, self.rules.natural_min)
        _check_holds(hand, [card for group in groups for card in group.cards])
        return LayDown(groups, index + 1 if self.names_phase_when_laid else None)

    def _check_hit(self, action: Hit, hand: Sequence[Card]) -> Action:
        if self._seat(self.current).laid is None:
            raise IllegalActionError(
                Refusal.LAY_DOWN_FIRST, "you may hit only once your own phase is down"
            )
        if not 0 <= action.group < len(self.melds):
            raise InvalidActionError(f"there is no group g{action.group} on the table")
        if action.card not in hand:
            raise IllegalActionError(Refusal.NOT_HELD, f"you have no {action.card}")
        group = self.melds[action.group].group
        spots = group.placements(action.card)
        if not spots:
            raise IllegalActionError(
                Refusal.DOES_NOT_FIT,
                f"{action.card} does not fit on g{action.group} ({group.describe()})",
            )
        number = action.number
        if group.low is None:
            if number is not None and number != group.number:
                raise IllegalActionError(
                    Refusal.WRONG_VALUE, f"a Wild on g{action.group} takes the group's value"
                )
            return Hit(action.card, action.group, None)
        if number is None:
            if len(spots) > 1:
                raise IllegalActionError(
                    Refusal.NAME_RUN_END,
                    f"say which end of g{action.group} the Wild goes on: "
                    f"hit W={spots[0]} g{action.group} or hit W={spots[1]} g{action.group}",
                )
            number = spots[0]
        if number not in spots:
            places = " or ".join(map(str, spots))
            raise IllegalActionError(
                Refusal.WRONG_VALUE, f"{action.card} can go on g{action.group} only as {places}"
            )
        return Hit(action.card, action.group, number if action.card.is_wild else None)

    # -- enumeration ------------------------------------------------------------------

    def _generate(self) -> Iterator[Action]:
        stage = self.stage
        hand = self._acting_hand()
        if stage is Stage.GAME_OVER or hand is None:
            return
        if stage is Stage.GIVE_WILD:
            yield from (GiveWild(p) for p in self.players_in_hand)
            return
        if stage is Stage.DECLARE:
            completed = self._seat(self.current).completed
            yield from (Declare(i + 1) for i in range(self.rules.phase_count) if i not in completed)
            return
        if stage is Stage.DRAW:
            for action in (Draw(), TakeDiscard()):
                if self.is_legal(action):
                    yield action
            if self.rules.save_pile is not SavePile.OFF:
                for card in sorted(set(self._acting_saved()), key=lambda card: card.sort_key):
                    if self.is_legal(TakeSaved(card)):
                        yield TakeSaved(card)
            return
        distinct = sorted(set(hand), key=lambda card: card.sort_key)
        seat = self.current
        info = self._seat(seat)
        floating_bound = info.floating and any(self.fits_anywhere(card) for card in hand)
        if stage is Stage.PLAY and not floating_bound and not info.refill:
            explicit = self.names_phase_when_laid
            for index in self.allowed_phases(seat):
                # an arranged deal may hold more cards than a dealt hand: no bound here
                ways = lay_downs(self.phase_of(index), hand, self.rules.natural_min, max_cards=None)
                for groups in ways:
                    yield LayDown(groups, index + 1 if explicit else None)
        if stage is Stage.PLAY and info.laid is not None and not info.refill:
            for card in distinct:
                for gid, meld in enumerate(self.melds):
                    for spot in meld.group.placements(card):
                        yield Hit(card, gid, spot if card.is_wild else None)
        offers_give_up = stage is Stage.PLAY and self.rules.give_up is not GivingUp.OFF
        if offers_give_up and self.is_legal(GiveUp()):  # (checked only where the rules have it)
            yield GiveUp()
        if floating_bound:
            return
        # past the floating check no save depends on which card (but the Anti-phase card, never
        # saved): one check answers for all
        offers_saves = stage is Stage.PLAY and self.rules.save_pile is not SavePile.OFF
        savable = [card for card in distinct if not card.is_anti]
        if offers_saves and savable and self.is_legal(Save(savable[0])):
            yield from (Save(card) for card in savable)
        for card in distinct:
            if card.is_anti and self._anti_names(hand):
                targets = self.anti_targets(seat)
                yield from (Discard(card, t) for t in targets) if targets else iter([Discard(card)])
            elif card.is_skip and self.rules.skip_target is SkipTarget.CHOOSE:
                targets = self.skip_targets(seat)
                yield from (Discard(card, t) for t in targets) if targets else iter([Discard(card)])
            else:
                yield Discard(card)


class LegalActions:
    """A live, lazy view of the legal actions of a position (like python-chess's).

    ``action in legal`` checks one action without enumerating; iterating yields each
    distinct legal action once.
    """

    def __init__(self, position: Rulebook) -> None:
        self._position = position

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._position.is_legal(action)

    def __iter__(self) -> Iterator[Action]:
        return self._position._generate()

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(map(str, self))})>"


def _check_fields(action: Action) -> None:
    """Refuse an action built with values of the wrong type (``Hit(WILD, 1.0)``,
    ``Declare("3")``, ``GiveWild(True)``): applied, they would corrupt the game and its record.
    """
    name = type(action).__name__
    numbers: tuple[tuple[str, object, bool], ...]  # (field, value, may be None)
    match action:
        case Draw() | TakeDiscard() | GiveUp():
            return
        case Save() | TakeSaved():
            if not isinstance(action.card, Card):
                raise InvalidActionError(f"{name}.card must be a card, not {action.card!r}")
            return
        case Hit() | Discard() if not isinstance(action.card, Card):
            raise InvalidActionError(f"{name}.card must be a card, not {action.card!r}")
        case Hit():
            numbers = (("group", action.group, False), ("number", action.number, True))
        case Discard():
            numbers = (("target", action.target, True),)
        case Declare():
            numbers = (("phase", action.phase, False),)
        case GiveWild():
            numbers = (("player", action.player, False),)
        case LayDown():
            groups = action.groups
            if not isinstance(groups, tuple) or not all(isinstance(g, Group) for g in groups):
                raise InvalidActionError(f"{name}.groups must be a tuple of groups, not {groups!r}")
            numbers = (("phase", action.phase, True),)
        case _:
            assert_never(action)
    for field, value, optional in numbers:
        if value is None and optional:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidActionError(f"{name}.{field} must be a whole number, not {value!r}")


def _check_holds(hand: Sequence[Card], cards: Sequence[Card]) -> None:
    have = Counter(hand)
    for card, need in Counter(cards).items():
        if have[card] < need:
            if have[card] == 0:
                raise IllegalActionError(Refusal.NOT_HELD, f"you have no {card}")
            raise IllegalActionError(Refusal.NOT_HELD, f"you have {have[card]} {card}, not {need}")
