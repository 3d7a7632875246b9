"""restore() refuses every state a legal game cannot reach, naming what is wrong.

Each test takes a legal position from seeded random play, edits its snapshot into a state
no legal game reaches and checks the refusal's message. A property test then restores
random positions, and checks that changing any one field of a snapshot's state is either
refused or changes nothing.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10 import (
    PRESETS,
    Arrangement,
    Drew,
    Game,
    RecordError,
    Stage,
    dumps_snapshot,
    loads_snapshot,
    parse_cards,
    preset,
    restore,
    snapshot,
)
from randomplay import choose, play_game, short_rules

State = dict[str, Any]
Edit = Callable[[State], None]


# -- positions ---------------------------------------------------------------------------


@functools.cache
def reach(preset_name: str, players: int, wanted: Callable[[Game], bool]) -> Game:
    """The first position of seeded random play (over seeds 0, 1, ...) where ``wanted``
    holds (cached: treat the game as read-only).
    """
    for seed in range(200):
        game = Game(players, rules=preset(preset_name), seed=seed)
        policy = random.Random(seed)
        while not game.is_over and len(game.actions) < 1500:
            if game.actions and wanted(game):
                return game
            game.apply_unchecked(choose(game, policy))
    raise LookupError(f"no {preset_name} position found")


def waiting_seats(game: Game) -> list[int]:
    return [p for p in game.players_in_hand if p != game.current]


def someone_laid_and_someone_not(game: Game) -> bool:
    laid = [game.seats[p].laid is not None for p in waiting_seats(game)]
    return game.stage is Stage.DRAW and any(laid) and not all(laid) and game.hand_number > 1


def a_phase_completed_and_laid_again(game: Game) -> bool:
    return game.stage is Stage.DRAW and any(
        game.seats[p].completed and game.seats[p].laid is not None for p in waiting_seats(game)
    )


def at_draw(game: Game) -> bool:
    return game.stage is Stage.DRAW


def at_play(game: Game) -> bool:
    return game.stage is Stage.PLAY


def official() -> Game:
    """An official 3-player game at the draw stage, one waiting player laid down, one not."""
    return reach("official", 3, someone_laid_and_someone_not)


def laid_seat(game: Game) -> int:
    return next(p for p in waiting_seats(game) if game.seats[p].laid is not None)


def unlaid_seat(game: Game) -> int:
    return next(p for p in waiting_seats(game) if game.seats[p].laid is None)


def refused(game: Game, edit: Edit, message: str) -> None:
    """``edit`` on the state of ``game``'s snapshot makes restore refuse it with ``message``
    (read from a dict and from JSON text alike).
    """
    data = copy.deepcopy(snapshot(game))
    edit(data["state"])
    with pytest.raises(RecordError, match=f"the snapshot is inconsistent: {message}"):
        restore(data)
    with pytest.raises(RecordError, match=message):
        loads_snapshot(json.dumps(data))


def set_state(key: str, value: object) -> Edit:
    def edit(state: State) -> None:
        state[key] = value

    return edit


def set_seat(seat: int, key: str, value: object) -> Edit:
    def edit(state: State) -> None:
        state["seats"][seat][key] = value

    return edit


def set_meld_owner(group: int, owner: int) -> Edit:
    def edit(state: State) -> None:
        state["melds"][group]["owner"] = owner

    return edit


def move_from_draw_pile(seat: int, count: int) -> Edit:
    """Move ``count`` cards from the top of the draw pile to ``seat``'s hand."""

    def edit(state: State) -> None:
        pile = state["draw_pile"].split()
        state["seats"][seat]["hand"] = " ".join(
            [*state["seats"][seat]["hand"].split(), *pile[-count:]]
        )
        state["draw_pile"] = " ".join(pile[:-count])

    return edit


# -- the cases the rules name ------------------------------------------------------------


@pytest.mark.parametrize("check", [at_draw, at_play], ids=["draw", "play"])
def test_the_player_to_move_has_no_pending_skip(check: Callable[[Game], bool]) -> None:
    game = reach("official", 3, check)
    stage = game.stage.value
    refused(
        game,
        set_seat(game.current, "pending_skip", True),
        f"seat {game.current} is to {stage} but still has a pending skip",
    )


