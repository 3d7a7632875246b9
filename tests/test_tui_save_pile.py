"""The terminal game with a save pile (Masters Edition) and Masters Variant #2: saving a
card, taking it back in a later hand, and giving up a phase, all by keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Select, Static

from phase10.core import (
    Arrangement,
    Card,
    Game,
    GiveUp,
    GivingUp,
    Rules,
    SavePile,
    Stage,
    parse_cards,
    preset,
)
from phase10.tui.app import PlayApp
from phase10.tui.screens import ChoiceScreen, HandEndScreen, InfoScreen, NewGameScreen
from phase10.tui.session import HUMAN, Session, Settings
from phase10.tui.widgets import GameLog, GroupRow, PilesPanel, SeatsPanel
from tui_driver import choose, enter, played_until, select, settle

SMALL = (80, 24)


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHASE10_HOME", str(tmp_path / "home"))


def arranged(rules: Rules, hands: tuple[str, str], seed: int) -> Session:
    """You (seat 0, first to play with these seeds) against one greedy opponent."""
    deal = Arrangement(
        hands=(parse_cards(hands[0]), parse_cards(hands[1])),
        discard=parse_cards("Y12"),
        draw=parse_cards("Y1 Y4 Y6 Y2"),
    )
    game = Game(["You", "Ann"], rules=rules, seed=seed, arrangement=deal)
    assert game.current == 0
    return Session(game, (HUMAN, "greedy"))


def shown(app: PlayApp, selector: str) -> str:
    """What a part of the table shows, as plain text at its width on screen."""
    on_top = app.screen.query(selector)  # a page on top, or else the table
    widget = on_top.first(Static) if on_top else app.query_one(selector, Static)
    console = Console(width=widget.content_region.width, color_system=None)
    with console.capture() as captured:
        console.print(widget.content)
    return captured.get()


async def test_a_card_saved_in_one_hand_is_taken_back_in_a_later_one() -> None:
    # Ann holds two sets of five: she goes out on her first turn, after your save
    session = arranged(
        Rules(phases=(1, 2), save_pile=SavePile.PRIVATE),
        ("R3 B3 G3 R5 B5 G5 Y9 B10 R12 G1", "R7 B7 G7 Y7 B7 R8 B8 G8 Y8 R8"),
        seed=0,
    )
    saved = Card.parse("Y9")
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert "Saved (none)" in shown(app, "#piles")
        assert "saved" in shown(app, "#seats")  # the seats count everyone's saved cards
        await pilot.press("d")
        await pilot.pause()
        assert "or save (S) a card" in " ".join(shown(app, "#prompt").split())
        # a save ends the turn: never the card under the cursor by accident
        await pilot.press("S")
        assert "select the card to save first" in app.error_text
        await select(pilot, app, [saved], click=False)
        await pilot.press("S")
        await pilot.pause()
        assert session.view.saved == (saved,)
        assert saved not in session.view.hand
        assert "Saved  9" in shown(app, "#piles")
        assert any("You save Y9 on the save pile" in line for line in app.query_one(GameLog).texts)

        await settle(pilot, app)  # Ann goes out: the hand's summary
        assert isinstance(app.screen, HandEndScreen)
        await pilot.press("enter")
        await settle(pilot, app)
        view = session.view
        assert view.hand_number == 2 and view.stage is Stage.DRAW
        assert view.saved == (saved,) and saved not in view.hand  # kept out of the deal
        assert "take a card back from your save pile (T)" in " ".join(shown(app, "#prompt").split())
        before = len(view.hand)
        await pilot.press("T")  # one card saved: no question asked
        await pilot.pause()
        view = session.view
        assert view.saved == () and saved in view.hand and len(view.hand) == before + 1
        assert view.stage is Stage.PLAY
        assert "Saved (none)" in shown(app, "#piles")
        log = app.query_one(GameLog).texts
        assert any("You take Y9 back from your save pile" in line for line in log)
        await pilot.press("T")
        assert app.error_text == "your save pile is empty"


async def test_giving_up_a_phase_under_masters_variant_2() -> None:
    session = arranged(
        preset("masters-variant-2"),
        ("R3 B3 G3 R5 B5 G5 Y9 B10 R12 G1", "R7 B7 G7 Y7 B7 R8 B8 G1 Y11 R2"),
        seed=0,
    )
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("G")  # nothing down yet: the engine says why not
        assert app.error_text == "draw a card (d) or take the discard (t) first"
        await pilot.press("d")
        laid = session.game.parse_action("lay 1: R3 B3 G3 + R5 B5 G5")
        await enter(pilot, app, laid, mouse=False)
        assert len(list(app.query(GroupRow))) == 2

        await pilot.press("G")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen) and dialog.title_text.startswith("Give up phase 1?")
        await pilot.press("enter")  # the first answer keeps it
        await pilot.pause()
        assert session.view.seats[0].laid == 0 and not session.view.seats[0].gave_up

        await pilot.press("G")
        await choose(pilot, app, GiveUp())
        view = session.view
        assert view.seats[0].gave_up and view.seats[0].laid is None and not view.melds
        assert "gave up" in shown(app, "#seats")
        assert not list(app.query(GroupRow))
        # this turn ends with a discard (or a save); then you draw back up to ten
        prompt = " ".join(shown(app, "#prompt").split())
        assert prompt.startswith("Discard (x) or save (S) a card to end your turn")
        await select(pilot, app, [Card.parse("Y9")], click=False)
        await pilot.press("x")
        await pilot.pause()
        assert len(session.view.hand) == 10
        log = app.query_one(GameLog).texts
        assert any("You give up" in line for line in log), log[-4:]
        assert any("back up to ten" in line for line in log)


async def test_public_save_piles_show_their_cards_and_the_keys_page_names_the_keys() -> None:
    rules = Rules(save_pile=SavePile.PUBLIC)
    deal = Arrangement(
        hands=(
            parse_cards("R3 B3 G3 R5 B5 G5 Y9 B10 R12 G1"),
            parse_cards("R7 B7 G7 Y7 B7 R8 B8 G1 Y11 R2"),
        ),
        discard=parse_cards("Y12"),
        saved=(parse_cards("B4"), parse_cards("G9 R11")),
    )
    session = Session(
        Game(["You", "Ann"], rules=rules, seed=0, arrangement=deal), (HUMAN, "greedy")
    )
    app = PlayApp(session=session, autosave=None, bot_delay=0, colour_blind=True)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        seats = shown(app, "#seats")
        assert "G9▲   R11●" in seats and "B4■" not in seats  # yours show by the piles
        assert "Saved  B4■" in shown(app, "#piles")
        await pilot.press("T")  # one saved card: taken at once
        await pilot.pause()
        assert "B4" in [str(card) for card in session.view.hand]
        await pilot.press("k")
        await pilot.pause()
        assert isinstance(app.screen, InfoScreen)
        page = shown(app, "#info-body")
        assert "take a saved card back" in page and "give up your phase" in page
        await pilot.press("escape", "r")
        await pilot.pause()
        page = " ".join(shown(app, "#info-body").split())
        assert "Every save pile is face up." in page
        assert "S saves the selected card, T takes a saved card back." in page


async def test_six_players_with_save_piles_fit_80_by_24() -> None:
    session = played_until(
        Settings(opponents=5, difficulty="greedy", seed=3, rules=preset("masters")),
        lambda s: s.view.stage is Stage.DRAW,
    )
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        seats, piles = app.query_one(SeatsPanel), app.query_one(PilesPanel)
        assert seats.region.height == 7 and piles.region.bottom <= seats.region.bottom
        header = shown(app, "#seats").splitlines()[0]
        assert "saved" in header and "score" in header  # nothing cut off at the right
        assert "plays" not in header  # the save piles' column takes its place at 80 columns
        assert "Saved (none)" in shown(app, "#piles")
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert "plays" in shown(app, "#seats").splitlines()[0]


async def test_the_new_game_form_offers_the_save_pile_and_giving_up() -> None:
    app = PlayApp(Settings(opponents=2, difficulty="greedy", seed=11), autosave=None)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        save_pile = screen.query_one("#rule-save_pile", Select)
        give_up = screen.query_one("#rule-give_up", Select)
        assert (save_pile.value, give_up.value) == (SavePile.OFF, GivingUp.OFF)
        screen.query_one("#preset", Select).value = "masters-variant-2"
        await pilot.pause()
        assert save_pile.value is SavePile.PRIVATE and give_up.value is GivingUp.FORFEIT
        save_pile.value = SavePile.PUBLIC
        rules = screen.read_settings().rules
        assert rules.save_pile is SavePile.PUBLIC and rules.give_up is GivingUp.FORFEIT
