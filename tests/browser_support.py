"""Helpers for the browser tests: a real ``phase10 serve`` in its own process, pages driven
through the table's own controls, axe-core checks."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from phase10.bots import make_player
from phase10.core import Discard, Hit, LayDown, PlayerView, TakeDiscard
from server_support import server

HERE = Path(__file__).resolve().parent
ARTEFACTS = HERE.parent / "test-artefacts"
README_IMAGES = HERE.parent / "docs" / "images"
AXE = HERE / "vendor" / "axe-core" / "axe.min.js"
TIMEOUT = 15_000
#: Debian's Chromium: the browser tests never download one of their own
CHROMIUM = Path("/usr/bin/chromium")
#: a phone's screen and touch, for a browser context
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def require_browser() -> None:
    """Skip the calling test module, with the reason, unless Debian's Chromium, Playwright
    and uvicorn are installed (``make test`` installs them)."""
    if not CHROMIUM.exists():
        pytest.skip(
            "Debian's chromium is not installed (apt-get install -y chromium)",
            allow_module_level=True,
        )
    pytest.importorskip("playwright.sync_api")
    pytest.importorskip("uvicorn")


@contextmanager
def serve(database: Path, port: int, *options: str) -> Iterator[str]:
    """``phase10 serve`` on a free port (options given later win: ``--bot-delay 0.3``);
    yields its base URL."""
    with server(database, port, *options):
        yield f"http://127.0.0.1:{port}"


def shot(page: Any, name: str, *, readme: str | None = None, full_page: bool = True) -> None:
    """Keep a screenshot in test-artefacts/ (and, with PHASE10_README_SHOTS=1, as the
    README's picture ``readme``)."""
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=full_page)
    if readme and os.environ.get("PHASE10_README_SHOTS") == "1":
        page.screenshot(path=str(README_IMAGES / readme), full_page=full_page)


def state(page: Any) -> dict[str, Any]:
    """The last state message the page received. Sent as one JSON string: Playwright checks
    a returned object value by value, which costs more than the rest of a turn once the
    view holds a long history (the message came as JSON, so nothing is lost)."""
    result: dict[str, Any] = json.loads(page.evaluate("JSON.stringify(window.phase10State)"))
    return result


def wait_version(page: Any, version: int) -> dict[str, Any]:
    page.wait_for_function(
        f"window.phase10State && window.phase10State.view && "
        f"window.phase10State.version >= {version}",
        timeout=TIMEOUT,
    )
    return state(page)


def wait_turn(page: Any) -> dict[str, Any]:
    """Wait until the page's player is to move (or the game is over)."""
    page.wait_for_function(
        "window.phase10State && window.phase10State.view && (window.phase10State.view.stage"
        " === 'game_over' || (window.phase10State.legal && window.phase10State.legal.turn))",
        timeout=TIMEOUT,
    )
    return state(page)


def card_places(page: Any) -> list[int]:
    """The hand's cards as shown, left to right: each one's index in the view's hand."""
    return [
        int(i) for i in page.eval_on_selector_all("[data-card]", "l => l.map(e => e.dataset.card)")
    ]


def hand_indexes(page: Any, cards: list[str]) -> list[int]:
    """The indexes in the view's hand of these cards (each physical card once)."""
    hand = state(page)["view"]["hand"].split()
    used: list[int] = []
    for card in cards:
        used.append(next(i for i, c in enumerate(hand) if c == card and i not in used))
    return used


def select(page: Any, cards: list[str], *, how: str = "click") -> None:
    """Select these cards in the hand: by click, by tap, or by the keyboard only."""
    places = card_places(page)
    for index in hand_indexes(page, cards):
        if how == "keys":
            place = places.index(index)
            if place < 9:
                page.keyboard.press(str(place + 1))
            else:  # along the hand with the arrows, then Enter on the card
                page.keyboard.press("ArrowRight")
                for _ in range(40):
                    focused = page.evaluate("document.activeElement.dataset.card")
                    if focused is not None and int(focused) == index:
                        break
                    page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
        elif how == "tap":
            page.tap(f'[data-card="{index}"]')
        else:
            page.click(f'[data-card="{index}"]')


