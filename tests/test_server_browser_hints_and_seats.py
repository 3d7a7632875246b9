"""The hint's moves and a big table in Debian's Chromium driven by Playwright: the hint's
way to lay down is offered where the bounded list of ways left it out, and `a` selects the
cards the hint plays; at a six-seat table on a phone the five other seats fill two rows
above the piles and your hand floats over the foot of the page, yet on each of your turns
the piles and the prompt come into sight above your hand, uncovered, without a scroll of
your own; a host's question on such a narrow seat's button stays inside it; on a desk,
your buttons come into sight under a hand's result left open. Screenshots go to
test-artefacts/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from browser_support import require_browser

require_browser()

from browser_support import (  # noqa: E402
    PHONE,
    TIMEOUT,
    in_first_viewport,
    new_table,
    no_horizontal_scroll,
    play_turn,
    serve,
    shot,
    state,
    uncovered,
    wait_turn,
    wait_version,
)
from phase10.core import Draw, Game, LayDown, PlayerView  # noqa: E402
from phase10.core.labels import action_label  # noqa: E402
from phase10.search import searched_hint  # noqa: E402
from phase10.server.legal import LAY_WAYS  # noqa: E402
from server_support import free_port  # noqa: E402

pytestmark = pytest.mark.slow

LIMITS = ("--rate-limit", "1000", "--limit", "http_rate=1000", "--limit", "http_burst=1000")


#: a seed whose first turn is Ann's, whose hand after the draw lays its phase in more ways
#: than the list sends (LAY_WAYS), the hint's own way left out (checked below)
LAY_SEED = 40
#: three seats: Ann's first turn, whose hint discards the Skip on the second of the others
SKIP_SEED = 229


@contextmanager
def seeded(
    tmp_path_factory: pytest.TempPathFactory, seed: int, bot_delay: float = 0
) -> Iterator[str]:
    """A server whose every game is dealt from ``seed``, its bots playing at once (or
    ``bot_delay`` seconds apart)."""
    database = tmp_path_factory.mktemp(f"seed-{seed}") / "tables.sqlite3"
    delay = ("--bot-delay", str(bot_delay))
    with serve(database, free_port(), *delay, "--test-seed", str(seed), *LIMITS) as url:
        yield url


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with seeded(tmp_path_factory, 5) as url:
        yield url


@pytest.fixture(scope="module")
def paced_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Bots a fifth of a second apart: time for the page to be scrolled between turns."""
    with seeded(tmp_path_factory, 5, bot_delay=0.2) as url:
        yield url


@pytest.fixture(scope="module")
def lay_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with seeded(tmp_path_factory, LAY_SEED) as url:
        yield url


@pytest.fixture(scope="module")
def skip_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with seeded(tmp_path_factory, SKIP_SEED) as url:
        yield url


def first_draw(page: Any, base: str, seats: str) -> dict[str, Any]:
    """Ann's table of ``seats`` started, her first turn's card drawn: the state then."""
    new_table(page, base, seats=seats)
    page.click("#start")
    now = wait_turn(page)
    page.keyboard.press("d")
    return wait_version(page, now["version"] + 1)


def test_whom_to_skip_starts_on_the_hints_choice(skip_base: str, browser: Any) -> None:
    """The hint names the second of the other players: "Whom do you skip?" lists them in
    seat order, the focus on the hint's (Enter makes it), not on the first."""
    page = browser.new_context(bypass_csp=True).new_page()
    now = first_draw(page, skip_base, "3")
    advice = searched_hint(PlayerView.from_dict(now["view"]), deals=48)
    assert [str(step.action) for step in advice.steps] == ["discard S>p2"]
    page.keyboard.press("?")
    page.wait_for_selector("#hint-select", timeout=TIMEOUT)
    page.keyboard.press("a")
    page.keyboard.press("x")
    page.wait_for_selector("#choices button.choice", timeout=TIMEOUT)
    listed = page.eval_on_selector_all(
        "#choices button.choice", "els => els.map(e => e.dataset.action)"
    )
    assert listed == ["discard S>p1", "discard S>p2"]
    page.wait_for_function(
        "document.activeElement?.dataset?.action === 'discard S>p2'", timeout=TIMEOUT
    )
    page.keyboard.press("Enter")
    after = wait_version(page, now["version"] + 1)
    discarded = [
        e for e in after["view"]["history"] if e["type"] == "Discarded" and e["player"] == 0
    ]
    assert discarded[0]["card"] == "S" and discarded[0]["target"] == 2


