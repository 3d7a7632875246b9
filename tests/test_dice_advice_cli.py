"""``phase10 dice hint`` and ``phase10 dice odds``: answers, JSON and bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner, Result

from phase10.cli.app import app
from phase10.dice import parse_faces
from phase10.solver.dice import Strategy, advise, turn_odds

runner = CliRunner()
ROLL = "R5 G5 O5 R9 R9 G7 B1 B2 GW B3"


def run(*args: str) -> Result:
    return runner.invoke(app, ["dice", *args])


def test_hint_names_the_best_keep_and_compares_the_others() -> None:
    result = run("hint", "7", *ROLL.split(), "--rolls-left", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1].startswith("  keep R5 G5 O5 R9 R9 GW, roll 4: 41.05% to complete it")
    assert "[H1 H2 H3 H5 H4 L3]" in lines[1] or "[H1 H2 H3 H4 H5 L3]" in lines[1]
    assert "roll all ten: 3.97%" in result.stdout
    assert "keep all ten (stop): 0.00%" in result.stdout


def test_hint_json_matches_the_solver_and_keeps_what_is_set_aside() -> None:
    result = run("hint", "1", ROLL, "--rolls-left", "2", "--kept", "H1,B1", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    advice = advise(1, parse_faces(ROLL), rolls_left=2, kept=(0, 6))
    assert report["best"]["probability"] == pytest.approx(advice.best.probability)
    assert report["made_now"]["score"] == 33
    # with two rolls left what is set aside stays aside: every option keeps H1 and B1
    assert all({"R5", "B1"} <= set(option["keep"]) for option in report["options"])
    assert "H1" in report["best"]["keep_dice"]


def test_hint_may_take_back_with_one_roll_left_and_scores_with_none() -> None:
    result = run("hint", "8", ROLL, "--rolls-left", "1", "--kept", "H1 R9")
    assert result.exit_code == 0, result.output
    assert "take back H1" in result.stdout
    result = run("hint", "1", ROLL, "--rolls-left", "0")
    assert result.exit_code == 0
    assert "score phase 1" in result.stdout and "33 points" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("1", *ROLL.replace("B3", "X3").split(), "--rolls-left", "1"), "'X3' is not a die face"),
        (("1", *ROLL.split()[:9], "--rolls-left", "1"), "all 10 faces"),
        (("1", "G5 G5 G5 R9 R9 G7 B1 B2 GW B3", "--rolls-left", "1"), "only 1 die has a G5"),
        (("11", ROLL, "--rolls-left", "1"), "phases run from 1 to 10"),
        (("1", ROLL, "--rolls-left", "3"), "rolls left are 0, 1 or 2"),
        (("1", ROLL, "--rolls-left", "1", "--kept", "H7"), "'H7' is not a die"),
        (("1", ROLL, "--rolls-left", "1", "--kept", "O10"), "--kept O10: no O10 is showing"),
        (("1", ROLL, "--rolls-left", "1", "--kept", "R9,R9,R9"), "no other R9 is showing"),
        (("1", ROLL, "--rolls-left", "1", "--bogus"), "no such option: --bogus"),
    ],
)
def test_hint_bad_input_exits_2_naming_it(args: tuple[str, ...], message: str) -> None:
    result = run("hint", *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_odds_prints_the_exact_table() -> None:
    result = run("odds", "--json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    greedy_8 = next(r for r in rows if r["phase"] == 8 and r["strategy"] == "greedy")
    assert greedy_8["probability"] == pytest.approx(turn_odds(8, Strategy.GREEDY).probability)
    assert greedy_8["points"] == pytest.approx(turn_odds(8, Strategy.GREEDY).points)
    # phase 8's keeps for points (die by die) score more than every other strategy, and
    # give up a little chance for it
    row_8 = {(r["strategy"], r["objective"]): r for r in rows if r["phase"] == 8}
    most = row_8["optimal", "points"]
    assert all(r["points"] < most["points"] for key, r in row_8.items() if key[1] != "points")
    assert most["probability"] < row_8["optimal", "probability"]["probability"]
    assert 0 < row_8["one-roll", "probability"]["points"] < 1
    text = run("odds").stdout
    assert "    1  98.66%    32.90   97.57%    40.36" in text
    assert "    8  52.02%    19.51   51.89%    20.22   51.08%    19.71    1.14%     0.42" in text


def test_hint_for_points_in_phase_8_values_each_die() -> None:
    result = run(
        "hint",
        "8",
        "R5 G5 O5 R5 R7 G7 O3 O4 R2 R4",
        "--rolls-left",
        "1",
        "--objective",
        "points",
        "--json",
    )
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["best"]["keep"] == ["R5", "R5", "R7", "R2", "R4"]
    assert report["best"]["points"] == pytest.approx(8.97248, abs=1e-5)
    assert len(report["options"]) == 1024
