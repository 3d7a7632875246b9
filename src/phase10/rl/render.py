"""A picture of a game for the environments' ``render()``: the public table and the hand of
the player to act (what that player would see), as text (``"ansi"``), printed
(``"human"``) or drawn as an image (``"rgb_array"``, with Pillow).

>>> from phase10.core import Game
>>> print(render_text(Game(2, seed=3), 1).splitlines()[0])
hand 1 · stage draw · player 1 to act · draw pile 87 · discard top Y10
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import NDArray

from phase10.core import Game, PlayerView, SavePile, Stage, format_cards

__all__ = [
    "FRAME_COLUMNS",
    "RENDER_MODES",
    "check_render_mode",
    "frame_lines",
    "render",
    "render_text",
    "text_image",
]


def render_text(game: Game, seat: int, *, show_hand: bool = True) -> str:
    """The public state of ``game`` and (unless ``show_hand`` is false) the hand of ``seat``."""
    view = PlayerView.of(game, seat, history=False)  # the table, not the hand's events
    top = view.discard_top
    acting = "game over" if view.stage is Stage.GAME_OVER else f"player {view.current} to act"
    lines = [
        f"hand {view.hand_number} · stage {view.stage.value} · {acting} · "
        f"draw pile {view.draw_size} · discard top {top if top is not None else '-'}"
    ]
    saves = game.rules.save_pile is not SavePile.OFF
    for index, info in enumerate(view.seats):
        laid = f" laid {info.laid + 1}" if info.laid is not None else ""
        skip = " skip" if info.pending_skip else ""
        gave_up = " gave up" if info.gave_up else ""
        saved = ""
        if saves:
            shown = f" ({format_cards(info.saved)})" if info.saved else ""
            saved = f", {info.saved_count} saved{shown}"
        lines.append(
            f"  p{index} {info.name}: phase {info.phase + 1}, score {info.score}, "
            f"{info.hand_size} cards{saved}{laid}{skip}{gave_up}"
        )
    for gid, meld in enumerate(view.melds):
        lines.append(f"  g{gid} (p{meld.owner}): {meld.group.describe()}")
    if show_hand:
        lines.append(
            f"  p{seat} holds: {format_cards(sorted(view.hand, key=lambda c: c.sort_key))}"
        )
        if saves:
            lines.append(f"  p{seat} saved: {format_cards(view.saved) or '-'}")
    if view.winners:
        lines.append(f"  winners: {', '.join(f'p{w}' for w in view.winners)}")
    return "\n".join(lines)


#: the render modes every environment offers: "ansi" returns the text, "human" prints it,
#: "rgb_array" returns it drawn as an image (Pillow)
RENDER_MODES: Final = ("ansi", "human", "rgb_array")


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if it is one of :data:`RENDER_MODES` or None; else a ValueError."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        modes = ", ".join(repr(mode) for mode in RENDER_MODES)
        raise ValueError(f"render_mode must be one of {modes} or None, not {render_mode!r}")
    return render_mode


#: an ``rgb_array`` frame's width in characters (a longer line is cut short with "…")
FRAME_COLUMNS: Final = 110


def frame_lines(game: Game) -> int:
    """The most lines :func:`render_text` writes for ``game``'s players and rules: every
    frame of a game is that tall, so a video of it has one size."""
    groups = max(len(phase.groups) for phase in game.rules.phase_sequence)
    players = game.num_players
    return 1 + players + players * groups + 3  # (the hand, the save pile, the winners)


def render(game: Game, seat: int, render_mode: str | None) -> str | NDArray[np.uint8] | None:
    """What ``render()`` returns in ``render_mode`` for the game seen by ``seat``."""
    if render_mode is None:
        return None
    text = render_text(game, seat)
    if render_mode == "human":
        print(text)
        return None
    if render_mode == "rgb_array":
        return text_image(text, lines=frame_lines(game), columns=FRAME_COLUMNS)
    return text


def text_image(
    text: str, *, lines: int | None = None, columns: int | None = None
) -> NDArray[np.uint8]:
    """``text`` drawn in black on white, as a height × width × 3 array of bytes: as big as
    the text, or, given ``lines`` and ``columns``, always that many (longer lines are cut
    short, and so are lines beyond ``lines``).

    >>> small = text_image("x", lines=5, columns=20).shape
    >>> text_image("one\\ntwo", lines=5, columns=20).shape == small
    True
    """
    from PIL import Image, ImageDraw, ImageFont  # only this mode needs Pillow

    # the classic fixed-width font: the text's columns line up, and a space is a full
    # column (the default, proportional font all but drops spaces at this size)
    font = ImageFont.load_default_imagefont()
    rows = text.splitlines() or [""]
    if columns is not None:
        rows = [row if len(row) <= columns else row[: columns - 1] + "…" for row in rows]
    if lines is not None:
        rows = rows[:lines]
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    sizing = rows if columns is None else ["M" * columns, "Mgjpqy|"]  # the widest, tallest
    boxes = [probe.textbbox((0, 0), row or " ", font=font) for row in sizing]
    step = int(max(box[3] for box in boxes)) + 4
    width = int(max(box[2] for box in boxes)) + 16
    height = step * (len(rows) if lines is None else lines) + 12
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(rows):
        draw.text((8, 6 + row * step), line, fill="black", font=font)
    return np.asarray(image, dtype=np.uint8)
