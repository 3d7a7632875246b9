"""Snapshots: the whole state of a game, random generator included, as JSON.

A snapshot holds the game's record (header and actions) and every field of its state,
written out so that a reader (a person, a tool, a test) sees the position without
replaying. :func:`restore` reads one back and promises that the game it returns is one a
legal game reaches: exactly the state its own record leaves when replayed. Anything else
is refused with a :class:`~phase10.core.codec.RecordError` naming what is wrong, so a
snapshot edited by hand or by a client can never smuggle in a position the rules cannot
make (an extra Wild, a skip that was never played, a phase never laid).

>>> from phase10.core.game import Game
>>> game = Game(["Ann", "Bob"], seed=11)
>>> _ = game.apply("draw")
>>> data = snapshot(game)
>>> snapshot(restore(data)) == data
True
>>> data["state"]["seats"][1]["pending_skip"] = True
>>> restore(data)
Traceback (most recent call last):
...
phase10.core.codec.RecordError: the snapshot is inconsistent: seat 1's pending skip is true, but the record's actions leave it false
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .cards import Card, format_cards
from .codec import (
    RecordError,
    action_from_dict,
    action_to_dict,
    check_header,
    event_from_dict,
    event_to_dict,
    meld_from_dict,
    meld_to_dict,
    read_bool,
    read_cards,
    read_int,
    read_ints,
    read_json,
    read_list,
    read_object,
    read_optional_int,
    read_str,
)
from .events import HandStarted
from .game import HAND_SIZE, Game, GameState
from .records import RECORD_VERSION, SNAPSHOT_FORMAT, GameRecord
from .rules import Advance, EmptyDrawPile, GoingOut, PhaseOrder, WildDealUp
from .state import Meld, Seat, Stage

__all__ = ["dumps_snapshot", "loads_snapshot", "restore", "snapshot"]


def snapshot(game: Game) -> dict[str, Any]:
    """The whole state of a game as a JSON-ready dict (:func:`restore` reads it back)."""
    state = game.state()
    version, internal, gauss = state.rng
    return {
        "format": SNAPSHOT_FORMAT,
        "version": RECORD_VERSION,
        "record": GameRecord.from_game(game).to_dict() | {"date": None},
        "state": {
            "rng": [version, list(internal), gauss],
            "hand_number": state.hand_number,
            "dealer": state.dealer,
            "current": state.current,
            "stage": state.stage.value,
            "players_in_hand": list(state.players_in_hand),
            "tie_break": state.tie_break,
            "winners": list(state.winners),
            "draw_pile": format_cards(state.draw_pile),
            "discard_pile": format_cards(state.discard_pile),
            "melds": [meld_to_dict(meld) for meld in state.melds],
            "seats": [_seat_to_dict(seat) for seat in state.seats],
            "declare_queue": list(state.declare_queue),
            "first_player": state.first_player,
            "hand_start": state.hand_start,
            "history": [event_to_dict(event) for event in state.history],
            "actions": [action_to_dict(action) for action in state.actions],
        },
    }


def restore(data: Mapping[str, Any]) -> Game:
    """A game in exactly the state a :func:`snapshot` describes, if a legal game reaches it.

    Raises :class:`RecordError` for a snapshot that is malformed (a missing key, a value of
    the wrong type) or that no legal game reaches. The checks run from the plainest to the
    most thorough, and the first that fails names the problem:

    1. the parts fit together: the deck's cards, seats and phases that exist, a
       history that starts the current hand, the record's actions and stated result;
    2. the rules of play hold (each named in the message): the stage and the per-hand
       fields the options allow, a pending skip passed before the skipped player draws,
       phases worked on and laid in the order the rules give, table groups owned by the
       players who laid them, hand sizes that fit the stage;
    3. the exact test: the record's actions replayed from its header leave this very
       state, field by field (the first field that differs is named).

    Every snapshot of a legal game comes back whole: ``snapshot(restore(data)) == data``.

    The replay roughly doubles the cost of reading the snapshot: measured on one machine,
    a 640-action game between four greedy bots restores in about 35 ms, and a long
    4,400-action game of six random players in about 90 ms (50 ms of it the replay).
    """
    game, record = _read(data)
    _check_parts(game, record)
    _check_rules_of_play(game, record)
    _check_against_replay(game, record)
    return game


def dumps_snapshot(game: Game, *, indent: int | None = None) -> str:
    return json.dumps(snapshot(game), indent=indent)


def loads_snapshot(text: str) -> Game:
    """:func:`restore` from JSON text (with the same checks)."""
    return restore(read_json(text))


def _read_unchecked(data: Mapping[str, Any]) -> Game:
    """The game a snapshot describes, read field by field with none of :func:`restore`'s
    checks that a game can reach it. For tests that craft positions by editing a snapshot;
    anything read from outside goes through :func:`restore`.
    """
    return _read(data)[0]


def _read(data: Mapping[str, Any]) -> tuple[Game, GameRecord]:
    """The game a snapshot's state describes (checked only for types) and its record."""
    check_header(data, SNAPSHOT_FORMAT, RECORD_VERSION)
    if "record" not in data:
        raise RecordError("the snapshot is malformed: it has no 'record'")
    record = GameRecord.from_dict(data["record"])
    try:
        state = _read_state(data)
    except RecordError:
        record.new_game()  # a header that makes no game is named first
        raise
    return record.new_game(state), record


