"""The ``phase10`` command line: every command, its exit codes and its JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner, Result

import phase10
from phase10.cli import MISSING_EXTRA, main
from phase10.cli.app import OPTION_MEANINGS, app
from phase10.cli.demo import NAMES, EventLog, demo_game
from phase10.core import (
    SKIP,
    WILD,
    CardHit,
    Discarded,
    Event,
    Floating,
    GameEnded,
    GroupKind,
    HandEnded,
    HandStarted,
    LaidDown,
    Reshuffled,
    Skipped,
    TieBreakStarted,
    WentOut,
    WildGiven,
    parse_cards,
    parse_group,
    preset,
)

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"phase10 {phase10.__version__}"


def test_no_command_shows_the_commands() -> None:
    result = run()
    for command in ("check", "score", "phases", "rules", "demo"):
        assert command in result.output


# -- check ----------------------------------------------------------------------------


def test_check_says_yes_and_shows_a_way_with_wild_values() -> None:
    result = run("check", "2", "R7", "B7", "W", "G3", "G4", "W", "G6", "Y9")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "yes: R7 B7 W G3 G4 W G6 Y9 hold 1 set of 3 + 1 run of 4"
    assert lines[1:] == [
        "  set of 3: R7 B7 W=7",
        "  run of 4: G3 G4 W=5 G6",
        "  left in hand: Y9 (5 points)",
    ]


def test_check_says_no_with_exit_1() -> None:
    result = run("check", "1", "R7", "B7", "G3", "G4", "Y9")
    assert result.exit_code == 1
    assert result.stdout.startswith("no: R7 B7 G3 G4 Y9 do not hold 2 sets of 3")


def test_check_takes_a_phrase_and_one_quoted_string_with_commas() -> None:
    separate = run("check", "1 set of 3 + 1 run of 4", "R7", "B7", "W", "G3", "G4", "W", "G6")
    quoted = run("check", "1 set of 3 + 1 run of 4", "r7, b7, w, g3 g4,w,G6")
    assert separate.exit_code == quoted.exit_code == 0
    assert separate.stdout == quoted.stdout


def test_check_lays_the_most_cards_then_leaves_the_fewest_points() -> None:
    # R7 B7 W + G3 G4 W G6 lays 7 cards; Y9 Y9 W + G3 G4 W G6 B7 lays 8.
    result = run("check", "2", "R7 B7 W G3 G4 W G6 Y9 Y9")
    assert result.exit_code == 0
    assert "  set of 3: Y9 Y9 W=9" in result.stdout
    assert "  run of 4: G3 G4 W=5 G6 B7" in result.stdout
    assert "  left in hand: R7 (5 points)" in result.stdout
    # Same number of cards either way: the 10s are laid and the 1 is kept.
    result = run("check", "1 set of 3", "R10 B10 W R1 B1")
    assert "  set of 3: R10 B10 W=10" in result.stdout


def test_check_reads_other_phase_lists_and_the_natural_card_rule() -> None:
    result = run("check", "1", "--list", "island-paradise", "R1 B2 G3 Y4 R5 B6 W")
    assert result.exit_code == 0
    assert "run of 7: R1 B2 G3 Y4 R5 B6 W=7" in result.stdout
    all_wild_set = ("check", "2 sets of 3", "R7 W W W W W")
    assert run(*all_wild_set).exit_code == 1
    result = run(*all_wild_set, "--natural-min", "phase")
    assert result.exit_code == 0
    assert "W=" in result.stdout


def test_check_json_when_complete() -> None:
    result = run("check", "2", "R7 B7 W G3 G4 W G6 Y9", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["complete"] is True
    assert data["phase"] == "1 set of 3 + 1 run of 4"
    assert data["groups"] == [["R7", "B7", "W"], ["G3", "G4", "W", "G6"]]
    assert data["described"] == ["R7 B7 W=7", "G3 G4 W=5 G6"]
    assert data["kinds"] == ["set of 3", "run of 4"]
    assert data["left"] == ["Y9"] and data["left_points"] == 5
    assert data["natural_min"] == "group"


def test_check_json_when_not_complete() -> None:
    result = run("check", "--json", "1", "R7", "B7", "G3")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["complete"] is False
    assert data["phase"] == "2 sets of 3"
    assert data["groups"] == [] and data["described"] == [] and data["kinds"] == []
    assert data["cards"] == ["R7", "B7", "G3"]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["1", "R7", "R13"], "'R13'"),
        (["1", "R7, X5"], "'X5'"),
        (["1 set of 3 + 1 flush of 4", "R7"], "'flush'"),
        (["11", "R7"], "not 11"),
        (["0", "R7"], "not 0"),
        (["1", "--list", "nope", "R7"], "'nope'"),
        (["1", "R7 R7 R7"], "only 2 R7, not 3"),
        (["1", "W W W W W W W W W"], "only 8 W, not 9"),
        (["1", "S S S S S"], "only 4 S, not 5"),
        (["1", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12"], "at most 11 cards"),
        (["1", ","], "no cards"),
        (["-1", "R7"], "phase numbers run from 1 to 10 (the standard list), not -1"),
        (["99999999999", "R7"], "phase numbers run from 1 to 10 (the standard list), not 9999"),
        (["\u00b2", "R7"], "cannot read '\u00b2'"),
        (["1", "R7", "--jsn"], "no such option: --jsn (see phase10 check --help)"),
        (["-x", "R7"], "no such option: -x (see phase10 check --help)"),
    ],
)
def test_check_bad_input_exits_2_naming_the_problem(args: list[str], named: str) -> None:
    result = run("check", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert named in result.stderr


def test_check_without_cards_is_a_usage_error() -> None:
    assert run("check", "1").exit_code == 2


# -- score ----------------------------------------------------------------------------


def test_score() -> None:
    result = run("score", "R1", "R10", "W", "S")
    assert result.exit_code == 0
    assert result.stdout.strip() == "R1 R10 W S: 55 points"
    result = run("score", "--json", "r1, b12")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"points": 15}


@pytest.mark.parametrize(("cards", "named"), [("R7 Q2", "'Q2'"), ("S S S S S", "only 4 S")])
def test_score_bad_input_exits_2(cards: str, named: str) -> None:
    result = run("score", cards)
    assert result.exit_code == 2
    assert named in result.stderr


def test_the_anti_phase_card_is_read_once_by_check_score_and_hint() -> None:
    result = run("check", "1", "R7 B7 G7 R8 B8 G8 A")
    assert result.exit_code == 0
    assert "left in hand: A (15 points)" in result.stdout
    assert run("score", "R7 A").stdout.strip() == "R7 A: 20 points"
    result = run("hint", "down", "A R9", "--table", "R9 B9 G9", "--anti-phase")
    assert result.exit_code == 0 and "discard the Anti-phase card" in result.stdout
    result = run("hint", "down", "A R9", "--table", "R9 B9 G9")
    assert result.exit_code == 2 and "only with --anti-phase" in result.stderr
    twice = ["hint", "1", "A R7", "--discards", "A", "--anti-phase"]
    for args in (["check", "1", "A A"], ["score", "A A"], twice):
        result = run(*args)
        assert result.exit_code == 2 and "only 1 A, not 2" in result.stderr
    result = run("hint", "down", "R9", "--table", "R9 B9 A", "--anti-phase")
    assert result.exit_code == 2 and "the Anti-phase card can never be part of one" in result.stderr


# -- phases and rules -----------------------------------------------------------------


def test_phases_prints_the_standard_list_numbered() -> None:
    result = run("phases")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("standard")
    assert lines[1] == "  1. 2 sets of 3"
    assert lines[10] == " 10. 1 set of 5 + 1 set of 3"
    assert len(lines) == 11


def test_phases_of_another_list_and_of_an_unknown_one() -> None:
    result = run("phases", "--list", "island-paradise")
    assert result.exit_code == 0
    assert "  1. 1 run of 7" in result.stdout
    result = run("phases", "--list", "nope")
    assert result.exit_code == 2
    assert "'nope'" in result.stderr and "island-paradise" in result.stderr


def test_phases_all_lists_every_name_with_its_note() -> None:
    result = run("phases", "--all")
    assert result.exit_code == 0
    *lines, last = result.stdout.splitlines()
    assert len(lines) == len(phase10.PHASE_LISTS)
    assert any(line.startswith("island-paradise") and "Island Paradise" in line for line in lines)
    assert any(line.startswith("standard") and "official" in line for line in lines)
    # every list shows its first phase, the unnamed editions' too
    for line, (name, phases) in zip(lines, phase10.PHASE_LISTS.items(), strict=True):
        assert line.startswith(name) and line.endswith(f"phase 1: {phases[0]}"), line
    assert last == "(phase10 phases --list NAME prints one whole)"


def test_rules_lists_the_presets_and_the_options() -> None:
    result = run("rules")
    assert result.exit_code == 0
    for name, note in phase10.PRESET_NOTES.items():
        assert f"{name}  " in result.stdout and note in result.stdout
    for option in ("phase_order", "skip_target", "natural_min", "empty_draw_pile"):
        assert option in result.stdout
    assert "completed*, all" in result.stdout
    assert "\x1b[" not in result.stdout
    # every option says what it means (the table's third column)
    assert set(OPTION_MEANINGS) == {option for option, _ in phase10.Rules().describe()}


def test_rules_of_one_preset() -> None:
    result = run("rules", "--preset", "masters")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"masters: {phase10.PRESET_NOTES['masters']}")
    row = next(line for line in result.stdout.splitlines() if "phase_order" in line)
    assert row.split() == ["phase_order", "any", "sequence"]
    row = next(line for line in result.stdout.splitlines() if "skip_target" in line)
    assert row.split() == ["skip_target", "choose"]


def test_rules_of_an_unknown_preset_exits_2() -> None:
    result = run("rules", "--preset", "nope")
    assert result.exit_code == 2
    assert "'nope'" in result.stderr and "masters" in result.stderr


# -- demo -----------------------------------------------------------------------------


def test_demo_is_deterministic_for_a_seed() -> None:
    first = run("demo", "--seed", "5", "--players", "3")
    assert first.exit_code == 0
    assert first.stdout == run("demo", "--seed", "5", "--players", "3").stdout
    assert first.stdout != run("demo", "--seed", "6", "--players", "3").stdout


def test_demo_tells_the_game_hand_by_hand_and_ends_with_the_winner() -> None:
    result = run("demo", "--seed", "2")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Phase 10 demo: Ann, Bob, Cy and Dee; rules: official; seed 2"
    assert lines[2].startswith("Hand 1: ") and "deals; the turned-up card is" in lines[2]
    assert "  Scores after hand 1:" in lines
    assert any(" lays down phase 1 (2 sets of 3): " in line for line in lines)
    assert lines[-1].startswith("Winner: ") or lines[-1].startswith("Winners: ")
    assert "after " in lines[-1] and " hands" in lines[-1]
    assert "\x1b[" not in result.stdout


def test_demo_log_tells_every_public_event() -> None:
    seed, players = 4, 5
    result = run("demo", "--seed", str(seed), "--players", str(players))
    game, bots = demo_game(seed, players)
    events: list[Event] = []
    phase10.bots.play_game(game, bots, events.extend)
    text = result.stdout
    assert text.count(" lays down phase ") == sum(isinstance(e, LaidDown) for e in events)
    assert text.count(" hits ") == sum(isinstance(e, CardHit) for e in events)
    assert text.count("'s turn is passed (skipped)") == sum(isinstance(e, Skipped) for e in events)
    assert text.count("goes out") == sum(isinstance(e, WentOut) for e in events)
    assert text.count("Scores after hand ") == game.hand_number
    for name in NAMES[:players]:
        assert name in text
    winner = game.view(None).seats[game.winners[0]].name
    assert text.splitlines()[-1].startswith(f"Winner: {winner} ")


def test_demo_quiet_prints_only_the_result() -> None:
    full = run("demo", "--seed", "3", "--players", "2").stdout.splitlines()
    quiet = run("demo", "--seed", "3", "--players", "2", "--quiet")
    assert quiet.exit_code == 0
    assert quiet.stdout.splitlines() == [full[-1]]


@pytest.mark.parametrize("rules", ["masters", "wild-deal-up", "ten-hands", "floating"])
def test_demo_plays_other_rules(rules: str) -> None:
    result = run("demo", "--rules", rules, "--players", "3", "--seed", "1")
    assert result.exit_code == 0
    assert f"rules: {rules}" in result.stdout.splitlines()[0]
    assert result.stdout.splitlines()[-1].startswith("Winner")


def test_demo_masters_shows_declarations() -> None:
    result = run("demo", "--rules", "masters", "--players", "2", "--seed", "1")
    assert "  deal: Ann declares phase " in result.stdout


@pytest.mark.parametrize("players", ["1", "7"])
def test_demo_refuses_a_bad_player_count(players: str) -> None:
    result = run("demo", "--players", players)
    assert result.exit_code == 2
    assert f"2 to 6 players, not {players}" in result.stderr


def test_demo_refuses_an_unknown_preset() -> None:
    result = run("demo", "--rules", "nope")
    assert result.exit_code == 2
    assert "'nope'" in result.stderr and "official" in result.stderr


def test_event_log_tells_tie_breaks_and_shared_wins() -> None:
    log = EventLog(["Ann", "Bob", "Cy"], preset("official"))
    log.feed(
        [
            TieBreakStarted((0, 1)),
            HandStarted(11, 2, (0, 1), 0, SKIP, tie_break=True),
            Skipped(0),
            HandEnded(
                11, None, "the draw pile ran out", (15, 20, None), (90, 90, 300), (), (10, 10, 8)
            ),
            GameEnded((0, 1), "a shared win", (90, 90, 300)),
        ]
    )
    assert log.lines == [
        "",
        "Ann and Bob completed the last phase with the same total: "
        "they play a tie-break hand on the last phase",
        "",
        "Hand 11 (tie-break): Cy deals; the turned-up card is S (a Skip)",
        "  turn 1: Ann's turn is passed (skipped)",
        "  the hand ends: the draw pile ran out",
        "  Scores after hand 11:",
        "    player  hand  total  phase",
        "    Ann       15     90  all done",
        "    Bob       20     90  all done",
        "    Cy         -    300  9",
        "",
        "Winners: Ann and Bob (a shared win) with 90 points each after 11 hands",
    ]


def test_event_log_tells_wild_deal_ups_reshuffles_and_floating() -> None:
    log = EventLog(["Ann", "Bob"], preset("floating"))
    set_of_sevens = parse_group(GroupKind.SET, "R7 B7 W")
    log.feed(
        [
            HandStarted(1, 1, (0, 1), 0, WILD),
            WildGiven(1, 0),
            Discarded(0, parse_cards("R3")[0]),
            WildGiven(1, 1),
            Reshuffled(40),
            LaidDown(1, 1, (set_of_sevens,), (0,)),
            CardHit(0, WILD, 0, None, set_of_sevens.hit(WILD)),
            Floating(0),
        ]
    )
    assert log.lines == [
        "",
        "Hand 1: Bob deals; the turned-up card is W (a Wild)",
        "  deal: Bob gives the turned-up Wild to Ann",
        "  deal: Ann discards R3",
        "  deal: Bob keeps the turned-up Wild",
        "  deal: the discard pile is shuffled into a new draw pile of 40",
        "  deal: Bob lays down phase 1 (2 sets of 3): R7 B7 W=7",
        "  deal: Ann hits W=7 on Bob's set: R7 B7 W=7 W=7",
        "  deal: Ann's hand is empty: floating until a discard",
    ]


# -- the entry point ------------------------------------------------------------------


def test_main_without_the_cli_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delitem(sys.modules, "phase10.cli.app")
    monkeypatch.setitem(sys.modules, "typer", None)
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 1
    assert MISSING_EXTRA in capsys.readouterr().err
    assert "pip install 'phase10[cli]'" in MISSING_EXTRA


def test_main_runs_the_app(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "--json", "W"])
    assert exit_info.value.code == 0
    assert json.loads(capsys.readouterr().out) == {"points": 25}


def test_python_dash_m_end_to_end() -> None:
    command = [sys.executable, "-m", "phase10.cli", "check", "1", "R7 B7 G7 R3 B3 W", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["described"] == ["R3 B3 W=3", "R7 B7 G7"]
    done = subprocess.run(
        [sys.executable, "-m", "phase10.cli", "check", "1", "R13"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "'R13'" in done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_one_line_not_a_traceback() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "phase10.cli", "demo", "--seed", "1"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr == "error: cannot write the output: No space left on device\n"
