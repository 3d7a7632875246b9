"""``phase10 dice check`` and ``phase10 dice replay``: output, JSON and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

from phase10.cli.app import app
from phase10.dice import DiceGame, DiceSetup, dumps

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, ["dice", *args])


def test_dice_check_shows_the_best_scoring_way_with_exit_0() -> None:
    result = run("check", "1", "R5", "O5", "GW", "B9", "R9", "G9", "B2")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "yes: R5 O5 GW B9 R9 G9 B2 make phase 1 (2 sets of 3), 37 points",
        "  R5 O5 GW + R9 G9 B9",
        "  not used: B2",
    ]


def test_dice_check_json_and_exit_1_when_the_phase_is_not_made() -> None:
    result = run("check", "1", "r5,o5 gw b9 r9 g9 b2", "--json")  # one string, commas
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["complete"] is True and data["score"] == 37 and data["unused"] == ["B2"]
    assert data["dice"] == [face for group in data["groups"] for face in group]
    result = run("check", "4", "R5", "O5", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "phase": 4,
        "needs": "1 run of 7",
        "complete": False,
        "score": 0,
        "dice": [],
        "groups": [],
        "unused": [],
    }
    result = run("check", "4", "R5", "O5")
    assert result.exit_code == 1 and result.stdout.startswith("no: R5 O5 do not make phase 4")


def test_dice_check_bad_input_names_the_bad_token_with_exit_2() -> None:
    cases = {
        ("10", "G10", "G10", "G10"): "no roll shows G10 G10 G10: only 2 dice have a G10 face",
        ("1", "R5", "Y7"): "'Y7' is not a die face",
        ("11", "R5"): "phases run from 1 to 10, not 11",
        ("-1", "R5"): "phases run from 1 to 10, not -1",
        ("x", "R5"): "'x' is not a phase",
        ("1", *["R5"] * 11): "11 faces, but only 10 dice",
        ("1", "R5", "--jsn"): "no such option: --jsn",
    }
    for args, message in cases.items():
        result = run("check", *args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.stderr, (args, result.stderr)


def test_dice_replay_prints_the_game_turn_by_turn(tmp_path: Path) -> None:
    game = DiceGame(
        ["Ann", "Bob"],
        seed=2,
        setup=DiceSetup(
            order=(0, 1),
            phases=(10, 10),
            rolls=("G10 R10 O10 B10 G10 O10 RW BW GW GW", "R5 R6 R7 B8 R9 O10 B1 B2 R3 R4"),
        ),
    )
    for action in ("roll", "score"):
        game.apply(action)
    path = tmp_path / "game.json"
    path.write_text(dumps(game), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:2] == ["Turn order: Ann, Bob", "Ann, phase 10 (1 set of 5 + 1 set of 3):"]
    assert (
        lines[2]
        == "  roll 1: H1 G10, H2 R10, H3 O10, H4 B10, H5 G10, H6 O10, L1 RW, L2 BW, L3 GW, L4 GW"
    )
    assert lines[3].startswith("  completes phase 10 with R10 O10 O10 G10 G10 + B10 RW BW (H2 H3")
    assert lines[3].endswith("60 points, total 60")
    assert any("earns the First Finish Bonus: +40, total 100" in line for line in lines)
    assert lines[-1].endswith("to move)")
    game.apply("roll")
    game.apply("pass")
    path.write_text(dumps(game), encoding="utf-8")
    last = run("replay", str(path)).stdout.splitlines()[-1]
    assert last.startswith("Game over (Ann completed phase 10 and every other player had a last")
    assert last.endswith("Ann wins. Totals: Ann 100, Bob 0")


def test_dice_replay_refuses_what_is_not_a_record(tmp_path: Path) -> None:
    missing = run("replay", str(tmp_path / "nothing.json"))
    assert missing.exit_code == 2 and "there is no file" in missing.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "phase10-record", "version": 1}', encoding="utf-8")
    result = run("replay", str(bad))
    assert result.exit_code == 2 and "not a phase10-dice-record" in result.stderr


def test_the_dice_log_speaks_to_you_in_good_english() -> None:
    from phase10.dice.events import BonusKind, DiceGameEnded, EarnedBonus
    from phase10.dice.narration import describe

    names = ["You", "Bob"]
    bonus = EarnedBonus(0, BonusKind.FIRST_FINISH, 40, 140)
    assert describe(bonus, names) == "  You earn the First Finish Bonus: +40, total 140"
    assert describe(EarnedBonus(1, BonusKind.FIVE_PHASE, 40, 90), names).startswith("  Bob earns")
    ended = describe(DiceGameEnded((0,), (140, 90), "completed phase 10"), names)
    assert ended == "Game over (completed phase 10): You win. Totals: You 140, Bob 90"