def test_nobody_floats_under_going_out_any() -> None:
    game = official()
    refused(
        game,
        set_seat(laid_seat(game), "floating", True),
        f"seat {laid_seat(game)} is floating, but only going_out=discard has floating players",
    )


@pytest.mark.parametrize("name", ["official", "arkansas"])
def test_a_phase_is_declared_only_under_declare_deal(name: str) -> None:
    game = reach(name, 3, at_draw)
    refused(
        game,
        set_seat(0, "declared", 2),
        "seat 0 declared phase 3, but only phase_order=any with declare=deal declares phases",
    )


def test_the_declare_stage_needs_declare_deal() -> None:
    refused(
        official(),
        set_state("stage", "declare"),
        "the stage is declare, but only phase_order=any with declare=deal declares phases",
    )


@pytest.mark.parametrize("stage", ["give_wild", "wild_discard"])
def test_a_wild_is_given_only_under_dealer_chooses(stage: str) -> None:
    refused(
        official(),
        set_state("stage", stage),
        f"the stage is {stage}, but only wild_deal_up=dealer_chooses gives away a turned-up Wild",
    )


def test_in_order_the_phase_worked_on_is_the_lowest_not_completed() -> None:
    game = reach("official", 3, lambda g: g.stage is Stage.DRAW and g.hand_number == 1)
    assert not game.seats[0].completed
    refused(
        game,
        set_seat(0, "phase", 2),
        "seat 0 is on phase 3, but the lowest phase it has not completed is phase 1",
    )


def test_a_table_group_belongs_to_a_player_who_laid_down() -> None:
    game = official()
    seat = unlaid_seat(game)
    refused(
        game,
        set_meld_owner(0, seat),
        f"table group g0 belongs to seat {seat}, who has laid no phase this hand",
    )


def test_the_phase_laid_was_not_completed_before() -> None:
    game = reach("official", 3, a_phase_completed_and_laid_again)
    seat = next(
        p for p in waiting_seats(game) if game.seats[p].completed and game.seats[p].laid is not None
    )
    refused(
        game,
        set_seat(seat, "laid", 0),
        f"seat {seat} laid phase 1 this hand, but had already completed it",
    )


def test_a_waiting_player_holds_ten_cards_until_laying_down() -> None:
    game = official()
    seat = unlaid_seat(game)
    refused(
        game,
        move_from_draw_pile(seat, 3),
        f"seat {seat} holds 13 cards, but a player who has not laid down holds 10 between turns",
    )


def test_the_player_to_move_holds_eleven_cards_before_laying_down() -> None:
    game = reach("official", 3, lambda g: at_play(g) and g.seats[g.current].laid is None)
    refused(
        game,
        move_from_draw_pile(game.current, 1),
        f"seat {game.current} holds 12 cards, but a player who has not laid down holds 11 "
        "during their turn",
    )


def test_an_arranged_deal_may_hold_any_number_of_cards_but_only_its_own() -> None:
    arrangement = Arrangement(
        hands=(parse_cards("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 B1"), parse_cards("G5 G6")),
        discard=parse_cards("Y3"),
    )
    game = Game(2, seed=4, dealer=1, arrangement=arrangement)
    game.apply("draw")
    assert len(game.hand(0)) == 14
    assert snapshot(restore(snapshot(game))) == snapshot(game)
    refused(game, move_from_draw_pile(1, 3), r"seat 1's hand is .*, but the record's actions")


# -- other rules of play -----------------------------------------------------------------


def masters_draw() -> Game:
    return reach("masters", 3, at_draw)


def masters_declare() -> Game:
    return reach(
        "masters", 4, lambda g: g.stage is Stage.DECLARE and len(g._hand.declare_queue) == 2
    )


def floating_draw() -> Game:
    return reach("floating", 3, lambda g: at_draw(g) and any(s.floating for s in g.seats))


def give_wild() -> Game:
    return reach("wild-deal-up", 3, lambda g: g.stage is Stage.GIVE_WILD)


