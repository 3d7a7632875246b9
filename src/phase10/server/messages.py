"""The WebSocket's server-to-client messages, as types (docs/server-protocol.md).

The server builds its messages as plain dicts (a ``state`` goes to every connection after
every change, so it is written once per seat with orjson); these models say exactly what
each holds. The schemas in ``docs/schemas/server/`` and the field tables of the protocol's
doc are generated from them, and the tests check every message a test client receives
against :data:`ServerMessage`.

>>> from pydantic import TypeAdapter
>>> TypeAdapter(ServerMessage).validate_json('{"type": "pong"}')
Pong(type='pong')
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .formats import Card, PhaseNumber, Seat, ViewData, Wire
from .models import PublicTable
from .protocol import ERRORS, PROTOCOL_VERSION

__all__ = [
    "PROTOCOL_VERSION",
    "ChoicesAnswer",
    "DiceHintAnswer",
    "DiceState",
    "ErrorMessage",
    "Goodbye",
    "HintAnswer",
    "Legal",
    "Pong",
    "Progress",
    "ServerMessage",
    "State",
    "Welcome",
]


class Welcome(Wire):
    """The answer to ``hello``, sent again when the host's role changes hands."""

    type: Literal["welcome"]
    protocol: int
    """The protocol's version (``GET /api/schemas`` says the same)."""
    table: str
    """The table's id."""
    seat: Seat | None
    """Your seat, or null for a spectator."""
    role: Literal["player", "spectator"]
    """``player`` with a seat, ``spectator`` without."""
    host: bool
    """Whether you are the table's host."""


class Choice(Wire):
    """One legal action, ready to send back as an ``action`` message."""

    action: str
    """The action's text, to send unchanged."""
    label: str
    """The action in plain words, players by name (``Take R7``)."""


class DrawChoice(Choice):
    card: Card | None = None
    """The card ``take`` takes (absent for ``draw``)."""


class DeclareChoice(Choice):
    phase: PhaseNumber
    """The phase named (its number in the phase list)."""


class GiveChoice(Choice):
    seat: Seat
    """The player the turned-up Wild goes to (your own seat: you keep it)."""


class LayWay(Choice):
    cards: list[Card]
    """The hand cards the lay-down uses (a Wild as ``W``)."""
    phase: PhaseNumber
    """The phase it lays (its number in the phase list)."""


class LayChoices(Wire):
    """The lay-downs: every one when ``complete``, else the best of them."""

    ways: list[LayWay] = Field(max_length=20)
    """At most 20, best first (most cards laid, then most points, then the lowest numbers)."""
    total: int
    """How many lay-downs were found."""
    complete: bool
    """Whether ``ways`` holds every legal lay-down. When false, ``ways`` keeps one way per
    set of cards: ask ``choices`` (kind ``lay``) for every way of the cards you pick."""
    counted: bool
    """Whether ``total`` is exact (false: the bounded search stopped first, and ``total``
    is a lower bound)."""


class HitEntry(Choice):
    card: Card
    """The hand card put on the group."""
    end: Literal["low", "high"] | None
    """The run's end it goes on; null for any other group."""


class HitGroup(Wire):
    """The hits on one table group."""

    group: int
    """The group's id (its index in ``view.melds``)."""
    owner: Seat
    """Who laid it down."""
    title: str
    """The group in words (``Ann's run 4-7``, ``Your set of 7s``)."""
    hits: list[HitEntry]
    """Each card of yours that fits, at each place it fits."""


class DiscardChoice(Choice):
    card: Card
    """The card discarded."""


class SkipChoice(Choice):
    card: Literal["S"]
    """Always ``S``."""
    seat: Seat
    """The player the Skip skips."""


class AntiChoice(Choice):
    card: Literal["A"]
    """Always ``A``."""
    seat: Seat
    """The player who moves down a phase when you go out with the Anti-phase card."""


class SaveChoice(Choice):
    card: Card
    """The card put on your save pile (ending the turn instead of a discard)."""


