"""The two ways an action can be refused. Both are :class:`ValueError`.

* :class:`InvalidActionError`: malformed — it cannot be read, or names something
  that does not exist in this game.
* :class:`IllegalActionError`: well formed, but against the rules right now
  ("you must draw before you discard").

Either way the game is left exactly as it was.

Every refusal carries a :class:`Refusal` as its ``code``: a stable, machine-readable
reason an interface can act on (a screen adds its own keys to the plain message, a
server sends it along). The message is plain English that names no interface's keys.

>>> from phase10.core.game import Game
>>> game = Game(["Ann", "Bob"], seed=3)
>>> try:
...     game.apply("discard R1")
... except IllegalActionError as error:
...     print(error.code.value, "-", error)
must_draw_first - you must draw a card (or take the top discard) first

A third, :class:`SearchLimitError`, refuses work rather than an action: a search asked
about more cards than any hand can hold, or one that would run longer than allowed.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

__all__ = [
    "IllegalActionError",
    "InvalidActionError",
    "Refusal",
    "RefusalError",
    "SearchLimitError",
]


class Refusal(StrEnum):
    """Why an action or a selection of cards was refused: one code per distinct refusal.

    The values are stable (they go over the wire and into logs); the messages may change.

    >>> Refusal.MUST_DRAW_FIRST == "must_draw_first"
    True
    """

    #: the action cannot be read, or names no player, group or phase of this game
    MALFORMED = "malformed"
    #: the game has ended
    GAME_OVER = "game_over"
    #: another player is to move
    NOT_YOUR_TURN = "not_your_turn"
    #: the dealer must first give the turned-up Wild to a player (wild deal-up)
    MUST_GIVE_WILD = "must_give_wild"
    #: every player must first declare the phase they attempt this hand
    MUST_DECLARE = "must_declare"
    #: the turn starts with a draw or a take of the top discard
    MUST_DRAW_FIRST = "must_draw_first"
    #: the player given the turned-up Wild must discard a card for it
    MUST_DISCARD = "must_discard"
    #: a gift of the Wild when no turned-up Wild waits to be given
    NO_WILD_TO_GIVE = "no_wild_to_give"
    #: a declaration outside the declaring that follows the deal
    NOT_DECLARING = "not_declaring"
    #: a declaration of a phase the player has already completed
    PHASE_DONE = "phase_done"
    #: a second draw in one turn
    ALREADY_DREW = "already_drew"
    #: a draw from an empty draw pile that cannot be refilled
    DRAW_PILE_EMPTY = "draw_pile_empty"
    #: a floating player's draw when the top discard fits on the table
    FLOATING_MUST_TAKE = "floating_must_take"
    #: a take from an empty discard pile
    DISCARD_EMPTY = "discard_empty"
    #: a take of a Skip from the discard pile
    SKIP_NOT_TAKEN = "skip_not_taken"
    #: a floating player's take of a card that fits nowhere while the draw pile has one
    FLOATING_MUST_DRAW = "floating_must_draw"
    #: a floating player's discard of a card that fits on the table
    FLOATING_MUST_HIT = "floating_must_hit"
    #: cards the player does not hold (or not as many copies)
    NOT_HELD = "not_held"
    #: a Skip aimed at anyone but the next player, where a Skip skips the next player
    SKIP_NEXT_ONLY = "skip_next_only"
    #: a Skip discarded without naming whom it skips, where the player chooses
    NAME_SKIP_TARGET = "name_skip_target"
    #: a Skip aimed at the player who discards it
    SKIP_SELF = "skip_self"
    #: a Skip aimed at a player who already has one waiting
    ALREADY_SKIPPED = "already_skipped"
    #: a second lay-down in one hand
    ALREADY_LAID = "already_laid"
    #: a lay-down when the player has no phase to lay down this hand
    NO_LAY_DOWN = "no_lay_down"
    #: a lay-down that does not say which phase, where several are allowed
    NAME_PHASE = "name_phase"
    #: a lay-down of a phase the player may not lay down now
    PHASE_NOT_ALLOWED = "phase_not_allowed"
    #: groups (or selected cards) that do not make the phase
    NOT_THE_PHASE = "not_the_phase"
    #: a group that is not a group of its kind (a gap, a Skip, a Wild's wrong value)
    BAD_GROUP = "bad_group"
    #: a phase or group with too few numbered cards (all Wilds)
    ALL_WILDS = "all_wilds"
    #: a hit before the player's own phase is down
    LAY_DOWN_FIRST = "lay_down_first"
    #: a card that fits no group (or not the group named)
    DOES_NOT_FIT = "does_not_fit"
    #: a Wild hit on a run without saying which end it goes on
    NAME_RUN_END = "name_run_end"
    #: a hit that gives a card a value the group cannot take
    WRONG_VALUE = "wrong_value"
    #: a save or a take from a save pile where the rules have no save piles
    NO_SAVE_PILE = "no_save_pile"
    #: a second save in one hand
    ALREADY_SAVED = "already_saved"
    #: a save of the last card in hand (going out needs a discard or a hit)
    SAVE_LAST_CARD = "save_last_card"
    #: a take of a card that is not on the player's save pile
    NOT_SAVED = "not_saved"
    #: a give-up where the rules have none, before the phase is down, or a second one in a hand
    NO_GIVE_UP = "no_give_up"
    #: a lay-down or hit on the turn the player gave up their phase
    GAVE_UP_THIS_TURN = "gave_up_this_turn"
    #: a save of the Anti-phase card (it stays in hand until it is discarded)
    ANTI_NOT_SAVED = "anti_not_saved"
    #: the Anti-phase card discarded as the last card without naming who moves down
    NAME_ANTI_TARGET = "name_anti_target"
    #: a player named with the Anti-phase card when it is not the last card, or in a tie-break
    ANTI_NAMES_NOBODY = "anti_names_nobody"
    #: the Anti-phase card naming its own player
    ANTI_SELF = "anti_self"
    #: no cards selected where a selection is needed
    NOTHING_SELECTED = "nothing_selected"
    #: several cards selected where just one is needed
    SELECT_ONE = "select_one"
    #: a selection that can be laid down in too many ways to list
    TOO_MANY_WAYS = "too_many_ways"
    #: a save that would leave too few cards out of the save piles to deal the next hand
    SAVE_PILES_FULL = "save_piles_full"
    #: an action number the action mask does not allow (the RL environments)
    NOT_IN_MASK = "not_in_mask"


class RefusalError(ValueError):
    """A refusal with its :class:`Refusal` code; the message (``str(error)``) says why.

    The base of :class:`InvalidActionError`, :class:`IllegalActionError` and
    :class:`~phase10.core.choices.ChoiceError`: catch it to handle any of them by code.
    """

    code: Refusal

    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[Any, ...]:
        # whole through pickle (a process pool sends errors back), whatever the
        # subclass's arguments: the code is not in ``args``
        return _rebuild, (type(self), self.code, str(self))


def _rebuild(cls: type[RefusalError], code: Refusal, message: str) -> RefusalError:
    error = cls.__new__(cls)
    RefusalError.__init__(error, code, message)
    return error


class InvalidActionError(RefusalError):
    """An action that is malformed: it cannot be read or names nothing in this game.

    Its code is :attr:`Refusal.MALFORMED`.
    """

    def __init__(self, message: str) -> None:
        super().__init__(Refusal.MALFORMED, message)


class IllegalActionError(RefusalError):
    """A well-formed action that the rules do not allow now: ``code`` says which rule,
    the message says why in words."""


class SearchLimitError(ValueError):
    """A search refused: more cards than a hand can hold, or more steps than allowed.

    Every search a client can start is bounded in size and time; this says which bound.
    """
