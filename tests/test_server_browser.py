"""The browser client in Debian's Chromium, driven by Playwright: two people play a seeded
game with a bot to the end on the table, one closes the page and comes back by the seat
link, a spectator watches; a phone plays a whole hand by taps; a turn by the keyboard
alone; focus and open panels survive the bots' moves; a dealer gives the turned-up Wild
and both declare their phases; a card saved, a phase given up and the card taken back a
hand later (Masters Variant #2); a phone goes out with the Anti-phase card and names who
moves down; dead links lead somewhere; axe-core finds no serious
accessibility problem on any page. Screenshots are kept in test-artefacts/
(PHASE10_README_SHOTS=1 also redraws the README's)."""

from __future__ import annotations

import json
import random
import sqlite3
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import require_browser

require_browser()

from browser_support import (  # noqa: E402
    PHONE,
    TIMEOUT,
    axe_violations,
    in_first_viewport,
    new_table,
    no_horizontal_scroll,
    play_turn,
    select,
    serve,
    shot,
    state,
    uncovered,
    wait_turn,
    wait_version,
)
from phase10.bots import make_player  # noqa: E402
from phase10.core import Game, PlayerView, Rules, TakeSaved  # noqa: E402
from server_support import free_port  # noqa: E402

pytestmark = pytest.mark.slow

SEED = 61_803_398_874
#: with the masters rules, Ann deals the first hand of this seed and turns up a Wild
WILD_SEED = 1
LIMITS = ("--rate-limit", "1000", "--limit", "http_rate=1000", "--limit", "http_burst=1000")


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("browser") / "browser.sqlite3"


@pytest.fixture(scope="module")
def base(database: Path) -> Iterator[str]:
    with serve(database, free_port(), "--bot-delay", "0", "--test-seed", str(SEED), *LIMITS) as url:
        yield url