class TakeSavedChoice(Choice):
    card: Card
    """The card taken back from your save pile (instead of drawing)."""


class Legal(Wire):
    """What you may do now. The union of every ``action`` below is the engine's legal
    actions for your seat (when ``lay.complete``)."""

    turn: bool
    """Whether you are to move (false: every list is empty)."""
    stage: Literal["give_wild", "wild_discard", "declare", "draw", "play", "over"]
    """What the game waits for (``over``: the game has ended)."""
    prompt: str
    """What to do now, in plain words with no keys (``Waiting for Ann to play``)."""
    draw: list[DrawChoice]
    """``draw``, and ``take`` when the top discard may be taken."""
    declare: list[DeclareChoice]
    """Each phase you may name (masters)."""
    give: list[GiveChoice]
    """Each player the turned-up Wild may go to (wild deal-up)."""
    lay: LayChoices
    """The lay-downs of your phase."""
    hits: list[HitGroup]
    """The table groups you may hit, by group id."""
    discards: list[DiscardChoice]
    """Each card you may discard (a Skip with no target to choose is here, and the
    Anti-phase card when it names nobody: not your last card, or in a tie-break)."""
    skips: list[SkipChoice]
    """Each player a Skip may name."""
    anti: list[AntiChoice]
    """Each player you may name when you go out with the Anti-phase card (your last card;
    rules ``anti_phase``)."""
    saves: list[SaveChoice]
    """Each card you may save instead of discarding (rules ``save_pile``)."""
    take_saved: list[TakeSavedChoice]
    """Each card you may take back from your save pile instead of drawing."""
    give_up: list[Choice] = Field(max_length=1)
    """``give-up`` when you may give up your laid phase (Masters Variant #2), else empty."""


class Progress(Wire):
    """Your phase this hand and how far you are from it (the solver's count)."""

    phase: PhaseNumber | None
    """The phase's number, or null when every phase is done."""
    text: str
    """The phase in words (``every phase is done`` when none is left)."""
    laid: bool
    """Whether it is laid down."""
    away: int | None
    """Cards still missing from the closest try (0: it can be laid now; null once laid)."""
    label: str
    """All of it in words (``Phase 3: 1 set of 4 + 1 run of 4 — 2 cards away``)."""


class DieData(Wire):
    """One of the ten dice of a dice table."""

    die: str
    """Its name: ``H1`` to ``H6`` (high: 5 to 10), ``L1`` to ``L4`` (low: 1 to 4, W, W)."""
    index: int = Field(ge=0, le=9)
    """Its index, 0 to 9 (``view.kept`` and ``view.showing`` count by it)."""
    high: bool
    """A high die (5 to 10)."""
    face: str | None
    """The face it shows (``O10``, ``B4``, ``GW``), null before the turn's first roll."""
    kept: bool
    """Whether it is set aside."""
    label: str
    """All of it in words (``orange 10, high die 3, set aside``)."""


class DiceSeatData(Wire):
    """One player's line of the score sheet."""

    name: str
    phase: int = Field(ge=1, le=11)
    """The phase worked on (11: all ten are done)."""
    total: int
    """Points so far, bonuses included."""
    scores: list[int | None] = Field(min_length=10, max_length=10)
    """The points each phase scored, null where not completed."""
    failures: int
    """Turns that did not make the phase."""
    bonuses: list[Literal["five_phase", "first_finish"]]
    """The bonuses earned."""


class DiceWay(Wire):
    """The best-scoring way the dice showing make the phase."""

    score: int
    """What scoring now would score."""
    groups: list[list[str]]
    """The faces of each group of the phase."""