def _read_state(data: Mapping[str, Any]) -> GameState:
    """A snapshot's state, checked only for types."""
    try:
        state = read_object(data["state"], "state")
        version, internal, gauss = read_list(state["rng"], "rng")
        if gauss is not None and not isinstance(gauss, float):
            raise RecordError(f"the random state's last value must be a number, not {gauss!r}")
        rng = random.Random()
        rng.setstate((version, tuple(read_list(internal, "rng")), gauss))  # refuses a bad one
        return GameState(
            rng=rng.getstate(),
            hand_number=read_int(state["hand_number"], "hand_number"),
            dealer=read_int(state["dealer"], "dealer"),
            current=read_int(state["current"], "current"),
            stage=Stage(read_str(state["stage"], "stage")),
            players_in_hand=read_ints(state["players_in_hand"], "players_in_hand"),
            tie_break=read_bool(state["tie_break"], "tie_break"),
            winners=read_ints(state["winners"], "winners"),
            draw_pile=read_cards(state["draw_pile"], "draw_pile"),
            discard_pile=read_cards(state["discard_pile"], "discard_pile"),
            melds=tuple(meld_from_dict(meld) for meld in read_list(state["melds"], "melds")),
            seats=tuple(_seat_from_dict(seat) for seat in read_list(state["seats"], "seats")),
            declare_queue=read_ints(state["declare_queue"], "declare_queue"),
            first_player=read_int(state["first_player"], "first_player"),
            hand_start=read_int(state["hand_start"], "hand_start"),
            history=tuple(
                event_from_dict(event) for event in read_list(state["history"], "history")
            ),
            actions=tuple(
                action_from_dict(action) for action in read_list(state["actions"], "actions")
            ),
        )
    except KeyError as error:
        raise RecordError(f"the snapshot is malformed: it has no {error.args[0]!r}") from None
    except (TypeError, ValueError, OverflowError) as error:
        raise RecordError(f"the snapshot is malformed: {error}") from None


def _inconsistent(text: str) -> RecordError:
    return RecordError(f"the snapshot is inconsistent: {text}")


# -- 1. the parts fit together ----------------------------------------------------------