@pytest.fixture(scope="module")
def slow_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Bots that take their time, as on a real table (each move 0.3 s after the last)."""
    database = tmp_path_factory.mktemp("slow") / "slow.sqlite3"
    with serve(
        database, free_port(), "--bot-delay", "0.3", "--test-seed", str(SEED), *LIMITS
    ) as url:
        yield url


@pytest.fixture(scope="module")
def wild_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("wild") / "wild.sqlite3"


@pytest.fixture(scope="module")
def wild_base(wild_database: Path) -> Iterator[str]:
    """A server dealing every game from :data:`WILD_SEED` (a table of two people never
    has a seed chosen by its host, so the test picks the server's)."""
    options = ("--bot-delay", "0", "--test-seed", str(WILD_SEED), *LIMITS)
    with serve(wild_database, free_port(), *options) as url:
        yield url


def context(browser: Any, **options: Any) -> Any:
    """A browser context whose test code may wait on conditions in the page (Playwright
    evaluates them as code, which the server's Content-Security-Policy forbids; the pages
    themselves are checked under that policy in test_the_pages_run_under_the_security_policy).
    """
    options.setdefault("viewport", {"width": 1280, "height": 860})
    return browser.new_context(bypass_csp=True, **options)


def assert_accessible(page: Any, where: str) -> None:
    found = axe_violations(page)
    assert not found, f"{where}: {found}"


def test_two_browsers_play_a_game_with_a_bot_to_the_end(base: str, browser: Any) -> None:
    # no animations: a click waits until its target stops moving, on every turn
    contexts = (context(browser, reduced_motion="reduce") for _ in range(3))
    ann_context, bob_context, watcher_context = contexts
    ann = ann_context.new_page()
    new_table(ann, base, seats="3", preset="short-5", bots="random")
    invite = ann.input_value("#invite")
    seat_link = ann.input_value("#seat-link")

    bob = bob_context.new_page()
    bob.goto(invite)
    bob.fill("input[name=name]", "Bob")
    bob.click("#join")
    bob.wait_for_selector("text=The host starts the game.", timeout=TIMEOUT)
    ann.wait_for_selector("text=Seat 2: Bob", timeout=TIMEOUT)
    shot(ann, "lobby")
    assert_accessible(ann, "the lobby")

    ann.click("#start")
    wait_version(ann, 0)
    wait_version(bob, 0)

    watcher = watcher_context.new_page()
    watcher.goto(invite)
    watcher.click("#watch")
    wait_version(watcher, 0)
    assert watcher.locator("[data-card]").count() == 0
    assert state(watcher)["view"]["hand"] == "" and state(watcher)["you"] is None
    assert state(watcher)["legal"] is None

    pages = {0: ann, 1: bob}
    closed_once = False
    checked = False
    banners = 0
    for _ in range(2000):
        now = state(ann)
        view = now["view"]
        if view["stage"] == "game_over":
            break
        seat = view["current"]
        if seat not in pages:  # the bot plays on the server
            wait_version(ann, now["version"] + 1)
            continue
        page = pages[seat]
        mine = wait_version(page, now["version"])
        assert mine["legal"]["turn"] and mine["progress"]["label"] in page.inner_text("#progress")
        if not checked and view["melds"] and mine["legal"]["stage"] == "play":
            shot(page, "table", readme="web-table.png", full_page=False)
            assert_accessible(page, "the table in play")
            checked = True
        if page.locator("#banner-title").count():
            if not banners:
                shot(page, "hand-end", full_page=False)
            banners += 1
            assert "went out" in page.inner_text("#banner-title") or "nobody" in page.inner_text(
                "#banner-title"
            )
        if not closed_once and seat == 1 and now["version"] > 20:
            hand = state(bob)["view"]["hand"]
            bob_link = bob.input_value("#seat-link")
            bob.close()
            bob = context(browser).new_page()
            bob.goto(bob_link)
            pages[1] = page = bob
            assert wait_version(bob, now["version"])["view"]["hand"] == hand
            closed_once = True
        page.evaluate("scrollTo(0, document.body.scrollHeight)")  # as a player at their hand
        play_turn(page, now["version"])
        wait_version(ann, now["version"] + 1)
    else:
        raise AssertionError("the game did not end")
    assert closed_once and checked and banners
    for page in (ann, bob, watcher):
        page.wait_for_selector("#winner", timeout=TIMEOUT)
        # in sight, though the players' pages were scrolled down to their hands
        top = page.evaluate("document.querySelector('#winner').getBoundingClientRect().top")
        assert 0 <= top < page.viewport_size["height"] / 2, top
        # the result takes the last hand's banner's place, whoever moved last; each seat,
        # yours too, shows the phase it laid in the last hand beside its groups
        assert page.locator("#banner-title").count() == 0
        final = state(page)["view"]
        shown = page.locator(".opponents .seat .phase").all_inner_texts()
        assert len(shown) == len(final["seats"])
        laid = {seat["name"]: f"Phase {seat['laid']}: " for seat in final["seats"] if seat["laid"]}
        for section in page.locator(".opponents .seat").all():
            name = section.get_attribute("aria-label") or ""
            phase = section.locator(".phase").inner_text()
            if name in laid:
                assert phase.startswith(laid[name]) and phase.endswith("✓"), (name, phase)
        assert laid and all(name in shown_names(page) for name in laid)
    shot(ann, "game-over")
    shot(watcher, "spectator")
    assert_accessible(ann, "the result")
    assert ann.locator("#rematch").count() == 1 and watcher.locator("#rematch").count() == 0
    # your own seat, among the others once the game is over, is marked as yours
    assert ann.locator(".opponents .seat .badge.you").count() == 1
    assert watcher.locator(".badge.you").count() == 0

    # one click from the result to the game's review, of the player's own decisions
    review = ann.get_attribute("#review-game", "href") or ""
    assert review.startswith("/replay/") and review.endswith("?review=0"), review
    ann.click("text=Replay this game")
    ann.wait_for_selector("#replay-step", timeout=TIMEOUT)
    ann.keyboard.press("ArrowRight")
    ann.wait_for_selector("text=Action 1 of", timeout=TIMEOUT)
    ann.keyboard.press("n")  # the end of the first hand, with its scores
    ann.wait_for_selector("#replay-hand-end", timeout=TIMEOUT)
    assert "End of hand 1" in ann.inner_text("#replay-hand-end")
    # the table as the hand ended (the player who went out holds no cards), not the next deal
    ann.wait_for_selector(".replay-hand >> text=no cards left", timeout=TIMEOUT)
    shot(ann, "replay")
    assert_accessible(ann, "the replay")
    ann.goto(base + "/history")
    ann.wait_for_selector("text=Replay", timeout=TIMEOUT)
    listed = ann.inner_text("main")  # the winners by name, the time as a date
    assert "Invalid Date" not in listed and "undefined" not in listed
    shot(ann, "history")
    assert_accessible(ann, "the history")

    other = context(browser).new_page()
    other.goto(seat_link)
    assert wait_version(other, 0)["you"] == 0


def shown_names(page: Any) -> list[str]:
    return [s.get_attribute("aria-label") or "" for s in page.locator(".opponents .seat").all()]


def test_a_phone_plays_a_whole_hand_by_taps(slow_base: str, browser: Any) -> None:
    """At 390×844 with touch: no horizontal scroll, and on each of your turns the hand and
    the buttons are on screen without scrolling; a hand is played to its end by taps."""
    phone = context(browser, **PHONE).new_page()
    phone.goto(slow_base + "/")
    assert no_horizontal_scroll(phone)
    assert_accessible(phone, "the home page on a phone")
    phone.fill("input[name=name]", "Ann")
    phone.select_option("select[name=seats]", "4")
    phone.tap("#create")
    phone.wait_for_selector("#start", timeout=TIMEOUT)
    assert no_horizontal_scroll(phone)
    phone.tap("#start")
    turns = 0
    shot_taken = hinted_draw = False
    for _ in range(400):
        now = wait_turn(phone)
        if now["view"]["hand_results"]:
            break
        assert no_horizontal_scroll(phone), "the page scrolls sideways"
        assert in_first_viewport(phone, "[data-card]"), "the hand is not on screen"
        assert in_first_viewport(phone, ".actions button"), "the buttons are not on screen"
        if turns == 0 and now["legal"]["stage"] == "draw":
            # a hint at the draw makes its own choice the primary button: draw or take
            phone.tap("#act-hint")
            phone.wait_for_selector(".hint pre", timeout=TIMEOUT)
            verb = phone.inner_text(".hint pre").split()[0].lower()
            ids = phone.eval_on_selector_all(".actions button.primary", "els => els.map(e => e.id)")
            assert ids == [{"draw": "act-draw", "take": "act-take"}[verb]]
            phone.tap("text=Close the hint")
            hinted_draw = True
        if not shot_taken and now["legal"]["stage"] == "play":
            shot(phone, "phone", readme="web-phone.png", full_page=False)
            shot_taken = True
            # a hint opens below the hand, in sight and read whole, the hand no longer
            # floating over the table; closed, the hand floats again
            phone.tap("#act-hint")
            phone.wait_for_selector(".hint pre", timeout=TIMEOUT)
            said = phone.inner_text(".hint pre")  # a sentence, in the page's own font
            assert said[0].isupper(), said
            font = phone.eval_on_selector(".hint pre", "e => getComputedStyle(e).fontFamily")
            assert "monospace" not in font, font
            assert phone.eval_on_selector(".mine", "e => getComputedStyle(e).position") == "static"
            assert in_first_viewport(phone, ".hint") and uncovered(phone, ".hint pre")
            shot(phone, "phone-hint", full_page=False)
            # while it is open, the hint's first step is the primary button; closed, the usual
            primaries = ".actions button.primary"
            ids = "els => els.map(e => e.id)"
            wanted = {"lay": "act-lay", "hit": "act-hit", "discard": "act-discard"}
            assert phone.eval_on_selector_all(primaries, ids) == [wanted[said.split()[0].lower()]]
            phone.tap("text=Close the hint")
            assert phone.eval_on_selector(".mine", "e => getComputedStyle(e).position") == "sticky"
            usual = "act-lay" if now["legal"]["lay"]["total"] else "act-discard"
            assert phone.eval_on_selector_all(primaries, ids) == [usual]
        play_turn(phone, now["version"], how="tap")
        turns += 1
    else:
        raise AssertionError("the hand did not end")
    assert turns >= 3 and hinted_draw
    phone.wait_for_selector("#banner-title", timeout=TIMEOUT)
    assert no_horizontal_scroll(phone)
    # the hand's result is read at the top of the table, nothing over it
    phone.evaluate("scrollTo(0, 0)")
    assert in_first_viewport(phone, "#banner-title, #banner-close")
    assert uncovered(phone, "#banner-title, .hand-scores tbody tr, #banner-close")
    shot(phone, "phone-hand-end", full_page=False)
    phone.tap("#banner-close")
    assert phone.eval_on_selector(".mine", "e => getComputedStyle(e).position") == "sticky"
    landscape = context(
        browser, viewport={"width": 844, "height": 390}, has_touch=True, is_mobile=True
    )
    wide = landscape.new_page()
    wide.goto(phone.input_value("#seat-link"))
    wait_version(wide, 0)
    wide.wait_for_selector("[data-card]", timeout=TIMEOUT)
    assert no_horizontal_scroll(wide)
    shot(wide, "phone-landscape", full_page=False)


def test_a_whole_turn_by_the_keyboard_alone(base: str, browser: Any) -> None:
    """Also in the dark theme, with as little motion as the system asks for. A warning
    about a key pressed too soon stands until the next move; the form starts on the bot
    its list calls the default."""
    page = context(browser, color_scheme="dark", reduced_motion="reduce").new_page()
    page.goto(base + "/")
    assert page.input_value("select[name=bots]") == "greedy"
    assert page.eval_on_selector("select[name=bots]", "s => s.selectedOptions[0].text").endswith(
        " (default)"
    )
    new_table(page, base, seats="2")
    page.keyboard.press("Tab")  # the start button is reached by the keyboard too
    page.focus("#start")
    page.keyboard.press("Enter")
    now = wait_turn(page)
    version = now["version"]
    page.keyboard.press("x")  # nothing drawn yet: said right above the buttons
    takes = any(entry["action"] == "take" for entry in now["legal"]["draw"])
    first = "or take the discard (t) first." if takes else "first: the top discard cannot be taken."
    assert page.text_content(".actions-panel #warning") == f"Draw a card (d) {first}"
    assert_accessible(page, "a warning above the buttons in the dark theme")
    actions = []
    while True:
        actions.append(play_turn(page, version, how="keys"))
        now = state(page)
        version = now["version"]
        if now["view"]["current"] != now["you"] or now["view"]["stage"] == "draw":
            break
    assert actions[0] in ("draw", "take") and actions[-1].startswith("discard"), actions
    assert page.query_selector("#warning") is None
    # Playwright finds the elements, then runs the check in a second step: a bot's move in
    # between replaces the last-move line (keyed by version), and a node taken out of the
    # page has no computed style at all (an animation named ''). Only nodes still shown count.
    shown, animated = page.eval_on_selector_all(
        ".card, .last-move, .banner",
        "l => { const on = l.filter(e => e.isConnected); return [on.length, on"
        ".filter(e => getComputedStyle(e).animationName !== 'none')"
        ".map(e => e.className + ': ' + getComputedStyle(e).animationName)]; }",
    )
    assert shown and animated == [], animated
    assert_accessible(page, "the table in the dark theme")


def test_focus_and_open_panels_survive_the_bots_moves(slow_base: str, browser: Any) -> None:
    page = context(browser).new_page()
    new_table(page, slow_base, seats="4")
    page.click("#start")
    now = wait_turn(page)
    page.click("summary")  # the invite panel, opened
    play_turn(page, now["version"])  # draw
    now = state(page)
    # your move, as the server words it, beside your hand
    drawn = now["last_move"]
    assert drawn["seat"] == now["you"] and drawn["kind"] in ("draw", "take"), drawn
    assert page.text_content("span.last-move") == f"You {drawn['own']}"
    play_turn(page, now["version"])  # discard: now three bots move, one every 0.3 s
    page.focus("[data-card]")
    page.keyboard.press("ArrowRight")  # the second card of the hand has the focus
    page.evaluate("document.activeElement.dataset.marked = 'here'")
    assert page.evaluate("document.activeElement.dataset.card") is not None
    start = state(page)["version"]
    wait_version(page, start + 2)
    assert page.evaluate("document.activeElement.dataset.marked") == "here"
    assert page.evaluate("document.querySelector('details.links').open")
    live = "[aria-live], [role=status], [role=log], [role=alert]"
    assert page.eval_on_selector_all(live, "l => l.map(e => e.id)") == ["announce"]
    assert page.inner_text("#announce").strip()


@pytest.mark.parametrize("way", ["mouse", "keyboard"])
def test_giving_the_turned_up_wild_and_declaring_phases(
    wild_base: str, wild_database: Path, browser: Any, way: str
) -> None:
    """Masters rules with the dealer giving a turned-up Wild: Ann gives it to Bob, Bob
    discards a card, then Bob and Ann declare their phases, all with the mouse or all
    with the keyboard; both pages show the outcome and the server holds exactly it."""
    base = wild_base
    ann = context(browser).new_page()
    ann.goto(base + "/")
    ann.fill("input[name=name]", "Ann")
    ann.select_option("select[name=seats]", "2")
    ann.select_option("select[name=preset]", "masters")
    ann.click("text=Rules options")
    ann.select_option("select[name='opt:wild_deal_up']", "dealer_chooses")
    ann.click("#create")
    ann.wait_for_selector("#start", timeout=TIMEOUT)
    # the Rules panel says the rules in sentences, as the terminal game's rules page does
    ann.click("#rules-panel summary")
    ann.wait_for_selector("text=the dealer gives it to any player", timeout=TIMEOUT)
    assert "wild_deal_up" not in ann.inner_text("#rules-panel")
    bob = context(browser).new_page()
    bob.goto(ann.input_value("#invite"))
    bob.fill("input[name=name]", "Bob")
    bob.click("#join")
    ann.wait_for_selector("text=Seat 2: Bob", timeout=TIMEOUT)
    ann.click("#start")

    # Ann deals and turns up a Wild: she gives it to Bob (seat 2)
    view = wait_version(ann, 0)["view"]
    assert (view["stage"], view["dealer"], view["current"]) == ("give_wild", 0, 0)
    assert view["discard_pile"] == "W"
    ann.wait_for_selector("#give-1", timeout=TIMEOUT)
    assert ann.locator("#give-0").inner_text().startswith("Keep the Wild")
    assert ann.locator("#give-1").inner_text().startswith("Give the Wild to Bob")
    dealt = wait_version(bob, 0)["view"]
    assert dealt["stage"] == "give_wild" and len(dealt["hand"].split()) == 10
    assert bob.locator("#give-1").count() == 0  # not Bob's choice
    shot(ann, f"give-wild-{way}")
    if way == "mouse":
        ann.click("#give-1")
    else:
        ann.keyboard.press("2")

    # Bob has the Wild and eleven cards: he discards the lowest card
    view = wait_version(bob, 1)["view"]
    assert (view["stage"], view["current"], view["discard_pile"]) == ("wild_discard", 1, "")
    hand = view["hand"].split()
    assert len(hand) == 11 and hand.count("W") == dealt["hand"].split().count("W") + 1
    bob.wait_for_selector("text=discard a card", timeout=TIMEOUT)
    first = bob.locator("[data-card]").first
    card = hand[int(first.get_attribute("data-card"))]
    assert card[0] in "RBGY", hand
    if way == "mouse":
        first.click()
        bob.click("#act-discard")
    else:
        bob.keyboard.press("1")
        bob.keyboard.press("x")

    # Bob plays first, so he declares first (phase 3), then Ann (phase 10)
    view = wait_version(bob, 2)["view"]
    assert (view["stage"], view["current"], view["discard_pile"]) == ("declare", 1, card)
    assert len(view["hand"].split()) == 10
    bob.wait_for_selector("#declare-10", timeout=TIMEOUT)
    assert bob.locator("[id^=declare-]").count() == 10
    shot(bob, f"declare-{way}")
    if way == "mouse":
        bob.click("#declare-3")
    else:
        bob.keyboard.press("3")
    assert wait_version(ann, 3)["view"]["stage"] == "declare"
    ann.wait_for_selector("#declare-10", timeout=TIMEOUT)
    if way == "mouse":
        ann.click("#declare-10")
    else:
        ann.keyboard.press("0")

    # the first turn: Bob draws; both pages show the Wild's way and the declarations
    # (each log speaks to its reader: "You give ...", "... to you")
    lines = {
        ann: ("You give the turned-up Wild to Bob", "Bob declares phase 3", "You declare phase 10"),
        bob: (
            "Ann gives the turned-up Wild to you",
            "You declare phase 3",
            "Ann declares phase 10",
        ),
    }
    for page in (ann, bob):
        view = wait_version(page, 4)["view"]
        assert (view["stage"], view["current"]) == ("draw", 1)
        assert [seat["declared"] for seat in view["seats"]] == [10, 3]
        for line in lines[page]:
            page.wait_for_selector(f"#log >> text={line}", timeout=TIMEOUT)
    # (phases in any order: each seat says how many it has done, there being no next one)
    assert "Declared 3: 1 set of 4 + 1 run of 4 · 0/10 done" in ann.inner_text(".opponents")
    assert "Declared 10: 1 set of 5 + 1 set of 3" in bob.inner_text(".opponents")
    assert ann.inner_text("#progress").startswith("Phase 10: 1 set of 5 + 1 set of 3")
    shot(bob, f"declared-{way}")

    # the server stored exactly these actions, and its game is the pages' game
    table = state(ann)["table"]
    expected = ["give p1", f"discard {card}", "declare 3", "declare 10"]
    assert stored_actions(wild_database, table["id"]) == expected
    game = Game(["Ann", "Bob"], rules=Rules.from_dict(table["options"]["rules"]), seed=WILD_SEED)
    for action in expected:
        game.apply(action)
    assert state(ann)["view"] == game.view(0).to_dict()
    assert state(bob)["view"] == game.view(1).to_dict()
    assert str(game.discard_pile[-1]) == card and game.seats[1].declared == 2


def stored_actions(database: Path, table: str) -> list[str]:
    """The actions the server has stored for a table, in order."""
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "select text from actions where table_id = ? order by game_no, number", (table,)
        )
        return [row[0] for row in rows]


