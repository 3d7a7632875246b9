"""The terminal game with the Anti-phase card (rules option ``anti_phase``): the card shows
as A wherever cards show, and going out with it asks whom it names, who moves down a phase."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static

from phase10.core import ANTI, AntiPhase, Arrangement, Discard, Game, Rules, Stage, parse_cards
from phase10.tui.app import PlayApp
from phase10.tui.render import card_text
from phase10.tui.screens import ChoiceScreen, HandEndScreen, rules_page
from phase10.tui.session import HUMAN, Session
from phase10.tui.widgets import CardChip, GameLog
from tui_driver import choose, enter, select, settle

SMALL = (80, 24)


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHASE10_HOME", str(tmp_path / "home"))


def shown(app: PlayApp, selector: str) -> str:
    """What a part of the screen shows, as plain text at its width."""
    on_top = app.screen.query(selector)
    widget = on_top.first(Static) if on_top else app.query_one(selector, Static)
    console = Console(width=widget.content_region.width, color_system=None)
    with console.capture() as captured:
        console.print(widget.content)
    return captured.get()


def test_the_anti_phase_card_has_a_face_and_a_style_of_its_own() -> None:
    chip = card_text(ANTI)
    # its letter reads without colour too (as W and S do), in colour-blind mode as well
    assert chip.plain == " A " == card_text(ANTI, colour_blind=True).plain
    others = {str(card_text(card).style) for card in parse_cards("W S R7 B7 G7 Y7")}
    assert str(chip.style) not in others
    # the rules page names the key where the rules hold the card
    assert "asks whom it names" in rules_page(Rules(anti_phase=AntiPhase.ON)).plain
    assert "asks whom it names" not in rules_page(Rules()).plain


async def test_going_out_with_the_anti_phase_card_names_who_moves_down() -> None:
    # A lies on the discard pile; you take it, lay down your two sets and go out with it
    deal = Arrangement(
        hands=(
            parse_cards("R7 B7 G7 Y7 B7 R8 B8 G8 Y8 G7"),
            parse_cards("R1 B2 G3 Y4 R5 B6 G9 Y10 R11 B12"),
            parse_cards("G1 Y2 R3 B4 G5 Y6 R9 B10 G11 Y12"),
        ),
        discard=parse_cards("Y12 A"),
        phases=(1, 4, 3),
    )
    rules = Rules(anti_phase=AntiPhase.ON)
    game = Game(["You", "Ann", "Bob"], rules=rules, seed=0, dealer=2, arrangement=deal)
    assert game.current == 0
    session = Session(game, (HUMAN, "greedy", "greedy"))
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert shown(app, "#piles").startswith("Discard  A ")
        await pilot.press("t")  # taken like any card
        await pilot.pause()
        chips = [chip for chip in app.query(CardChip) if chip.card == ANTI]
        assert len(chips) == 1 and str(chips[0].content) == " A "
        await enter(
            pilot, app, game.parse_action("lay 1: R7 B7 G7 Y7 B7 G7 + R8 B8 G8 Y8"), mouse=False
        )
        assert session.view.hand == (ANTI,) and session.view.stage is Stage.PLAY
        prompt = " ".join(shown(app, "#prompt").split())
        assert prompt.startswith("Go out with the Anti-phase card (x): name the player")

        await select(pilot, app, [ANTI], click=False)
        await pilot.press("x")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        assert "who moves down a phase" in dialog.title_text
        # only the players the engine lets it name
        assert [action for _, action in dialog.options] == [Discard(ANTI, 1), Discard(ANTI, 2)]
        assert dialog.options[0][0] == "Go out with A: Ann moves down a phase (3 phases done)"
        await choose(pilot, app, Discard(ANTI, 1))

        assert isinstance(app.screen, HandEndScreen)
        summary = " ".join(shown(app, "Static").split())
        # Ann had made phases 1-3, and must make 3 again
        assert "named: lost phase 3 ↓ (2 done)" in summary
        assert "advanced ✓ (1 done)" in summary  # you made phase 1
        log = app.query_one(GameLog).texts
        named = (
            "Ann moves down a phase, named by you with the Anti-phase card: "
            "phase 3 must be made again"
        )
        assert any(named in line for line in log), log[-4:]
        assert session.view.seats[1].phase == 2  # 0-based: phase 3 again
        await pilot.press("enter", "o")  # the score sheet marks her
        await settle(pilot, app)
        await pilot.pause()
        sheet = shown(app, "#info-body")
        assert "+65 65  ↓" in sheet and "↓ moved down a phase" in sheet
