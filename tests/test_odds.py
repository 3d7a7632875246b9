"""Odds of fresh deals: exact probabilities, the same hands checked one by one, the command."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from phase10.cli.app import app
from phase10.cli.odds import choose_phases, one_in, percent
from phase10.core import (
    STANDARD_PHASES,
    WILD,
    Card,
    NaturalMin,
    Phase,
    preset,
)
from phase10.core.phase_lists import PHASE_LISTS
from phase10.sim.odds import (
    CHUNK,
    OddsResult,
    chunk_generator,
    chunk_hits,
    phase_odds,
    single_blas_thread,
    wilson_interval,
)
from phase10.solver import can_lay, deal_counts
from phase10.solver.blas import _openblas

DEALS_TOTAL = math.comb(108, 10)
COLOURS = "RBGY"

# -- exact probabilities by enumeration over card-type counts -------------------------


def _partitions(total: int, parts: int, largest: int) -> Iterator[tuple[int, ...]]:
    """Partitions of ``total`` into at most ``parts`` parts of at most ``largest``."""
    if total == 0:
        yield ()
        return
    if parts == 0:
        return
    for first in range(min(total, largest), 0, -1):
        for rest in _partitions(total - first, parts - 1, first):
            yield (first, *rest)


def _other_cards(wilds: int, skips: int) -> int:
    return math.comb(8, wilds) * math.comb(4, skips)


def exact_sets(phase: Phase, natural_min: NaturalMin = NaturalMin.GROUP) -> float:
    """P(10 dealt cards hold a phase of sets): only the sorted number counts matter."""
    held = 0
    seen = 0
    for wilds in range(9):
        for skips in range(5):
            numbered = 10 - wilds - skips
            if numbered < 0:
                continue
            for parts in _partitions(numbered, 12, 8):
                # ways to give the parts to distinct numbers, times the cards of each
                multiplicities = Counter(parts).values()
                placements = math.perm(12, len(parts)) // math.prod(
                    map(math.factorial, multiplicities)
                )
                ways = placements * math.prod(math.comb(8, c) for c in parts)
                ways *= _other_cards(wilds, skips)
                seen += ways
                hand = [
                    Card.parse(f"{COLOURS[i % 4]}{number}")
                    for number, count in enumerate(parts, start=1)
                    for i in range(count)
                ] + [WILD] * wilds
                if can_lay(phase, hand, natural_min):
                    held += ways
    assert seen == DEALS_TOTAL
    return held / DEALS_TOTAL


def exact_run(phase: Phase) -> float:
    """P(10 dealt cards hold one run): only which numbers are held matters."""

    def covering(numbers: int, cards: int) -> int:  # cards from these numbers, each held
        return sum(
            (-1) ** j * math.comb(numbers, j) * math.comb(8 * (numbers - j), cards)
            for j in range(numbers + 1)
        )

    held = 0
    seen = 0
    for size in range(11):
        for support in combinations(range(1, 13), size):
            for wilds in range(9):
                for skips in range(5):
                    numbered = 10 - wilds - skips
                    if numbered < size or (size == 0 and numbered > 0):
                        continue
                    ways = covering(size, numbered) * _other_cards(wilds, skips)
                    seen += ways
                    hand = [Card.parse(f"R{n}") for n in support] + [WILD] * wilds
                    if ways and can_lay(phase, hand):
                        held += ways
    assert seen == DEALS_TOTAL
    return held / DEALS_TOTAL


def exact_colour(phase: Phase) -> float:
    """P(10 dealt cards hold cards of one colour): only the colour counts matter."""
    held = 0
    seen = 0
    for wilds in range(9):
        for skips in range(5):
            numbered = 10 - wilds - skips
            if numbered < 0:
                continue
            for r in range(numbered + 1):
                for b in range(numbered - r + 1):
                    for g in range(numbered - r - b + 1):
                        counts = (r, b, g, numbered - r - b - g)
                        ways = math.prod(math.comb(24, c) for c in counts)
                        ways *= _other_cards(wilds, skips)
                        seen += ways
                        hand = [
                            Card.parse(f"{COLOURS[colour]}{n}")
                            for colour, count in enumerate(counts)
                            for n in range(1, count + 1)
                        ] + [WILD] * wilds
                        if can_lay(phase, hand):
                            held += ways
    assert seen == DEALS_TOTAL
    return held / DEALS_TOTAL


def set_of_two_closed_form() -> float:
    """P(10 cards hold "1 set of 2"): it fails only with all numbers different and no
    Wild (at most four Skips fill the rest), or with no numbered card at all."""
    distinct = sum(math.comb(12, k) * int(8**k) * math.comb(4, 10 - k) for k in range(6, 11))
    no_numbers = math.comb(12, 10)
    return 1 - (distinct + no_numbers) / DEALS_TOTAL


def test_the_exact_enumerations_agree_with_the_closed_form() -> None:
    phase = Phase.parse("1 set of 2")
    assert exact_sets(phase) == pytest.approx(set_of_two_closed_form(), abs=1e-15)


EXACT_CASES = [
    ("1 set of 2", exact_sets, NaturalMin.GROUP),
    ("2 sets of 3", exact_sets, NaturalMin.GROUP),
    ("2 sets of 3", exact_sets, NaturalMin.PHASE),
    ("1 set of 5 + 1 set of 2", exact_sets, NaturalMin.GROUP),
    ("1 set of 5 + 1 set of 3", exact_sets, NaturalMin.PHASE),
    ("1 run of 9", lambda p, _rule: exact_run(p), NaturalMin.GROUP),
    ("7 cards of one color", lambda p, _rule: exact_colour(p), NaturalMin.GROUP),
]


@pytest.fixture(scope="module")
def runs_200k() -> dict[NaturalMin, OddsResult]:
    out = {}
    for rule in NaturalMin:
        phases = [Phase.parse(text) for text, _, r in EXACT_CASES if r is rule]
        out[rule] = phase_odds(phases, deals=200_000, seed=2024, natural_min=rule)
    return out


@pytest.mark.parametrize(("text", "exact", "rule"), EXACT_CASES)
def test_the_exact_probability_lies_in_the_95_interval_of_200k_deals(
    text: str, exact: object, rule: NaturalMin, runs_200k: dict[NaturalMin, OddsResult]
) -> None:
    phase = Phase.parse(text)
    p = exact(phase, rule)  # type: ignore[operator]
    entry = next(e for e in runs_200k[rule].phases if e.phase == phase)
    low, high = entry.ci95
    assert low <= p <= high, (text, p, entry.ci95)
    assert 0 < p < 1


def test_known_exact_values() -> None:
    # Computed above by enumeration; pinned so a change in the oracle shows up too.
    assert set_of_two_closed_form() == pytest.approx(0.993655, abs=1e-6)
    assert exact_sets(Phase.parse("2 sets of 3")) == pytest.approx(0.1827524, abs=1e-7)
    assert exact_run(Phase.parse("1 run of 9")) == pytest.approx(0.0199257, abs=1e-7)


# -- the batch checks against the hand-by-hand check, on the same deals --------------

SAME_HANDS_PHASES = [
    *STANDARD_PHASES,
    *(
        Phase.parse(text)
        for text in (
            "3 sets of 2 + 1 set of 3",
            "1 run of 3 + 2 sets of 3",
            "2 runs of 4",
            "1 color run of 4",
            "1 even or odd of 8",
            "1 color run of 3 + 1 set of 3",
        )
    ),
]


@pytest.mark.parametrize("rule", list(NaturalMin))
@pytest.mark.parametrize("cards", [10, 11])
def test_chunk_hits_match_can_lay_on_the_same_hands(rule: NaturalMin, cards: int) -> None:
    size = 1000
    rows = deal_counts(chunk_generator(5, 3), size, cards).tolist()
    hits = chunk_hits(SAME_HANDS_PHASES, seed=5, chunk=3, size=size, cards=cards, natural_min=rule)
    slow = [sum(can_lay(phase, row, rule) for row in rows) for phase in SAME_HANDS_PHASES]
    assert hits == slow
    assert all(0 < h < size for h in hits[:7])


def _set_and_run(counts: list[int], set_size: int, run_size: int) -> bool:
    """An independent brute force for "1 set of N + 1 run of M" (a numbered card per group)."""
    numbers = [sum(counts[colour * 12 + n] for colour in range(4)) for n in range(12)]
    wilds = counts[48]
    for number in range(12):
        for naturals in range(1, min(numbers[number], set_size) + 1):
            spare = wilds - (set_size - naturals)
            if spare < 0:
                continue
            left = list(numbers)
            left[number] -= naturals
            for low in range(12 - run_size + 1):
                present = sum(1 for n in range(low, low + run_size) if left[n])
                if present and run_size - present <= spare:
                    return True
    return False


def test_set_and_run_phases_match_an_independent_brute_force() -> None:
    size = 3000
    rows = deal_counts(chunk_generator(11, 0), size, 10).tolist()
    for set_size, run_size in ((3, 4), (4, 4), (2, 6)):
        phase = Phase.parse(f"1 set of {set_size} + 1 run of {run_size}")
        (hits,) = chunk_hits([phase], seed=11, chunk=0, size=size)
        assert hits == sum(_set_and_run(row, set_size, run_size) for row in rows)


# -- the result object ----------------------------------------------------------------


def test_wilson_interval() -> None:
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    low, high = wilson_interval(30, 100)
    assert low < 0.3 < high
    assert (round(low, 4), round(high, 4)) == (0.2189, 0.3958)
    assert wilson_interval(30, 100, z=3.0)[0] < low
    assert wilson_interval(0, 0) == (0.0, 1.0)  # no trials: nothing known
    with pytest.raises(ValueError, match="need 0 <= successes <= trials"):
        wilson_interval(6, 5)


def test_result_fields_and_dict() -> None:
    phases = [Phase.parse("2 sets of 3"), Phase.parse("1 run of 7")]
    result = phase_odds(phases, deals=3000, seed=1, numbers=[4, 9])
    first, second = result.phases
    assert (first.number, second.number) == (4, 9)
    assert first.phase == phases[0] and first.deals == 3000
    assert first.probability == first.hits / 3000
    assert first.ci95 == wilson_interval(first.hits, 3000)
    assert first.one_in == pytest.approx(3000 / first.hits)
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert {"phases", "deals"} <= set(data)
    assert data["deals"] == 3000 and data["cards"] == 10 and data["natural_min"] == "group"
    assert data["phases"][1] == {
        "phase": 9,
        "text": "1 run of 7",
        "probability": second.probability,
        "ci95": list(second.ci95),
    }
    assert result.cards == 10 and result.seed == 1


def test_whole_deck_deals_hold_every_phase_and_one_card_deals_a_set_of_one() -> None:
    whole = phase_odds(STANDARD_PHASES, deals=20, cards=108)
    assert [e.probability for e in whole.phases] == [1.0] * 10
    assert all(e.ci95[1] == 1.0 and e.one_in == 1.0 for e in whole.phases)
    one = phase_odds([Phase.parse("1 set of 1"), Phase.parse("2 sets of 3")], deals=20_000, cards=1)
    low, high = one.phases[0].ci95
    assert low <= 96 / 108 <= high  # any numbered card; a Wild alone has no numbered card
    assert one.phases[1].hits == 0 and one.phases[1].one_in is None


def test_the_deck_option_is_dealt_from() -> None:
    """Rules §1 "Other decks": the odds deal from the deck asked for (default the preset's)."""
    skips = [Phase.parse("1 set of 1")]  # a hand of nothing but Skips and Wilds holds no set
    whole = phase_odds(skips, deals=10, cards=110, deck="masters_12_wilds")
    assert whole.deck.value == "masters_12_wilds" and whole.to_dict()["deck"] == "masters_12_wilds"
    with pytest.raises(ValueError, match="cards must be from 1 to 106"):
        phase_odds(skips, deals=10, cards=107, deck="masters")
    with pytest.raises(ValueError, match="deck must be one of"):
        phase_odds(skips, deals=10, deck="tin")
    assert choose_phases(None, [], "masters").deck.value == "masters"
    result = run("odds", "--deals", "200", "--rules", "masters", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["deck"] == "masters"


# -- determinism, chunks and workers --------------------------------------------------


def test_the_result_is_the_sum_of_its_chunks() -> None:
    phases = STANDARD_PHASES[:3]
    deals = CHUNK + 700
    result = phase_odds(phases, deals=deals, seed=9)
    first = chunk_hits(phases, seed=9, chunk=0)
    second = chunk_hits(phases, seed=9, chunk=1, size=700)
    assert [e.hits for e in result.phases] == [a + b for a, b in zip(first, second, strict=True)]


def test_same_seed_same_result_other_seed_other_result() -> None:
    phases = STANDARD_PHASES
    one = phase_odds(phases, deals=5000, seed=3)
    assert phase_odds(phases, deals=5000, seed=3) == one
    assert [e.hits for e in phase_odds(phases, deals=5000, seed=4).phases] != [
        e.hits for e in one.phases
    ]


def test_worker_processes_do_not_change_the_result() -> None:
    phases = STANDARD_PHASES
    deals = 2 * CHUNK + 1234
    seen: list[int] = []
    alone = phase_odds(phases, deals=deals, seed=17, jobs=1)
    shared = phase_odds(phases, deals=deals, seed=17, jobs=2, progress=seen.append)
    assert shared == alone
    assert sorted(seen) == sorted([CHUNK, CHUNK, 1234])
    assert phase_odds(phases, deals=700, seed=17, jobs=0) == phase_odds(phases, deals=700, seed=17)


def test_workers_get_a_few_chunks_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many chunks the deals make, only a few wait at a time (each wait scans
    them all; at MAX_DEALS, 200,000 submitted at once stalled the count)."""
    import phase10.sim.odds as odds
    import phase10.sim.workers as workers
    from phase10.sim.workers import IN_FLIGHT

    monkeypatch.setattr(odds, "CHUNK", 200)
    sizes: list[int] = []
    real_wait = workers.wait

    def counted(pending, **options):  # type: ignore[no-untyped-def]
        sizes.append(len(pending))
        return real_wait(pending, **options)

    monkeypatch.setattr(workers, "wait", counted)
    phases = STANDARD_PHASES[:2]
    shared = phase_odds(phases, deals=60 * 200 + 7, seed=5, jobs=2)
    monkeypatch.setattr(workers, "wait", real_wait)
    assert shared == phase_odds(phases, deals=60 * 200 + 7, seed=5, jobs=1)
    assert sizes and max(sizes) <= IN_FLIGHT * 2 and len(sizes) >= 61 // (IN_FLIGHT * 2)


def test_progress_calls_add_up_to_the_deals() -> None:
    seen: list[int] = []
    phase_odds(STANDARD_PHASES[:1], deals=CHUNK + 5, progress=seen.append)
    assert seen == [CHUNK, 5]


def test_the_natural_card_rule_is_used() -> None:
    # Two cards hold "2 sets of 1" if both are numbered ("group"), or one is and the
    # other is a numbered card or a Wild ("phase").
    phases = [Phase.parse("2 sets of 1"), Phase.parse("1 set of 2")]
    pairs = math.comb(108, 2)
    group = phase_odds(phases, deals=20_000, cards=2, seed=8)
    phase = phase_odds(phases, deals=20_000, cards=2, seed=8, natural_min="phase")
    assert phase.natural_min is NaturalMin.PHASE and group.natural_min is NaturalMin.GROUP
    low, high = group.phases[0].ci95
    assert low <= math.comb(96, 2) / pairs <= high
    low, high = phase.phases[0].ci95
    assert low <= (math.comb(96, 2) + 96 * 8) / pairs <= high
    assert phase.phases[1].hits == group.phases[1].hits  # one group: the same rule


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"deals": 0}, "deals must be from 1 to 10000000000, not 0"),
        ({"deals": 10, "cards": 0}, "cards must be from 1 to 108, not 0"),
        ({"deals": 10, "cards": 109}, "cards must be from 1 to 108, not 109"),
        ({"deals": 10, "jobs": -1}, "jobs must be at least 0, not -1"),
        ({"deals": 10, "seed": 2.5}, "seed must be a whole number, not 2.5"),
        ({"deals": 2.5}, "deals must be a whole number, not 2.5"),
        ({"deals": 10, "natural_min": "most"}, "natural_min is 'group' or 'phase', not 'most'"),
        ({"deals": 10, "numbers": [1, 2]}, "2 phase numbers given for 1 phase$"),
    ],
)
def test_bad_arguments_raise_value_errors(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        phase_odds([Phase.parse("2 sets of 3")], **kwargs)  # type: ignore[arg-type]


def test_no_phases_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one phase"):
        phase_odds([], deals=10)
    with pytest.raises(ValueError, match="expected phases"):
        phase_odds(["2 sets of 3"], deals=10)  # type: ignore[list-item]


# -- the command ----------------------------------------------------------------------

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def test_json_has_the_documented_shape() -> None:
    result = run("odds", "--deals", "4000", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["deals"] == 4000 and data["cards"] == 10 and data["seed"] == 0
    assert data["list"] == "standard" and data["natural_min"] == "group"
    assert [entry["phase"] for entry in data["phases"]] == list(range(1, 11))
    assert [entry["text"] for entry in data["phases"]] == [str(p) for p in STANDARD_PHASES]
    for entry in data["phases"]:
        assert set(entry) == {"phase", "text", "probability", "ci95"}
        low, high = entry["ci95"]
        assert 0 <= low <= entry["probability"] <= high <= 1
    library = phase_odds(STANDARD_PHASES, deals=4000)
    assert data["phases"] == library.to_dict()["phases"]


def test_same_seed_same_output_and_jobs_do_not_matter() -> None:
    args = ("odds", "--deals", str(CHUNK + 100), "--seed", "5", "--json")
    first = run(*args)
    assert first.exit_code == 0
    assert run(*args).stdout == first.stdout
    assert run(*args, "--jobs", "2").stdout == first.stdout
    assert run("odds", "--deals", str(CHUNK + 100), "--seed", "6", "--json").stdout != first.stdout


def test_table_by_default() -> None:
    result = run("odds", "--deals", "3000", "--seed", "2")
    assert result.exit_code == 0
    out = result.stdout
    for header in ("#", "phase", "probability", "95% CI", "1 in"):
        assert header in out
    assert "standard list: 3,000 deals of 10 cards" in out
    assert "1 set of 5 + 1 set of 3" in out
    entry = phase_odds(STANDARD_PHASES, deals=3000, seed=2).phases[0]
    low, high = entry.ci95
    assert f"{percent(entry.probability)}   {percent(low, 0.5)} – {percent(high, 0.5)}" in out
    assert "a numbered card in every group" in out


def test_house_list_from_phrases_and_numbers() -> None:
    result = run(
        "odds", "--phase", "3 sets of 3", "--phase", "1 run of 10", "--deals", "2000", "--json"
    )
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["list"] == "custom"
    assert [(e["phase"], e["text"]) for e in data["phases"]] == [
        (1, "3 sets of 3"),
        (2, "1 run of 10"),
    ]


def test_list_rules_and_natural_min() -> None:
    data = json.loads(run("odds", "--list", "edition-7", "--deals", "500", "--json").stdout)
    assert data["list"] == "edition-7"
    assert [e["text"] for e in data["phases"]] == [str(p) for p in PHASE_LISTS["edition-7"]]
    data = json.loads(run("odds", "--rules", "even-phases", "--deals", "500", "--json").stdout)
    assert [e["phase"] for e in data["phases"]] == [2, 4, 6, 8, 10]
    assert [e["text"] for e in data["phases"]] == [
        str(p) for p in preset("even-phases").phase_sequence
    ]
    data = json.loads(
        run("odds", "--rules", "natural-per-phase", "--deals", "500", "--json").stdout
    )
    assert data["natural_min"] == "phase" and len(data["phases"]) == 10
    data = json.loads(
        run(
            "odds",
            "--rules",
            "natural-per-phase",
            "--natural-min",
            "group",
            "--deals",
            "500",
            "--json",
        ).stdout
    )
    assert data["natural_min"] == "group"
    pair = ("odds", "--phase", "2 sets of 1", "--cards", "2", "--deals", "3000", "--json")
    group = json.loads(run(*pair).stdout)
    phase = json.loads(run(*pair, "--natural-min", "phase").stdout)
    assert phase["phases"][0]["probability"] > group["phases"][0]["probability"] + 0.05


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--list", "standard", "--phase", "2 sets of 3"), "either --list or --phase, not both"),
        (("--list", "nope"), "no phase list named 'nope'"),
        (("--phase", "2 sets of three and a flush"), "--phase 1: cannot read"),
        (("--rules", "nope"), "no rules preset named 'nope'"),
        (("--deals", "0"), "deals must be from 1 to 10000000000, not 0"),
        (("--cards", "109"), "cards must be from 1 to 108, not 109"),
        (("--cards", "0"), "cards must be from 1 to 108, not 0"),
        (("--jobs", "-1"), "jobs must be at least 0, not -1"),
        (("--plot", "chart.xyz"), "files (.png when the name has no ending), not 'chart.xyz'"),
        (("--plot", "no/such/folder/chart.png"), "no folder 'no/such/folder'"),
        (("--plot", "/proc/chart.png"), "--plot: cannot write '/proc/chart.png'"),
        (("--plot", "."), "--plot: '.' is a folder, not a file"),
        (("--plot", "/tmp"), "--plot: '/tmp' is a folder, not a file"),
        (("--deals", str(10**20)), "deals must be from 1 to 10000000000"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: tuple[str, ...], message: str) -> None:
    result = run("odds", "--deals", "100", *args) if "--deals" not in args else run("odds", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_bad_option_value_exits_2() -> None:
    result = run("odds", "--natural-min", "most")
    assert result.exit_code == 2
    assert "most" in result.output


def test_plot_writes_a_png(tmp_path: Path) -> None:
    target = tmp_path / "odds.png"
    result = run("odds", "--deals", "2000", "--plot", str(target), "--json")
    assert result.exit_code == 0
    json.loads(result.stdout)
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 10_000
    svg = tmp_path / "odds.svg"
    assert run("odds", "--deals", "500", "--list", "edition-7", "--plot", str(svg)).exit_code == 0
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and "edition-7 list: 500 deals of 10 cards" in text


def test_choose_phases_and_formatting() -> None:
    chosen = choose_phases(None, [], "edition-3")
    assert chosen.name == "edition-3" and chosen.phases == PHASE_LISTS["edition-3"]
    with pytest.raises(ValueError, match="not both"):
        choose_phases("standard", ["2 sets of 3"], None)
    assert choose_phases(None, ["2"], None).phases == (STANDARD_PHASES[1],)
    assert percent(1.0) == "100.00%" and percent(0.00001) == "0.00100%"
    assert percent(0.0097, like=0.0101) == "0.97%" and percent(0.0106, like=0.009) == "1.060%"
    assert one_in(1.0) == "1.0" and one_in(1 / 12345) == "12,345" and one_in(0.0) == "never"


def test_count_matrix_rows_are_ten_cards() -> None:
    counts = deal_counts(chunk_generator(0, 0), 100, 10)
    assert (counts.sum(axis=1) == 10).all()
    assert np.array_equal(counts, deal_counts(chunk_generator(0, 0), 100, 10))


def test_one_blas_thread_inside_and_the_count_restored_after() -> None:
    found = _openblas()
    if found is None:
        pytest.skip("NumPy does not use OpenBLAS here")
    _, get_threads = found
    before = get_threads()
    with single_blas_thread():
        assert get_threads() == 1
    assert get_threads() == before


def test_an_interval_with_nothing_found_reads_like_its_upper_bound() -> None:
    from phase10.cli.odds import odds_table

    result = phase_odds([Phase.parse("1 run of 12")], deals=20, cards=10, seed=1)
    assert result.phases[0].probability == 0
    console = Console(width=120, record=True)
    console.print(odds_table(result, "custom"))
    high = result.phases[0].ci95[1]
    assert f"0% – {high * 100:.2f}%" in console.export_text()


def test_rare_phases_keep_three_significant_figures() -> None:
    """3 deals in 200,000 is 0.0015%, not 0.002% (and its interval's low end not 0.000%)."""
    assert percent(3 / 200_000) == "0.00150%"
    assert percent(0.0000027, 3 / 200_000) == "0.00027%"
    assert percent(0.18247) == "18.25%" and percent(0.0032521) == "0.325%"


def test_nothing_on_standard_error_when_it_is_not_a_terminal() -> None:
    """The progress bar shows only on a terminal: a log or a pipe gets the answer alone."""
    result = run("odds", "--deals", "2000", "--seed", "1")
    assert result.exit_code == 0
    assert result.stderr == ""


def test_counts_read_in_the_singular_for_one() -> None:
    assert "standard list: 1 deal of 1 card" in run("odds", "--deals", "1", "--cards", "1").stdout


def test_plot_takes_what_matplotlib_writes_and_a_png_without_an_ending(tmp_path: Path) -> None:
    """The same file types as the tournament's chart: a JPEG by its name, a PNG by default."""
    assert run("odds", "--deals", "200", "--plot", str(tmp_path / "odds.jpg")).exit_code == 0
    assert (tmp_path / "odds.jpg").read_bytes()[:3] == b"\xff\xd8\xff"
    assert run("odds", "--deals", "200", "--plot", str(tmp_path / "odds")).exit_code == 0
    assert (tmp_path / "odds").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_negative_seed_deals_its_own_deals_the_same_every_time() -> None:
    """Seeds are whole numbers, negative ones too (as in the tournaments): a negative seed
    repeats its answer, and it is not its positive twin's."""
    phases = [Phase.parse("2 sets of 3")]
    once = phase_odds(phases, deals=3000, seed=-11)
    assert once == phase_odds(phases, deals=3000, seed=-11, jobs=1)
    assert once.phases != phase_odds(phases, deals=3000, seed=11).phases
