"""The browser client in Debian's Chromium, driven by Playwright: two people play a
seeded game with a bot to the end by mouse and keyboard, one closes the page and comes
back by the seat link, a spectator watches; a dealer gives the turned-up Wild and both
declare their phases, by mouse and by keyboard; screenshots of the main screens are
kept in test-artefacts/."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        "Debian's chromium is not installed (apt-get install -y chromium)", allow_module_level=True
    )
playwright_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")

from phase10.bots import make_player  # noqa: E402
from phase10.core import Discard, Game, Hit, LayDown, PlayerView, Rules, TakeDiscard  # noqa: E402
from server_support import free_port, server  # noqa: E402

ARTEFACTS = Path(__file__).parent.parent / "test-artefacts"
SEED = 61_803_398_874
#: with the masters rules, Ann deals the first hand of this seed and turns up a Wild
WILD_SEED = 1
TIMEOUT = 15_000


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("browser") / "browser.sqlite3"


@pytest.fixture(scope="module")
def base(database: Path) -> Iterator[str]:
    port = free_port()
    limits = ("--limit", "http_rate=1000", "--limit", "http_burst=1000")
    with server(database, port, "--rate-limit", "1000", "--test-seed", str(SEED), *limits):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def wild_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("wild") / "wild.sqlite3"


@pytest.fixture(scope="module")
def wild_base(wild_database: Path) -> Iterator[str]:
    """A server dealing every game from :data:`WILD_SEED` (a table of two people never
    has a seed chosen by its host, so the test picks the server's)."""
    port = free_port()
    limits = ("--limit", "http_rate=1000", "--limit", "http_burst=1000")
    options = ("--rate-limit", "1000", "--test-seed", str(WILD_SEED), *limits)
    with server(wild_database, port, *options):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        yield launched
        launched.close()


def context(browser: Any) -> Any:
    """A browser context whose test code may wait on conditions in the page (Playwright
    evaluates them as code, which the server's Content-Security-Policy forbids; the pages
    themselves are checked under that policy in test_the_pages_run_under_the_security_policy).
    """
    return browser.new_context(bypass_csp=True)


def shot(page: Any, name: str) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


def state(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.phase10State")
    return result


def wait_version(page: Any, version: int) -> dict[str, Any]:
    page.wait_for_function(
        f"window.phase10State && window.phase10State.view && "
        f"window.phase10State.version >= {version}",
        timeout=TIMEOUT,
    )
    return state(page)


def select(page: Any, cards: list[str]) -> None:
    """Click the hand's buttons for these cards (each physical card once)."""
    hand = state(page)["view"]["hand"].split()
    used: set[int] = set()
    for card in cards:
        index = next(i for i, c in enumerate(hand) if c == card and i not in used)
        used.add(index)
        page.click(f'[data-card="{index}"]')


def choose(page: Any, text: str) -> None:
    """Pick ``text`` among the offered choices when the client asks which one."""
    button = page.locator("button.choice", has_text=text)
    if button.count():
        button.first.click()
    elif page.locator("button.choice").count():
        page.locator("button.choice").first.click()


def settle(page: Any, version: int) -> None:
    """Wait until the action is played, or the client asks which one."""
    page.wait_for_function(
        f"window.phase10State.version > {version} || document.querySelector('button.choice')",
        timeout=TIMEOUT,
    )


def play_turn(page: Any, version: int) -> None:
    """One action chosen by a greedy bot from the page's own view, done with the UI."""
    current = state(page)
    view = PlayerView.from_dict(current["view"])
    bot = make_player("greedy", random.Random(version))
    action = bot.choose(view)
    if str(action) == "draw":
        page.click("#draw-pile")
    elif isinstance(action, TakeDiscard):
        page.keyboard.press("t")
    elif isinstance(action, Discard):
        select(page, [str(action.card)])
        page.keyboard.press("x")
        if action.target is not None:
            settle(page, version)
            choose(page, str(action))
    elif isinstance(action, LayDown):
        select(page, [str(card) for card in action.cards])
        page.keyboard.press("l")
        settle(page, version)
        choose(page, str(action))
    elif isinstance(action, Hit):
        select(page, [str(action.card)])
        page.click(f'[data-group="{action.group}"]')
        settle(page, version)
        choose(page, f"g{action.group}")
    else:
        raise AssertionError(f"unexpected action {action}")
    wait_version(page, version + 1)


def test_two_browsers_play_a_game_with_a_bot_to_the_end(base: str, browser: Any) -> None:
    ann_context, bob_context, watcher_context = (context(browser) for _ in range(3))
    ann = ann_context.new_page()
    ann.goto(base + "/")
    ann.fill("input[name=name]", "Ann")
    ann.select_option("select[name=seats]", "3")
    ann.select_option("select[name=preset]", "short-5")
    ann.select_option("select[name=bots]", "random")
    shot(ann, "new-table")
    ann.click("#create")
    ann.wait_for_selector("#start", timeout=TIMEOUT)
    invite = ann.input_value("#invite")
    seat_link = ann.input_value("#seat-link")

    bob = bob_context.new_page()
    bob.goto(invite)
    bob.fill("input[name=name]", "Bob")
    bob.click("#join")
    bob.wait_for_selector("text=The host starts the game.", timeout=TIMEOUT)
    ann.wait_for_selector("text=Seat 2: Bob", timeout=TIMEOUT)
    shot(ann, "lobby")

    ann.click("#start")
    wait_version(ann, 0)
    wait_version(bob, 0)

    watcher = watcher_context.new_page()
    watcher.goto(invite)
    watcher.click("#watch")
    wait_version(watcher, 0)
    assert watcher.locator("[data-card]").count() == 0
    assert state(watcher)["view"]["hand"] == "" and state(watcher)["you"] is None

    pages = {0: ann, 1: bob}
    closed_once = False
    shot_taken = False
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
        wait_version(page, now["version"])
        if not shot_taken and view["melds"]:
            shot(page, "table")
            shot_taken = True
        if not closed_once and seat == 1 and now["version"] > 20:
            hand = state(bob)["view"]["hand"]
            bob_link = bob.input_value("#seat-link")
            bob.close()
            bob = context(browser).new_page()
            bob.goto(bob_link)
            pages[1] = page = bob
            assert wait_version(bob, now["version"])["view"]["hand"] == hand
            closed_once = True
        play_turn(page, now["version"])
        wait_version(ann, now["version"] + 1)
    else:
        raise AssertionError("the game did not end")
    assert closed_once
    ann.wait_for_selector("#winner", timeout=TIMEOUT)
    bob.wait_for_selector("#winner", timeout=TIMEOUT)
    watcher.wait_for_selector("#winner", timeout=TIMEOUT)
    shot(ann, "game-over")
    shot(watcher, "spectator")
    assert ann.locator("#rematch").count() == 1 and watcher.locator("#rematch").count() == 0

    ann.click("text=Replay this game")
    ann.wait_for_selector("#replay-step", timeout=TIMEOUT)
    ann.keyboard.press("ArrowRight")
    ann.wait_for_selector("text=Action 1 of", timeout=TIMEOUT)
    shot(ann, "replay")
    ann.goto(base + "/history")
    ann.wait_for_selector("text=Replay", timeout=TIMEOUT)
    shot(ann, "history")

    other = context(browser).new_page()
    other.goto(seat_link)
    assert wait_version(other, 0)["you"] == 0


def test_keyboard_and_colour_blind_mode_and_the_score_sheet(base: str, browser: Any) -> None:
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
    shot(page, "score-sheet")


def stored_actions(database: Path, table: str) -> list[str]:
    """The actions the server has stored for a table, in order."""
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "select text from actions where table_id = ? order by game_no, number", (table,)
        )
        return [row[0] for row in rows]


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
    assert ann.locator("#give-0").inner_text() == "Keep the Wild (1)"
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
    bob.wait_for_selector("text=you have the Wild: discard a card", timeout=TIMEOUT)
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
    for page in (ann, bob):
        view = wait_version(page, 4)["view"]
        assert (view["stage"], view["current"]) == ("draw", 1)
        assert [seat["declared"] for seat in view["seats"]] == [10, 3]
        page.wait_for_selector("text=Ann gives the turned-up Wild to Bob", timeout=TIMEOUT)
        page.wait_for_selector("text=Bob declares phase 3", timeout=TIMEOUT)
        page.wait_for_selector("text=Ann declares phase 10", timeout=TIMEOUT)
        seats = page.locator("table.seats").inner_text()
        assert "declared 10: 1 set of 5 + 1 set of 3" in seats
        assert "declared 3: 1 set of 4 + 1 run of 4" in seats
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


def test_the_pages_run_under_the_security_policy(base: str, browser: Any) -> None:
    """Every page draws itself with the server's Content-Security-Policy in force: no
    script, style or connection is refused, and nothing comes from another origin."""
    page = browser.new_context().new_page()
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(base + "/")
    page.fill("input[name=name]", "Ann")
    page.click("#create")
    page.wait_for_selector("#start", timeout=TIMEOUT)
    page.click("#start")
    page.wait_for_selector("#draw-pile", timeout=TIMEOUT)
    for path in ("/history", "/companion"):
        page.goto(base + path)
        page.wait_for_selector("main h1, main h2", timeout=TIMEOUT)
    assert not [text for text in refused if "Content Security Policy" in text], refused
    assert all(url.startswith((base, "ws://127.0.0.1", "data:")) for url in requests), requests


def test_a_public_table_and_the_hosts_controls(base: str, browser: Any) -> None:
    """A table listed for anyone, joined from the home page; the host removes the player,
    whose page says so and stops trying to reconnect."""
    ann = context(browser).new_page()
    ann.goto(base + "/")
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
    ann.click("#remove_player-1")
    bob.wait_for_selector("#bye-title", timeout=TIMEOUT)
    assert bob.inner_text("#bye-title") == "The host removed you from the table."
    bob.wait_for_timeout(1500)  # no reconnection: the page stays as it is
    assert bob.locator("#bye-title").count() == 1
    assert bob.evaluate(f"localStorage.getItem('phase10:{table}')") is None
    ann.wait_for_selector("text=Seat 2: open", timeout=TIMEOUT)
