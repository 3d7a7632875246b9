"""A text picture of a game for ``render_mode="ansi"``: the public table and the hand of
the player to act (what that player would see).

>>> from phase10.core import Game
>>> print(render_text(Game(2, seed=3), 1).splitlines()[0])
hand 1 · stage draw · player 1 to act · draw pile 87 · discard top Y10
"""

from __future__ import annotations

from phase10.core import Game, Stage, format_cards

__all__ = ["render_text"]


def render_text(game: Game, seat: int, *, show_hand: bool = True) -> str:
    """The public state of ``game`` and (unless ``show_hand`` is false) the hand of ``seat``."""
    view = game.view(seat)
    top = view.discard_top
    acting = "game over" if view.stage is Stage.GAME_OVER else f"player {view.current} to act"
    lines = [
        f"hand {view.hand_number} · stage {view.stage.value} · {acting} · "
        f"draw pile {view.draw_size} · discard top {top if top is not None else '-'}"
    ]
    for index, info in enumerate(view.seats):
        laid = f" laid {info.laid + 1}" if info.laid is not None else ""
        skip = " skip" if info.pending_skip else ""
        lines.append(
            f"  p{index} {info.name}: phase {info.phase + 1}, score {info.score}, "
            f"{info.hand_size} cards{laid}{skip}"
        )
    for gid, meld in enumerate(view.melds):
        lines.append(f"  g{gid} (p{meld.owner}): {meld.group.describe()}")
    if show_hand:
        lines.append(
            f"  p{seat} holds: {format_cards(sorted(view.hand, key=lambda c: c.sort_key))}"
        )
    if view.winners:
        lines.append(f"  winners: {', '.join(f'p{w}' for w in view.winners)}")
    return "\n".join(lines)
