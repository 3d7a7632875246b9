"""The rules in play, in sentences: what every interface shows when a player asks for the rules.

One sentence per rule option, in the words of docs/rules.md, never the option names: the
terminal game's rules page and the browser's Rules dialog both show these.

>>> from phase10.core.rules import preset
>>> for sentence in explain_rules(preset("masters"))[:3]:
...     print(sentence)
You play the 10 standard phases.
Each player may make any phase they have not completed yet, in any order; to win they must complete every phase.
Right after the deal each player names the phase they will try this hand, and everyone sees it: they may lay down only that phase in this hand.
>>> explain_rules(preset("masters"))[3]
'A phase laid down counts as completed at the end of the hand; a player who laid none down tries again next hand, from the phases they have not completed.'
>>> explain_rules(preset("skip-next"))[5]
'A Skip, when discarded, always skips the next player, who loses their next turn.'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from .phase_lists import PHASE_LISTS
from .rules import (
    Advance,
    AntiPhase,
    Deck,
    DeclareWhen,
    EmptyDrawPile,
    EndWhen,
    GivingUp,
    GoingOut,
    NaturalMin,
    PhaseOrder,
    Rules,
    SavedScore,
    SavePile,
    SkipTarget,
    WildDealUp,
)

__all__ = ["ANY_ORDER_SENTENCES", "OPTION_SENTENCES", "explain_rules", "phases_sentence"]

#: for every option that is a choice among names, one sentence per value (docs/rules.md §8)
OPTION_SENTENCES: Final[dict[str, dict[StrEnum, str]]] = {
    "phase_order": {
        PhaseOrder.SEQUENCE: "Phases are made in order: each player works on the first phase "
        "they have not completed yet.",
        PhaseOrder.ANY: "Each player may make any phase they have not completed yet, in any "
        "order; to win they must complete every phase.",
    },
    "declare": {
        DeclareWhen.DEAL: "Right after the deal each player names the phase they will try this "
        "hand, and everyone sees it: they may lay down only that phase in this hand.",
        DeclareWhen.LAYDOWN: "A player says which phase they are making as they lay it down.",
    },
    "advance": {
        Advance.COMPLETED: "After each hand, only the players who laid their phase down move on "
        "to the next phase; the others try the same phase again.",
        Advance.ALL: "Everyone moves on to the next phase after every hand, phase laid or not, "
        "so the game lasts one hand per phase and the lowest total wins (ties: the player who "
        "completed more phases).",
    },
    "natural_min": {
        NaturalMin.GROUP: "A Wild stands in for any card, but every group needs at least one "
        "number card.",
        NaturalMin.PHASE: "A Wild stands in for any card, and one number card in the whole "
        "phase is enough: a group may be all Wilds.",
    },
    "wild_deal_up": {
        WildDealUp.FIRST_PLAYER: "If the card turned up to start the discard pile is a Wild, "
        "the first player may take it like any discard.",
        WildDealUp.DEALER_CHOOSES: "If the card turned up to start the discard pile is a Wild, "
        "the dealer gives it to any player, themselves included, who then discards a card.",
    },
    "skip_target": {
        SkipTarget.CHOOSE: "Whoever discards a Skip chooses which other player loses their next "
        "turn (not one who already has a Skip waiting).",
        SkipTarget.NEXT: "A Skip, when discarded, always skips the next player, who loses their "
        "next turn.",
    },
    "going_out": {
        GoingOut.ANY: "You go out as soon as your hand is empty, whether its last card leaves by "
        "laying down, hitting or discarding.",
        GoingOut.DISCARD: "You go out only by discarding your last card: a hand emptied by "
        "laying down or hitting floats, drawing and hitting each turn until a card fits nowhere "
        "and can be discarded.",
    },
    "empty_draw_pile": {
        EmptyDrawPile.RESHUFFLE: "When the draw pile runs out, the discard pile, all but its top "
        "card, is shuffled into a new draw pile.",
        EmptyDrawPile.END_HAND: "When the draw pile runs out, the hand ends as if nobody had gone "
        "out.",
    },
    "end_when": {
        EndWhen.HAND_END: "The game ends with the hand in which someone completes the last phase; "
        "if several do, the lowest total wins.",
        EndWhen.IMMEDIATELY: "A player who is alone on the last phase wins the moment they lay it "
        "down; otherwise the game ends with the hand, and the lowest total wins.",
    },
    "deck": {
        Deck.STANDARD: "The deck holds 108 cards: two of each number card, 8 Wilds and 4 Skips.",
        Deck.MASTERS: "The deck holds 106 cards, as in the Masters Edition tin: two of each "
        "number card, 8 Wilds and 2 Skips.",
        Deck.MASTERS_12_WILDS: "The deck holds 110 cards, as in a Masters Edition printing: two "
        "of each number card, 12 Wilds and 2 Skips.",
    },
    "save_pile": {
        SavePile.OFF: "There are no save piles.",
        SavePile.PRIVATE: "Once a hand you may end your turn by putting a card on your own save "
        "pile instead of discarding (never your last card). Saved cards stay yours from hand to "
        "hand, and instead of drawing you may take one back. Others see how many you have saved, "
        "not which.",
        SavePile.PUBLIC: "Once a hand you may end your turn by putting a card on your own save "
        "pile instead of discarding (never your last card). Saved cards stay yours from hand to "
        "hand, and instead of drawing you may take one back. Every save pile is face up.",
    },
    "saved_score": {
        SavedScore.NONE: "Saved cards are not in your hand: they never count against you.",
        SavedScore.PENALTY: "Saved cards count against you at the end of every hand, like the "
        "cards in your hand.",
    },
    "give_up": {
        GivingUp.OFF: "A phase once laid down stays on the table until the hand ends.",
        GivingUp.FORFEIT: "Once your phase is down you may give it up: its groups leave the table, "
        "you end the turn with a discard or a save and draw back up to ten cards, and next turn "
        "you may lay down a phase again. The phase given up does not count as completed.",
        GivingUp.KEEP: "Once your phase is down you may give it up: its groups leave the table, "
        "you end the turn with a discard or a save and draw back up to ten cards, and next turn "
        "you may lay down another phase. The phase given up still counts as completed.",
    },
    "anti_phase": {
        AntiPhase.OFF: "There is no Anti-phase card.",
        AntiPhase.ON: "The deck holds one more card, the Anti-phase card (A). Go out by "
        "discarding it as your last card and name a player: they move down a phase (their "
        "highest completed phase must be made again) at the end of the hand. Discarded earlier it names "
        "nobody, and the next player may take it; whoever still holds it when the hand ends "
        "moves down a phase.",
    },
}

#: where phases are made in any order, these sentences stand for the ones above (there is
#: no "next phase" to move on to, and the last phase is whichever a player makes last)
ANY_ORDER_SENTENCES: Final[dict[StrEnum, str]] = {
    Advance.COMPLETED: "A phase laid down counts as completed at the end of the hand; a player "
    "who laid none down tries again next hand, from the phases they have not completed.",
    EndWhen.HAND_END: "The game ends with the hand in which someone completes every phase; if "
    "several do, the lowest total wins.",
    EndWhen.IMMEDIATELY: "A player who is alone in completing every phase wins the moment they "
    "lay down the last of them; otherwise the game ends with the hand, and the lowest total "
    "wins.",
}

#: the options :func:`phases_sentence` explains (the phase list and the phases picked from it)
PHASE_OPTIONS: Final = ("phase_list", "phases")


def _numbers(numbers: Sequence[int]) -> str:
    """``2, 4 and 6``."""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def phases_sentence(rules: Rules) -> str:
    """Which phases are played, from which list.

    >>> from phase10.core.rules import preset
    >>> phases_sentence(preset("even-phases"))
    'You play phases 2, 4, 6, 8 and 10 of the standard list, in that order.'
    >>> phases_sentence(Rules(phases=(1, 2, 3)))
    'You play the first 3 of the standard phases.'
    >>> phases_sentence(preset("island-paradise"))
    'You play the 10 phases of the island-paradise list.'
    """
    name = next((n for n, lst in PHASE_LISTS.items() if lst == rules.phase_list), None)
    listed = f"the {name} list" if name is not None else "your own list"
    count = len(rules.phase_list)
    if not rules.phases or rules.phases == tuple(range(1, count + 1)):
        if name == "standard":
            return f"You play the {count} standard phases."
        return f"You play the {count} phase{'s' if count != 1 else ''} of {listed}."
    if rules.phases == tuple(range(1, len(rules.phases) + 1)):
        first = len(rules.phases)
        if name == "standard":
            return f"You play the first {first} of the standard phases."
        return f"You play the first {first} phases of {listed}."
    word = "phase" if len(rules.phases) == 1 else "phases"
    order = "" if len(rules.phases) == 1 else ", in that order"
    return f"You play {word} {_numbers(rules.phases)} of {listed}{order}."


def explain_rules(rules: Rules) -> list[str]:
    """The rules in play as sentences, one per option (``declare`` only where phases may be
    made in any order, and ``saved_score`` only with save piles, since they change nothing
    otherwise)."""
    sentences = [phases_sentence(rules)]
    for option, by_value in OPTION_SENTENCES.items():
        if option == "declare" and rules.phase_order is not PhaseOrder.ANY:
            continue
        if option == "saved_score" and rules.save_pile is SavePile.OFF:
            continue
        value = getattr(rules, option)
        if rules.phase_order is PhaseOrder.ANY and value in ANY_ORDER_SENTENCES:
            sentences.append(ANY_ORDER_SENTENCES[value])
        else:
            sentences.append(by_value[value])
    return sentences