def no_reshuffle_play() -> Game:
    return reach("no-reshuffle", 2, lambda g: at_play(g) and not g.draw_pile)


def floater(game: Game) -> int:
    return next(p for p, seat in enumerate(game.seats) if seat.floating)


def declared_out_of_order(state: State) -> None:
    state["declare_queue"] = list(reversed(state["declare_queue"]))
    state["current"] = state["declare_queue"][0]


def drop_last_meld(state: State) -> None:
    meld = state["melds"].pop()
    seat = state["seats"][meld["owner"]]
    seat["hand"] = " ".join([*seat["hand"].split(), *meld["group"]["cards"].split()])


def empty_hand(seat: int) -> Edit:
    """Put ``seat``'s cards under the draw pile."""

    def edit(state: State) -> None:
        state["draw_pile"] = state["seats"][seat]["hand"] + " " + state["draw_pile"]
        state["seats"][seat]["hand"] = ""

    return edit


def left_out_seat(game: Game) -> int:
    """A waiting seat with no part in the hand's set-up, that has not laid down."""
    return next(
        p
        for p in waiting_seats(game)
        if game.seats[p].laid is None and p not in (game.dealer, game.first_player)
    )


def left_out_position() -> Game:
    def wanted(game: Game) -> bool:
        try:
            left_out_seat(game)
        except StopIteration:
            return False
        return at_draw(game)

    return reach("official", 4, wanted)


def leave_out(seat: int) -> Edit:
    """Take ``seat`` out of the hand, its cards put under the draw pile."""

    def edit(state: State) -> None:
        state["players_in_hand"].remove(seat)
        empty_hand(seat)(state)

    return edit


OTHER_RULES: list[tuple[str, Callable[[], Game], Callable[[Game], Edit], str]] = [
    (
        "dealer",
        official,
        lambda g: set_state("dealer", (g.dealer + 1) % 3),
        r"hand \d+ is dealt by seat \d \(the deal passes to the left each hand\), not seat \d",
    ),
    (
        "first player",
        official,
        lambda g: set_state("first_player", g.dealer),
        r"the first player is seat \d, but the player after the dealer \(seat \d\) is seat \d",
    ),
    (
        "players left out",
        left_out_position,
        lambda g: leave_out(left_out_seat(g)),
        r"the players in the hand \[.*\] leave some out, but only a tie-break hand does",
    ),
    (
        "a tie-break without every phase done",
        official,
        lambda g: set_state("tie_break", True),
        r"seat \d plays the tie-break hand without every phase done",
    ),
    (
        "completed out of order",
        lambda: reach("official", 3, lambda g: at_draw(g) and g.seats[0].completed == {0}),
        lambda g: set_seat(0, "completed", [0, 2]),
        "seat 0 completed phases 1, 3: under phase_order=sequence they are completed in order",
    ),
    (
        "laid not the phase worked on",
        lambda: reach("official", 3, lambda g: at_draw(g) and g.seats[0].laid == 0),
        lambda g: set_seat(0, "laid", 4),
        "seat 0 laid phase 5, but is on phase 1",
    ),
    (
        "groups of the phase laid",
        official,
        lambda g: drop_last_meld,
        r"seat \d laid phase \d+ \(\d groups\), but owns \d on the table",
    ),
    (
        "declared phase missing",
        masters_draw,
        lambda g: set_seat(g.current, "declared", None),
        r"seat \d plays the hand but declared no phase for it",
    ),
    (
        "declared phase completed",
        lambda: reach("masters", 3, lambda g: at_draw(g) and g.seats[g.current].completed),
        lambda g: set_seat(g.current, "declared", min(g.seats[g.current].completed)),
        r"seat \d declared phase \d+, which it has already completed",
    ),
    (
        "declaring out of turn order",
        masters_declare,
        lambda g: declared_out_of_order,
        r"the players still to declare \[\d, \d\] are not the last of the turn order",
    ),
    (
        "declared while still to declare",
        masters_declare,
        lambda g: set_seat(g.current, "declared", 9),
        r"seat \d is still to declare but declared a phase",
    ),
    (
        "floating and holding cards",
        floating_draw,
        lambda g: move_from_draw_pile(floater(g), 1),
        r"seat \d is floating and holds 1 cards, but a floating player holds 0 between turns",
    ),
    (
        "an empty hand while the hand goes on",
        official,
        lambda g: empty_hand(0),
        r"seat 0 holds no cards, but the hand goes on",
    ),
    (
        "the Wild given by another player",
        give_wild,
        lambda g: set_state("current", (g.dealer + 1) % 3),
        "the turned-up Wild is given by the dealer, not by the player to move",
    ),
    (
        "a pending skip before the first turn",
        give_wild,
        lambda g: set_seat(g.dealer, "pending_skip", True),
        r"seat \d has a pending skip, but the turned-up card was a Wild",
    ),
    (
        "drawing from an empty pile under end_hand",
        no_reshuffle_play,
        lambda g: set_state("stage", "draw"),
        r"seat \d is to draw from an empty draw pile, but under empty_draw_pile=end_hand",
    ),
]


