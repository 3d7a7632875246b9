"""The terminal table's layout (six players at 80 x 24, resizing), the new-game form, the
replay of every hand's end, and the table's small promises (x, Undo, the last move)."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Collapsible, Label, Select, Static
from textual.worker import Worker, WorkerState

from phase10.bots.greedy import GreedyPlayer
from phase10.core import (
    Discarded,
    Draw,
    Group,
    GroupKind,
    HandEnded,
    Meld,
    Rules,
    Stage,
    parse_cards,
)
from phase10.core.records import RecordError, loads
from phase10.search import searched_hint
from phase10.tui.app import PlayApp
from phase10.tui.render import my_phase_text, seat_phase_text
from phase10.tui.replay import ReplayApp
from phase10.tui.screens import NewGameScreen
from phase10.tui.session import Session, Settings
from phase10.tui.widgets import GameLog, GroupRow, PilesPanel, SeatsPanel
from tui_driver import played_until, settle, six_players_with_groups_down

SMALL = (80, 24)
LARGE = (120, 40)


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHASE10_HOME", str(tmp_path / "home"))


def on_screen(widget: Widget, size: tuple[int, int]) -> bool:
    """Whether the whole widget is inside the terminal."""
    region = widget.region
    return region.area > 0 and Region(0, 0, *size).contains_region(region)


async def test_six_players_fit_80_by_24() -> None:
    session = six_players_with_groups_down()
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert len(app.session.view.seats) == 6  # type: ignore[union-attr]
        # every seat's row, the hand, the prompt and the footer are in sight
        seats = app.query_one(SeatsPanel)
        assert on_screen(seats, SMALL) and seats.region.height == 7  # a header and six rows
        for name in ("#hand", "#prompt", "Footer", "#table-groups", "#log"):
            assert on_screen(app.query_one(name), SMALL), name
        assert app.query_one("#table-groups").region.height >= 6
        # each group takes one line; the table scrolls to the rest
        rows = list(app.query(GroupRow))
        assert len(rows) == len(session.view.melds) >= 8
        assert all(row.region.height == 1 for row in rows if row.region.area)
        # a card of the hand is one line high (plus the line a selected card rises into)
        assert app.query_one("#hand").region.height == 4


async def test_the_log_wraps_again_when_the_terminal_is_resized() -> None:
    session = six_players_with_groups_down()
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        log = app.query_one(GameLog)
        wide_lines = len(log.lines)
        assert wide_lines and log.texts
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        width = log.scrollable_content_region.width
        assert all(line.cell_length <= width for line in log.lines)
        assert len(log.lines) > wide_lines  # narrower: the same lines take more rows
        await pilot.resize_terminal(*LARGE)
        await pilot.pause()
        assert len(log.lines) == wide_lines


async def test_a_long_group_wraps_under_its_cards() -> None:
    session = six_players_with_groups_down()
    # a long run on the table (placed by hand: only its drawing is tested here)
    run = Group.make(GroupKind.RUN, parse_cards("R1 B2 G3 Y4 R5 W B7 G8 Y9 R10 B11 W"))
    session.game.melds.append(Meld(1, run))
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        row = app.query(GroupRow).last()
        row.scroll_visible(animate=False)
        await pilot.pause()
        title, cards = row.query_one(".group-title"), row.query_one(".group-cards")
        assert cards.region.height >= 2  # it wraps...
        assert cards.region.x >= title.region.right  # ...under the cards, not at column 0
        assert "Ann's run" in str(title.render())


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "120x40"])
async def test_the_new_game_form_asks_the_three_questions_first(size: tuple[int, int]) -> None:
    app = PlayApp(Settings(opponents=2, difficulty="greedy", seed=11), autosave=None)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        form = screen.query_one("#new-game")
        assert form.scroll_y == 0  # it opens at its top
        for field in ("#name", "#opponents", "#difficulty", "#start"):
            assert on_screen(screen.query_one(field), size), field
        more = screen.query_one(Collapsible)
        assert more.collapsed and not screen.query_one("#preset").region.area
        # the options speak words, not option names
        more.collapsed = False
        await pilot.pause()
        skip = screen.query_one("#rule-skip_target", Select)
        labels = [str(label) for label, _ in skip._options]
        assert labels == ["whom its discarder names", "the next player"]
        assert "skip_target" not in str(screen.query_one("Collapsible Label").render())
        # every dropdown is wide enough for its longest value (no value broken in two)
        for select in screen.query(Select):
            longest = max(len(str(label)) for label, _ in select._options)
            assert select.region.width >= longest + 6, select.id


def finished_with_undos(tmp_path: Path) -> Path:
    """A whole short game where the person used undo twice, saved; returns the file."""
    save = tmp_path / "game.json"
    session = Session.new(
        Settings(opponents=2, difficulty="greedy", seed=5, rules=Rules(phases=(1, 2))),
        autosave=save,
        rng=random.Random(1),
    )
    person = GreedyPlayer(random.Random(5))
    undone = 0
    while not session.game.is_over:
        if not session.human_to_move:
            session.play_bot()
            continue
        session.apply(person.choose(session.view))
        if undone < 2 and len(session.game.actions) > 10 * (undone + 1):
            session.undo()
            undone += 1
    return save


def test_a_record_with_undo_reshuffles_replays_through_game_record(tmp_path: Path) -> None:
    record = loads(finished_with_undos(tmp_path).read_text())
    assert record.tag("undo_reshuffles", "").count(":") == 2
    game = record.replay()  # used to refuse the record: its draws follow the reshuffles
    assert game.is_over and game.winners == record.winners
    assert tuple(seat.score for seat in game.seats) == record.totals
    tags = dict(record.tags) | {"undo_reshuffles": "12"}
    broken = dataclasses.replace(record, tags=tuple(tags.items()))
    with pytest.raises(RecordError, match="undo_reshuffles tag is unreadable"):
        broken.replay()


async def test_replay_shows_every_hands_end_with_its_own_number(tmp_path: Path) -> None:
    record = loads(finished_with_undos(tmp_path).read_text())
    steps = ReplayApp.read(record)
    game = record.replay()
    ends = [step for step in steps if step.ended is not None]
    assert [step.ended for step in ends] == list(game.hand_results)
    for step in ends:
        assert isinstance(step.ended, HandEnded)
        # the hand's last action is shown in its own hand, with the table as it ended
        assert step.view.hand_number == step.ended.hand and step.action is not None
        assert 0 in [len(cards) for cards in step.hands] or step.ended.went_out is None
    app = ReplayApp(record, steps)
    async with app.run_test(size=LARGE) as pilot:
        app.index = steps.index(ends[0])
        app.show()
        await pilot.pause()
        title = str(app.query_one("#replay-title", Label).render())
        assert title.startswith(f"Hand {ends[0].ended.hand} ·") and "the hand ends" in title  # type: ignore[union-attr]
        hands = str(app.query_one("#hands", Static).render())
        assert all(f"→ {total}" in hands for total in ends[0].ended.totals)  # type: ignore[union-attr]
        # the person's groups are "your" groups, and the step line says "You"
        for index in range(len(steps)):
            app.index = index
            app.show()
            titles = [row.title for row in app.query(GroupRow)]
            assert not any("You's" in text for text in titles)
            assert "You's" not in str(app.query_one("#replay-title", Label).render())
        # the log tells the person's draws as they saw them, the others' as "a card"
        app.index = len(steps) - 1
        app.show()
        told = app.query_one(GameLog).texts
        assert any(re.search(r"You draw (W|S|[RBGY]\d+)$", line) for line in told), told
        assert not any(re.search(r"You draw a card", line) for line in told), told
        others = [line for line in told if re.search(r"[A-Z][a-z]+ draws ", line)]
        assert others and all(line.endswith("draws a card") for line in others), others
        await pilot.pause()
    owners = {meld.owner for step in steps for meld in step.view.melds}
    assert 0 in owners  # the person laid groups down, so "your" was tried
    # --public tells the game as a spectator saw it: nobody's draws
    public = ReplayApp.read(record, reveal=False)
    assert "You draw a card" in [step.said for step in public]
    app = ReplayApp(record, public, reveal=False)
    async with app.run_test(size=LARGE) as pilot:
        app.index = len(public) - 1
        app.show()
        told = app.query_one(GameLog).texts
        draws = [line for line in told if re.search(r" draws? ", line)]
        assert draws and all(line.endswith(" a card") for line in draws), draws
        await pilot.pause()


def test_a_hands_end_shows_the_phase_laid_not_the_next(tmp_path: Path) -> None:
    """At a hand's end the next phase is already each maker's, but the table shows the
    groups they laid: their seat says that phase, down."""
    record = loads(finished_with_undos(tmp_path).read_text())
    checked = 0
    for step in ReplayApp.read(record):
        for seat, info in enumerate(step.view.seats):
            if info.laid is not None and info.phase == info.laid + 1 and not step.view.is_over:
                assert seat_phase_text(step.view, seat) == f"{info.laid + 1} down"
                checked += 1
    assert checked > 0


async def test_x_with_nothing_selected_discards_nothing() -> None:
    session = played_until(
        Settings(opponents=2, difficulty="greedy", seed=3), lambda s: s.view.stage is Stage.DRAW
    )
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        await pilot.press("d")
        hand = session.view.hand
        await pilot.press("x")
        assert session.view.hand == hand and session.view.stage is Stage.PLAY
        assert "select the card to discard" in app.error_text
        await pilot.click(PilesPanel, offset=(3, 0))  # a click on the discard pile, too
        assert session.view.hand == hand
        await pilot.press("1", "x")  # selected: it goes
        await pilot.pause()
        assert any(isinstance(event, Discarded) for event in session.game.history[-3:])


@pytest.mark.parametrize("undo", [True, False])
async def test_the_footer_offers_undo_only_with_undo_on(undo: bool) -> None:
    app = PlayApp(
        Settings(opponents=1, difficulty="greedy", seed=3, undo=undo),
        start=True,
        autosave=None,
        bot_delay=0,
    )
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        shown = [item.binding.action for item in app.screen.active_bindings.values()]
        assert ("undo" in shown) is undo


async def test_the_last_move_is_marked_on_the_table() -> None:
    session = played_until(
        Settings(opponents=2, difficulty="greedy", seed=3),
        lambda s: (
            s.view.stage is Stage.DRAW
            and any(isinstance(e, Discarded) and not e.card.is_skip for e in s.view.history)
        ),
    )
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        prompt = str(app.query_one("#prompt", Static).render())
        # the opponent before the person discarded: the line says so, the pile shows it
        assert re.search(r"Last move: (Ann|Bob) discards", prompt), prompt
        assert "◂" in str(app.query_one(PilesPanel).render())
    # the person lays down: their new groups are the marked ones
    laid = played_until(
        Settings(opponents=2, difficulty="greedy", seed=3),
        lambda s: s.view.stage is Stage.PLAY and s.view.seats[0].laid is not None,
    )
    app = PlayApp(session=laid, autosave=None, bot_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        marked = [row for row in app.query(GroupRow) if row.has_class("last")]
        assert marked and all(laid.view.melds[row.group_id].owner == 0 for row in marked)
        assert "Last move: You lay down phase" in str(app.query_one("#prompt", Static).render())


async def test_the_prompt_offers_a_lay_down_only_when_one_can_be_made() -> None:
    session = played_until(
        Settings(opponents=2, difficulty="greedy", seed=3),
        # drawn, and a card or more is missing from the phase
        lambda s: s.view.stage is Stage.PLAY and "missing" in my_phase_text(s.view),
    )
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot, app)
        prompt = str(app.query_one("#prompt", Static).render()).split("\n")[0]
        assert "missing" in str(app.query_one("#hand").border_subtitle)
        assert prompt == "Discard a card to end your turn (x)."


def test_every_rules_choice_has_words_for_the_form() -> None:
    from dataclasses import fields
    from enum import StrEnum

    from phase10.core.labels import RULE_OPTIONS

    rules = Rules()
    for item in fields(rules):
        value = getattr(rules, item.name)
        if isinstance(value, StrEnum):
            question, words = RULE_OPTIONS[item.name]
            assert question and set(words) == {member.value for member in type(value)}


async def test_the_table_keeps_showing_its_groups_while_the_computer_plays() -> None:
    session = six_players_with_groups_down(4)  # (with more down, a bot goes out at once)
    # the computer's moves paced, so that the table is seen between them (at no pace the
    # bots would end the hand before the first look)
    app = PlayApp(session=session, autosave=None, bot_delay=0.15)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        box = app.query_one("#table-groups")
        before = list(app.query(GroupRow))
        # the person draws and discards; the bots then play (hitting groups) until one goes
        # out; the table is redrawn after every move
        await pilot.press("d")
        for _ in range(200):  # (a busy machine can take a while over the draw)
            if app.session.view.stage is Stage.PLAY:  # type: ignore[union-attr]
                break
            await pilot.pause()
        await pilot.press("1", "x")
        moves = set()
        for _ in range(25):
            await pilot.pause(0.05)
            view = app.session.view  # type: ignore[union-attr]
            if view.hand_number != 1:
                break
            moves.add(len(view.history))
            shown = [r for r in app.query(GroupRow) if box.region.overlaps(r.region)]
            assert shown, "the table shows empty lines though groups are down"
            # the rows already on the table are redrawn in place, not rebuilt
            assert list(app.query(GroupRow))[: len(before)] == before
        assert len(moves) >= 3  # the table was looked at between several of the bots' moves


async def test_the_footer_fits_80_columns_and_names_the_key_for_every_key() -> None:
    from textual.widgets._footer import FooterKey

    app = PlayApp(session=six_players_with_groups_down(), autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        for _ in range(50):  # the footer redraws its keys when the bindings change
            keys = list(app.query(FooterKey))
            if keys and all(key.region.area for key in keys):
                break
            await pilot.pause()
        assert keys and all(on_screen(key, SMALL) for key in keys)
        assert keys[-1].region.right <= SMALL[0]
        shown = {key.key: key.description for key in keys}
        assert shown["k"] == "All keys" and {"d", "t", "l", "h", "x", "q"} <= set(shown)


async def test_the_new_game_form_takes_a_typed_name_and_enter_plays() -> None:
    app = PlayApp(Settings(opponents=2, difficulty="greedy", seed=11), autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert app.focused is screen.query_one("#name")
        # every focus stop is a field or a button one can see (the form itself is none)
        assert all(widget.id != "new-game" for widget in screen.focus_chain)
        await pilot.press("ctrl+a", "ctrl+k", *"Zoe", "enter")
        await settle(pilot, app)
        assert app.session is not None and app.session.names[app.session.human] == "Zoe"


async def test_keys_reach_every_card_and_the_hint_selects_its_cards() -> None:
    from phase10.core import Discard, Hit, LayDown

    app = PlayApp(session=six_players_with_groups_down(), autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        # at the draw there are no cards to select: the hint is shown, with its key
        first = searched_hint(app.session.view).steps[0]  # type: ignore[union-attr]
        await pilot.press("a")
        await pilot.pause()
        key = "d" if isinstance(first.action, Draw) else "t"
        # (on the hint's own line: a notification would cover the prompt)
        assert app.hint_text.startswith(f"Hint (press {key}): {first.text}: ")
        assert not app._notifications
        assert not app.selected
        await pilot.press("d")
        await pilot.pause()
        count = len(app.session.view.hand)  # type: ignore[union-attr]
        assert count >= 10
        await pilot.press("0")  # the 10th card
        assert app.selected == {9}
        await pilot.press("end", "right")  # the cursor stops at the end...
        assert app.cursor == count - 1
        await pilot.press("home", "left")  # ...and at the start
        assert app.cursor == 0
        advice = searched_hint(app.session.view)  # type: ignore[union-attr]
        await pilot.press("a")
        await pilot.pause()
        action = advice.steps[0].action
        if isinstance(action, (Discard, Hit)):
            wanted = [action.card]
        else:
            assert isinstance(action, LayDown)
            wanted = [card for group in action.groups for card in group.cards]
        shown = app._shown_hand()
        assert sorted(str(shown[p]) for p in app.selected) == sorted(map(str, wanted))
        # the move itself is kept, for a dialog of several ways to start on the hint's
        assert app.hinted == searched_hint(app.session.view).steps[0].action  # type: ignore[union-attr]
        await pilot.press("escape")
        assert app.hinted is None and not app.selected


async def test_a_skip_dialog_starts_on_the_player_the_hint_names() -> None:
    from textual.widgets import OptionList

    from phase10.core import Discard
    from phase10.tui.screens import ChoiceScreen

    app = PlayApp(
        Settings(opponents=3, difficulty="greedy", seed=3), start=True, autosave=None, bot_delay=0
    )
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("d")
        await pilot.pause()
        session = app.session
        assert session is not None
        view = session.view
        targets = view.skip_targets(session.human)
        assert len(targets) >= 2
        skip = next(card for card in view.hand if card.is_skip)
        # as if the hint had said "discard the Skip on" the last of them, and a pressed
        app.hinted = Discard(skip, targets[-1])
        app.selected = app._places_of([skip])
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.query_one(OptionList).highlighted == len(targets) - 1
        # and marked, as the browser marks it
        labels = [label for label, _ in app.screen.options]
        assert labels[-1] == f"{view.seats[targets[-1]].name} · the hint's"
        assert not any("hint" in label for label in labels[:-1])
        await pilot.press("enter")
        await pilot.pause()
        history = session.view.history
        played = [e for e in history if isinstance(e, Discarded) and e.player == session.human]
        assert played[-1].card == skip and played[-1].target == targets[-1]


async def test_l_says_the_hand_lacks_its_phase_when_nothing_is_selected() -> None:
    from phase10.bots.hints import hint
    from phase10.core import LayDown

    session = played_until(
        Settings(opponents=2, difficulty="greedy", seed=3),
        lambda s: (
            s.view.stage is Stage.PLAY
            and s.view.seats[s.human].laid is None
            and not any(isinstance(step.action, LayDown) for step in hint(s.view).steps)
        ),
    )
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("l")
        await pilot.pause()
        assert app.error_text == "your hand does not make your phase yet: ? shows what it misses"
        assert session.view.stage is Stage.PLAY and session.view.seats[session.human].laid is None


@pytest.mark.parametrize("key", ["d", "t"])
async def test_the_selection_stays_across_drawing(key: str) -> None:
    app = PlayApp(session=six_players_with_groups_down(), autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("1", "3")
        chosen = sorted(map(str, app._selected_cards()))
        await pilot.press(key)
        await pilot.pause()
        assert app.session is not None and app.session.view.stage is Stage.PLAY
        assert sorted(map(str, app._selected_cards())) == chosen


async def test_l_with_nothing_selected_lays_down_the_best_way() -> None:
    from phase10.bots.hints import hint
    from phase10.core import LayDown
    from phase10.tui.screens import ChoiceScreen

    session = played_until(
        Settings(opponents=2, difficulty="greedy", seed=3),
        lambda s: (
            s.view.stage is Stage.PLAY
            and any(isinstance(step.action, LayDown) for step in hint(s.view).steps)
        ),
    )
    app = PlayApp(session=session, autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert not app.selected
        await pilot.press("l")
        await pilot.pause()
        me = session.human
        laid = session.view.seats[me].laid is not None
        assert laid or isinstance(app.screen, ChoiceScreen), app.error_text
        assert "select the cards" not in app.error_text


async def test_a_refusal_goes_once_the_card_is_selected() -> None:
    app = PlayApp(session=six_players_with_groups_down(), autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("d", "x")
        await pilot.pause()
        prompt = app.query_one("#prompt", Static)
        assert "select the card to discard first" in str(prompt.render())
        await pilot.press("1")
        await pilot.pause()
        assert "✗" not in str(prompt.render())


async def test_the_discard_line_fits_on_one_line_at_80_columns() -> None:
    app = PlayApp(session=six_players_with_groups_down(), autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        piles = app.query_one(PilesPanel)
        width = piles.content_region.width
        assert len("Discard  R12 ◂ (108 cards)") <= width
        assert on_screen(app.query_one(SeatsPanel), SMALL)
        assert app.query_one(SeatsPanel).content_region.width >= 40


async def test_a_computer_move_due_as_the_app_closes_draws_nothing() -> None:
    """A paced computer move whose timer fires while the app is closing (its table already
    taken down) neither draws nor starts a move, and a move whose thinking ends then is not
    played: both used to fail looking for the table."""
    session = six_players_with_groups_down(4)
    app = PlayApp(session=session, autosave=None, bot_delay=0.15)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
    assert not app.is_running
    moves = len(session.game.actions)
    app.advance()  # (what the timer would call)
    app.refresh_table()
    assert len(session.game.actions) == moves and not app.thinking
    # nor does a computer's move whose thinking ends as the app closes: it is not played
    person = GreedyPlayer(random.Random(0))
    while session.human_to_move:  # (the person's turn, played here, so a computer moves)
        session.apply(person.choose(session.view))
    moves = len(session.game.actions)
    turn = session.bot_turn()
    done = SimpleNamespace(group="bot", result=(turn, turn.choose()))
    app.on_worker_state_changed(
        cast(Worker.StateChanged, SimpleNamespace(worker=done, state=WorkerState.SUCCESS))
    )
    assert len(session.game.actions) == moves


async def test_the_ways_to_lay_down_show_what_each_wild_stands_for() -> None:
    from phase10.tui.screens import ChoiceScreen
    from tui_driver import two_wilds_to_place

    app = PlayApp(session=two_wilds_to_place(), autosave=None, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        app.selected = app._places_of(parse_cards("R7 B7 G7 Y3 Y3 W W"))
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        labels = sorted(label for label, _ in app.screen.options)
        assert labels == [
            "set of 3s (Y3 Y3 W=3 W=3) + set of 7s (R7 B7 G7)",
            "set of 7s (R7 B7 G7 W=7) + set of 3s (Y3 Y3 W=3)",
        ]


def test_a_finished_game_s_hand_panel_names_no_turn() -> None:
    from tui_driver import played_to_the_end

    session = played_to_the_end(
        Settings(opponents=1, difficulty="greedy", seed=6, rules=Rules(phases=(1,)))
    )
    assert session.game.is_over
    me = session.view.seats[session.human]
    assert my_phase_text(session.view) == f"Phases done: {len(me.completed)} of 1"
