"""The terminal game, driven by Textual's Pilot: a whole game by keys and mouse."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from random import Random
from typing import Any

import pytest
from textual.widgets import Label, Static

from phase10.core import CardHit, Discarded, LaidDown, Rules, Stage, preset
from phase10.core.records import loads
from phase10.core.snapshots import snapshot
from phase10.tui.app import PlayApp
from phase10.tui.replay import ReplayApp
from phase10.tui.screens import GameOverScreen, HandEndScreen, InfoScreen, NewGameScreen
from phase10.tui.session import Session, Settings, replay_record
from phase10.tui.widgets import CardChip, GameLog, GroupRow
from tui_driver import Person, settle

SIZE = (120, 40)
#: seeds the undo's reshuffle in the whole game below (one where the person wins, having
#: laid down, hit on another's group and aimed a Skip)
UNDO_SALT = 8


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saved games and settings go to a directory of the test's own."""
    home = tmp_path / "home"
    monkeypatch.setenv("PHASE10_HOME", str(home))
    return home


def short_game(seed: int = 3, **changes: object) -> Settings:
    """Two greedy opponents, phases 1 and 2 only: a whole game in a few dozen moves."""
    values: dict[str, object] = {
        "opponents": 2,
        "difficulty": "greedy",
        "seed": seed,
        "rules": Rules(phases=(1, 2)),
    }
    values.update(changes)
    return Settings(**values)  # type: ignore[arg-type]


async def play_on(pilot, app: PlayApp, person: Person, stop_after: int | None = None) -> None:
    """Play the person's moves (and close result screens) until the end or ``stop_after``."""
    while True:
        await settle(pilot, app)
        assert app.session is not None
        if isinstance(app.screen, GameOverScreen):
            return
        if isinstance(app.screen, HandEndScreen):
            await pilot.press("enter")
            continue
        if stop_after is not None and person.moves >= stop_after:
            return
        await person.turn(pilot, app)


