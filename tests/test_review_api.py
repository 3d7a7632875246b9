"""The public API under bad input: hidden information, record and snapshot fidelity, and
refusals that are specific ``ValueError`` subclasses and leave the game unchanged.

Tests are named after the rule-book section they defend (``test_s7_...``) or, where no
section applies, ``test_api_...``.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from helpers import arranged, assert_refused, meld_with, play
from phase10 import (
    SKIP,
    WILD,
    Action,
    Arrangement,
    Card,
    CardError,
    Declare,
    Discard,
    Draw,
    Game,
    GiveWild,
    Hit,
    InvalidActionError,
    LayDown,
    Phase,
    PhaseParseError,
    RecordError,
    Rules,
    RulesError,
    Stage,
    TakeDiscard,
    action_from_dict,
    dumps,
    dumps_snapshot,
    event_from_dict,
    loads,
    loads_snapshot,
    parse_action,
    parse_cards,
    parse_phase_list,
    preset,
    restore,
    snapshot,
)
from randomplay import choose, play_game

C = Card.parse


def played(seed: int = 4, steps: int = 40) -> Game:
    """Three players after ``steps`` actions of seeded random play: cards on the table."""
    return play_game(Game(3, seed=seed), random.Random(seed), stop_after=steps)


def edited_snapshot(game: Game, edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(snapshot(game))
    edit(data)
    return data


def set_state(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["state"][key] = value

    return edit


def set_seat(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["state"]["seats"][0][key] = value

    return edit


# -- docs/rules.md §7: a view is the only door -------------------------------------------


@pytest.mark.parametrize("viewer", [1.5, "0", True, -1, 3])
def test_s7_view_of_something_that_is_not_a_seat_is_refused(viewer: Any) -> None:
    game = Game(3, seed=1)
    with pytest.raises(ValueError, match="there is no player") as raised:
        game.view(viewer)
    assert repr(viewer) in str(raised.value)


def test_s7_views_methods_and_pickles_reveal_nothing_hidden() -> None:
    """Two positions that differ only in what p0 may not know (p1's hand, the card p1
    drew, the draw pile) give p0 and a spectator the same answers to every question a view
    can be asked, and the same bytes when pickled.
    """

    def game(p1: str, draws: str, seed: int) -> Game:
        g = arranged(["R1 R2 R3 W S", p1], "R12", draws, seed=seed)
        play(g, "draw; discard R1; draw; discard B1")
        return g

    one = game("B1 Y7 Y8 G5", "G5 G6 G7 G8", seed=1)
    two = game("B1 G11 W S", "G5 S Y10 B11", seed=2)
    assert one.hand(1) != two.hand(1) and one.draw_pile != two.draw_pile
    probes: list[Action] = [Draw(), TakeDiscard(), Discard(SKIP, 1), Discard(C("G5"))]
    for viewer in (0, None):
        a, b = one.view(viewer), two.view(viewer)
        assert pickle.dumps(a) == pickle.dumps(b)
        assert repr(a) == repr(b)
        for view in (a, b):
            view_copy = pickle.loads(pickle.dumps(view))
            assert view_copy == view
        assert [a.is_legal(action) for action in probes] == [
            b.is_legal(action) for action in probes
        ]
        assert list(a.legal_actions) == list(b.legal_actions)
        assert (a.allowed_phases(0), a.skip_targets(0), a.can_draw(), a.can_take()) == (
            b.allowed_phases(0),
            b.skip_targets(0),
            b.can_draw(),
            b.can_take(),
        )
        every_card = parse_cards("W S") + tuple(Card.from_index(i) for i in range(48))
        assert [a.fits_anywhere(card) for card in every_card] == [
            b.fits_anywhere(card) for card in every_card
        ]
    assert list(one.view(0).legal_actions) == [Draw(), TakeDiscard()]


# -- rules §3: setting up a game ---------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "phrase"),
    [
        ("Ann", {}, "a count or a list of names"),  # was read as three players A, n, n
        (2.0, {}, "a count or a list of names"),
        (None, {}, "a count or a list of names"),
        (2, {"seed": 1.5}, "the seed must be a whole number"),  # its record replayed seed 1
        (2, {"seed": "x"}, "the seed must be a whole number"),
        (2, {"dealer": 1.5}, "the dealer must be a seat"),
        (2, {"dealer": "1"}, "the dealer must be a seat"),
        (2, {"dealer": True}, "the dealer must be a seat"),
        (2, {"rules": "masters"}, "rules must be a Rules object"),
        (2, {"arrangement": "R7 B7"}, "arrangement must be an Arrangement"),
    ],
)
def test_s3_game_refuses_players_seed_dealer_and_rules_of_the_wrong_kind(
    players: Any, options: dict[str, Any], phrase: str
) -> None:
    with pytest.raises(ValueError, match=phrase):
        Game(players, **options)


@pytest.mark.parametrize(
    ("change", "phrase"),
    [
        ({"hands": ("R1 R2", "B1 B2")}, "must be tuples of cards"),  # was a KeyError
        ({"hands": (("R1", "R2"), parse_cards("B1"))}, "must be tuples of cards"),
        ({"discard": "R12"}, "must be tuples of cards"),
        ({"hands": None}, "must be tuples of cards"),
        ({"phases": (1.5, 1)}, "phases must be whole numbers"),  # was a seat on phase 0.5
        ({"scores": ("a", 0)}, "scores must be whole numbers"),
        ({"hands": (parse_cards("R7 R7"), parse_cards("R7"))}, "more cards than the deck"),
    ],
)
def test_s3_arrangement_of_the_wrong_kind_is_refused(change: dict[str, Any], phrase: str) -> None:
    base: dict[str, Any] = {
        "hands": (parse_cards("R1 R2"), parse_cards("B1 B2")),
        "discard": parse_cards("R12"),
    }
    with pytest.raises(ValueError, match=phrase):
        Game(2, seed=1, arrangement=Arrangement(**(base | change)))


# -- actions of the wrong kind: refused, and the game unchanged --------------------------


def wild_deal_up() -> Game:
    return arranged(
        ["R1 R2 R3", "B1 B2 B3", "G1 G2 G3"], "W", "Y5 Y6", rules=preset("wild-deal-up")
    )


def declaring() -> Game:
    return arranged(["R1 R2 R3", "B1 B2 B3", "G1 G2 G3"], "R9", "Y5 Y6", rules=preset("masters"))


def discarding_a_skip() -> Game:
    game = arranged(["R1 R2 S", "B1 B2 B3", "G1 G2 G3"], "R9", "Y5 Y6")
    game.apply("draw")
    return game


def hitting() -> Game:
    game = arranged(["R7 B7 G7 R3 B4 Y5 G6 W W R1", "B1 B2", "G1 G2"], "R9", "Y5", phases=(2, 1, 1))
    play(game, "draw; lay R7 B7 G7 + R3 B4 Y5 G6")
    return game


@pytest.mark.parametrize(
    ("position", "action", "phrase"),
    [
        # GiveWild(1.0) passed the checks, then lost the Wild: 107 cards were left.
        (wild_deal_up, GiveWild(1.0), "GiveWild.player must be a whole number, not 1.0"),
        (wild_deal_up, GiveWild(True), "GiveWild.player must be a whole number, not True"),
        (wild_deal_up, GiveWild("1"), "GiveWild.player must be a whole number"),
        # Declare(2.0) was applied and its record ("declare 2.0") no longer replayed.
        (declaring, Declare(2.0), "Declare.phase must be a whole number, not 2.0"),
        (declaring, Declare(True), "Declare.phase must be a whole number"),
        (declaring, Declare("3"), "Declare.phase must be a whole number"),
        # Discard(S, 1.0) discarded the Skip, then crashed: a half-applied action.
        (discarding_a_skip, Discard(SKIP, 1.0), "Discard.target must be a whole number"),
        (discarding_a_skip, Discard(SKIP, True), "Discard.target must be a whole number"),
        (discarding_a_skip, Discard("S"), "Discard.card must be a card"),
        # Hit(W, 1, 7.0) was applied as "hit W=7.0 g1", which no record can read back.
        (hitting, Hit(WILD, 1, 7.0), "Hit.number must be a whole number, not 7.0"),
        (hitting, Hit(WILD, True, 2), "Hit.group must be a whole number, not True"),
        (hitting, Hit(WILD, 1.0, 2), "Hit.group must be a whole number"),
        (hitting, Hit("W", 1, 2), "Hit.card must be a card"),
        (discarding_a_skip, LayDown(None), "LayDown.groups must be a tuple of groups"),
        (discarding_a_skip, LayDown((), 1.0), "LayDown.phase must be a whole number"),
    ],
)
def test_api_actions_with_values_of_the_wrong_type_are_invalid_and_change_nothing(
    position: Callable[[], Game], action: Action, phrase: str
) -> None:
    game = position()
    assert_refused(game, action, InvalidActionError, phrase)
    assert len(game.all_cards()) == game.rules.deck_size
    assert game.view(game.current).is_legal(action) is False


def test_api_actions_of_the_right_type_still_apply_after_the_refusals() -> None:
    game = wild_deal_up()
    game.apply(GiveWild(1))
    assert game.stage is Stage.WILD_DISCARD
    game = hitting()
    assert [type(event).__name__ for event in game.apply(Hit(WILD, 1, 7))] == ["CardHit"]
    assert loads(dumps(game)).replay().actions == game.actions


def test_api_a_discard_naming_a_target_must_be_a_skip_card() -> None:
    with pytest.raises(
        InvalidActionError, match="only a Skip or the Anti-phase card names a player; 5 does not"
    ):
        Discard(5, 1)


@pytest.mark.parametrize("text", [None, 7, b"draw"])
def test_api_action_text_that_is_not_a_string_is_invalid(text: Any) -> None:
    with pytest.raises(InvalidActionError, match="must be a string"):
        parse_action(text)
    game = Game(2, seed=1)
    with pytest.raises(InvalidActionError, match="must be a string"):
        game.parse_action(text)
    assert_refused(game, text, InvalidActionError, "not an action")


def test_api_digits_that_are_not_decimal_are_invalid_not_a_crash() -> None:
    """``"²".isdigit()`` is true but ``int("²")`` fails: it raised a bare ValueError."""
    with pytest.raises(InvalidActionError, match="write 'declare N'"):
        parse_action("declare ²")
    game = declaring()
    assert_refused(game, "declare ²", InvalidActionError, "write 'declare N'")
    game = Game(2, rules=preset("arkansas"), seed=1)
    game.apply("draw")
    with pytest.raises(InvalidActionError, match="say which phase"):
        game.parse_action("lay ²: R1 R1 R1 + R2 R2 R2")


# -- cards, phases and rules -------------------------------------------------------------


@pytest.mark.parametrize(
    ("read", "phrase"),
    [
        (lambda: Card.parse(7), "a card is written as text"),
        (lambda: Card.parse(None), "a card is written as text"),
        (lambda: parse_cards(None), "cards are written as text"),
        (lambda: parse_cards(7), "cards are written as text"),
        (lambda: parse_cards([7]), "a card is written as text"),
        (lambda: Card.from_index(-1), "card indices run from 0 to 49, not -1"),  # was the Skip
        (lambda: Card.from_index(50), "card indices run from 0 to 49, not 50"),
    ],
)
def test_s1_cards_of_the_wrong_kind_are_refused_with_card_error(
    read: Callable[[], object], phrase: str
) -> None:
    with pytest.raises(CardError, match=phrase):
        read()


@pytest.mark.parametrize(
    ("read", "phrase"),
    [
        (lambda: Phase.parse(None), "a phase is written as a phrase"),
        (lambda: Phase.parse(7), "a phase is written as a phrase"),
        (lambda: Phase.parse("1 set of ²"), "stopped at word 4"),
        (lambda: Phase.parse("² sets of 3"), "stopped at word 1"),
        (lambda: parse_phase_list(None), "a phase list is a list of phrases"),
        (lambda: parse_phase_list("2 sets of 3"), "a phase list is a list of phrases"),
    ],
)
def test_s2_phases_of_the_wrong_kind_are_refused_with_phase_parse_error(
    read: Callable[[], object], phrase: str
) -> None:
    with pytest.raises(PhaseParseError, match=phrase):
        read()


@pytest.mark.parametrize(
    ("read", "phrase"),
    [
        (lambda: Rules(phases=5), "phases must be a tuple of phase numbers"),
        (lambda: Rules(phases=None), "phases must be a tuple of phase numbers"),
        (lambda: Rules(phases=(True,)), "phases picks phases by number"),
        (lambda: Rules.from_dict(None), "rules are read from a dict"),
        (lambda: Rules.from_dict({"phases": None}), "phases must be a tuple"),
        (lambda: Rules.from_dict({"phases": 2.5}), "phases must be a tuple"),
        (lambda: Rules.from_dict({"phase_list": None}), "a phase list is a list of phrases"),
        (lambda: Rules.from_dict({"phase_list": [1]}), "a phase is written as a phrase"),
        (lambda: Rules().with_options(jokers=2), "unknown rules option 'jokers'"),
    ],
)
def test_s8_rules_of_the_wrong_kind_are_refused_with_rules_error(
    read: Callable[[], object], phrase: str
) -> None:
    with pytest.raises(RulesError, match=phrase):
        read()


# -- records -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "phrase"),
    [
        ({"players": "ABC"}, "players must be a list"),  # was read as players A, B and C
        ({"players": [1, 2, 3]}, "a player's name must be text"),
        ({"seed": "4"}, "seed must be a whole number"),
        ({"seed": 4.9}, "seed must be a whole number"),  # was replayed as seed 4
        ({"seed": True}, "seed must be a whole number"),
        ({"dealer": 1.5}, "dealer must be a whole number"),
        ({"actions": "draw"}, "actions must be a list"),  # was read as the actions d, r, a, w
        ({"actions": [None]}, "an action must be text"),
        ({"result": [1]}, "result must be a JSON object"),  # was an AttributeError
        ({"result": {"winners": "01", "totals": [0]}}, "winners must be a list"),
        ({"rules": "official"}, "rules must be a JSON object"),
        ({"rules": {"phase_list": [1]}}, "a phase is written as a phrase"),  # AttributeError
        ({"arrangement": {"hands": "R7 B7", "discard": "R1"}}, "hands must be a list"),
        (
            {"arrangement": {"hands": ["R1", "R2", "R3"], "discard": "R9", "phases": [1.5, 1, 1]}},
            "whole number",
        ),
    ],
)
def test_api_record_fields_of_the_wrong_type_are_refused(
    change: dict[str, Any], phrase: str
) -> None:
    data = json.loads(dumps(played())) | change
    with pytest.raises(RecordError, match=phrase):
        loads(json.dumps(data)).replay()


@pytest.mark.parametrize(
    ("change", "phrase"),
    [
        ({"dealer": 9}, "the dealer must be a seat"),
        ({"players": ["A"]}, "2 to 6 players, not 1"),
        ({"arrangement": {"hands": ["R7 R7", "R7", "R9"], "discard": "R1"}}, "holds only 2 R7"),
        ({"arrangement": {"hands": ["R7", "R8"], "discard": "R1"}}, "one hand per player"),
        ({"arrangement": {"hands": ["R7", "R8", "R9"], "discard": ""}}, "on the discard pile"),
    ],
)
def test_api_a_record_header_that_makes_no_game_raises_record_error(
    change: dict[str, Any], phrase: str
) -> None:
    """These raised a bare ValueError from ``Game`` on replay (and from ``restore``)."""
    game = played()
    record = loads(json.dumps(json.loads(dumps(game)) | change))
    with pytest.raises(RecordError, match=f"the record's header does not make a game: .*{phrase}"):
        record.replay()
    data = edited_snapshot(game, lambda d: d["record"].update(change))
    with pytest.raises(RecordError, match=phrase):
        restore(data)


@pytest.mark.parametrize("text", [None, 7])
def test_api_loads_refuses_what_is_not_text(text: Any) -> None:
    with pytest.raises(RecordError, match="a record is JSON text"):
        loads(text)
    with pytest.raises(RecordError, match="a record is JSON text"):
        loads_snapshot(text)


# -- snapshots: every malformed or inconsistent one is refused ---------------------------


@pytest.mark.parametrize(
    ("data", "phrase"),
    [
        (None, "a phase10-snapshot is a JSON object"),
        ([], "a phase10-snapshot is a JSON object"),
        ({"format": "phase10-snapshot", "version": 1}, "it has no 'record'"),  # was a KeyError
    ],
)
def test_api_restore_refuses_what_is_not_a_snapshot(data: Any, phrase: str) -> None:
    with pytest.raises(RecordError, match=phrase):
        restore(data)


@pytest.mark.parametrize(
    ("edit", "phrase"),
    [
        (lambda d: d.update(record=None), "a phase10-record is a JSON object"),
        (lambda d: d.update(state=[]), "state must be a JSON object"),
        (set_state("history", ["x"]), "an event must be a JSON object"),  # AttributeError
        (set_state("actions", ["draw"]), "an action must be a JSON object"),  # AttributeError
        (
            set_state("history", [{"type": "Drew", "player": "x", "card": "R7"}]),
            "Drew.player must be a whole number",  # was kept as a corrupt event
        ),
        (set_state("history", [{"type": "Drew"}]), "Drew.player is missing"),
        (
            set_state("actions", [{"type": "Hit", "card": "R7", "group": "x"}]),
            "Hit.group must be a whole number",
        ),
        (set_state("actions", [{"type": "LayDown", "groups": None}]), "LayDown.groups is missing"),
        (set_state("current", 1.5), "current must be a whole number"),  # was read as 1
        (set_state("current", "1"), "current must be a whole number"),
        (set_state("tie_break", "false"), "tie_break must be true or false"),  # was True
        (set_state("draw_pile", ["R7"]), "draw_pile must be text"),
        (set_state("rng", [3, [1, 2], "x"]), "the random state's last value must be a number"),
        (set_seat("pending_skip", "false"), "pending_skip must be true or false"),
        (set_seat("score", "5"), "a seat's score must be a whole number"),
        (set_seat("hand", ["R7"]), "a seat's hand must be text"),
    ],
)
def test_api_restore_refuses_values_of_the_wrong_type(
    edit: Callable[[dict[str, Any]], None], phrase: str
) -> None:
    data = edited_snapshot(played(), edit)
    with pytest.raises(RecordError, match=phrase):
        restore(data)
    with pytest.raises(RecordError, match=phrase):
        loads_snapshot(json.dumps(data))


def add_card_to_hand(card: str) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["state"]["seats"][0]["hand"] += f" {card}"

    return edit


def drop_top_of_draw_pile(data: dict[str, Any]) -> None:
    data["state"]["draw_pile"] = " ".join(data["state"]["draw_pile"].split()[:-1])


def move_table_group_to_hand(data: dict[str, Any]) -> None:
    meld = data["state"]["melds"].pop()
    data["state"]["seats"][0]["hand"] += " " + meld["group"]["cards"]
    data["state"]["seats"][0]["hand"] += " " + meld["group"]["cards"]


@pytest.mark.parametrize(
    ("edit", "phrase"),
    [
        (add_card_to_hand("Y7"), r"it holds 109, with 3 Y7 \(the deck has 2\)"),
        (add_card_to_hand("W W W W W W W W W"), r"it holds 117, with 17 W \(the deck has 8\)"),
        (drop_top_of_draw_pile, "it holds 107"),
        (move_table_group_to_hand, "not the deck's 108"),
    ],
)
def test_api_restore_refuses_a_snapshot_that_is_not_the_108_cards(
    edit: Callable[[dict[str, Any]], None], phrase: str
) -> None:
    """rules §1: the engine conserves the 108 physical cards; a snapshot that does not
    (a card copied into a hand, one lost from the draw pile) was restored silently.
    """
    game = played()
    assert game.melds
    with pytest.raises(RecordError, match=f"the snapshot is inconsistent: .*{phrase}"):
        restore(edited_snapshot(game, edit))


def mismatched_actions(data: dict[str, Any]) -> None:
    data["state"]["actions"][-1] = {"type": "Draw"}


def meld_owner(owner: int) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["state"]["melds"][0]["owner"] = owner

    return edit


def wrong_totals(data: dict[str, Any]) -> None:
    data["state"]["seats"][1]["score"] += 5


@pytest.mark.parametrize(
    ("edit", "phrase"),
    [
        (set_state("current", 99), r"the player to move \(99\) is not in the hand"),
        (set_state("current", -1), r"the player to move \(-1\) is not in the hand"),
        (set_state("dealer", 7), r"the dealer \(7\) is not in the hand"),
        (set_state("first_player", 9), r"the first player \(9\) is not in the hand"),
        (set_state("declare_queue", [9]), r"still to declare \(9\) is not in the hand"),
        (set_state("players_in_hand", [0, 9]), "are not distinct seats in order"),
        (set_state("players_in_hand", []), "are not distinct seats in order"),
        (set_state("winners", [9]), "the winners .9. are not distinct seats"),
        (set_state("winners", [0]), "a finished game has winners and a game in progress has none"),
        (set_state("stage", "game_over"), "a finished game has winners"),
        (set_state("hand_start", 9999), "its history does not start hand"),
        (set_state("hand_number", 5), "its history does not start hand 5"),
        (set_state("seats", []), "are not the record's players"),
        (set_seat("phase", 42), "seat 0 names a phase outside 1 to 10"),
        (set_seat("phase", -1), "seat 0 names a phase outside 1 to 10"),
        (set_seat("completed", [42]), "seat 0 names a phase outside 1 to 10"),
        (set_seat("laid", 10), "seat 0 names a phase outside 1 to 10"),
        (meld_owner(9), r"the owner of a table group \(9\) is not in the hand"),
        (mismatched_actions, "its actions are not its record's"),
        (wrong_totals, "its record's totals .* are not the scores"),
    ],
)
def test_api_restore_refuses_a_snapshot_whose_parts_do_not_fit(
    edit: Callable[[dict[str, Any]], None], phrase: str
) -> None:
    game = played()
    with pytest.raises(RecordError, match=f"the snapshot is inconsistent: .*{phrase}"):
        restore(edited_snapshot(game, edit))


@pytest.mark.parametrize(
    ("read", "phrase"),
    [
        (lambda: event_from_dict("x"), "an event must be a JSON object"),
        (lambda: event_from_dict({"type": "Drew", "player": "0", "card": "R7"}), "Drew.player"),
        (lambda: event_from_dict({"type": "Drew", "player": 0, "card": "Q9"}), "Drew.card"),
        (lambda: event_from_dict({"type": "Dealt", "player": 0, "cards": "R7"}), "Dealt.cards"),
        (
            lambda: event_from_dict(
                {
                    "type": "CardHit",
                    "player": 0,
                    "card": "R7",
                    "group": 0,
                    "number": None,
                    "group_after": {"kind": "set"},
                }
            ),
            "CardHit.group_after",
        ),
        (lambda: action_from_dict({"type": "Hit", "card": "R7", "group": "2"}), "Hit.group"),
        (lambda: action_from_dict({"type": "Discard", "card": "R7", "target": 1}), "only a Skip"),
        (lambda: action_from_dict({"type": "GiveWild", "player": 1.0}), "GiveWild.player"),
    ],
)
def test_api_event_and_action_dicts_of_the_wrong_type_raise_record_error(
    read: Callable[[], object], phrase: str
) -> None:
    with pytest.raises(RecordError, match=phrase):
        read()


# -- fidelity where the random-play tests seldom go --------------------------------------


def tie_break_game() -> Game:
    """p0 and p1 both complete the only phase with 10 points each: they alone play a
    tie-break hand (p2, who did not, sits out with no cards).
    """
    game = arranged(
        ["R1 B1 G1 R2 B2 G2 R3", "R4 B4 G4 R5 B5 G5 Y9 Y8", "Y10 Y11"],
        "R12",
        "Y1 Y7 Y5 Y6",
        rules=Rules(phases=(1,)),
        scores=(10, 0, 0),
    )
    play(game, "draw; lay R1 B1 G1 + R2 B2 G2; discard R3")
    play(game, "draw; lay R4 B4 G4 + R5 B5 G5; discard Y9")
    play(game, "draw; discard Y5")
    play(game, f"draw; hit Y1 g{meld_with(game, 'R1 B1 G1')}; discard Y6")
    return game


def test_api_snapshots_and_records_of_an_arranged_tie_break_round_trip_exactly() -> None:
    game = tie_break_game()
    assert game.tie_break and game.players_in_hand == (0, 1) and game.hand(2) == ()
    policy = random.Random(1)
    while not game.is_over:
        text = dumps_snapshot(game)
        restored = loads_snapshot(text)
        assert dumps_snapshot(restored) == text
        assert restored.history == game.history and restored.seats == game.seats
        game.apply(choose(game, policy))
    assert game.winners in ((0,), (1,)) and game.hand_number == 2
    replayed = loads(dumps(game)).replay()
    assert snapshot(replayed) == snapshot(game)
    assert snapshot(loads_snapshot(dumps_snapshot(game))) == snapshot(game)