def test_the_score_sheet_and_colour_blind_mode(base: str, browser: Any) -> None:
    page = context(browser).new_page()
    page.goto(base + "/companion")
    names = page.locator("input.player-name")
    names.nth(0).fill("Ann")
    names.nth(0).press("Tab")
    names.nth(1).fill("Bob")
    names.nth(1).press("Tab")
    page.click("#add-hand")
    page.wait_for_selector("input.points", timeout=TIMEOUT)
    page.locator("input.left").nth(1).fill("R7 W S")
    page.locator("input.left").nth(1).press("Tab")
    page.wait_for_function(
        "document.querySelectorAll('input.points')[1].value === '45'", timeout=TIMEOUT
    )
    page.locator("input[type=checkbox]").nth(0).check()
    page.wait_for_selector("text=phase 2: 1 set of 3 + 1 run of 4", timeout=TIMEOUT)
    page.keyboard.press("Escape")
    page.click("#cb-toggle")
    assert page.evaluate("document.body.classList.contains('colour-blind')")
    # the button shows it is on, in more than colour
    assert page.get_attribute("#cb-toggle", "aria-pressed") == "true"
    ticked = "getComputedStyle(document.querySelector('#cb-toggle'), '::before').content"
    assert page.evaluate(ticked) == '"✓ "'
    shot(page, "score-sheet")
    assert_accessible(page, "the score sheet")