def test_the_hints_way_to_lay_down_is_offered_and_a_selects_its_cards(
    lay_base: str, browser: Any
) -> None:
    game = Game(2, seed=LAY_SEED)
    assert game.current == 0
    game.apply(Draw())
    page = browser.new_context(bypass_csp=True).new_page()
    now = first_draw(page, lay_base, "2")
    view = PlayerView.from_dict(now["view"])
    assert view.hand == game.view(0).hand  # (the seed's deal, as found)
    lay = now["legal"]["lay"]
    assert not lay["complete"] and len(lay["ways"]) == LAY_WAYS
    advice = searched_hint(view, deals=48)  # (the server's: its review_deals)
    step = next(s for s in advice.steps if isinstance(s.action, LayDown))
    assert str(step.action) not in {way["action"] for way in lay["ways"]}

    # l before any hint: the ways are offered at once, and the hint is fetched; when it
    # comes, its way is put first, marked, with the focus on it
    page.keyboard.press("l")
    marked = page.wait_for_selector("#choices button.choice:has(.badge.hinted)", timeout=TIMEOUT)
    assert marked.get_attribute("data-action") == str(step.action)
    listed = page.eval_on_selector_all(
        "#choices button.choice", "els => els.map(e => e.dataset.action)"
    )
    assert listed[0] == str(step.action) and len(listed) == LAY_WAYS + 1
    page.wait_for_function(
        f"document.activeElement?.dataset?.action === {json.dumps(str(step.action))}",
        timeout=TIMEOUT,
    )
    page.keyboard.press("Escape")

    page.keyboard.press("?")
    page.wait_for_selector("#hint-select", timeout=TIMEOUT)
    # a: the cards the hint's first step plays, selected (each button names its place in
    # the view's hand)
    page.keyboard.press("a")
    places = page.eval_on_selector_all(
        ".hand [aria-pressed=true]", "els => els.map(e => Number(e.dataset.card))"
    )
    assert sorted(str(view.hand[i]) for i in places) == sorted(map(str, advice.steps[0].cards))
    # with no cards selected, the list of ways holds the hint's own first, marked
    page.keyboard.press("Escape")
    for place in places:
        page.click(f'.hand [data-card="{place}"]')
    assert not page.query_selector_all(".hand [aria-pressed=true]")
    page.keyboard.press("l")
    page.wait_for_selector("#choices", timeout=TIMEOUT)
    first = page.query_selector("#choices button.choice")
    assert first is not None and first.get_attribute("data-action") == str(step.action)
    assert "the hint's" in first.inner_text()
    # in the words of the other ways (each Wild with the value it stands for)
    assert first.inner_text().startswith(action_label(view, step.action))
    first.click()
    after = wait_version(page, now["version"] + 1)
    assert after["view"]["seats"][0]["laid"] is not None


def test_a_phone_at_six_seats_sees_the_piles_on_each_of_its_turns(base: str, browser: Any) -> None:
    phone = browser.new_context(bypass_csp=True, **PHONE).new_page()
    phone.goto(base + "/")
    phone.fill("input[name=name]", "Ann")
    phone.select_option("select[name=seats]", "6")
    phone.tap("#create")
    phone.wait_for_selector("#start", timeout=TIMEOUT)
    phone.tap("#start")
    turns = 0
    while turns < 6:
        now = wait_turn(phone)
        if now["view"]["stage"] == "game_over" or now["view"]["hand_results"]:
            break
        where = f"turn {turns}, {now['legal']['stage']}"
        assert no_horizontal_scroll(phone), where
        for part in ("#draw-pile", "#discard-pile", "#turn", "[data-card]", ".actions button"):
            assert in_first_viewport(phone, part), f"{where}: {part} is out of sight"
        for part in ("#draw-pile", "#discard-pile", "#turn"):
            assert uncovered(phone, part), f"{where}: the hand covers {part}"
        if turns == 0:
            shot(phone, "six-seats-phone", full_page=False)
        if now["legal"]["stage"] == "draw":
            turns += 1
        # (the page's own scroll, as a player left it, stays: only a turn's start moves it)
        play_turn(phone, now["version"], how="tap")
    assert turns >= 3
    assert Path("test-artefacts/six-seats-phone.png").exists()


def above_the_hand(page: Any, selector: str) -> bool:
    """Whether the element ends above the top of your floating hand (wholly in sight)."""
    return bool(
        page.evaluate(
            "s => document.querySelector(s).getBoundingClientRect().bottom"
            " <= document.querySelector('.mine').getBoundingClientRect().top + 1",
            selector,
        )
    )


