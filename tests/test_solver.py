"""The solver against brute force: every phase of every list, random and Wild-heavy hands.

The reference is :func:`phase10.core.lay_downs`, which enumerates every lay-down
card by card. ``can_lay`` must agree with "some lay-down exists" everywhere;
``wilds_needed`` must agree with ``can_lay`` for every number of extra Wilds; the
NumPy batch checker must agree with the scalar check row by row.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10.core import (
    DISTINCT_CARDS,
    PHASE_LISTS,
    SKIP,
    WILD,
    Card,
    Deck,
    Game,
    Group,
    GroupKind,
    NaturalMin,
    Phase,
    Rules,
    full_deck,
    lay_downs,
    parse_cards,
    parse_group,
    preset,
)
from phase10.core.feasibility import IMPOSSIBLE
from phase10.solver import (
    BatchChecker,
    can_lay,
    compile_phase,
    counts_matrix,
    deal_counts,
    hand_counts,
    missing,
    wilds_needed,
)
from phase10.solver.tactics import unseen_counts, view_unseen_counts

ALL_PHASES = list(dict.fromkeys(phase for phases in PHASE_LISTS.values() for phase in phases))
HOUSE_PHASES = [
    Phase.parse(text)
    for text in (
        "1 set of 1",
        "3 runs of 3",
        "1 color run of 3 + 1 color run of 3 + 1 set of 2",
        "1 even or odd of 4 + 1 set of 3",
        "2 cards of one color + 2 cards of one color + 1 run of 3",
        "1 color even or odd of 2 + 1 run of 5",
        "6 sets of 1",
    )
]
PHASES = ALL_PHASES + HOUSE_PHASES
DECK = full_deck()
CHUNKS = 16
HANDS_PER_CHUNK = 12_500


def brute_force(phase: Phase, hand: list[Card], natural_min: NaturalMin) -> bool:
    return next(iter(lay_downs(phase, hand, natural_min, max_cards=None)), None) is not None


def random_hand(rng: random.Random) -> list[Card]:
    """Random hands of 3 to 14 cards; half of them Wild-heavy (1 to 5 Wilds, no more than 8)."""
    size = rng.randint(3, 14)
    hand = rng.sample(DECK, size)
    if rng.random() < 0.5:
        wilds = rng.randint(1, 5)
        hand = [card for card in hand if not card.is_wild][: max(0, size - wilds)]
        hand += [WILD] * wilds
    return hand


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_can_lay_agrees_with_brute_force(chunk: int) -> None:
    """16 x 12,500 = 200,000 hands, each against a random phase and natural-card rule."""
    rng = random.Random(f"solver:{chunk}")
    feasible = 0
    for _ in range(HANDS_PER_CHUNK):
        hand = random_hand(rng)
        phase = rng.choice(PHASES)
        natural_min = rng.choice(list(NaturalMin))
        expected = brute_force(phase, hand, natural_min)
        feasible += expected
        assert can_lay(phase, hand, natural_min) == expected, (
            str(phase),
            natural_min,
            " ".join(map(str, hand)),
        )
    assert 0 < feasible < HANDS_PER_CHUNK  # both answers occur


@pytest.mark.parametrize("phase", PHASES, ids=str)
def test_can_lay_agrees_with_brute_force_for_every_phase(phase: Phase) -> None:
    """Every phase of every list and the house phases: 150 hands under both rules."""
    rng = random.Random(f"phase:{phase}")
    for _ in range(150):
        hand = random_hand(rng)
        for natural_min in NaturalMin:
            assert can_lay(phase, hand, natural_min) == brute_force(phase, hand, natural_min), (
                natural_min,
                " ".join(map(str, hand)),
            )


@pytest.mark.parametrize("chunk", range(4))
def test_wilds_needed_is_the_least_number_of_wilds(chunk: int) -> None:
    rng = random.Random(f"wilds:{chunk}")
    for _ in range(60):
        naturals = [card for card in rng.sample(DECK, rng.randint(2, 11)) if card.is_natural]
        for phase in PHASES[::3]:
            for natural_min in NaturalMin:
                need = wilds_needed(phase, naturals, natural_min)
                for wilds in range(0, 7):
                    hand = naturals + [WILD] * wilds
                    assert can_lay(phase, hand, natural_min) == (need <= wilds), (
                        str(phase),
                        natural_min,
                        " ".join(map(str, hand)),
                        need,
                    )
                if need < IMPOSSIBLE:
                    assert missing(phase, naturals, natural_min) == need
                else:  # Wilds cannot meet the natural-card rule: numbered cards are missing
                    assert missing(phase, naturals, natural_min) > 0


def test_missing_counts_wilds_already_held() -> None:
    phase = Phase.parse("1 run of 7")
    assert missing(phase, parse_cards("R1 B2 G3 Y5 R6 W")) == 1
    assert missing(phase, parse_cards("R1 B2 G3 Y4 R5 W W")) == 0
    assert missing(phase, parse_cards("R1 R1 R1")) == 6


def test_natural_card_rules_differ_on_all_wild_groups() -> None:
    phase = Phase.parse("2 sets of 3")
    hand = parse_cards("R7 W W W W W")
    assert can_lay(phase, hand, NaturalMin.PHASE)
    assert not can_lay(phase, hand, NaturalMin.GROUP)
    assert not can_lay(Phase.parse("1 set of 3"), parse_cards("W W W"), NaturalMin.PHASE)


def test_skips_never_help() -> None:
    phase = Phase.parse("1 set of 3")
    assert not can_lay(phase, [SKIP, SKIP, parse_cards("R3")[0]])
    assert missing(phase, [SKIP] * 4) == 3


@pytest.mark.parametrize("cards", [5, 11, 16])
def test_batch_checker_agrees_with_the_scalar_check(cards: int) -> None:
    """Every phase the batch checks itself (not row by row), both rules, 800 fresh deals
    and 200 Wild-heavy hands each.
    """
    generator = np.random.default_rng(cards)
    dealt = deal_counts(generator, 1000, cards)
    dealt[800:, 48] += generator.integers(1, 5, size=200).astype(np.int16)
    rows = dealt.tolist()
    compared = 0
    for phase in PHASES:
        for natural_min in NaturalMin:
            checker = BatchChecker(phase, natural_min)
            if checker.mode == "rows":
                continue
            expected = [can_lay(phase, row, natural_min) for row in rows]
            assert checker(dealt).tolist() == expected, (str(phase), natural_min)
            compared += 1
    assert compared > 100


def test_batch_shortfall_is_the_distance_of_the_standard_phases() -> None:
    """The batch's shortfall is 0 exactly where its check holds and, for the standard
    phases (sets, runs and one colour group), the exact number of cards missing."""
    generator = np.random.default_rng(11)
    dealt = deal_counts(generator, 300, 11)
    dealt[250:, 48] += generator.integers(1, 4, size=50).astype(np.int16)
    rows = dealt.tolist()
    for phase in PHASE_LISTS["standard"]:
        checker = BatchChecker(phase)
        short = checker.shortfall(dealt)
        assert ((short == 0) == checker(dealt)).all(), str(phase)
        assert short.tolist() == [missing(phase, row) for row in rows], str(phase)


def test_batch_shortfall_of_other_phases_is_at_least_one_when_short() -> None:
    generator = np.random.default_rng(12)
    dealt = deal_counts(generator, 200, 10)
    for phase in PHASES:
        checker = BatchChecker(phase)
        short = checker.shortfall(dealt)
        assert ((short == 0) == checker(dealt)).all(), str(phase)
        assert (short <= compile_phase(phase).total).all(), str(phase)


def test_batch_checker_modes_cover_the_standard_list_without_row_fallback() -> None:
    modes = {BatchChecker(phase).mode for phase in PHASE_LISTS["standard"]}
    assert modes <= {"numbers", "single"}


def test_batch_checker_refuses_a_bad_shape() -> None:
    with pytest.raises(ValueError, match=r"\(B, 51\)"):
        BatchChecker(Phase.parse("2 sets of 3"))(np.zeros((3, 49), dtype=np.int16))


def test_counts_matrix_and_hand_counts_agree() -> None:
    hands = [parse_cards("R7 R7 W S"), parse_cards("Y12")]
    matrix = counts_matrix(hands)
    assert matrix.shape == (2, DISTINCT_CARDS)
    assert matrix.tolist() == [hand_counts(hand) for hand in hands]
    assert counts_matrix([]).shape == (0, DISTINCT_CARDS)


def test_deal_counts_deals_real_hands() -> None:
    dealt = deal_counts(np.random.default_rng(3), 2000, 10)
    assert (dealt.sum(axis=1) == 10).all()
    assert (dealt[:, :48] <= 2).all() and (dealt[:, 48] <= 8).all() and (dealt[:, 49] <= 4).all()
    # every card of the deck turns up about as often as its copies say (8 Wilds, 2 of a card)
    share = dealt.sum(axis=0) / dealt.sum()
    assert abs(share[48] - 8 / 108) < 0.01 and abs(share[:48].mean() - 2 / 108) < 0.002
    same = deal_counts(np.random.default_rng(3), 2000, 10)
    assert (same == dealt).all()
    with pytest.raises(ValueError, match="1 to 108 cards"):
        deal_counts(np.random.default_rng(3), 5, 0)


def test_deal_counts_and_unseen_counts_follow_the_rules_deck() -> None:
    """Rules §1 "Other decks": the odds deal from, and count, the deck the rules name."""
    tin = Rules(deck=Deck.MASTERS_12_WILDS).deck_counts
    dealt = deal_counts(np.random.default_rng(4), 2000, 110, tin)
    assert (dealt[:, 48] == 12).all() and (dealt[:, 49] == 2).all()
    hand = parse_cards("W W S R7")
    unseen = unseen_counts(hand, deck=tin)
    assert (unseen[48], unseen[49], unseen[Card.parse("R7").index]) == (10, 1, 1)
    with pytest.raises(ValueError, match="more copies of S seen"):
        unseen_counts(parse_cards("S S S"), deck=Rules(deck=Deck.MASTERS).deck_counts)
    view = Game(2, seed=2, rules=preset("masters")).view(0)
    assert sum(view_unseen_counts(view)) == 106 - len(view.hand) - len(view.discard_pile)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 49), min_size=1, max_size=12),
    st.sampled_from(PHASES),
    st.sampled_from(list(NaturalMin)),
)
def test_can_lay_property(indices: list[int], phase: Phase, natural_min: NaturalMin) -> None:
    hand = [Card.from_index(index) for index in indices]
    counts = hand_counts(hand)
    if any(n > 2 for n in counts[:48]) or counts[48] > 8 or counts[49] > 4:
        return  # not a hand the deck can hold
    assert can_lay(phase, hand, natural_min) == brute_force(phase, hand, natural_min)


def test_searches_leave_no_cyclic_garbage() -> None:
    """Recursive helpers free themselves: a server running for hours must not depend on
    full garbage collections (which stop every table) to get its memory back."""
    import gc

    from phase10.core import STANDARD_PHASES, NaturalMin, lay_downs, parse_group
    from phase10.core.groups import GroupKind
    from phase10.solver import can_lay, hand_counts
    from phase10.solver.tactics import best_hits, best_lay_down

    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        hand = parse_cards("R3 B3 G3 Y3 R4 R5 R6 W W G9 G10 Y11")
        for phase in [*STANDARD_PHASES, Phase.parse("1 color even or odd of 4 + 1 set of 3")]:
            for natural_min in NaturalMin:
                can_lay(phase, hand_counts(hand), natural_min)
                list(lay_downs(phase, hand, natural_min, max_cards=None))
                best_lay_down(phase, hand, natural_min, max_cards=None)
        table = [parse_group(GroupKind.RUN, "G3 G4 G5 G6"), parse_group(GroupKind.SET, "R9 B9 W")]
        best_hits(table, parse_cards("G7 G8 W R9 G2 S"))
        gc.collect()
        assert gc.garbage == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def _closed_form_phases() -> list[Phase]:
    """Every phase with a closed form: one or two sets, one run, a set and a run."""
    texts = [f"1 set of {a}" for a in range(1, 9)]
    texts += [f"1 set of {a} + 1 set of {b}" for a in range(1, 7) for b in range(1, a + 1)]
    texts += [f"1 run of {r}" for r in range(1, 13)]
    texts += [f"1 set of {a} + 1 run of {r}" for a in range(1, 7) for r in range(1, 13)]
    return [Phase.parse(text) for text in texts]


@pytest.mark.parametrize("natural_min", list(NaturalMin))
def test_closed_forms_agree_with_the_search(natural_min: NaturalMin) -> None:
    """The closed forms give the search's answer on every hand, every bound (``limit``)
    and both natural-card rules; half the hands Wild-heavy or nearly without numbers."""
    import dataclasses

    from phase10.core.feasibility import _search

    rng = random.Random(11)
    phases = _closed_form_phases()
    naturals = [card for card in DECK if card.is_natural]
    compared = 0
    for _ in range(6_000):
        compiled = compile_phase(rng.choice(phases), natural_min)
        assert compiled.shape, compiled.phase
        searched = dataclasses.replace(compiled, shape="")
        if rng.random() < 0.3:  # few numbered cards, many Wilds
            counts = hand_counts(rng.sample(naturals, rng.randrange(0, 4)))
            counts[48] = rng.randrange(0, 9)
        else:
            counts = hand_counts(random_hand(rng))
        cells = compiled.cells_of(counts)
        for limit in (IMPOSSIBLE, 0, 1, 2, 3, rng.randrange(0, 15)):
            expected = _search(searched, list(cells), limit, 0)
            assert _search(compiled, list(cells), limit, 0) == expected, (
                compiled.phase,
                cells,
                limit,
            )
            compared += 1
    assert compared == 36_000


def test_closed_forms_cover_the_standard_phases_but_colour() -> None:
    shapes = [compile_phase(phase).shape for phase in PHASE_LISTS["standard"]]
    assert shapes == ["sets", "set_run", "set_run", "run", "run", "run", "sets", "", "sets", "sets"]


def test_best_lay_down_is_the_best_of_every_way() -> None:
    """The branch-and-bound search finds what ranking every lay-down finds: the most cards,
    then the most points, then the first in text order."""
    from phase10.core import hand_points
    from phase10.solver.tactics import best_lay_down

    def ranked(phase: Phase, hand: list[Card], natural_min: NaturalMin) -> object:
        best, best_key = None, None
        for way in lay_downs(phase, hand, natural_min, max_cards=None):
            laid = [card for group in way for card in group.cards]
            key = (-len(laid), -hand_points(laid), " + ".join(group.describe() for group in way))
            if best_key is None or key < best_key:
                best, best_key = way, key
        return best

    rng = random.Random(5)
    phases = [phase for phase in PHASES if len(phase.groups) <= 3]  # ranking is slow beyond
    found = 0
    for _ in range(600):
        phase = rng.choice(phases)
        natural_min = rng.choice(list(NaturalMin))
        hand = random_hand(rng)
        expected = ranked(phase, hand, natural_min)
        assert best_lay_down(phase, hand, natural_min, max_cards=None) == expected, (phase, hand)
        found += expected is not None
    assert found > 100  # enough hands that hold their phase


def test_best_lay_down_of_many_small_groups_is_the_best_of_every_way() -> None:
    """Phrases of many one- and two-card groups, where whole branches spend the cards too
    early to fill the groups left (and are cut off before they are searched)."""
    from phase10.core import hand_points
    from phase10.solver.tactics import best_lay_down

    deck = [
        card
        for card in map(Card.from_index, range(DISTINCT_CARDS))
        if card.is_natural or card.is_wild
    ]
    phrases = ["4 sets of 1", "3 runs of 2", "2 runs of 2 + 2 sets of 1", "5 sets of 1"]
    rng = random.Random(11)
    found = 0
    for _ in range(80):
        phase = Phase.parse(rng.choice(phrases))
        natural_min = rng.choice(list(NaturalMin))
        hand = rng.sample(deck[:12], 2) + [WILD] * rng.randint(0, 2) + rng.sample(deck, 3)
        ways = list(lay_downs(phase, hand, natural_min, max_cards=None))
        expected = min(
            ways,
            key=lambda way: (
                -sum(len(group.cards) for group in way),
                -sum(hand_points(group.cards) for group in way),
                " + ".join(group.describe() for group in way),
            ),
            default=None,
        )
        assert best_lay_down(phase, hand, natural_min, max_cards=None) == expected, (phase, hand)
        found += expected is not None
    assert found > 30


def test_best_lay_down_tries_one_value_of_an_all_wild_group() -> None:
    """With a numbered card needed only once in the phase, a group may be all Wilds, and its
    declared value changes neither the cards laid nor the points: the search tries only the
    value written first, and still finds what ranking every way finds, for every kind."""
    from phase10.core import hand_points
    from phase10.solver.tactics import best_lay_down

    deck = [Card.from_index(index) for index in range(48)]
    phrases = [
        "3 sets of 1",
        "2 sets of 2",
        "1 run of 2 + 1 set of 1",
        "1 color run of 2 + 1 set of 1",
        "2 cards of one color + 1 set of 1",
        "1 even or odd of 2 + 1 set of 1",
        "1 color even or odd of 2 + 1 set of 1",
    ]
    rng = random.Random(17)
    all_wild = 0
    for _ in range(120):
        phase = Phase.parse(rng.choice(phrases))
        hand = rng.sample(deck, rng.randint(1, 3)) + [WILD] * rng.randint(2, 4)
        expected = min(
            lay_downs(phase, hand, NaturalMin.PHASE, max_cards=None),
            key=lambda way: (
                -sum(len(group.cards) for group in way),
                -sum(hand_points(group.cards) for group in way),
                " + ".join(group.describe() for group in way),
            ),
            default=None,
        )
        assert best_lay_down(phase, hand, NaturalMin.PHASE, max_cards=None) == expected, (
            phase,
            hand,
        )
        all_wild += expected is not None and any(not g.natural_count for g in expected)
    assert all_wild > 30  # many answers hold an all-Wild group


def test_best_lay_down_of_eleven_sets_of_one_with_five_wilds() -> None:
    """Eleven one-card sets, five of them Wilds (twelve numbers each, once tried in turn)."""
    from phase10.solver.tactics import best_lay_down

    hand = parse_cards("W W W W W R6 R7 R8 R9 R10 R11")
    way = best_lay_down(Phase.parse("11 sets of 1"), hand, NaturalMin.PHASE)
    assert way is not None
    expected = ["R6", "R7", "R8", "R9", "R10", "R11", "W=1", "W=1", "W=1", "W=1", "W=1"]
    assert [group.describe() for group in way] == expected


def test_batch_checker_checks_phases_of_many_groups_row_by_row() -> None:
    """Twelve sets could be pinned down in over a million ways: rather than one matrix that
    size, such a phase is checked one hand at a time (and agrees with the scalar check)."""
    phase = Phase.parse("12 sets of 2")
    checker = BatchChecker(phase)
    assert checker.mode == "rows"
    rng = random.Random(2)
    hands = [hand_counts(rng.sample(DECK, 30)) for _ in range(40)]
    assert checker(np.array(hands)).tolist() == [can_lay(phase, hand) for hand in hands]
    assert BatchChecker(Phase.parse("6 sets of 1")).mode == "numbers"


def test_natural_min_given_as_text_is_the_rule_it_names() -> None:
    # Text first, so a cache keyed by "group" would hand its answer to the member too.
    phase = Phase.parse("4 sets of 1 + 1 run of 2")
    hand = parse_cards("W W W W W R1")
    assert not can_lay(phase, hand, "group")  # type: ignore[arg-type]
    assert not can_lay(phase, hand, NaturalMin.GROUP)
    assert can_lay(phase, hand, "phase")  # type: ignore[arg-type]
    assert compile_phase(phase, "group").natural_min is NaturalMin.GROUP  # type: ignore[arg-type]
    assert BatchChecker(phase, "phase").natural_min is NaturalMin.PHASE  # type: ignore[arg-type]
    assert next(iter(lay_downs(phase, hand, "phase")), None) is not None  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="natural_min is 'group' or 'phase', not 'groups'"):
        can_lay(phase, hand, "groups")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not 'bogus'"):
        BatchChecker(phase, "bogus")  # type: ignore[arg-type]


@pytest.mark.parametrize("natural_min", list(NaturalMin))
def test_missing_with_a_limit_agrees_with_missing_without(natural_min: NaturalMin) -> None:
    """Wild-heavy hands too, where Wilds alone cannot meet the natural-card rule."""
    rng = random.Random(11)
    for _ in range(1500):
        phase = rng.choice(PHASES)
        wilds = rng.randint(0, 8)
        hand = rng.sample([c for c in DECK if not c.is_wild], rng.randint(0, 4)) + [WILD] * wilds
        exact = missing(phase, hand, natural_min)
        for limit in (0, 1, 2, 4):
            bounded = missing(phase, hand, natural_min, limit=limit)
            assert bounded == (exact if exact <= limit else limit + 1), (phase, hand, limit)


def test_solver_refuses_what_is_not_a_hand_or_a_phase() -> None:
    phase = Phase.parse("2 sets of 3")
    with pytest.raises(TypeError, match=r"not a string"):
        can_lay(phase, "R7 B7")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a hand is a list of Cards"):
        missing(phase, [1, 2, 3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"expected a Phase .* not str"):
        can_lay("2 sets of 3", parse_cards("R7"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="limit must be at least 0, not -1"):
        missing(phase, parse_cards("R1"), limit=-1)


def test_a_row_of_a_count_matrix_is_a_hand() -> None:
    phase = Phase.parse("2 sets of 3")
    rows = counts_matrix([parse_cards("R1 B1 G1 R2 B2 W"), parse_cards("R1 B2 G3")])
    assert can_lay(phase, rows[0])
    assert missing(phase, rows[1]) == 4


def _most_hits(groups: list[Group], hand: list[Card]) -> tuple[int, int]:
    """Every order of every hit, tried one by one: the most cards, then the most points."""
    best = (0, 0)
    for card in set(hand):
        for index, group in enumerate(groups):
            for number in group.placements(card):
                rest = list(hand)
                rest.remove(card)
                grown = [*groups[:index], group.hit(card, number), *groups[index + 1 :]]
                count, points = _most_hits(grown, rest)
                best = max(best, (count + 1, points + card.points))
    return best


TABLE_GROUPS = [
    (GroupKind.RUN, "R5 R6 R7"),
    (GroupKind.RUN, "B2 W B4 Y5"),
    (GroupKind.RUN, "G8 G9 W G11"),
    (GroupKind.COLOR_RUN, "R3 R4 R5"),
    (GroupKind.SET, "Y7 B7 W"),
    (GroupKind.COLOR, "R1 R9 R12"),
    (GroupKind.EVEN_ODD, "B2 G4 W"),
    (GroupKind.COLOR_EVEN_ODD, "Y1 Y3 Y5"),
]


def test_best_hits_is_the_best_of_every_order_of_hits() -> None:
    """Against trying every hit in every order, on tables of runs (plain and colour) and
    the other kinds, and hands full of cards that fit at the runs' ends."""
    from phase10.solver.tactics import best_hits

    rng = random.Random(5)
    groups = [parse_group(kind, text) for kind, text in TABLE_GROUPS]
    near = parse_cards("R4 R8 B1 B6 G7 G12 R2 R6 Y8 B11 G3 W W S R10 Y1 B3")
    for _ in range(400):
        table = rng.sample(groups, rng.randint(1, 4))
        hand = rng.sample(near, rng.randint(0, 5))
        hits = best_hits(table, hand)
        grown, rest = list(table), list(hand)
        for hit in hits:  # the hits apply in their order
            grown[hit.group] = grown[hit.group].hit(hit.card, hit.number)
            rest.remove(hit.card)
        assert (len(hits), sum(hit.card.points for hit in hits)) == _most_hits(table, hand)


