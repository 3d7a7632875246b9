"""Draw the README's screenshot of the terminal game: ``python docs/screenshots.py``.

A seeded four-player game is played by keys up to a turn with groups on the table,
then the screen is saved as SVG in ``docs/images/``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from phase10.tui.app import PlayApp  # noqa: E402
from phase10.tui.screens import HandEndScreen  # noqa: E402
from phase10.tui.session import Settings  # noqa: E402
from tui_driver import Person, settle  # noqa: E402

SEED = 7


async def table(path: Path) -> None:
    settings = Settings(opponents=3, difficulty="greedy", seed=SEED)
    app = PlayApp(settings, start=True, autosave=None, bot_delay=0)
    person = Person(SEED)
    async with app.run_test(size=(120, 36)) as pilot:
        while True:
            await settle(pilot, app)
            if isinstance(app.screen, HandEndScreen):
                await pilot.press("enter")
                continue
            assert app.session is not None
            view = app.session.view
            if len(view.melds) >= 3 and view.stage.value == "draw":
                break
            await person.turn(pilot, app)
        await pilot.press("d", "question_mark")
        await pilot.pause()
        app.save_screenshot(str(path))


if __name__ == "__main__":
    (HERE / "images").mkdir(exist_ok=True)
    asyncio.run(table(HERE / "images" / "play.svg"))
    print(f"wrote {HERE / 'images' / 'play.svg'}")
