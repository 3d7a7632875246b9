"""How to play, for a first game: the page the new-game screen (F1) and the table (i, F1)
open. Its text lives here only; docs/rules.md has the whole rule book.
"""

from __future__ import annotations

from rich.text import Text

__all__ = ["HOW_TO_PLAY", "how_to_play_text"]

#: (heading, paragraph) for each part of the page
HOW_TO_PLAY: tuple[tuple[str, str], ...] = (
    (
        "The goal",
        "Complete the phases one by one, each in a hand of its own, before the others do. "
        "Whoever completes the last phase first wins; if several do in the same hand, the "
        "lowest score wins. Cards left in your hand when a hand ends count against you.",
    ),
    (
        "A turn",
        "Draw a card from the pile or take the top discard (d or t). If you hold your phase, "
        "lay it down (select its cards, then l). Once your phase is down you may hit: add "
        "cards to any group on the table (h). End your turn by discarding one card (x). "
        "Empty your hand and you go out: the hand ends.",
    ),
    (
        "Phases",
        "A phase is one or two groups: sets (cards of one number), runs (numbers in a row) "
        "or cards of one colour, like '2 sets of 3' or '1 run of 7'. You may lay down only "
        "your own phase, all of it in one turn. Lay it down and you move on to the next "
        "phase in the next hand; miss it and you try again. p shows the phase list.",
    ),
    (
        "Wilds and Skips",
        "A Wild (W) stands in for any card in a group, but every group needs at least one "
        "number card. A Skip (S) is discarded to make a player lose their next turn; it can "
        "never be taken from the discard pile or used in a phase. r explains the rules of "
        "this game in full.",
    ),
    (
        "Masters: save piles and giving up",
        "Under the Masters rules the phases may be made in any order: after each deal every "
        "player names the one they will try (e), and to win you must complete them all. Each "
        "player also has a save pile. Once a hand you may end your "
        "turn by saving a card instead of discarding it (select it, then S); at the start of "
        "a later turn, take a saved card back instead of drawing (T). Masters Variant #2 also "
        "lets you give up your phase once it is down (G), to lay one down again later. r says "
        "which of these this game uses.",
    ),
    (
        "The Anti-phase card",
        "Under the anti-phase rules the deck holds one Anti-phase card (A), never part of a "
        "group. Discard it as your last card and you go out naming another player, who moves "
        "down a phase: their highest completed phase must be made again. Discarded earlier it "
        "is an ordinary discard, which the next player may take; whoever still holds it when "
        "the hand ends moves down a phase. r says whether this game uses it.",
    ),
    (
        "Keys",
        "Arrow keys and space (or the numbers 1-9, or a click) select cards in your hand. "
        "? gives a hint, u takes back your last move, v shows the whole discard pile and "
        "k lists every key. The game is saved after every move: q quits, and Resume goes on.",
    ),
)


def how_to_play_text() -> Text:
    """The page: each heading in bold, then its paragraph."""
    text = Text()
    for number, (heading, paragraph) in enumerate(HOW_TO_PLAY):
        if number:
            text.append("\n\n")
        text.append(heading, style="bold")
        text.append("\n" + paragraph)
    return text