def _check_parts(game: Game, record: GameRecord) -> None:
    """Refuse a snapshot whose parts do not fit together: a card too many or missing, a seat
    that does not exist, a phase out of range, actions that are not the record's, ...

    The later checks index seats, phases and the history by these values: they run first.
    """
    fail = _inconsistent
    n = game.num_players
    count = game.rules.phase_count
    names = tuple(seat.name for seat in game.seats)
    if names != record.players:
        raise fail(f"its seats {list(names)} are not the record's players {list(record.players)}")
    hand = game.players_in_hand
    if not hand or list(hand) != sorted(set(hand)) or not set(hand) <= set(range(n)):
        raise fail(f"the players in the hand {list(hand)} are not distinct seats in order")
    for what, player in (
        ("dealer", game.dealer),
        ("player to move", game.current),
        ("first player", game.first_player),
        *(("player still to declare", p) for p in game.declare_queue),
        *(("owner of a table group", meld.owner) for meld in game.melds),
    ):
        if player not in hand:
            raise fail(f"the {what} ({player}) is not in the hand {list(hand)}")
    winners = game.winners
    if len(set(winners)) != len(winners) or not set(winners) <= set(range(n)):
        raise fail(f"the winners {list(winners)} are not distinct seats")
    if (game.stage is Stage.GAME_OVER) != bool(winners):
        raise fail("a finished game has winners and a game in progress has none")
    if record.winners is not None and record.winners != winners:
        raise fail(f"its record says {list(record.winners)} won, its state {list(winners)}")
    scores = tuple(seat.score for seat in game.seats)
    if record.totals is not None and record.totals != scores:
        raise fail(f"its record's totals {list(record.totals)} are not the scores {list(scores)}")
    for number, seat in enumerate(game.seats):
        phases = [*seat.completed, *(p for p in (seat.laid, seat.declared) if p is not None)]
        if not all(0 <= p < count for p in phases) or not 0 <= seat.phase <= count:
            raise fail(f"seat {number} names a phase outside 1 to {count}")
        if number not in hand and seat.hand:
            raise fail(f"seat {number} holds cards but is not in the hand")
    held = Counter(game.all_cards())
    wrong = [
        f"{held[card]} {card} (the deck has {deck.get(card, 0)})"
        for deck in [game.rules.deck_counts]
        for card in sorted(set(deck) | set(held), key=lambda card: card.index)
        if held[card] != deck.get(card, 0)
    ]
    if wrong:
        raise fail(
            f"its cards are not the deck's {game.rules.deck_size}: it holds "
            f"{sum(held.values())}, with "
            + ", ".join(wrong[:4])
            + (", ..." if len(wrong) > 4 else "")
        )
    start = game.history[game.hand_start] if 0 <= game.hand_start < len(game.history) else None
    if not isinstance(start, HandStarted) or start.hand != game.hand_number:
        raise fail(f"its history does not start hand {game.hand_number} at {game.hand_start}")
    if any(isinstance(event, HandStarted) for event in game.history[game.hand_start + 1 :]):
        raise fail("its history starts a later hand than the current one")
    if tuple(str(action) for action in game.actions) != record.actions:
        raise fail("its actions are not its record's")


# -- 2. the rules of play hold ----------------------------------------------------------


def _check_rules_of_play(game: Game, record: GameRecord) -> None:
    """Refuse a state that breaks a rule of play, naming the rule: each check is a fact
    about every position a legal game reaches (the replay in step 3 is the complete test;
    these give a reason a person can read).
    """
    _check_stage(game)
    _check_turn_and_skips(game, record)
    _check_phases(game, record)
    _check_table(game)
    _check_hand_sizes(game, record)