class DiceViewData(Wire):
    """A dice game as a viewer sees it (``DiceView.to_dict()`` without its history: the
    ``log`` tells it). Everything is public; only the player to move gets legal actions."""

    viewer: Seat | None
    order: list[Seat]
    """The turn order, first player first."""
    stage: Literal["roll", "choose", "final", "game_over"]
    """``roll`` (the turn's first roll), ``choose`` (keep, unkeep, roll again, score or
    pass), ``final`` (three rolls made: score or pass), ``game_over``."""
    current: Seat
    """The player to move."""
    turn: int
    """Turns started so far."""
    last_try: bool
    """Whether this turn is a last try (someone has completed phase 10)."""
    rolls_left: int = Field(ge=0, le=3)
    showing: list[str | None] = Field(min_length=10, max_length=10)
    """Each die's face, by index; null before the turn's first roll."""
    kept: list[int]
    """The dice set aside, by index."""
    seats: list[DiceSeatData]
    """The score sheet, in seat order."""
    way: DiceWay | None
    """The best-scoring way the dice make the phase to move, or null."""
    finisher: Seat | None
    """Who completed phase 10 first, once someone has."""
    last_round: list[Seat]
    """The players still to take their last try, next first."""
    winners: list[Seat]
    """The winners, once the game is over."""
    legal_actions: list[str]
    """What you may send as an ``action`` now (empty unless it is your turn): ``roll``,
    ``keep H3`` and ``unkeep H3`` one die at a time (several dice in one action are legal
    too), ``score`` (the best-scoring way) or ``pass``."""


class DiceState(Wire):
    """A dice table's game, for one viewer."""

    view: DiceViewData
    """The game as you see it."""
    dice: list[DieData] = Field(min_length=10, max_length=10)
    """The ten dice, in order, each in words."""
    phase: str | None
    """The phase to move in words (``2 sets of 3``), null once the game is over."""
    prompt: str
    """What to do now, in plain words (``Waiting for Ann (phase 3 ...)``)."""


class LastMoveData(Wire):
    """A hand's last move, worded as the narration words it (``phase10.core.last_move``)."""

    seat: Seat
    """Who made it."""
    kind: Literal[
        "draw", "take", "lay", "hit", "discard", "skip", "anti", "moved-down", "skipped",
        "declare", "give", "save", "give-up",
    ]  # fmt: skip
    """What it was."""
    text: str
    """What they did, after their name (``drew a card``, ``was skipped``)."""
    own: str
    """The same after "You", for the player who made it (``were skipped``)."""
    groups: list[int]
    """The groups it laid down or hit (their ids), to mark on the table."""


class State(Wire):
    """The table and your view of the game, sent after every change."""

    type: Literal["state"]
    version: int
    """How many actions this game has had: send it back with an ``action``."""
    you: Seat | None
    """Your seat, or null for a spectator."""
    table: PublicTable
    """The table, as anyone with its link may know it."""
    view: ViewData | None
    """Your view of the game (a spectator's: every hand hidden); null in the lobby."""
    log: list[str] = Field(max_length=50)
    """The game's last lines of story, told for you (``turn 3: You draw R2``)."""
    last_move: LastMoveData | None = None
    """This hand's last move, for the table to mark on the seat that made it; null before
    anyone has moved in the hand (and in the lobby, and at a dice table)."""
    legal: Legal | None
    """What you may do now; null for a spectator and in the lobby."""
    progress: Progress | None
    """Your phase and how far you are; null for a spectator and in the lobby."""
    dice: DiceState | None = None
    """A dice table's game (``table.options.kind`` ``dice``; ``view``, ``legal`` and
    ``progress`` are then null); null in its lobby, absent at a card table."""


class ChoicesAnswer(Wire):
    """The answer to ``choices``."""

    type: Literal["choices"]
    kind: Literal["lay", "hit"]
    """As asked."""
    actions: list[str]
    """Every legal lay-down of exactly the cards sent, or every legal hit of the one card,
    each ready to send as an ``action``."""
    version: int
    """The game's version the answer was worked out on."""