def test_the_score_sheet_by_keyboard_and_on_a_phone(base: str, browser: Any) -> None:
    """Names typed one after another with Tab all land (the sheet is redrawn as each is
    made, the focus kept); three players' sheet scrolls sideways on a phone; bad points
    and impossible cards say why in words and leave the totals."""
    page = context(browser, **PHONE).new_page()
    page.goto(base + "/companion")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("#add-player", timeout=TIMEOUT)
    page.click("#add-player")
    page.locator("input.player-name").nth(0).focus()
    for name in ("Ann", "Bob", "Cy"):
        page.keyboard.type(name)
        page.keyboard.press("Tab")  # past the name, to its remove button (three players)
        page.keyboard.press("Tab")
        if name != "Cy":
            assert page.evaluate("document.activeElement.className") == "player-name", name
    page.wait_for_selector(".sheet th >> text=Cy", timeout=TIMEOUT)
    assert page.locator(".sheet thead th").all_inner_texts() == ["Hand", "Ann", "Bob", "Cy"]
    page.click("#add-hand")
    page.wait_for_selector("td.total", timeout=TIMEOUT)
    page.wait_for_function(  # wider than the phone, once drawn with the totals
        "(() => { const e = document.querySelector('.scroll-x');"
        " return e && e.clientWidth > 0 && e.scrollWidth > e.clientWidth; })()",
        timeout=TIMEOUT,
    )
    assert no_horizontal_scroll(page)  # the page itself does not scroll sideways
    cy = page.locator("input.points").nth(2)
    cy.scroll_into_view_if_needed()
    cy.fill("-5")
    cy.press("Tab")
    page.wait_for_selector(
        "#status >> text=points are a whole number from 0 to 1000", timeout=TIMEOUT
    )
    assert "Hand 1, Cy" in page.inner_text("#status") and page.locator("td.total").count() == 3
    left = page.locator("input.left").nth(2)
    left.fill("R1 R1 R1")
    left.press("Tab")
    page.wait_for_selector("#status >> text=the deck holds only 2 R1, not 3", timeout=TIMEOUT)
    left = page.locator("input.left").nth(2)
    left.fill("R1 W")
    left.press("Tab")
    page.wait_for_function(
        "document.querySelectorAll('input.points')[2].value === '30'", timeout=TIMEOUT
    )
    assert page.locator("input.left").nth(2).input_value() == "R1 W"  # kept on the sheet
    shot(page, "score-sheet-phone", full_page=False)