def _check_stage(game: Game) -> None:
    """The stage, the declarations and the tie-break fit the rules."""
    fail = _inconsistent
    rules, stage, queue = game.rules, game.stage, list(game.declare_queue)
    declaring_rules = "only phase_order=any with declare=deal declares phases"
    if stage is Stage.DECLARE and not game.declares_after_deal:
        reason = "a tie-break hand declares no phase" if game.tie_break else declaring_rules
        raise fail(f"the stage is declare, but {reason}")
    if stage in (Stage.GIVE_WILD, Stage.WILD_DISCARD) and (
        rules.wild_deal_up is not WildDealUp.DEALER_CHOOSES
    ):
        raise fail(
            f"the stage is {stage.value}, but only wild_deal_up=dealer_chooses gives away a "
            "turned-up Wild"
        )
    for number, seat in enumerate(game.seats):
        if seat.declared is not None and not game.declares_after_deal:
            reason = "a tie-break hand declares no phase" if game.tie_break else declaring_rules
            raise fail(f"seat {number} declared phase {seat.declared + 1}, but {reason}")
        if seat.floating and rules.going_out is not GoingOut.DISCARD:
            raise fail(
                f"seat {number} is floating, but only going_out=discard has floating players"
            )
        if seat.floating and seat.laid is None:
            raise fail(f"seat {number} is floating, but has laid no phase this hand")
    if queue and stage is not Stage.DECLARE:
        raise fail(f"players {queue} are still to declare, but the stage is {stage.value}")
    if stage is Stage.DECLARE:
        if queue[:1] != [game.current]:
            raise fail("the player to move is not the next to declare")
        order = [game.first_player]
        order += [p for p in game._turn_order_from(order[0]) if p != order[0]]
        if queue != order[len(order) - len(queue) :]:
            raise fail(
                f"the players still to declare {queue} are not the last of the turn order {order}"
            )
    if game.declares_after_deal and stage not in (
        Stage.DECLARE,
        Stage.GIVE_WILD,
        Stage.WILD_DISCARD,
    ):
        for player in game.players_in_hand:
            if game.seats[player].declared is None:
                raise fail(f"seat {player} plays the hand but declared no phase for it")
    if stage in (Stage.DECLARE, Stage.GIVE_WILD, Stage.WILD_DISCARD):
        for player in game.players_in_hand:
            seat = game.seats[player]
            if seat.laid is not None:
                raise fail(
                    f"seat {player} has laid down, but the stage is {stage.value}, before "
                    "the first turn"
                )
            if (player in queue) != (seat.declared is None) and stage is Stage.DECLARE:
                still = "is still to declare but" if player in queue else "has not"
                raise fail(f"seat {player} {still} declared a phase")
            if stage is not Stage.DECLARE and seat.declared is not None:
                raise fail(
                    f"seat {player} declared a phase, but phases are declared once the "
                    "turned-up Wild is given and discarded for"
                )
        if game.stage is Stage.GIVE_WILD and game.current != game.dealer:
            raise fail("the turned-up Wild is given by the dealer, not by the player to move")
        if game.stage is Stage.GIVE_WILD and not (game.discard_top and game.discard_top.is_wild):
            raise fail("the stage is give_wild, but the top discard is not a Wild")
    if game.tie_break:
        if rules.advance is Advance.ALL:
            raise fail("advance=all has no tie-break hand")
        for player in game.players_in_hand:
            if len(game.seats[player].completed) < rules.phase_count:
                raise fail(f"seat {player} plays the tie-break hand without every phase done")
    elif game.players_in_hand != tuple(range(game.num_players)):
        raise fail(
            f"the players in the hand {list(game.players_in_hand)} leave some out, but only a "
            "tie-break hand does"
        )


def _check_turn_and_skips(game: Game, record: GameRecord) -> None:
    """Dealer, first player and pending skips fit the turn order."""
    fail = _inconsistent
    stage, current = game.stage, game.current
    if not game.tie_break:
        dealer = (record.dealer + game.hand_number - 1) % game.num_players
        if game.dealer != dealer:
            raise fail(
                f"hand {game.hand_number} is dealt by seat {dealer} (the deal passes to the "
                f"left each hand), not seat {game.dealer}"
            )
    first = game._turn_order_from(game.dealer)[0]
    if game.first_player != first:
        raise fail(
            f"the first player is seat {game.first_player}, but the player after the "
            f"dealer (seat {game.dealer}) is seat {first}"
        )
    for number, seat in enumerate(game.seats):
        if seat.pending_skip and number not in game.players_in_hand:
            raise fail(f"seat {number} has a pending skip but is not in the hand")
    if stage in (Stage.DRAW, Stage.PLAY) and game.seats[current].pending_skip:
        raise fail(
            f"seat {current} is to {stage.value} but still has a pending skip (a skipped "
            "player's turn is passed before they draw)"
        )
    if stage in (Stage.GIVE_WILD, Stage.WILD_DISCARD):
        skipped = [p for p in game.players_in_hand if game.seats[p].pending_skip]
        if skipped:
            raise fail(
                f"seat {skipped[0]} has a pending skip, but the turned-up card was a Wild and "
                "nobody has played a turn"
            )
    if stage is Stage.DRAW:
        if not game.draw_pile and game.rules.empty_draw_pile is EmptyDrawPile.END_HAND:
            raise fail(
                f"seat {current} is to draw from an empty draw pile, but under "
                "empty_draw_pile=end_hand the hand ends when the draw pile runs out"
            )
        if not game.can_draw() and not game.can_take() and not game.seats[current].saved:
            raise fail(
                f"seat {current} is to draw, but can neither draw, take nor take back a saved "
                "card (the hand is over)"
            )