def choose(page: Any, action: str, version: int, *, how: str = "click") -> None:
    """When the client asks which one, pick ``action`` (or the first offered if the
    server words it differently); otherwise the action was already sent."""
    try:
        page.wait_for_function(
            f"window.phase10State.version > {version} || document.querySelector('button.choice')",
            timeout=TIMEOUT,
        )
    except Exception as error:
        # a warning is said above the buttons at the table, at the top of the page elsewhere
        said = " ".join(page.locator("#status, #warning").all_inner_texts())
        raise AssertionError(
            f"{action} was not played: {said!r}, {state(page)['legal']}"
        ) from error
    if state(page)["version"] > version:
        return
    exact = page.locator(f'button.choice[data-action="{action}"]')
    target = exact.first if exact.count() else page.locator("button.choice").first
    if how == "keys":
        wanted = target.get_attribute("data-action")
        for _ in range(60):
            if page.evaluate("document.activeElement.dataset.action") == wanted:
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
    elif how == "tap":
        target.tap()
    else:
        target.click()


def play_turn(page: Any, version: int, *, how: str = "click") -> str:
    """One action chosen by a greedy bot from the page's own view, done through the page
    (mouse, taps or keys); returns the action's text."""
    view = PlayerView.from_dict(state(page)["view"])
    action = make_player("greedy", random.Random(version)).choose(view)
    text = str(action)

    def press(key: str, selector: str) -> None:
        if how == "keys":
            page.keyboard.press(key)
        elif how == "tap":
            page.tap(selector)
        else:
            page.click(selector)

    if text == "draw":
        press("d", "#draw-pile")
    elif isinstance(action, TakeDiscard):
        press("t", "#discard-pile")
    elif isinstance(action, Discard):
        select(page, [str(action.card)], how=how)
        press("x", "#act-discard")
        if action.target is not None:
            choose(page, text, version, how=how)
    elif isinstance(action, LayDown):
        select(page, [str(card) for card in action.cards], how=how)
        press("l", "#act-lay")
        choose(page, text, version, how=how)
    elif isinstance(action, Hit):
        select(page, [str(action.card)], how=how)
        if how == "keys":
            page.keyboard.press("h")
        else:
            press("h", f'[data-group="{action.group}"]')
        choose(page, text, version, how=how)
    else:
        raise AssertionError(f"unexpected action {action}")
    wait_version(page, version + 1)
    return text


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """The serious and critical accessibility violations axe-core finds on the page (the
    page's context must bypass the CSP: axe is added to the page for the test only)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    # the page at rest: a card or banner still fading in (every animation is under a
    # second) reads as low contrast on a slow machine
    page.evaluate("Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))")
    found: list[dict[str, Any]] = page.evaluate(
        "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)})))"
    )
    return found


def no_horizontal_scroll(page: Any) -> bool:
    return bool(
        page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
    )


def uncovered(page: Any, selector: str) -> bool:
    """Whether every element matching ``selector`` is itself what shows at its centre (no
    other element, such as the floating hand, lies over it)."""
    return bool(
        page.eval_on_selector_all(
            selector,
            "l => l.length > 0 && l.every(e => { const r = e.getBoundingClientRect();"
            " const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
            " return top !== null && (top === e || e.contains(top)); })",
        )
    )


def in_first_viewport(page: Any, selector: str) -> bool:
    """Whether every element matching ``selector`` lies inside the viewport as it is (to
    within a pixel: a scroll may leave an edge a fraction of one beyond)."""
    return bool(
        page.eval_on_selector_all(
            selector,
            "l => l.length > 0 && l.every(e => { const r = e.getBoundingClientRect();"
            " return r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1"
            " && r.right <= innerWidth + 1; })",
        )
    )


def new_table(
    page: Any, base: str, *, seats: str = "2", preset: str | None = None, **more: str
) -> None:
    """A table Ann creates from the home page, with these settings, waiting in its lobby."""
    page.goto(base + "/")
    page.fill("input[name=name]", "Ann")
    page.select_option("select[name=seats]", seats)
    if preset:
        page.select_option("select[name=preset]", preset)
    for name, value in more.items():
        page.select_option(f"select[name={name}]", value)
    page.click("#create")
    page.wait_for_selector("#start", timeout=TIMEOUT)