@pytest.mark.parametrize(
    ("position", "edit", "message"),
    [case[1:] for case in OTHER_RULES],
    ids=[case[0] for case in OTHER_RULES],
)
def test_other_rules_of_play_are_checked(
    position: Callable[[], Game], edit: Callable[[Game], Edit], message: str
) -> None:
    game = position()
    refused(game, edit(game), message)


def test_a_score_is_a_sum_of_card_points() -> None:
    data = copy.deepcopy(snapshot(official()))
    data["state"]["seats"][0]["score"] += 3
    data["record"]["result"]["totals"][0] += 3
    with pytest.raises(RecordError, match=r"seat 0's score \d+ is not 0 plus card points"):
        restore(data)


# -- the replay: the complete test -------------------------------------------------------


def test_the_first_field_the_replay_disagrees_on_is_named() -> None:
    game = official()
    seat = unlaid_seat(game)
    refused(
        game,
        set_seat(seat, "pending_skip", True),
        f"seat {seat}'s pending skip is true, but the record's actions leave it false",
    )


def test_a_card_swapped_between_hands_is_refused() -> None:
    game = official()
    one, two = waiting_seats(game)

    def swap(state: State) -> None:
        first, second = state["seats"][one]["hand"].split(), state["seats"][two]["hand"].split()
        first[0], second[0] = second[0], first[0]
        state["seats"][one]["hand"], state["seats"][two]["hand"] = " ".join(first), " ".join(second)

    refused(game, swap, rf"seat {one}'s hand is .*, but the record's actions leave it")


def test_a_changed_random_state_is_refused() -> None:
    def change(state: State) -> None:
        state["rng"][1][5] ^= 1

    refused(official(), change, "its random generator's state is not the one")


def test_a_changed_history_is_refused() -> None:
    game = official()
    index = next(i for i, event in enumerate(game.history) if isinstance(event, Drew))

    def change(state: State) -> None:
        state["history"][index]["card"] = "W" if state["history"][index]["card"] != "W" else "S"

    refused(
        game, change, f"its history is not the one the record's actions make .from event {index}"
    )


def test_a_result_changed_in_record_and_state_alike_is_refused() -> None:
    game = play_game(Game(3, rules=preset("short-5"), seed=2), random.Random(2))
    data = copy.deepcopy(snapshot(game))
    loser = next(p for p in range(3) if p not in game.winners)
    data["state"]["winners"] = [loser]
    data["record"]["result"]["winners"] = [loser]
    with pytest.raises(
        RecordError, match=f"its record does not replay: the record says .{loser}. won"
    ):
        restore(data)