def _check_phases(game: Game, record: GameRecord) -> None:
    """Each seat's phase, completed phases, laid and declared phase follow the phase order."""
    fail = _inconsistent
    rules = game.rules
    count = rules.phase_count
    over = game.stage is Stage.GAME_OVER
    starts = record.arrangement.scores if record.arrangement else None
    for number, seat in enumerate(game.seats):
        done = sorted(seat.completed)
        lowest_open = min((i for i in range(count) if i not in seat.completed), default=count)
        working_on = "every phase done" if seat.phase == count else f"phase {seat.phase + 1}"
        if rules.advance is Advance.ALL:
            if done and done[-1] >= seat.phase:
                raise fail(
                    f"seat {number} completed phase {done[-1] + 1} but is on {working_on} "
                    "(advance=all passes one phase each hand)"
                )
            if seat.phase != game.seats[0].phase:
                raise fail("under advance=all every seat is on the same phase")
        elif seat.phase != lowest_open:
            lowest = "every phase" if lowest_open == count else f"phase {lowest_open + 1}"
            raise fail(
                f"seat {number} is on {working_on}, but the lowest phase it has not completed "
                f"is {lowest}"
            )
        in_order = rules.phase_order is PhaseOrder.SEQUENCE and rules.advance is Advance.COMPLETED
        if in_order and done != list(range(len(done))):
            shown = ", ".join(str(i + 1) for i in done)
            raise fail(
                f"seat {number} completed phases {shown}: under phase_order=sequence they are "
                "completed in order"
            )
        start = starts[number] if starts else 0
        if seat.score < start or (seat.score - start) % 5:
            raise fail(
                f"seat {number}'s score {seat.score} is not {start} plus card points (each card "
                "left in hand scores 5, 10, 15 or 25)"
            )
        if over:
            continue  # the hand's end has scored the laid phase as completed
        if seat.declared is not None and seat.declared in seat.completed:
            raise fail(
                f"seat {number} declared phase {seat.declared + 1}, which it has already completed"
            )
        if seat.laid is None:
            continue
        laid = seat.laid + 1
        if game.tie_break:
            if seat.laid != count - 1:
                raise fail(f"seat {number} laid phase {laid}, but a tie-break hand plays the last")
        elif seat.laid in seat.completed:
            raise fail(f"seat {number} laid phase {laid} this hand, but had already completed it")
        elif game.declares_after_deal and seat.laid != seat.declared:
            declared = "none" if seat.declared is None else seat.declared + 1
            raise fail(f"seat {number} laid phase {laid}, but declared phase {declared}")
        elif rules.phase_order is PhaseOrder.SEQUENCE and seat.laid != seat.phase:
            raise fail(f"seat {number} laid phase {laid}, but is on {working_on}")


def _check_table(game: Game) -> None:
    """Every table group belongs to a player who laid a phase of that many groups."""
    fail = _inconsistent
    owned = Counter(meld.owner for meld in game.melds)
    for gid, meld in enumerate(game.melds):
        if game.seats[meld.owner].laid is None:
            raise fail(
                f"table group g{gid} belongs to seat {meld.owner}, who has laid no phase this hand"
            )
    for number, seat in enumerate(game.seats):
        if seat.laid is None:
            continue
        groups = len(game.phase_of(seat.laid).groups)
        if owned[number] != groups:
            raise fail(
                f"seat {number} laid phase {seat.laid + 1} ({groups} groups), but owns "
                f"{owned[number]} on the table"
            )