def test_best_hits_on_a_table_of_many_runs_is_quick() -> None:
    """Six runs and eleven cards that fit their ends: the search grows one run at a time,
    so this takes a blink (every run's ends at once took minutes)."""
    from phase10.solver.tactics import best_hits

    runs = [
        parse_group(GroupKind.RUN, text)
        for text in ("R5 R6 R7 R8", "B5 B6 B7 B8", "R6 B7 G8 Y9", "B4 G5 Y6 R7", "G5 G6 G7 G8")
    ] + [parse_group(GroupKind.COLOR_RUN, "Y5 Y6 Y7 Y8")]
    hits = best_hits(runs, parse_cards("W W R4 R9 B4 B9 G4 G9 Y3 Y10 R3"))
    assert len(hits) == 11


def test_odds_and_shortfall_refuse_bad_arguments() -> None:
    from phase10.solver.tactics import completion_probability, outs

    phase = Phase.parse("2 sets of 3")
    hand = parse_cards("R1 B1")
    unseen = [1] * DISTINCT_CARDS
    with pytest.raises(ValueError, match=r"unseen is 51 counts.*not 10 entries"):
        outs(phase, hand, [1] * 10)
    with pytest.raises(ValueError, match="not 10 entries"):
        completion_probability(phase, hand, [1] * 10)
    with pytest.raises(ValueError, match="samples is a whole number, at least 1, not 0"):
        completion_probability(phase, hand, unseen, draws=4, samples=0)
    with pytest.raises(ValueError, match="draws is a whole number of cards, 0 or more, not None"):
        completion_probability(phase, hand, unseen, draws=None)  # type: ignore[arg-type]
    checker = BatchChecker(phase)
    assert checker.shortfall(np.zeros((0, DISTINCT_CARDS), dtype=np.int16)).tolist() == []
    with pytest.raises(ValueError, match=r"\(B, 51\) count matrix"):
        checker.shortfall(np.zeros((2, 49), dtype=np.int16))


def test_cards_and_groups_given_as_text_are_refused_in_words() -> None:
    """The library takes Cards and Groups, not their names: text is refused with a
    TypeError that shows what to pass, never an AttributeError from deep inside."""
    from phase10.bots.hints import plan_turn
    from phase10.core.cards import hand_points, parse_cards
    from phase10.solver.tactics import best_hits, unseen_counts

    two_sets = Phase.parse("2 sets of 3")
    cases = [
        (lambda: unseen_counts("R7"), "such as parse_cards('R7'), not a string"),
        (lambda: best_hits(["R4 R5 R6"], parse_cards("R7")), "a list of Groups"),
        (lambda: plan_turn(two_sets, "R7 B7"), "such as parse_cards('R7 B7'), not a string"),
        (lambda: plan_turn(two_sets, [7, 7]), "not of int (7)"),
        (lambda: hand_points("R7 W"), "such as parse_cards('R7 W'), not a string"),
    ]
    for call, words in cases:
        with pytest.raises(TypeError, match=re.escape(words)):
            call()
    assert hand_points(parse_cards("R7 W")) == 5 + 25
