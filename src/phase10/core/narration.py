"""Readable lines from a game's events: the log every interface shows.

>>> from phase10.core.game import Game
>>> game = Game(["Ann", "Bob"], seed=3)
>>> log = EventLog(["Ann", "Bob"], game.rules, verbose=True)
>>> log.feed(game.history)
>>> log.feed(game.apply("draw"))
>>> log.lines[-1]
'  turn 1: Bob draws a card'

With ``you``, one seat is addressed in the second person (the player reading the log),
so every interface gets the same sentences:

>>> mine = EventLog(["Ann", "Bob"], game.rules, viewer=1, you=1, verbose=True)
>>> mine.feed(game.history)
>>> mine.lines[-1]
'  turn 1: You draw G2'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import assert_never

from .cards import ANTI, SKIP, WILD, format_cards
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
from .groups import Group, wild_value_text
from .phases import GroupKind
from .rules import Advance, PhaseOrder, Rules
from .words import plural

__all__ = ["EventLog", "LastMove", "and_list", "last_move"]

_KIND_NAMES = {
    GroupKind.SET: "set",
    GroupKind.RUN: "run",
    GroupKind.COLOR: "color group",
    GroupKind.EVEN_ODD: "even/odd group",
    GroupKind.COLOR_RUN: "color run",
    GroupKind.COLOR_EVEN_ODD: "color even/odd group",
}

_CARD_NOTES = {WILD: " (a Wild)", SKIP: " (a Skip)", ANTI: " (the Anti-phase card)"}


class EventLog:
    """Readable lines from a game's events, as ``viewer`` may know them (None: a spectator).

    ``you`` is the seat the log speaks to: "You draw R2", "Bob hits R2 on your set",
    "Your turn is passed (skipped)" (None: every seat by name). ``verbose`` also tells
    every draw, take and discard (an interface's running log); without it the log keeps
    to what a summary of the game needs.

    A discard that ends the hand is told once, with the going out:

    >>> from phase10.core.cards import Card
    >>> from phase10.core.rules import preset
    >>> log = EventLog(["Ann", "Bob"], preset("official"), viewer=0, you=0, verbose=True)
    >>> y1 = Card.parse("Y1")
    >>> log.feed([Drew(1, None), Discarded(1, SKIP, 0), Skipped(0), Drew(1, None)])
    >>> log.feed([Discarded(1, y1), WentOut(1)])
    >>> log.feed([Drew(0, None), Discarded(0, SKIP, 1), WentOut(0)])
    >>> for line in log.lines:
    ...     print(line)
      turn 1: Bob draws a card
      turn 1: Bob discards a Skip on you
      turn 2: Your turn is passed (skipped)
      turn 3: Bob draws a card
      turn 3: Bob discards Y1 and goes out
      turn 4: You draw a card
      turn 4: You discard a Skip and go out
    """

    def __init__(
        self,
        names: Sequence[str],
        rules: Rules,
        *,
        viewer: int | None = None,
        you: int | None = None,
        verbose: bool = False,
    ) -> None:
        self.names = list(names)
        self.rules = rules
        self.viewer = viewer
        self.you = you
        self.verbose = verbose
        self.lines: list[str] = []
        self.turn = 0
        self.owners: dict[int, int] = {}
        self.last: Event | None = None
        #: whether the last event got a line of its own
        self.told = False
        self.hands = 0
        self._stand_in: int | None = None

    def feed(self, events: Iterable[Event], *, stand_in_for: int | None = None) -> None:
        """Narrate ``events``; ``stand_in_for``: a computer stand-in played them for that
        seat, and the lines of its actions say so ("Bot plays for Ann: Ann draws a card";
        what it tells of others, a skipped turn or the scores, stays as it is).

        >>> from phase10.core.rules import preset
        >>> log = EventLog(["Ann", "Bob"], preset("official"), viewer=1, you=1, verbose=True)
        >>> log.feed([Drew(0, None)], stand_in_for=0)
        >>> log.feed([Drew(1, None)], stand_in_for=1)
        >>> for line in log.lines:
        ...     print(line)
          turn 1: Bot plays for Ann: Ann draws a card
          turn 2: Bot plays for you: You draw a card
        """
        self._stand_in = stand_in_for
        events = list(events)
        for index, event in enumerate(events):
            public = event.seen_by(self.viewer)
            after = events[index + 1] if index + 1 < len(events) else None
            # the going out that follows tells this discard: one line, not two
            ends_hand = isinstance(public, Discarded) and isinstance(after, WentOut)
            text = None if ends_hand else self._describe(public)
            if text is not None:
                self.lines.extend(text.split("\n"))
            self.told = text is not None
            self.last = public

    def _say(self, text: str) -> str:
        seat = self._stand_in
        if seat is not None and text.startswith(f"{self._who(seat)} "):
            text = f"Bot plays for {self._who(seat, start=False)}: {text}"
        return f"  {'deal' if self.turn == 0 else f'turn {self.turn}'}: {text}"

    def _who(self, seat: int, *, start: bool = True) -> str:
        """The seat's name, or "You" (``start``: at the start of a sentence) for ``you``."""
        if seat != self.you:
            return self.names[seat]
        return "You" if start else "you"

    def _does(self, seat: int, verb: str) -> str:
        """The verb for the seat: "draw" for ``you``, "draws" (or "goes") for the others."""
        if seat == self.you:
            return verb
        return f"{verb}es" if verb.endswith("o") else f"{verb}s"

    def _act(self, seat: int, verb: str) -> str:
        """ "Bob draws" or "You draw"."""
        return f"{self._who(seat)} {self._does(seat, verb)}"

    def _whose(self, seat: int, *, start: bool = False) -> str:
        """ "Bob's", or "your" ("Your" at the start of a sentence) for ``you``."""
        if seat != self.you:
            return f"{self.names[seat]}'s"
        return "Your" if start else "your"

    def _describe(self, event: Event) -> str | None:
        act, who = self._act, self._who
        match event:
            case HandStarted():
                self.turn, self.owners, self.hands = 0, {}, event.hand
                top = event.discard_top
                tie = " (tie-break)" if event.tie_break else ""
                return (
                    f"\nHand {event.hand}{tie}: {act(event.dealer, 'deal')}; "
                    f"the turned-up card is {event.discard_top}{_CARD_NOTES.get(top, '')}"
                )
            case Drew() if self.verbose:
                self.turn += 1
                seen = f" {event.card}" if event.card is not None else " a card"
                return self._say(f"{act(event.player, 'draw')}{seen}")
            case TookDiscard() if self.verbose:
                self.turn += 1
                return self._say(f"{act(event.player, 'take')} {event.card} from the discard pile")
            case Drew() | TookDiscard():
                self.turn += 1
            case Skipped():
                self.turn += 1
                return self._say(
                    f"{self._whose(event.player, start=True)} turn is passed (skipped)"
                )
            case Declared():
                phase = self.rules.phase_sequence[event.phase - 1]
                return self._say(f"{act(event.player, 'declare')} phase {event.phase} ({phase})")
            case WildGiven() if event.dealer == event.player:
                return self._say(f"{act(event.dealer, 'keep')} the turned-up Wild")
            case WildGiven():
                to = who(event.player, start=False)
                return self._say(f"{act(event.dealer, 'give')} the turned-up Wild to {to}")
            case Reshuffled():
                return self._say(
                    f"the discard pile is shuffled into a new draw pile of {event.cards}"
                )
            case LaidDown():
                for group_id in event.group_ids:
                    self.owners[group_id] = event.player
                phase = self.rules.phase_sequence[event.phase - 1]
                groups = " + ".join(group.describe() for group in event.groups)
                return self._say(
                    f"{act(event.player, 'lay')} down phase {event.phase} ({phase}): {groups}"
                )
            case CardHit():
                seat = self.owners.get(event.group, event.player)
                # ("Ann hits R9 on their own set", not "on Ann's set")
                own = seat == event.player and seat != self.you
                owner = "their own" if own else self._whose(seat)
                card = _hit_card(event)
                kind = _KIND_NAMES[event.group_after.kind]
                return self._say(
                    f"{act(event.player, 'hit')} {card} on {owner} {kind}: "
                    f"{event.group_after.describe()}"
                )
            case Discarded() if event.card.is_skip:
                if event.target is None:
                    return self._say(
                        f"{act(event.player, 'discard')} a Skip; nobody can be skipped"
                    )
                on = who(event.target, start=False)
                return self._say(f"{act(event.player, 'discard')} a Skip on {on}")
            case Discarded() if self.turn == 0 or self.verbose:
                return self._say(f"{act(event.player, 'discard')} {event.card}")
            case Discarded() | Dealt():
                pass
            case Saved():
                card = f"{event.card}" if event.card is not None else "a card"
                return self._say(f"{act(event.player, 'save')} {card} on the save pile")
            case TookSaved():
                self.turn += 1
                card = f"{event.card}" if event.card is not None else "a card"
                pile = "your save pile" if event.player == self.you else "their save pile"
                return self._say(f"{act(event.player, 'take')} {card} back from {pile}")
            case GaveUp():
                gone = set(event.group_ids)
                kept = sorted(gid for gid in self.owners if gid not in gone)
                self.owners = {
                    new: self.owners[old] for new, old in enumerate(kept)
                }  # the groups after the given-up ones move down
                return self._say(
                    f"{act(event.player, 'give')} up phase {event.phase}: "
                    f"its {plural(event.cards, 'card')} leave the table for the discard pile"
                )
            case Refilled():
                cards = f": {format_cards(event.cards)}" if event.cards else ""
                return self._say(
                    f"{act(event.player, 'draw')} {plural(event.count, 'card')} "
                    f"back up to ten{cards}"
                )
            case Floating():
                whose = self._whose(event.player, start=True)
                return self._say(f"{whose} hand is empty: floating until a discard")
            case WentOut():
                player = event.player
                how = ""
                if isinstance(self.last, Discarded) and not self.told:
                    # (a Skip that ends the hand skips nobody: named as other Skips are)
                    card = "a Skip" if self.last.card.is_skip else f"{self.last.card}"
                    how = f"{self._does(player, 'discard')} {card} and "
                elif isinstance(self.last, CardHit | LaidDown):
                    how = f"{self._does(player, 'play')} the last card and "
                naming = ""
                last = self.last
                if isinstance(last, Discarded) and last.card.is_anti and last.target is not None:
                    naming = f", naming {who(last.target, start=False)}"
                return self._say(f"{who(player)} {how}{self._does(player, 'go')} out{naming}")
            case MovedDown():
                why = (
                    "holding the Anti-phase card at the end of the hand"
                    if event.named_by is None
                    else f"named by {who(event.named_by, start=False)} with the Anti-phase card"
                )
                if event.phase is None:
                    return self._say(f"{who(event.player)}, {why}, had no phase to lose")
                return self._say(
                    f"{who(event.player)} {self._does(event.player, 'move')} down a phase, {why}: "
                    f"phase {event.phase} must be made again"
                )
            case HandEnded():
                return self._scores(event)
            case TieBreakStarted():
                tied = [who(p, start=i == 0) for i, p in enumerate(event.players)]
                they = "you" if self.you in event.players else "they"
                return (
                    f"\n{and_list(tied)} completed the last phase with "
                    f"the same total: {they} play a tie-break hand on the last phase"
                )
            case GameEnded():
                winners = [who(p, start=i == 0) for i, p in enumerate(event.winners)]
                points = sorted({event.totals[p] for p in event.winners})
                each = " each" if len(winners) > 1 and len(points) == 1 else ""
                total = f"{' and '.join(map(str, points))} points{each}"
                label = "Winner" if len(winners) == 1 else "Winners"
                hands = "hand" if self.hands == 1 else "hands"
                return (
                    f"\n{label}: {and_list(winners)} ({event.reason}) with {total} "
                    f"after {self.hands} {hands}"
                )
            case _:
                assert_never(event)
        return None

    def _scores(self, event: HandEnded) -> str:
        lines = []
        if event.went_out is None:
            lines.append(f"  the hand ends: {event.reason}")
        phase_header = "done" if self.rules.phase_order is PhaseOrder.ANY else "phase"
        width = max(len("player"), *(len(n) for n in self.names))
        lines.append(f"  Scores after hand {event.hand}:")
        lines.append(f"    {'player':<{width}}  {'hand':>4}  {'total':>5}  {phase_header}")
        for seat, player in enumerate(self.names):
            points = event.points[seat]
            shown = "-" if points is None else str(points)
            phase = self._phase_text(event.phases_completed[seat], event.hand)
            lines.append(f"    {player:<{width}}  {shown:>4}  {event.totals[seat]:>5}  {phase}")
        return "\n".join(lines)

    def _phase_text(self, done: int, hand: int) -> str:
        """The phase a player is now on (or how many are done when any order is allowed)."""
        count = self.rules.phase_count
        if self.rules.phase_order is PhaseOrder.ANY:
            return f"{done}/{count}"
        on = hand + 1 if self.rules.advance is Advance.ALL else done + 1
        return "all done" if on > count else str(on)


def _hit_card(event: CardHit) -> str:
    if not event.card.is_wild:
        return str(event.card)
    group: Group = event.group_after
    number = event.number if event.number is not None else group.number
    return "W=" + wild_value_text(number=number, color=group.color, parity=group.parity)


def and_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


@dataclass(frozen=True, slots=True)
class LastMove:
    """The hand's last move, as a table marks it on the seat that made it: ``text`` follows
    the player's name ("Bob was skipped"), ``own`` follows "You" ("You were skipped");
    ``kind`` says what it was (``draw``, ``take``, ``lay``, ``hit``, ``discard``, ``skip``,
    ``anti``, ``moved-down``, ``skipped``, ``declare``, ``give``, ``save``, ``give-up``) and
    ``groups`` are the groups it made or hit."""

    seat: int
    kind: str
    text: str
    own: str
    groups: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "text": self.text,
            "own": self.own,
            "groups": list(self.groups),
        }


