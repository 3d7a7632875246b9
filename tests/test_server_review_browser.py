"""A game's review in Debian's Chromium, driven by Playwright: from the history a newcomer
opens a finished game's review, watches it being worked out, reads the chart of every
player's chance to win and the mistakes, and a click on a mistake steps the replay to its
decision; the same on a phone, from the link the table gives at the game's end. axe-core
finds no serious accessibility problem; screenshots go to test-artefacts/."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

from browser_support import require_browser

require_browser()

from browser_support import PHONE, TIMEOUT, axe_violations, no_horizontal_scroll, serve, shot  # noqa: E402
from phase10.bots import make_player, play_game  # noqa: E402
from phase10.core import Game, GameRecord, Rules  # noqa: E402
from phase10.kernel import available  # noqa: E402
from phase10.server.db import Store  # noqa: E402
from server_support import free_port  # noqa: E402

if not available():
    pytest.skip("reviews need the compiled kernel", allow_module_level=True)

pytestmark = pytest.mark.slow

#: few deals, so the review of this game of two takes well under a second
OPTIONS = ("--limit", "review_deals=8", "--limit", "review_win_deals=4")
OPTIONS += ("--limit", "http_rate=1000", "--limit", "http_burst=1000")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose history holds one finished game of two with three phases: Ann (random
    play, so she errs) against Bob (greedy), whom the record names its one person."""
    database = tmp_path_factory.mktemp("review") / "review.sqlite3"
    game = Game(["Ann", "Bob"], seed=1, rules=Rules(phases=(1, 2, 3)))
    play_game(
        game, [make_player("random", random.Random(0)), make_player("greedy", random.Random(1))]
    )
    store = Store(f"sqlite:///{database}")
    store.create_table("t1", {}, [])
    record = GameRecord.from_game(game).to_dict()
    record["tags"]["controllers"] = "random,human"
    store.finish_game("t1", 1, record, ["Bob"])
    store.close()
    with serve(database, free_port(), *OPTIONS) as url:
        yield url


def check_review(page: Any, where: str) -> None:
    """The review as shown: its note, the chart (described, with its table), the mistakes;
    a click on one steps the replay to just before it."""
    page.wait_for_selector("svg.chart", timeout=TIMEOUT)
    assert "Ann's view only" in page.inner_text("#review-note")
    chart = page.locator("svg.chart")
    assert chart.get_attribute("role") == "img"
    assert "chance to win" in page.text_content("#chart-title")
    assert page.locator("svg.chart polyline").count() == 2
    assert page.locator(".chance-chart details table tbody tr").count() > 5
    # the hands' labels, as room allows, never run into one another
    spans = page.evaluate(
        "[...document.querySelectorAll('svg.chart .hand-mark text')]"
        ".map((t) => { const b = t.getBBox(); return [b.x, b.x + b.width]; })"
    )
    assert len(spans) >= 2 and all(a[1] <= b[0] for a, b in pairwise(spans))
    mistakes = page.locator("button.mistake")
    assert mistakes.count() >= 1
    text = mistakes.first.inner_text()
    assert "Played:" in text and "Expert:" in text
    before = page.inner_text("#replay-step")
    mistakes.first.click()
    page.wait_for_function(
        "text => document.getElementById('replay-step').textContent !== text",
        arg=before,
        timeout=TIMEOUT,
    )
    assert page.inner_text("#replay-step").startswith("Action ")
    assert "a mistake" in page.inner_text("#replay-decision")
    assert "; the expert: " in page.inner_text("#replay-decision")
    assert mistakes.first.get_attribute("aria-current") == "step"
    # the other decisions say the expert agrees, or leans elsewhere by less than a mistake
    page.keyboard.press("Home")
    said = []
    for _ in range(30):
        if page.locator("#replay-decision").count():
            said.append(page.inner_text("#replay-decision"))
        step = page.inner_text("#replay-step")
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "text => document.getElementById('replay-step').textContent !== text",
            arg=step,
            timeout=TIMEOUT,
        )
    calm = [text for text in said if ", a mistake." not in text]
    # (sentences spaced: "... Played: draw from the pile. The expert agrees ...")
    assert said and all(". Played: " in text for text in said), said
    assert not [text for text in said if re.search(r"\.[A-Za-z]", text)], said
    assert any("The expert agrees" in text for text in calm)
    assert any("by less than a mistake" in text for text in calm)
    assert all("The expert agrees" in text or "by less than a mistake" in text for text in calm)
    assert no_horizontal_scroll(page), where
    found = axe_violations(page)
    assert not found, f"{where}: {found}"


def test_a_review_from_the_history_on_a_desk_and_on_a_phone(base: str, browser: Any) -> None:
    desk = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 860})
    page = desk.new_page()
    page.goto(base + "/history")
    page.click("text=Review")
    page.wait_for_selector("#review-start", timeout=TIMEOUT)
    assert page.evaluate("document.activeElement.id") == "review-player"
    assert page.input_value("#review-player") == "1"  # the game's one person, by the server
    page.select_option("#review-player", "0")
    page.click("#review-start")
    page.wait_for_selector(".review-progress, svg.chart", timeout=TIMEOUT)
    check_review(page, "the review on a desk")
    shot(page, "review")
    desk.close()

    # the table's "Review this game" at a game's end opens it, already asked for: stored,
    # the second time it comes at once
    phone = browser.new_context(bypass_csp=True, **PHONE)
    page = phone.new_page()
    # the history on a phone: a game a card of lines, as wide as the phone
    page.goto(base + "/history")
    page.wait_for_selector("text=Review", timeout=TIMEOUT)
    assert no_horizontal_scroll(page), "the history on a phone"
    said = "getComputedStyle(document.querySelector('.history td[data-label=Winner]'), '::before').content"
    assert page.evaluate(said) == '"Winner: "'  # (each line names its column)
    found = axe_violations(page)
    assert not found, f"the history on a phone: {found}"
    shot(page, "history-phone", full_page=False)
    page.goto(base + "/replay/1?review=0")
    check_review(page, "the review on a phone")
    shot(page, "review-phone", full_page=False)
    phone.close()

    # from the history, the review of the game's person: a form until one is asked for,
    # then, kept, shown at once the next time
    page = browser.new_context(bypass_csp=True).new_page()
    page.goto(base + "/replay/1#review")
    page.wait_for_selector("#review-start", timeout=TIMEOUT)
    page.wait_for_timeout(500)
    assert page.locator("svg.chart").count() == 0 and page.input_value("#review-player") == "1"
    page.click("#review-start")
    page.wait_for_selector("svg.chart", timeout=TIMEOUT)
    page.goto(base + "/history")
    page.click("text=Review")
    page.wait_for_selector("svg.chart", timeout=TIMEOUT)
    assert "Review of Bob's decisions" in page.inner_text("#review-title")