def _check_hand_sizes(game: Game, record: GameRecord) -> None:
    """Hand sizes fit the stage: dealt 10, one more while playing a turn, fewer only after
    laying down; nobody but a floating player waits with no card.
    """
    fail = _inconsistent
    stage, over = game.stage, game.stage is Stage.GAME_OVER
    dealt_normally = game.hand_number > 1 or record.arrangement is None
    for player in game.players_in_hand:
        seat = game.seats[player]
        size = len(seat.hand)
        moving = player == game.current and stage in (Stage.PLAY, Stage.WILD_DISCARD)
        if over:
            # the last hand may have stopped in the middle of its last player's turn
            moving = player == game.current and seat.laid is not None
        elif seat.floating:
            wanted = 1 if moving else 0
            if size != wanted:
                raise fail(
                    f"seat {player} is floating and holds {size} cards, but a floating player "
                    f"holds {wanted} {_when(moving)}"
                )
            continue
        elif size == 0:
            raise fail(f"seat {player} holds no cards, but the hand goes on")
        if not dealt_normally or seat.gave_up:
            continue  # an arranged deal gives any number of cards; a refill draws what is left
        full = HAND_SIZE + 1 if moving else HAND_SIZE
        if seat.laid is None and size != full:
            raise fail(
                f"seat {player} holds {size} cards, but a player who has not laid down holds "
                f"{full} {_when(moving)}"
            )
        if seat.laid is not None:
            phase = game.phase_of(seat.laid)
            most = full - phase.min_cards
            if size > most:
                raise fail(
                    f"seat {player} holds {size} cards, but after laying down phase "
                    f"{seat.laid + 1} ({phase.min_cards} cards) at most {most} are left "
                    f"{_when(moving)}"
                )


def _when(moving: bool) -> str:
    return "during their turn" if moving else "between turns"


# -- 3. the record replays to this very state ------------------------------------------


def _check_against_replay(game: Game, record: GameRecord) -> None:
    """Replay the record and compare: the one complete test that a legal game reaches the
    state (the engine is deterministic). Names the first field that differs.
    """
    try:
        replayed = record.replay()
    except RecordError as error:
        raise _inconsistent(f"its record does not replay: {error}") from None
    for label, read, show in _compared_fields(game.num_players):
        have, want = read(game), read(replayed)
        if have != want:
            raise _inconsistent(
                f"{label} is {show(have)}, but the record's actions leave it {show(want)}"
            )
    if game.history != replayed.history:
        at = next(
            (
                i
                for i, pair in enumerate(zip(game.history, replayed.history, strict=False))
                if pair[0] != pair[1]
            ),
            min(len(game.history), len(replayed.history)),
        )
        raise _inconsistent(
            f"its history is not the one the record's actions make (from event {at} on)"
        )
    if game.rng.getstate() != replayed.rng.getstate():
        raise _inconsistent(
            "its random generator's state is not the one the record's actions leave "
            "(later reshuffles would differ)"
        )


_Field = tuple[str, Callable[[Game], object], Callable[[Any], str]]


def _compared_fields(players: int) -> Iterable[_Field]:
    """Every field of a game's state (but the history and the random generator, compared
    on their own), with its name and a way to show its value, in the order they are
    compared.
    """
    yield ("the hand number", lambda g: g.hand_number, str)
    yield ("the stage", lambda g: g.stage.value, str)
    yield ("the player to move", lambda g: g.current, _show_seat)
    yield ("the dealer", lambda g: g.dealer, _show_seat)
    yield ("the first player", lambda g: g.first_player, _show_seat)
    yield ("the players in the hand", lambda g: g.players_in_hand, _show_list)
    yield ("the tie-break flag", lambda g: g.tie_break, _show_bool)
    yield ("the players still to declare", lambda g: g.declare_queue, _show_list)
    yield ("the winners", lambda g: g.winners, _show_list)
    yield ("where this hand starts in the history", lambda g: g.hand_start, str)
    for n in range(players):
        for name, read, show in _SEAT_FIELDS:
            yield (f"seat {n}'s {name}", _of_seat(n, read), show)
    yield ("the table", lambda g: tuple(g.melds), _show_melds)
    yield ("the discard pile", lambda g: tuple(g.discard_pile), _show_cards)
    yield ("the draw pile", lambda g: tuple(g.draw_pile), _show_cards)
    yield ("the actions", lambda g: tuple(g.actions), lambda a: f"{len(a)} actions")