class HintStep(Wire):
    action: str
    """An action to play, ready to send."""
    text: str
    """The same action in words ("discard the Skip on Bob")."""
    reason: str
    """Why, in words."""
    cards: list[Card]
    """The cards of your hand the step plays, to select them (none for a step that plays no
    card: a draw, a take, a declaration)."""
    label: str | None
    """The step as the ``legal`` block names its entries ("set of 7s (R7 B7 W=7) + ..."),
    where it can be played from the position as it is (null otherwise: a hit on the groups
    the hint's lay-down makes)."""


class Out(Wire):
    card: Card
    """A card that would bring the phase closer."""
    unseen: int
    """How many of it you have not seen (not in your hand, the discard pile or on the
    table)."""


class Odds(Wire):
    draws: int
    """Within this many draws (1, 2 and 3)."""
    probability: float = Field(ge=0, le=1)
    """The chance of completing the phase by then."""


class HintData(Wire):
    steps: list[HintStep]
    """The advised actions for this turn, in order."""
    phase: str | None
    """The phase aimed at, in words (null once laid down)."""
    missing: int | None
    """Cards still missing from the phase (0: it can be laid now; null once laid down)."""
    outs: list[Out]
    """Single cards that would complete the phase, each with how many are unseen."""
    odds: list[Odds]
    """The chances of completing the phase within 1, 2 and 3 draws."""
    odds_exact: bool
    """False when some chances are estimated from sampled draws."""
    after_steps: bool
    """True when ``missing``, ``outs`` and ``odds`` are counted on the hand the steps leave
    (the card taken, the turn's discard made), not on the hand held now."""


class HintAnswer(Wire):
    """The answer to ``hint``: the solver's advice for your turn."""

    type: Literal["hint"]
    text: str
    """The advice in words."""
    hint: HintData
    """The advice, item by item."""
    version: int
    """The game's version the answer was worked out on."""


class DiceHintData(Wire):
    """What the optimal dice bot would do now, and why."""

    action: str
    """The next action, ready to send (``keep H1 H3``, ``roll``, ``score``, ``pass``)."""
    keep: list[Annotated[int, Field(ge=0, le=9)]] | None
    """The dice (by index) to have set aside before the next roll, the others rolled; null
    when no roll is advised (the turn's first roll, a score or a pass)."""
    keep_dice: list[str] | None
    """The same dice by name (``H1``, ``L4``)."""
    reason: str
    """Why, in words (``The phase is made this turn 87% of the time, the best chance.``)."""


class DiceHintAnswer(Wire):
    """The answer to ``hint`` at a dice table: the hint of the terminal game's ``?``."""

    type: Literal["dice_hint"]
    text: str
    """The hint in one sentence (``Hint: keep H1 H3, roll the rest. ...``)."""
    hint: DiceHintData
    """The hint, item by item."""
    version: int
    """The game's version the answer was worked out on."""


class Goodbye(Wire):
    """You no longer hold the seat; the socket then closes with 4403."""

    type: Literal["goodbye"]
    reason: str
    """Why, in words (removed by the host, given to a bot, or you left)."""


class Pong(Wire):
    """The answer to ``ping``."""

    type: Literal["pong"]


class ErrorMessage(Wire):
    """A message refused (nothing changed), or a problem with the connection."""

    type: Literal["error"]
    code: Annotated[str, Field(json_schema_extra={"enum": list(ERRORS)})]
    """What went wrong: one of the error codes (``GET /api/errors``)."""
    message: str
    """The same in plain English, naming no keys; repeats at most a short excerpt of what
    was sent."""
    reason: str | None = None
    """The engine's refusal code (``phase10.core.Refusal``) when the engine refused: only
    with ``illegal_action``, ``invalid_action``, ``not_held`` and ``no_choice``."""
    version: int | None = None
    """The game's current version: only with ``stale``."""


#: every message the server sends, told apart by ``type``
ServerMessage = Annotated[
    Welcome | State | ChoicesAnswer | HintAnswer | DiceHintAnswer | Goodbye | Pong | ErrorMessage,
    Field(discriminator="type"),
]