def last_move(events: Sequence[Event], names: Sequence[str], viewer: int | None) -> LastMove | None:
    """The last move of the hand ``events`` end in, as ``viewer`` may know it (None: a
    spectator); None before anyone has moved in it.

    >>> from phase10.core.cards import Card
    >>> skip = Card.parse("S")
    >>> last_move([Drew(0, Card.parse("R7"))], ["Ann", "Bob"], viewer=0).own
    'drew R7'
    >>> last_move([Drew(0, Card.parse("R7"))], ["Ann", "Bob"], viewer=1).text
    'drew a card'
    >>> moved = last_move([Discarded(0, skip, 1), Skipped(1)], ["Ann", "Bob"], viewer=1)
    >>> moved.seat, moved.kind, moved.text, moved.own
    (1, 'skipped', 'was skipped', 'were skipped')
    """
    for event in reversed(events):
        seen = event.seen_by(viewer)
        match seen:
            case HandStarted():
                return None
            case Drew(player, card):
                return _moved(player, "draw", f"drew {card}" if card else "drew a card")
            case TookDiscard(player, card):
                return _moved(player, "take", f"took {card}")
            case LaidDown(player=player, phase=phase, group_ids=ids):
                return _moved(player, "lay", f"laid down phase {phase}", ids)
            case CardHit(player=player, card=card, group=group):
                return _moved(player, "hit", f"hit {card}", (group,))
            case Discarded(player, card, None):
                return _moved(player, "discard", f"discarded {card}")
            case Discarded(player, card, target) if card == ANTI and target is not None:
                said = f"went out naming {names[target]} with the Anti-phase card"
                return _moved(player, "anti", said)
            case Discarded(player, _, target) if target is not None:
                return _moved(player, "skip", f"skipped {names[target]}")
            case MovedDown(player=player, phase=phase):  # (the Anti-phase card, at a hand's end)
                said = (
                    "had no phase to lose" if phase is None else f"moved down: phase {phase} again"
                )
                return _moved(player, "moved-down", said)
            case Skipped(player):
                return LastMove(player, "skipped", "was skipped", "were skipped")
            case Declared(player, phase):
                return _moved(player, "declare", f"declared phase {phase}")
            case WildGiven(dealer, player):
                return _moved(dealer, "give", f"gave the Wild to {names[player]}")
            case Saved(player=player, card=card):
                return _moved(player, "save", f"saved {card}" if card else "saved a card")
            case TookSaved(player=player, card=card):
                said = f"took {card} back from the save pile" if card else "took a saved card back"
                return _moved(player, "take", said)
            case GaveUp(player=player, phase=phase):
                return _moved(player, "give-up", f"gave up phase {phase}")
            case Refilled(player=player, count=count):
                return _moved(player, "draw", f"drew {count} back up to ten")
    return None


def _moved(seat: int, kind: str, text: str, groups: tuple[int, ...] = ()) -> LastMove:
    return LastMove(seat, kind, text, text, groups)