def test_dead_links_lead_somewhere(base: str, browser: Any) -> None:
    """An unknown table, an unknown replay and a stale seat link each get a page that says
    so with a way on; a table the server says is gone is not tried again and again."""
    page = context(browser).new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(base + "/t/nosuchtable")
    page.wait_for_selector("#dead-title", timeout=TIMEOUT)
    assert page.inner_text("#dead-title") == "There is no such table"
    assert page.locator("#dead-home").count() == 1
    assert_accessible(page, "an unknown table")
    shot(page, "dead-table")

    page.goto(base + "/replay/987654")
    page.wait_for_selector("#dead-title", timeout=TIMEOUT)
    assert page.inner_text("#dead-title") == "There is no such replay"
    assert_accessible(page, "an unknown replay")

    # a mistyped address: a page, not the API's JSON (a table's or a game's without its id
    # too: /t/ alone had asked for the list of tables and never drawn)
    for typed in ("/histroy", "/t/", "/replay/"):
        answer = page.goto(base + typed)
        assert answer is not None and answer.status == 404
        page.wait_for_selector("#dead-title", timeout=TIMEOUT)
        assert page.inner_text("#dead-title") == "There is no such page"
        assert typed in page.inner_text(".dead p")
    assert_accessible(page, "an unknown page")

    # a seat link whose token no seat has: watch instead
    host = context(browser).new_page()
    new_table(host, base, seats="2")
    table = host.input_value("#invite").rsplit("/", 1)[1]
    page.goto(f"{base}/t/{table}#token=not-a-real-token-at-all-000000000")
    page.wait_for_selector("#dead-title", timeout=TIMEOUT)
    assert page.inner_text("#dead-title") == "This seat link no longer works"
    assert_accessible(page, "a stale seat link")
    shot(page, "dead-seat-link")
    page.click("#dead-watch")
    page.wait_for_selector("#watch", timeout=TIMEOUT)

    # a token kept for a table that is gone: the socket closes with 4404, once
    page.goto(base + "/")
    page.evaluate("localStorage.setItem('phase10:goneTable', 'some-old-token-that-no-table-has')")
    sockets.clear()
    page.goto(base + "/t/goneTable")
    page.wait_for_selector("#dead-title", timeout=TIMEOUT)
    page.wait_for_timeout(1500)
    assert page.inner_text("#dead-title") == "There is no such table"
    assert len(sockets) == 1, sockets