async def test_u_in_a_game_without_undo_says_so() -> None:
    app = PlayApp(short_game(undo=False), start=True, autosave=None, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert app.session is not None and app.session.human_to_move
        await pilot.press("d", "u")
        assert "undo is off for this game" in app.error_text
        assert app.session.view.stage is Stage.PLAY  # the draw stands


async def test_a_dialog_clears_passing_notices_over_it_but_keeps_warnings() -> None:
    app = PlayApp(short_game(), start=True, autosave=None, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("d", "u")  # "took back 1 action": a toast over the next dialog
        app.notify("the disk is full", severity="warning")
        await pilot.pause()

        def notices() -> list[str]:
            return [notice.message for notice in app._notifications]

        assert notices() == ["took back 1 action", "the disk is full"]
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, InfoScreen)
        assert notices() == ["the disk is full"]


async def test_keys_for_rules_not_in_play_say_so_at_any_stage() -> None:
    """S, T and G under rules without save piles or giving up: the same reason before
    drawing as after, not "draw first"."""
    app = PlayApp(short_game(), start=True, autosave=None, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert app.session is not None and app.session.view.stage is Stage.DRAW
        for drawn in (False, True):
            if drawn:
                await pilot.press("d")
                assert app.session.view.stage is Stage.PLAY
            for key, reason in (
                ("S", "these rules have no save piles"),
                ("T", "these rules have no save piles"),
                ("G", "these rules do not let a phase be given up"),
            ):
                await pilot.press("escape", key)
                assert reason in app.error_text, (drawn, key, app.error_text)


async def test_a_terminal_too_small_says_so() -> None:
    app = PlayApp(short_game(), start=True, autosave=None, bot_delay=0)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        note = app.query_one("#too-small", Static)
        assert note.display and "This terminal is 60×20" in str(note.render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not note.display


async def test_a_whole_game_by_keys_and_mouse_with_undo_save_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "autosave.json"
    person = Person(3)
    app = PlayApp(short_game(), start=True, autosave=save, bot_delay=0, rng=Random(UNDO_SALT))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        session = app.session
        assert session is not None and session.human_to_move
        assert session.view.stage is Stage.DRAW

        # an illegal attempt explains itself and changes nothing
        before = snapshot(session.game)
        await pilot.press("1", "l")
        assert "draw a card (d) or take the discard (t) first" in app.error_text
        await pilot.press("x")
        assert app.error_text  # discarding before drawing is refused too
        assert "✗" in str(app.query_one("#prompt", Static).render())
        assert snapshot(session.game) == before
        # the hint is what to do now: the refusal goes
        await pilot.press("question_mark")
        assert app.error_text == "" and app.hint_text.startswith("Hint")
        assert "✗" not in str(app.query_one("#prompt", Static).render())

        # undo takes back the person's draw
        await pilot.press("escape", "d")
        assert session.view.stage is Stage.PLAY and len(session.view.hand) == 11
        await pilot.press("u")
        assert app.session is not None and app.session.view.stage is Stage.DRAW
        # the same position, but the unseen cards are reshuffled (undo previews nothing)
        after = snapshot(app.session.game)["state"]
        assert after["seats"] == before["state"]["seats"]
        assert sorted(after["draw_pile"].split()) == sorted(before["state"]["draw_pile"].split())

        await play_on(pilot, app, person, stop_after=8)
        saved_actions = app.session.record().actions
        await pilot.press("q")
    assert loads(save.read_text()).actions == saved_actions

    # resume from the autosave and finish the game
    resumed = Session.load(save, autosave=save)
    assert resumed.record().actions == saved_actions
    app = PlayApp(session=resumed, autosave=save, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_on(pilot, app, person)
        assert isinstance(app.screen, GameOverScreen)
        result = str(app.screen.query_one("#result", Label).render())
        game = app.session.game  # type: ignore[union-attr]
        assert game.is_over and game.winners == (0,)
        assert "You win" in result and "You" in result

    # the person laid down, hit a card on another player's group, and aimed a Skip
    owners: dict[int, int] = {}
    hits_on_others = skips = lays = 0
    for event in game.history:
        if isinstance(event, LaidDown):
            owners.update(dict.fromkeys(event.group_ids, event.player))
            lays += event.player == 0
        elif isinstance(event, CardHit) and event.player == 0:
            hits_on_others += owners[event.group] != 0
        elif isinstance(event, Discarded) and event.player == 0 and event.card.is_skip:
            skips += event.target is not None
    assert lays >= 1 and hits_on_others >= 1 and skips >= 1
    assert "Skip whom?" in person.dialogs
    # the autosave is a record of the finished game, which says where undo reshuffled
    record = loads(save.read_text())
    assert record.tag("undo_reshuffles")
    assert record.winners == (0,) and replay_record(record).winners == (0,)


async def test_the_new_game_screen_starts_the_chosen_game(tmp_path: Path) -> None:
    app = PlayApp(Settings(seed=11), autosave=tmp_path / "a.json", bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        from textual.widgets import Input, Select

        screen.query_one("#opponents", Select).value = 1
        screen.query_one("#difficulty", Select).value = "random"
        screen.query_one("#preset", Select).value = "masters"
        await pilot.pause()
        # choosing a preset fills in its options
        masters = preset("masters")
        assert screen.query_one("#rule-declare", Select).value is masters.declare
        screen.query_one("#name", Input).value = "Ann"
        await pilot.click("#start")
        await pilot.pause()
        error = str(screen.query_one("#new-error", Label).render())
        assert "'Ann' is an opponent's name" in error  # refused, still on the screen
        assert app.session is None
        screen.query_one("#name", Input).value = "Zed"
        screen.query_one("#seed", Input).value = "12"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        session = app.session
        assert session is not None
        assert session.names == ("Zed", "Ann") and session.controllers == ("human", "random")
        assert session.game.rules == masters and session.game.seed == 12


async def test_reference_pages_sort_and_colour_blind_mode(tmp_path: Path) -> None:
    app = PlayApp(short_game(), start=True, autosave=None, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        for key, title in (("p", "Phases"), ("r", "Rules"), ("k", "Keys")):
            await pilot.press(key)
            assert isinstance(app.screen, InfoScreen) and app.screen.title_text == title
            await pilot.press("d")  # the table's keys sleep under a dialog
            assert app.session is not None and app.session.view.stage is Stage.DRAW
            await pilot.press("escape")
            assert not isinstance(app.screen, InfoScreen)
        numbers = [chip.card for chip in app.query(CardChip)]
        await pilot.press("s")
        colours = [chip.card for chip in app.query(CardChip)]
        assert sorted(numbers, key=lambda c: c.index) == sorted(colours, key=lambda c: c.index)
        assert colours == sorted(colours, key=lambda c: c.color_sort_key)
        plain = str(app.query(CardChip).first().render())
        await pilot.press("c")
        marked = str(app.query(CardChip).first().render())
        assert plain != marked and any(mark in marked for mark in "●■▲◆WS")


async def test_hint_key_shows_the_solvers_advice() -> None:
    app = PlayApp(short_game(), start=True, autosave=None, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        text = str(app.query_one("#hint", Static).render())
        assert text.startswith("Hint: ") and ("draw" in text or "take" in text)
        # ? again: the whole hint in a page that scrolls with the keys; a move hides it
        await pilot.press("question_mark")
        assert isinstance(app.screen, InfoScreen) and app.screen.title_text == "Hint"
        # (each step and part on a line of its own, where the line under the hand joins them)
        assert app.screen.body == app.hint_text.removeprefix("Hint: ").replace(" · ", "\n")
        assert "\n" in app.screen.body and " · " not in app.screen.body
        await pilot.press("question_mark")  # (? again closes it)
        await pilot.pause()
        assert not isinstance(app.screen, InfoScreen)
        await pilot.press("question_mark")  # (and opens it again: the hint is still shown)
        assert isinstance(app.screen, InfoScreen)
        await pilot.press("escape", "d")
        await pilot.pause()
        assert app.hint_text == "" and not isinstance(app.screen, InfoScreen)


async def test_a_hint_longer_than_its_box_says_how_to_read_it_whole() -> None:
    app = PlayApp(short_game(), start=True, autosave=None, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.show_hint("Hint: " + "discard R7: it pairs with little; " * 12)
        await pilot.pause()
        box = app.query_one("#hint", Static)
        shown = str(box.render())
        # cut short, so the way to the rest is in the box rather than past its last line
        assert shown.endswith(" … (? again: the whole hint)")
        assert len(shown) <= box.content_size.width * box.content_size.height
        assert app.hint_text.endswith("pairs with little; ")  # (kept whole for ? again)
        app.show_hint("Hint: draw from the pile")
        await pilot.pause()
        assert str(app.query_one("#hint", Static).render()) == "Hint: draw from the pile"


async def test_opponents_think_in_a_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    threads: list[str] = []
    original = Session.bot_turn

    def spy(self: Session):  # type: ignore[no-untyped-def]
        turn = original(self)

        class Watched:
            def choose(self, view):  # type: ignore[no-untyped-def]
                threads.append(threading.current_thread().name)
                return turn.player.choose(view)

        return dataclasses.replace(turn, player=Watched())

    monkeypatch.setattr(Session, "bot_turn", spy)
    app = PlayApp(short_game(seed=2), start=True, autosave=None, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await Person(2).turn(pilot, app)
        await settle(pilot, app)
    assert threads and threading.main_thread().name not in threads


async def test_replay_steps_through_a_record(tmp_path: Path) -> None:
    session = Session.new(short_game(seed=5), autosave=None)
    while not session.game.is_over:
        if session.human_to_move:
            session.apply(session.game.legal_actions.__iter__().__next__())
        else:
            session.play_bot()
    record = session.record()
    steps = ReplayApp.read(record)
    # each action, the deal, and each hand's end but the last as a position of its own
    hands = len(session.game.hand_results)
    assert len(steps) == len(record.actions) + 1 + hands - 1
    app = ReplayApp(record, steps)
    async with app.run_test(size=SIZE) as pilot:
        title = app.query_one("#replay-title", Label)
        assert "action 0 of" in str(title.render())
        await pilot.press("right", "right")
        assert app.index == 2 and steps[2].said in str(title.render())
        await pilot.press("left")
        assert app.index == 1
        await pilot.press("n")
        assert steps[app.index].view.hand_number == 2
        await pilot.press("end")
        assert app.index == len(steps) - 1 and steps[-1].view.is_over
        await pilot.press("b", "home")
        assert app.index == 0
        assert len(app.query(GroupRow)) == 0


async def test_the_new_game_screen_offers_to_resume_an_unfinished_game(tmp_path: Path) -> None:
    save = tmp_path / "autosave.json"
    session = Session.new(short_game(seed=4), autosave=save)
    while not session.human_to_move:
        session.play_bot()
    session.apply("draw")
    actions = session.record().actions
    app = PlayApp(Settings(), autosave=save, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        saved = str(app.screen.query_one("#saved", Label).render())
        assert "hand 1 against 2 (greedy)" in saved
        await pilot.press("ctrl+r")
        await settle(pilot, app)
        assert app.session is not None and app.session.record().actions == actions
        assert app.session.view.stage is Stage.PLAY  # the person goes on after their draw


def test_undo_reshuffles_the_unseen_cards_and_reseeds_the_bots() -> None:
    import random

    def fresh() -> Session:
        session = Session.new(short_game(seed=4), autosave=None, rng=random.Random(1))
        while not session.human_to_move:
            session.play_bot()
        return session

    session = fresh()
    pile = list(session.game.draw_pile)
    session.apply("draw")
    first = session.view.hand
    session.undo()
    reshuffled = list(session.game.draw_pile)
    assert sorted(reshuffled, key=str) == sorted(pile, key=str) and reshuffled != pile
    session.apply("draw")
    # the card drawn again comes off the reshuffled pile, not the one seen before
    assert session.view.hand != first
    assert reshuffled[-1] in session.view.hand
    # the same salt from the same injected generator: deterministic
    again = fresh()
    again.apply("draw")
    again.undo()
    assert list(again.game.draw_pile) == reshuffled

    # discard, let the bots play, undo, discard the same card: the bots do not repeat
    card = session.view.hand[0]
    session.apply(f"discard {card}")
    start = len(session.game.actions)
    while not session.human_to_move:
        session.play_bot()
    first_replies = session.record().actions[start:]
    session.undo()
    session.apply(f"discard {card}")
    while not session.human_to_move:
        session.play_bot()
    assert session.record().actions[start:] != first_replies

    # the record says undo was used, and a resumed game stands exactly where this one does
    record = session.record()
    assert record.tag("undo_reshuffles", "").count(":") == 2  # one per undo still in play
    resumed = Session.from_record(record)
    assert snapshot(resumed.game)["state"] == snapshot(session.game)["state"]
    assert resumed.undo_points == session.undo_points
    # the replay viewer redoes the reshuffles too
    steps = ReplayApp.read(record)
    assert steps[-1].hands == tuple(session.game.hand(seat) for seat in range(3))


def unfinished_save(save: Path, seed: int = 4) -> tuple[str, ...]:
    """An autosave of a game in progress (the person has drawn); returns its actions."""
    session = Session.new(short_game(seed=seed), autosave=save)
    while not session.human_to_move:
        session.play_bot()
    session.apply("draw")
    return session.record().actions


async def choose_value(pilot, app: PlayApp, wanted: object) -> list[str]:  # type: ignore[no-untyped-def]
    """Answer the open choice dialog with the option worth ``wanted``; return its labels."""
    from textual.widgets import OptionList

    from phase10.tui.screens import ChoiceScreen

    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ChoiceScreen), screen
    values = [value for _, value in screen.options]
    screen.query_one(OptionList).highlighted = values.index(wanted)
    await pilot.press("enter")
    await pilot.pause()
    return [label for label, _ in screen.options]


async def test_starting_a_new_game_asks_first_and_keeps_the_unfinished_one(
    _data_home: Path,
) -> None:
    save = _data_home / "autosave.json"
    actions = unfinished_save(save)
    app = PlayApp(short_game(seed=9), autosave=save, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("ctrl+s")  # Play, out of habit
        await pilot.pause()
        from phase10.tui.screens import ChoiceScreen

        assert isinstance(app.screen, ChoiceScreen) and app.session is None  # it asks first
        assert loads(save.read_text()).actions == actions  # nothing is overwritten yet
        await pilot.press("escape")  # changed my mind: back to the form
        assert isinstance(app.screen, NewGameScreen) and app.session is None
        await pilot.press("ctrl+s")
        await choose_value(pilot, app, "new")
        await settle(pilot, app)
        assert app.session is not None and app.session.game.seed == 9
    kept = list((_data_home / "games").glob("*.json"))
    assert len(kept) == 1 and loads(kept[0].read_text()).actions == actions

    # the kept game is offered on the new-game screen, beside the one just started
    app = PlayApp(Settings(), autosave=save, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "2 unfinished games" in str(app.screen.query_one("#saved", Label).render())
        await pilot.press("ctrl+r")
        labels = await choose_value(pilot, app, kept[0])
        assert len(labels) == 2
        await settle(pilot, app)
        assert app.session is not None and app.session.record().actions == actions
        assert app.session.autosave == save
    # the game it replaced (seed 9) is kept in its turn
    seeds = {loads(path.read_text()).seed for path in (_data_home / "games").glob("*.json")}
    assert 9 in seeds


async def test_a_finished_or_unreadable_save_is_not_offered(tmp_path: Path) -> None:
    save = tmp_path / "autosave.json"
    save.write_text("not a record")
    app = PlayApp(Settings(), autosave=save, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and app.screen.saved is None
        assert not app.screen.query("#resume")
        await pilot.press("ctrl+r")  # nothing to resume: still choosing a new game
        assert isinstance(app.screen, NewGameScreen) and app.session is None


async def test_an_unreadable_save_is_kept_as_it_was_when_a_new_game_takes_its_place(
    _data_home: Path,
) -> None:
    save = _data_home / "autosave.json"
    text = '{"format": "phase10-record", "version": 2}'  # a newer release's save, say
    save.parent.mkdir(parents=True)
    save.write_text(text)
    app = PlayApp(short_game(seed=9), autosave=save, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert app.session is not None and app.session.game.seed == 9
        said = [notice.message for notice in app._notifications]
    kept = list((_data_home / "games").glob("autosave-unreadable-*.json"))
    assert len(kept) == 1 and kept[0].read_text() == text  # byte for byte
    assert any("could not be read" in m and str(kept[0]) in m for m in said), said
    assert loads(save.read_text()).seed == 9


async def test_the_hand_end_table_shows_cards_points_advances_and_a_tie_break() -> None:
    from textual.app import App

    from phase10.core import HandEnded

    result = HandEnded(
        hand=10,
        went_out=1,
        reason="went out",
        points=(15, 0, 40),
        totals=(120, 120, 300),
        advanced=(0, 1),
        phases_completed=(10, 10, 8),
        cards_left=(2, 0, 5),
    )
    note = "You and Ann completed the last phase with the same total: a tie-break hand."
    app: App[None] = App()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(HandEndScreen(result, ["You", "Ann", "Bob"], Rules(), note))
        await pilot.pause()
        from rich.console import Console

        console = Console(width=100, record=True)
        console.print(app.screen.query(Static).first().content)
        text = console.export_text()
        assert "Hand 10: Ann went out" in text
        cells = [line.replace("│", " ").replace("┃", " ").split() for line in text.splitlines()]
        rows = {cell[0]: cell[1:] for cell in cells if cell}
        assert rows["You"][:3] == ["2", "15", "120"] and "advanced" in " ".join(rows["You"])
        assert rows["Bob"][:3] == ["5", "40", "300"] and "same phase" in " ".join(rows["Bob"])
        assert str(app.screen.query_one("#hand-note", Label).render()) == note
        await pilot.press("enter")
        assert not isinstance(app.screen, HandEndScreen)


async def test_a_failing_autosave_warns_and_the_game_goes_on(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    save = blocked / "autosave.json"  # a file where a directory should be: cannot save
    session = Session(
        Session.new(short_game(seed=4), autosave=None).game,
        ("human", "greedy", "greedy"),
        autosave=save,
    )
    app = PlayApp(session=session, autosave=save, bot_delay=0)
    warnings: list[str] = []
    notify = app.notify

    def recording_notify(message: str, **options: Any) -> None:
        warnings.append(message)  # kept: a shown notification expires on a slow machine
        notify(message, **options)

    app.notify = recording_notify  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        before = len(session.game.actions)
        await pilot.press("d")
        assert len(session.game.actions) == before + 1  # the move stands
        assert session.save_error is not None and "could not save" in session.save_error
        assert any("could not save" in message for message in warnings)


async def test_declaring_a_phase_and_giving_the_turned_up_wild() -> None:
    from helpers import arranged
    from phase10.core import Declared, WildDealUp, WildGiven

    rules = preset("masters").with_options(wild_deal_up=WildDealUp.DEALER_CHOOSES)
    # the dealer (you) turns up a Wild and gives it; then everyone declares a phase
    game = arranged(
        ["R1 R2 R3 R4 R5 R6 R7 R8 R9 R10", "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10"],
        "W",
        rules=rules,
        dealer=0,
        names=["You", "Ann"],
    )
    session = Session(game, ("human", "greedy"))
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert session.view.stage is Stage.GIVE_WILD
        await pilot.press("e")
        assert "nothing to declare" in app.error_text  # the wrong question changes nothing
        await pilot.press("g")
        await choose_option(pilot, app, "Ann")
        await settle(pilot, app)
        given = [e for e in session.game.history if isinstance(e, WildGiven)]
        assert given and given[0].player == 1
        while session.view.stage is not Stage.DECLARE or not session.human_to_move:
            await settle(pilot, app)
        await pilot.press("e")
        assert "its number or Enter chooses" in str(app.screen.query_one(".muted", Label).render())
        await pilot.press("4")  # (the phase's number chooses it, as in the browser)
        await settle(pilot, app)
        declared = [e for e in session.game.history if isinstance(e, Declared) and e.player == 0]
        assert declared and declared[0].phase == 4


async def choose_option(pilot, app: PlayApp, label: str) -> None:  # type: ignore[no-untyped-def]
    from textual.widgets import OptionList

    from phase10.tui.screens import ChoiceScreen

    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ChoiceScreen), screen
    labels = [text for text, _ in screen.options]
    screen.query_one(OptionList).highlighted = labels.index(label)
    await pilot.press("enter")
    await pilot.pause()


async def test_your_phase_is_always_on_screen_and_o_shows_the_score_sheet() -> None:
    from rich.console import Console

    from phase10.core.feasibility import missing

    app = PlayApp(short_game(seed=3), start=True, autosave=None, bot_delay=0)
    person = Person(3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert app.session is not None
        view = app.session.view
        need = missing(view.phase_of(0), view.hand, view.rules.natural_min)
        line = str(app.query_one("#hand").border_subtitle)
        assert line.startswith("Your phase 1: 2 sets of 3 · ")
        assert (f"{need} card" in line) if need else ("you can lay it down" in line)
        await pilot.press("o")
        assert isinstance(app.screen, InfoScreen) and app.screen.title_text == "Score sheet"
        assert "No hand has ended yet" in str(app.screen.query_one("#info-body").render())
        await pilot.press("escape")
        # play on to the end of the first hand: the sheet has its row
        while not isinstance(app.screen, HandEndScreen):
            await person.turn(pilot, app)
            await settle(pilot, app)
            line = str(app.query_one("#hand").border_subtitle)
            over = isinstance(app.screen, HandEndScreen)
            assert line == "Hand 1 is over" if over else line.startswith(("Your phase", "Phase 1"))
        # behind the result, the table as the hand ended (the next is dealt already) and
        # a log that tells the next deal only once the result is dismissed
        ended = app.session.table_at_hand_end()
        assert ended.hand_number == 1 and app.session.view.hand_number == 2
        shown = sorted(str(chip.card) for chip in app.query(CardChip))
        assert shown == sorted(map(str, ended.hand))
        assert not any(text.startswith("Hand 2") for text in app.query_one(GameLog).texts)
        await pilot.press("enter")
        await settle(pilot, app)
        assert any(text.startswith("Hand 2") for text in app.query_one(GameLog).texts)
        assert sorted(str(chip.card) for chip in app.query(CardChip)) == sorted(
            map(str, app.session.view.hand)
        )
        await pilot.press("o")
        console = Console(width=100, record=True)
        console.print(app.screen.query_one("#info-body", Static).content)
        rows = [line.split() for line in console.export_text().splitlines()]
        first = next(row for row in rows if row and row[0] == "1")
        result = app.session.view.hand_results[0]
        assert f"+{result.points[0]}" in first and str(result.totals[0]) in first


async def test_a_long_refusal_wraps_and_an_old_one_clears_when_your_turn_comes() -> None:
    # the bots' pause is long, and the test hands them the move itself, so a slow machine
    # cannot let them play before the early key below is pressed
    app = PlayApp(short_game(seed=3), start=True, autosave=None, bot_delay=600)

    async def bots_play() -> None:
        # a bot's answer lands a message later than its worker ends: wait for both
        for _ in range(200):
            await app.workers.wait_for_complete()
            await pilot.pause()
            session = app.session
            idle = not app.thinking and not list(app.workers)
            if session is not None and session.human_to_move and idle:
                return
            app.advance()
        raise AssertionError("the bots never handed the move back")

    async with app.run_test(size=(80, 24)) as pilot:
        await bots_play()
        assert app.session is not None and app.session.human_to_move
        await pilot.press("d")
        await pilot.pause()
        assert app.session.human_to_move and app.session.game.stage is Stage.PLAY, app.error_text
        app.action_pick(1)  # the first card (this test is about the refusal, not the keys)
        await pilot.pause()
        assert app.selected == {0}, (app.selected, app.error_text)
        await pilot.press("h")  # hitting before laying down is refused
        await pilot.pause()
        assert app.error_text.startswith("lay down your phase (l) before you hit"), (
            app.selected,
            app.session.game.stage,
            len(app.session.game.actions),
            app.last_move,
        )
        prompt = app.query_one("#prompt", Static)
        text = str(prompt.render())
        assert app.error_text in text  # all of it, not cut at the edge
        assert prompt.size.height >= 2 and prompt.size.width <= 80
        await pilot.press("escape", "1", "x")  # a legal discard; the bots move next
        assert app.session is not None and not app.session.human_to_move, (
            app.screen,
            app.error_text,
        )
        await pilot.press("d")  # too early: refused
        assert "not your turn" in app.error_text
        await bots_play()
        assert app.session is not None and app.session.human_to_move
        assert app.error_text == "" and "✗" not in str(prompt.render())
