"""A dice table in Debian's Chromium, driven by Playwright: a player creates a Phase 10 Dice
table from the new-table form (the dice bots offered by the server), plays a short game
against the optimal dice bot to its end by clicking dice and buttons, asking for a hint on
the way (the game is set up on phase 10, its first rolls fixed), a spectator watches (under
the server's security policy), and the player comes back on a phone by the seat link to
play the rematch by taps.
axe-core finds no serious accessibility problem; screenshots go to test-artefacts/."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import require_browser

require_browser()
uvicorn = pytest.importorskip("uvicorn")
import phase10.server.manager as manager_module  # noqa: E402
from browser_support import PHONE, TIMEOUT, axe_violations, no_horizontal_scroll, shot, state  # noqa: E402
from phase10.bots.dice import DICE_BOT_NAMES  # noqa: E402
from phase10.server.dice import DICE_BOT  # noqa: E402
from server_support import free_port, make_app  # noqa: E402
from test_server_dice import late_game  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server in this process (so that its dice games start set up on phase 10), its
    bot moving 0.1 s after the last move."""
    patch = pytest.MonkeyPatch()
    patch.setattr(manager_module, "new_dice_game", late_game)
    database = tmp_path_factory.mktemp("dice") / "dice.sqlite3"
    port = free_port()
    app = make_app(f"sqlite:///{database}", bot_delay=0.1)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        patch.undo()


def wait_dice(page: Any, version: int, *, over: bool = False) -> dict[str, Any]:
    """The page's state once its dice game is at ``version`` or later (or over)."""
    done = "s.dice.view.stage === 'game_over'" if over else f"s.version >= {version}"
    page.wait_for_function(
        f"(() => {{ const s = window.phase10State; return s && s.dice && {done}; }})()",
        timeout=TIMEOUT,
    )
    return state(page)


def tap_or_click(page: Any, selector: str, tap: bool) -> None:
    if tap:
        page.tap(selector)
    else:
        page.click(selector)


def play_to_phase_ten(page: Any, tap: bool = False, hint: str = "") -> None:
    """Roll, set the three 10s aside (taking one back and keeping it again), roll, score;
    with ``hint``, ask for a hint after the first roll (its screenshot's name)."""
    version = wait_dice(page, 0)["version"]
    page.wait_for_selector("#dice-roll", timeout=TIMEOUT)
    if tap:
        page.tap("#dice-roll")
    else:
        page.keyboard.press("r")  # the keys: r roll, o score, p pass
    version = wait_dice(page, version + 1)["version"]
    if hint:
        # the hint of the terminal game's ?: the three 10s, each tagged "keep" in words
        tap_or_click(page, "#dice-hint-button", tap)
        page.wait_for_selector("#dice-hint", timeout=TIMEOUT)
        assert page.inner_text("#dice-hint p").startswith("Hint: keep H1 H2 H3, roll the rest.")
        advised = page.eval_on_selector_all(
            "button.die.advised", "els => els.map(e => e.dataset.die)"
        )
        assert advised == ["H1", "H2", "H3"]
        assert page.locator("button.die.advised .tag").all_inner_texts() == ["keep"] * 3
        label = page.get_attribute('#rolled [data-die="H1"]', "aria-label")
        assert label == "green 10, high die 1 (the hint keeps it): set it aside"
        assert not axe_violations(page)
        shot(page, hint)
    for die in ("H1", "H2", "H3", "H3", "H3"):
        tap_or_click(page, f'#rolled [data-die="{die}"], #kept [data-die="{die}"]', tap)
        version = wait_dice(page, version + 1)["version"]
    label = page.get_attribute('#kept [data-die="H3"]', "aria-label")
    assert label == "orange 10, high die 3, set aside: take it back to roll"
    assert page.locator("#kept button.die").count() == 3
    tap_or_click(page, "#dice-roll", tap)
    wait_dice(page, version + 1)
    page.wait_for_selector("#dice-score", timeout=TIMEOUT)
    assert "55" in page.inner_text("#dice-score") and "55 points" in page.inner_text("#way")


def test_a_dice_game_against_a_bot_to_its_end_then_a_rematch_on_a_phone(
    base: str, browser: Any
) -> None:
    desk = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 860})
    page = desk.new_page()
    page.goto(base + "/")
    page.fill("input[name=name]", "Ann")
    page.select_option("select[name=kind]", "dice")
    assert not page.is_visible("select[name=preset]")  # card rules are hidden for dice
    assert not page.is_visible("select[name=bots]")  # and the card bots, for the dice bots
    offered = page.eval_on_selector_all("#dice-bots option", "els => els.map(e => e.value)")
    assert offered == list(DICE_BOT_NAMES) and page.input_value("#dice-bots") == DICE_BOT
    page.select_option("select[name=seats]", "2")
    shot(page, "dice-new-table")
    page.click("#create")
    page.wait_for_selector("#start", timeout=TIMEOUT)
    shot(page, "dice-lobby")
    assert "Phase 10 Dice" in page.inner_text(".table-bar h1")
    page.wait_for_function(
        f"document.querySelectorAll('#bots option').length === {len(DICE_BOT_NAMES)}",
        timeout=TIMEOUT,
    )
    assert page.input_value("#bots") == DICE_BOT
    invite = page.input_value("#invite")
    seat_link = page.input_value("#seat-link")
    page.click("#start")
    # its own storage (no seat token), under the server's Content-Security-Policy
    watching = browser.new_context()
    refused: list[str] = []
    watching.on(
        "console", lambda m: refused.append(m.text) if "Content Security" in m.text else None
    )
    watcher = watching.new_page()
    watcher.goto(invite)
    watcher.click("#watch")
    play_to_phase_ten(page, hint="dice-hint")
    shot(page, "dice-desktop")
    assert not axe_violations(page)
    page.keyboard.press("o")
    final = wait_dice(page, 0, over=True)
    page.wait_for_selector("#winner", timeout=TIMEOUT)
    view = final["dice"]["view"]
    assert view["seats"][0]["scores"][9] == 55 and view["winners"]
    assert page.locator("#dice-sheet tr.total td").first.inner_text() == str(
        view["seats"][0]["total"]
    )
    assert any(line.startswith("Game over") for line in final["log"])
    # the spectator saw it all, with no buttons of their own
    watcher.wait_for_selector("#winner", timeout=TIMEOUT)
    assert not refused
    assert watcher.locator("#dice-roll, #dice-score, #dice-pass").count() == 0
    assert watcher.locator("button.die:enabled").count() == 0
    assert (
        page.inner_text("#dice-totals")
        == f"Ann {view['seats'][0]['total']} · Bob {view['seats'][1]['total']}"
    )
    assert not axe_violations(page)
    shot(page, "dice-desktop-over")
    page.close()
    watching.close()
    # back on a phone by the seat link, for the rematch, by taps
    phone = browser.new_context(bypass_csp=True, **PHONE)
    mobile = phone.new_page()
    mobile.goto(seat_link)
    mobile.wait_for_selector("#rematch", timeout=TIMEOUT)
    mobile.tap("#rematch")
    mobile.wait_for_function(
        "window.phase10State && window.phase10State.table.game_no === 2", timeout=TIMEOUT
    )
    play_to_phase_ten(mobile, tap=True, hint="dice-phone-hint")
    assert no_horizontal_scroll(mobile)
    assert not axe_violations(mobile)
    shot(mobile, "dice-phone")
    mobile.tap("#dice-score")
    wait_dice(mobile, 0, over=True)
    mobile.wait_for_selector("#winner", timeout=TIMEOUT)
    shot(mobile, "dice-phone-over")
    phone.close()
    desk.close()