def test_arranged_games_with_a_dealer_round_trip() -> None:
    arrangement = Arrangement(
        hands=(
            parse_cards("R7 B7 G7 R3 B3 W Y9 Y10 G12 S"),
            parse_cards("R1 R2 R4 B5 B6 G8 G9 Y11 Y12 W"),
            parse_cards("G1 G2 G3 G4 Y5 Y6 Y7 R8 R9 R10"),
        ),
        discard=parse_cards("B12 Y3"),
        draw=parse_cards("G3 W S"),
        phases=(1, 2, 4),
        scores=(0, 35, 110),
    )
    game = Game(3, seed=5, dealer=2, arrangement=arrangement)
    policy = random.Random(5)
    while not game.is_over and len(game.actions) < 400:
        if len(game.actions) % 25 == 0:
            assert snapshot(restore(snapshot(game))) == snapshot(game)
        game.apply_unchecked(choose(game, policy))
    assert dumps_snapshot(loads_snapshot(dumps_snapshot(game))) == dumps_snapshot(game)
    refused(game, set_seat(2, "score", game.seats[2].score + 5), "its record's totals")


# -- property: random positions round-trip; one changed field is refused or changes nothing


CARD_TEXTS = ("R7", "B12", "G1", "Y5", "W", "S")


def mutate_value(value: Any, draw: Callable[[st.SearchStrategy[Any]], Any]) -> Any:
    """Some other value of about the same shape (or of another type)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + draw(st.sampled_from((-2, -1, 1, 2, 7)))
    if isinstance(value, float) or value is None:
        return draw(st.sampled_from((None, 0, 0.5, True, "")))
    if isinstance(value, str):
        cards = value.split()
        if not cards:
            return draw(st.sampled_from(CARD_TEXTS))
        i = draw(st.integers(0, len(cards) - 1))
        how = draw(st.sampled_from(("replace", "drop", "add", "swap", "text")))
        if how == "replace":
            cards[i] = draw(st.sampled_from(CARD_TEXTS))
        elif how == "drop":
            del cards[i]
        elif how == "add":
            cards.insert(i, draw(st.sampled_from(CARD_TEXTS)))
        elif how == "swap":
            j = draw(st.integers(0, len(cards) - 1))
            cards[i], cards[j] = cards[j], cards[i]
        else:
            return draw(st.sampled_from(("draw", "play", "x", "")))
        return " ".join(cards)
    if isinstance(value, list):
        if not value:
            return [draw(st.integers(0, 3))]
        i = draw(st.integers(0, len(value) - 1))
        how = draw(st.sampled_from(("drop", "repeat", "reverse")))
        if how == "drop":
            return value[:i] + value[i + 1 :]
        if how == "repeat":
            return [*value[: i + 1], value[i], *value[i + 1 :]]
        return list(reversed(value))
    return None  # a dict: replaced outright


def mutate(state: State, draw: Callable[[st.SearchStrategy[Any]], Any]) -> str:
    """Change one field somewhere in ``state`` (a key, then keys or indexes down to a leaf,
    stopping at a list or dict now and then to change it whole). Returns the path.
    """
    container: Any = state
    key: Any = draw(st.sampled_from(sorted(state)))
    path = [str(key)]
    while isinstance(container[key], (dict, list)) and container[key] and draw(st.integers(0, 4)):
        container = container[key]
        key = (
            draw(st.sampled_from(sorted(container)))
            if isinstance(container, dict)
            else draw(st.integers(0, len(container) - 1))
        )
        path.append(str(key))
    container[key] = mutate_value(container[key], draw)
    return ".".join(path)


PRESET_NAMES = sorted(PRESETS)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    name=st.sampled_from(PRESET_NAMES),
    seed=st.integers(0, 2**20),
    players=st.integers(2, 6),
    steps=st.integers(0, 250),
    data=st.data(),
)
def test_random_positions_round_trip_and_one_changed_field_never_passes(
    name: str, seed: int, players: int, steps: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    rules = short_rules(PRESETS[name], rng) if seed % 2 else PRESETS[name]
    game = play_game(Game(players, rules=rules, seed=seed), rng, stop_after=steps)
    original = snapshot(game)
    assert snapshot(restore(original)) == original
    for _ in range(3):
        changed = copy.deepcopy(original)
        path = mutate(changed["state"], data.draw)
        try:
            restored = restore(changed)
        except RecordError:
            continue
        assert snapshot(restored) == original, f"a changed {path} was accepted"