def test_the_pages_run_under_the_security_policy(base: str, browser: Any) -> None:
    """Every page draws itself with the server's Content-Security-Policy in force: no
    script, style or connection is refused, and nothing comes from another origin."""
    page = browser.new_context().new_page()
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text))
    page.on("pageerror", lambda error: refused.append(f"error: {error}"))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(base + "/")
    page.fill("input[name=name]", "Ann")
    page.click("#create")
    page.wait_for_selector("#start", timeout=TIMEOUT)
    page.click("#start")
    page.wait_for_selector("#draw-pile", timeout=TIMEOUT)
    page.wait_for_selector("[data-card]", timeout=TIMEOUT)
    for path in ("/history", "/companion", "/t/nosuchtable", "/replay/987654"):
        page.goto(base + path)
        page.wait_for_selector("main h1, main h2", timeout=TIMEOUT)
    assert not [text for text in refused if "Content Security Policy" in text], refused
    assert not [text for text in refused if text.startswith("error:")], refused
    assert all(url.startswith((base, "ws://127.0.0.1", "data:")) for url in requests), requests
    assert not [url for url in requests if "axe" in url], requests


def test_a_public_table_and_the_hosts_controls(base: str, browser: Any) -> None:
    """A table listed for anyone, joined from the home page; the host removes the player,
    whose page says so and stops trying to reconnect."""
    ann = context(browser).new_page()
    ann.goto(base + "/")
    assert_accessible(ann, "the home page")
    ann.fill("input[name=name]", "Ann")
    ann.select_option("select[name=seats]", "3")
    ann.check("input[name=public]")
    ann.click("#create")
    ann.wait_for_selector("#start", timeout=TIMEOUT)
    table = ann.input_value("#invite").rsplit("/", 1)[1]
    bob = context(browser).new_page()
    bob.goto(base + "/")
    bob.click(f"a[href='/t/{table}']")
    bob.fill("input[name=name]", "Bob")
    bob.click("#join")
    ann.wait_for_selector("#remove_player-1", timeout=TIMEOUT)
    assert ann.locator("#seat_bot-2").inner_text() == "Give to a bot"
    shot(ann, "lobby-host-controls")
    # the role passed and back: each new host is told
    ann.click("#hand_over-1")
    ann.click("#hand_over-1")
    bob.wait_for_selector("#status >> text=You are now the host of this table.", timeout=TIMEOUT)
    bob.wait_for_selector("#hand_over-0", timeout=TIMEOUT)
    bob.click("#hand_over-0")
    bob.click("#hand_over-0")
    ann.wait_for_selector("#status >> text=You are now the host of this table.", timeout=TIMEOUT)
    ann.wait_for_selector("#remove_player-1", timeout=TIMEOUT)
    ann.click("#remove_player-1")  # asked once more, on the button itself
    assert ann.inner_text("#remove_player-1") == "Remove Bob? Press again"
    bob.wait_for_timeout(300)
    assert bob.locator("#bye-title").count() == 0  # not yet
    ann.click("#remove_player-1")
    bob.wait_for_selector("#bye-title", timeout=TIMEOUT)
    assert bob.inner_text("#bye-title") == "The host removed you from the table."
    bob.wait_for_timeout(1500)  # no reconnection: the page stays as it is
    assert bob.locator("#bye-title").count() == 1
    assert bob.evaluate(f"localStorage.getItem('phase10:{table}')") is None
    ann.wait_for_selector("text=Seat 2: open", timeout=TIMEOUT)