def _show_bool(value: bool) -> str:
    return "true" if value else "false"


def _show_seat(value: int) -> str:
    return f"seat {value}"


def _show_list(values: Iterable[int]) -> str:
    return str(list(values))


def _show_phase(index: int | None) -> str:
    return "none" if index is None else f"phase {index + 1}"


def _show_phases(indexes: Iterable[int]) -> str:
    return "[" + ", ".join(str(i + 1) for i in indexes) + "]"


def _show_cards(cards: tuple[Card, ...]) -> str:
    text = format_cards(cards) or "empty"
    return text if len(text) <= 60 else f"{len(cards)} cards ({text[:40]} ...)"


def _show_melds(melds: tuple[Meld, ...]) -> str:
    return "[" + ", ".join(f"seat {m.owner}: {m.group.describe()}" for m in melds) + "]"


def _of_seat(number: int, read: Callable[[Seat], object]) -> Callable[[Game], object]:
    return lambda game: read(game.seats[number])


#: each seat's fields, as :func:`_compared_fields` names, reads and shows them
_SEAT_FIELDS: tuple[tuple[str, Callable[[Seat], object], Callable[[Any], str]], ...] = (
    ("hand", lambda seat: tuple(seat.hand), _show_cards),
    ("score", lambda seat: seat.score, str),
    ("phase", lambda seat: seat.phase, _show_phase),
    ("completed phases", lambda seat: tuple(sorted(seat.completed)), _show_phases),
    ("laid phase", lambda seat: seat.laid, _show_phase),
    ("declared phase", lambda seat: seat.declared, _show_phase),
    ("pending skip", lambda seat: seat.pending_skip, _show_bool),
    ("floating", lambda seat: seat.floating, _show_bool),
    ("save pile", lambda seat: tuple(seat.saved), format_cards),
    ("saved this hand", lambda seat: seat.saved_this_hand, _show_bool),
    ("gave up", lambda seat: seat.gave_up, _show_bool),
    ("refill", lambda seat: seat.refill, _show_bool),
)


# -- seats as JSON -----------------------------------------------------


def _seat_to_dict(seat: Seat) -> dict[str, Any]:
    return {
        "name": seat.name,
        "hand": format_cards(seat.hand),
        "score": seat.score,
        "phase": seat.phase,
        "completed": sorted(seat.completed),
        "laid": seat.laid,
        "declared": seat.declared,
        "pending_skip": seat.pending_skip,
        "floating": seat.floating,
        "saved": format_cards(seat.saved),
        "saved_this_hand": seat.saved_this_hand,
        "gave_up": seat.gave_up,
        "refill": seat.refill,
    }


def _seat_from_dict(data: Mapping[str, Any]) -> Seat:
    data = read_object(data, "a seat")
    return Seat(
        name=read_str(data["name"], "a seat's name"),
        hand=list(read_cards(data["hand"], "a seat's hand")),
        score=read_int(data["score"], "a seat's score"),
        phase=read_int(data["phase"], "a seat's phase"),
        completed=set(read_ints(data["completed"], "a seat's completed phases")),
        laid=read_optional_int(data["laid"], "a seat's laid phase"),
        declared=read_optional_int(data["declared"], "a seat's declared phase"),
        pending_skip=read_bool(data["pending_skip"], "a seat's pending_skip"),
        floating=read_bool(data["floating"], "a seat's floating"),
        # (absent from snapshots written before save piles and Variant #2)
        saved=list(read_cards(data.get("saved", ""), "a seat's save pile")),
        saved_this_hand=read_bool(data.get("saved_this_hand", False), "saved_this_hand"),
        gave_up=read_bool(data.get("gave_up", False), "a seat's gave_up"),
        refill=read_bool(data.get("refill", False), "a seat's refill"),
    )