def test_a_phone_keeps_the_piles_in_sight_as_your_hand_grows(base: str, browser: Any) -> None:
    """The drawn card wraps the hand to two rows and a refusal adds a line: the hand's
    panel grows within the turn, and the piles and the prompt are brought up above it."""
    phone = browser.new_context(bypass_csp=True, **PHONE).new_page()
    new_table(phone, base, seats="4")
    phone.tap("#start")
    checked = 0
    while checked < 12:  # (into the later hands, where the others' laid groups stand tall)
        now = wait_turn(phone)
        assert now["view"]["stage"] != "game_over"
        if now["legal"]["stage"] == "play" and not now["legal"]["lay"]["total"]:
            phone.keyboard.press("l")  # refused: "You cannot lay down your phase now."
            phone.wait_for_selector("#warning", timeout=TIMEOUT)
            for part in ("#draw-pile", "#discard-pile", "#turn"):
                assert above_the_hand(phone, part), f"the hand covers {part}"
            if not checked:
                shot(phone, "phone-hand-grown", full_page=False)
            checked += 1
        play_turn(phone, now["version"], how="tap")


def test_on_a_desk_your_buttons_come_into_sight_under_a_hands_result(
    paced_base: str, browser: Any
) -> None:
    """At 1280×860 a hand's result left open above your hand, with groups laid in the next
    hand, makes the table taller than the window: when your turn comes your buttons are
    brought into sight, the piles too, though you had scrolled to the top."""
    page = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 860}).new_page()
    new_table(page, paced_base, seats="4")
    page.click("#start")
    felt_bottom = "document.querySelector('.felt').getBoundingClientRect().bottom + scrollY"
    for _ in range(600):
        now = wait_turn(page)
        view = now["view"]
        if view["stage"] == "game_over":
            break
        if page.locator("#banner-title").count():
            for part in (".actions button", "#draw-pile", "#discard-pile"):
                assert in_first_viewport(page, part), f"{part} is out of sight"
            if page.evaluate(felt_bottom) > 860 + 40:  # (well past the window's foot)
                shot(page, "hand-end-desk-scrolled", full_page=False)
                return
        play_turn(page, now["version"])
        page.evaluate("scrollTo(0, 0)")  # (reading the table while the others play)
    raise AssertionError("the table never outgrew the window under a hand's result")


def test_a_hosts_question_on_a_narrow_seat_stays_inside_its_button(base: str, browser: Any) -> None:
    """At six seats on a phone a seat is a third of the screen wide: the host's "...'s seat
    to a bot for good? Press again" wraps inside its button, inside the seat."""
    host = browser.new_context(bypass_csp=True, **PHONE).new_page()
    new_table(host, base, seats="6")
    guest = browser.new_context(bypass_csp=True).new_page()
    guest.goto(host.input_value("#invite"))
    guest.fill("input[name=name]", "Bartholomew")
    guest.click("#join")
    host.wait_for_selector("#seat_bot-1", timeout=TIMEOUT)
    host.click("#start")
    wait_turn(host)
    host.tap("#seat_bot-1")
    button = "#seat_bot-1"
    assert host.inner_text(button).startswith("Bartholomew's seat to a bot for good?")
    inside = host.eval_on_selector(
        button,
        "b => { const r = b.getBoundingClientRect(), s = b.closest('.seat').getBoundingClientRect();"
        " return b.scrollWidth <= b.clientWidth + 1 && r.left >= s.left && r.right <= s.right; }",
    )
    assert inside, "the question runs over its button's edge"
    assert no_horizontal_scroll(host)


def test_moves_before_the_draw_say_to_draw_first(base: str, browser: Any) -> None:
    """x, l or h before drawing say what comes first (where they said only "You cannot
    discard now"), and t where the top discard may not be taken has the engine say why."""
    page = browser.new_context(bypass_csp=True).new_page()
    new_table(page, base, seats="2")
    page.click("#start")
    now = wait_turn(page)
    assert now["legal"]["stage"] == "draw"
    takes = any(entry["action"] == "take" for entry in now["legal"]["draw"])
    said = (
        "Draw a card (d) or take the discard (t) first."
        if takes
        else "Draw a card (d) first: the top discard cannot be taken."
    )
    for key in ("x", "l", "h"):
        page.keyboard.press(key)
        page.wait_for_function(
            f"document.querySelector('#warning')?.textContent === {json.dumps(said)}",
            timeout=TIMEOUT,
        )
    assert state(page)["version"] == now["version"]  # (nothing was played)