def test_saving_a_card_giving_up_and_taking_it_back_a_hand_later(base: str, browser: Any) -> None:
    """Masters Variant #2 (save piles, giving up): Ann saves a card from her page instead
    of discarding, and later gives up her laid phase (asked once more); a socket with her
    seat plays the rest of the hand quickly, then in the next hand she takes the card back
    on a phone instead of drawing. Both layouts and the log show it."""
    page = context(browser).new_page()
    new_table(page, base, preset="masters-variant-2")
    page.click("#start")
    table = page.input_value("#invite").rsplit("/", 1)[1]
    ann = SeatSocket(base, table, page.evaluate(f"localStorage.getItem('phase10:{table}')"))
    now = ann.play_until(lambda s: bool(s["legal"]["saves"]))
    card = now["legal"]["saves"][0]["card"]
    wait_version(page, now["version"])
    select(page, [card])
    assert page.inner_text("#act-save").startswith(f"Save {card}")
    page.click("#act-save")
    view = wait_version(page, now["version"] + 1)["view"]
    assert view["saved"] == card and view["seats"][0]["saved_count"] == 1
    page.wait_for_selector(f"#log >> text=You save {card} on the save pile", timeout=TIMEOUT)
    assert page.locator(f".my-saved [data-saved='{card}']").count() == 1

    now = ann.play_until(lambda s: bool(s["legal"]["give_up"]))
    wait_version(page, now["version"])
    page.click("#act-give-up")
    page.wait_for_selector("#choices-title >> text=Give up your phase?", timeout=TIMEOUT)
    shot(page, "give-up")
    page.click("button.choice[data-action='give-up']")
    view = wait_version(page, now["version"] + 1)["view"]
    assert view["seats"][0]["gave_up"] and view["seats"][0]["laid"] is None
    page.wait_for_selector("#log >> text=You give up phase", timeout=TIMEOUT)
    assert page.locator("#act-give-up").count() == 0

    # the hand played out from the socket (never taking the card back); then, in the
    # next hand, Ann's page offers it instead of the draw
    now = ann.play_until(lambda s: bool(s["view"]["hand_results"] and s["legal"]["take_saved"]))
    assert [t["card"] for t in now["legal"]["take_saved"]] == [card]
    wait_version(page, now["version"])
    page.wait_for_selector(f"#take-saved-{card}", timeout=TIMEOUT)
    assert_accessible(page, "a masters table with a saved card")
    shot(page, "save-pile")
    phone = context(browser, **PHONE).new_page()
    phone.goto(page.input_value("#seat-link"))
    wait_version(phone, now["version"])
    phone.wait_for_selector(f"#take-saved-{card}", timeout=TIMEOUT)
    assert no_horizontal_scroll(phone)
    assert in_first_viewport(phone, "[data-card]"), "the hand is not on screen"
    shot(phone, "save-pile-phone", full_page=False)
    hand = len(now["view"]["hand"].split())
    phone.tap(f".my-saved [data-saved='{card}']")
    view = wait_version(phone, now["version"] + 1)["view"]
    assert view["saved"] == "" and len(view["hand"].split()) == hand + 1
    phone.wait_for_selector(
        f"#log >> text=You take {card} back from your save pile", timeout=TIMEOUT
    )
    ann.close()


def plain_move(state: dict[str, Any], *, hits: bool) -> str | None:
    """A plain player's next action, read from its ``legal`` block alone (None when the
    Anti-phase card names someone: the page chooses): draw, lay the first way, hit (when
    ``hits``), else discard a Skip or the numbered card least matched in the hand (never
    a Wild or the A). Deterministic, and independent of the bots, so a seed fixes the game."""
    legal = state["legal"]
    if legal["anti"]:
        return None
    if legal["draw"]:
        return "draw" if any(d["action"] == "draw" for d in legal["draw"]) else "take"
    if legal["lay"]["ways"]:
        return str(legal["lay"]["ways"][0]["action"])
    if hits and legal["hits"]:
        return str(legal["hits"][0]["hits"][0]["action"])
    if legal["skips"]:
        return str(legal["skips"][0]["action"])
    numbered = [d for d in legal["discards"] if d["card"][0] in "RBGY"] or legal["discards"]
    same = Counter(card[1:] for card in state["view"]["hand"].split() if card[0] in "RBGY")
    worst = min(numbered, key=lambda d: (same.get(d["card"][1:], 0), -int(d["card"][1:] or 0)))
    return str(worst["action"])


def test_going_out_with_the_anti_phase_card_on_a_phone(base: str, browser: Any) -> None:
    """The new-table form offers the Anti-phase card in words; three seats play plainly
    from their sockets until Bob holds only the A; on his phone his Discard button goes
    out with it and asks whom to name; he names Ann, and both pages show her move down."""
    page = context(browser).new_page()
    page.goto(base + "/")
    page.fill("input[name=name]", "Ann")
    page.select_option("select[name=seats]", "3")
    page.click("text=Rules options")
    anti = page.locator("label", has=page.locator("select[name='opt:anti_phase']"))
    assert anti.inner_text().startswith("Anti-phase card")
    assert "one in the deck" in anti.inner_text()
    page.select_option("select[name='opt:anti_phase']", "on")
    page.click("#create")
    page.wait_for_selector("#start", timeout=TIMEOUT)
    table = page.input_value("#invite").rsplit("/", 1)[1]
    tokens = [page.evaluate(f"localStorage.getItem('phase10:{table}')")]
    for name in ("Bob", "Cy"):
        request = urllib.request.Request(
            f"{base}/api/tables/{table}/join",
            data=json.dumps({"name": name}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            tokens.append(json.load(answer)["token"])
    seats = [SeatSocket(base, table, token) for token in tokens]
    page.wait_for_selector("text=Seat 3: Cy", timeout=TIMEOUT)
    page.click("#start")
    # (SEED deals Bob the A; he alone hits, so he sheds every other card)
    now = seats[0].state_at(0)
    for _ in range(200):
        seat = now["view"]["current"]
        if now["you"] != seat:  # that seat's own state of this version
            now = seats[seat].state_at(now["version"])
        action = plain_move(now, hits=seat == 1)
        if action is None:
            break
        seats[seat].send(action, now["version"])
        now = seats[seat].state_at(now["version"] + 1)
    assert now["you"] == 1 and now["view"]["hand"] == "A", "the seed no longer gets there"
    assert [a["seat"] for a in now["legal"]["anti"]] == [0, 2]
    assert now["view"]["seats"][0]["laid"] is not None  # Ann has a phase to lose

    phone = context(browser, **PHONE).new_page()
    phone.goto(f"{base}/t/{table}#token={tokens[1]}")
    wait_version(phone, now["version"])
    card = phone.locator("[data-card]")
    assert card.count() == 1 and card.get_attribute("aria-label") == "Anti-phase card"
    assert card.inner_text().split() == ["A", "ANTI"]
    button = phone.locator("#act-discard")
    assert button.inner_text().startswith("Go out with the Anti-phase card")
    button.tap()
    phone.wait_for_selector("#choices-title >> text=who moves down a phase?", timeout=TIMEOUT)
    offered = phone.locator("#choices button.choice")
    assert offered.all_inner_texts() == [
        "Go out with A: Ann moves down a phase",
        "Go out with A: Cy moves down a phase",
    ]
    assert no_horizontal_scroll(phone)
    assert in_first_viewport(phone, "#choices") and uncovered(phone, "#choices button.choice")
    shot(phone, "anti-phase-phone", full_page=False)
    assert_accessible(phone, "the Anti-phase card's chooser")
    # asked for first, the hint's own choice is pointed out among them
    assert phone.locator("#choices .badge.hinted").count() == 0
    phone.tap("#choices-cancel")
    phone.tap("#act-hint")
    phone.wait_for_selector(".hint pre", timeout=TIMEOUT)
    button.tap()
    phone.wait_for_selector("#choices-title >> text=who moves down a phase?", timeout=TIMEOUT)
    assert phone.locator("#choices button.choice .badge.hinted").count() == 1
    assert "the hint's" in phone.locator("#choices button.choice:has(.badge.hinted)").inner_text()
    phone.tap("button.choice[data-action='discard A>p0']")
    after = wait_version(phone, now["version"] + 1)
    ended = after["view"]["hand_results"][-1]
    assert ended["went_out"] == 1 and ended["phases_completed"] == [0, 1, 0]
    phone.wait_for_selector(
        "#log >> text=Ann moves down a phase, named by you with the Anti-phase card",
        timeout=TIMEOUT,
    )
    shot(phone, "anti-phase-moved-down")
    # Ann's page says it to her; the hand's banner and the scores mark her (she made
    # phase 1, then lost it)
    wait_version(page, now["version"] + 1)
    page.wait_for_selector(
        "#log >> text=You move down a phase, named by Bob with the Anti-phase card",
        timeout=TIMEOUT,
    )
    assert page.inner_text(".banner tbody tr:nth-child(1)").endswith("made it ✓, then moved down ▼")
    assert "moved down a phase" in page.inner_text(".scores tbody td:nth-of-type(1)")
    assert page.inner_text(".scores-key").endswith("; ▼ moved down a phase.")
    for seat in seats:
        seat.close()


class SeatSocket:
    """A player's own socket beside their page: plays greedy moves fast."""

    def __init__(self, base: str, table: str, token: str) -> None:
        sync_client = pytest.importorskip("websockets.sync.client")
        url = base.replace("http://", "ws://") + f"/ws/{table}"
        self.ws = sync_client.connect(url, legacy=True)
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.bot = make_player("greedy", random.Random(1))

    def mine(self) -> dict[str, Any]:
        """The next state where this seat is to move."""
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
            assert message["type"] != "error", message
            legal = message.get("legal")
            if message["type"] == "state" and legal and legal["turn"]:
                return message

    def state_at(self, version: int) -> dict[str, Any]:
        """The first state of at least this version (earlier ones are passed over)."""
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
            assert message["type"] != "error", message
            if message["type"] == "state" and message["version"] >= version and message["view"]:
                return message

    def send(self, action: str, version: int) -> None:
        self.ws.send(json.dumps({"type": "action", "action": action, "version": version}))

    def play_until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Greedy moves until a state of this seat's turn is ``done`` (returned unplayed)."""
        for _ in range(300):
            state = self.mine()
            if done(state):
                return state
            action = self.bot.choose(PlayerView.from_dict(state["view"]))
            assert not isinstance(action, TakeSaved), "the greedy bot took the card back"
            message = {"type": "action", "action": str(action), "version": state["version"]}
            self.ws.send(json.dumps(message))
        raise AssertionError("never got there")

    def close(self) -> None:
        self.ws.close()
