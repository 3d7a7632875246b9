"""The WebSocket protocol's client messages (validated strictly with pydantic) and error codes.

docs/server-protocol.md describes every message and every code. Types are never
converted: ``"version": "5"`` or ``true`` where a number belongs is refused, as is JSON
nested deeper than a message can be.

>>> parse_client_message('{"type": "action", "action": "draw", "version": 5}').version
5
>>> parse_client_message('{"type": "action", "action": "draw", "version": "5"}')
Traceback (most recent call last):
...
phase10.server.protocol.ProtocolError: invalid message: version: Input should be a valid integer
>>> parse_client_message("[" * 2000 + "]" * 2000)
Traceback (most recent call last):
...
phase10.server.protocol.ProtocolError: the message is not valid JSON: depth limit exceeded...
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .dice import table_bot

__all__ = [
    "ERRORS",
    "HTTP_ERRORS",
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "ClientMessage",
    "ProtocolError",
    "error_message",
    "excerpt",
    "parse_client_message",
]

#: the protocol's version, in ``welcome`` and ``GET /api/schemas``: raised when a message
#: changes in a way an existing client could misread (a field removed, renamed or given
#: another type); adding a field keeps it
PROTOCOL_VERSION = 2
#: the largest message a client may send, in bytes
MAX_MESSAGE_BYTES = 4096
#: the most characters of anything a client sent that an error message repeats
EXCERPT = 80

#: every error code the server sends, with what it means
ERRORS: dict[str, str] = {
    "no_such_table": "there is no table with this id (the socket is closed)",
    "bad_json": "the message is not a JSON object",
    "too_large": f"the message is longer than {MAX_MESSAGE_BYTES} bytes",
    "invalid_message": "the message does not match any message type (see the details)",
    "rate_limited": "too many messages: this one was dropped",
    "too_many_connections": "too many connections: from your address, or to this table",
    "not_joined": "send hello first",
    "already_joined": "hello was already sent on this connection",
    "protocol_mismatch": "the client speaks another version of the protocol than the server",
    "bad_token": "the token belongs to no seat at this table",
    "seat_gone": "this seat link no longer holds a seat: its player left or was replaced",
    "spectator": "spectators cannot play",
    "not_host": "only the table's host can do that",
    "no_such_seat": "that seat cannot be changed so (no such seat, an open seat, or yours)",
    "not_started": "the game has not started",
    "already_started": "the game has already started",
    "table_full": "every seat at the table is taken",
    "game_over": "the game is over",
    "game_not_over": "the game is not over yet",
    "not_your_turn": "it is another player's turn",
    "stale": "the action was chosen on another version of the game than the current one",
    "invalid_action": "the action's text cannot be read",
    "illegal_action": "the action breaks a rule (the message says which)",
    "not_held": "the message names cards you do not hold",
    "no_choice": "the selected cards make no legal lay-down or hit",
    "no_hint": "there is no hint now",
    "busy": "the server is still working on your last hint or choices: ask again soon",
    "too_slow": "working that out took too long and was stopped",
    "server_error": "the server could not answer this; the problem was logged",
    # over HTTP only
    "bad_name": "the name cannot be used (the message says why)",
    "name_taken": "another player at the table has that name",
    "seeded_table": "the table's deal comes from a seed its host chose: it is for its host and bots",
    "server_full": "the server holds as many tables as it can: try again later",
}


#: every HTTP error code, with its status and meaning (the body is ``{"error", "message"}``)
HTTP_ERRORS: dict[str, tuple[int, str]] = {
    "invalid_request": (422, "a body or query that does not match its model"),
    "bad_json": (400, "a body that is not JSON, or nests deeper than 1,024 levels"),
    "too_large": (413, "a body over the limit, declared or streamed"),
    "rate_limited": (429, "too many requests, tables created or seats taken lately"),
    "bad_name": (422, "a name that cannot be used"),
    "name_taken": (409, "another player at the table has that name"),
    "bad_rules": (422, "an unknown preset, or a rules option that does not exist or fit"),
    "no_such_table": (404, "no table has this id"),
    "already_started": (409, "the table's game has begun"),
    "table_full": (409, "every seat at the table is taken"),
    "seeded_table": (409, "the table's deal comes from its host's seed"),
    "server_full": (503, "the server holds as many tables as it may"),
    "no_such_record": (404, "no finished game has this id"),
    "dice_record": (404, "a dice game's record has no step-by-step replay (ask for the record)"),
    "bad_record": (500, "a stored record cannot be replayed"),
    "cannot_review": (
        422,
        "the game cannot be reviewed: played with dice, or by rules reviews do not play",
    ),
    "no_such_player": (422, "the game has no such seat to review"),
    "no_review": (404, "no review of that player in that game was asked for: POST to start one"),
    "busy": (429, "the server is reviewing as many games as it may at once: try again soon"),
    "reviews_unavailable": (
        503,
        "this server cannot review games (its compiled kernel is not built)",
    ),
    "bad_cards": (422, "the score sheet's cards cannot be read"),
    "bad_sheet": (422, "the score sheet does not add up"),
    "not_found": (404, "no such path or schema"),
    "method_not_allowed": (405, "the path does not take this method"),
    "bad_request": (400, "any other request the server cannot take"),
    "internal_error": (500, "the server failed; the problem was logged"),
}


class ProtocolError(Exception):
    """A message refused with an error code; nothing was changed.

    ``reason`` is the engine's :class:`~phase10.core.Refusal` code when the engine refused
    (``illegal_action``, ``invalid_action``, ``not_held``, ``no_choice``), sent as the
    error's ``reason`` so a client can tell refusals apart without reading the message.
    """

    def __init__(
        self,
        code: str,
        message: str | None = None,
        reason: str | None = None,
        *,
        version: int | None = None,
    ) -> None:
        if code not in ERRORS:
            raise ValueError(f"no error code {code!r}")
        super().__init__(message or ERRORS[code])
        self.code = code
        self.message = message or ERRORS[code]
        self.reason = reason
        #: the game's current version (``stale`` only)
        self.version = version

    @classmethod
    def refusal(cls, code: str, error: Exception, reason: str | None = None) -> ProtocolError:
        """The engine's refusal ``error`` as this error, its message cut short (it may quote
        what the client sent: never echoed whole)."""
        return cls(code, excerpt(str(error), 200), reason)


def error_message(
    code: str, message: str | None = None, reason: str | None = None, version: int | None = None
) -> dict[str, Any]:
    """The ``error`` message sent to a client (``reason`` only when the engine gave one,
    ``version`` only with ``stale``).

    >>> error_message("illegal_action", "the discard pile is empty", "discard_empty")
    {'type': 'error', 'code': 'illegal_action', 'message': 'the discard pile is empty', 'reason': 'discard_empty'}
    """
    sent: dict[str, Any] = {"type": "error", "code": code, "message": message or ERRORS[code]}
    if reason is not None:
        sent["reason"] = str(reason)
    if version is not None:
        sent["version"] = version
    return sent


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """At most ``limit`` characters of ``text`` (what a client sent is never echoed whole).

    >>> excerpt("x" * 100, 10)
    'xxxxxxxxxx… (100 characters)'
    """
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


class _Message(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, use_attribute_docstrings=True
    )


class Hello(_Message):
    """The first message: sit at the token's seat, or watch without one. Answered by
    ``welcome`` then ``state``."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    """Your seat's token (from creating or joining the table); leave it out to watch."""
    protocol: Annotated[int, Field(ge=1)] | None = None
    """The protocol version the client was written for; when given and not the server's,
    ``hello`` is refused with ``protocol_mismatch`` (the socket stays open)."""


class Start(_Message):
    """The host, in the lobby: fill the open seats with bots and deal."""

    type: Literal["start"]


class SetBots(_Message):
    """The host, in the lobby: the bot for the open seats."""

    type: Literal["bots"]
    bots: Annotated[
        str, Field(max_length=24, examples=["strong:2", "optimal"]), AfterValidator(table_bot)
    ]
    """A built-in bot, as in ``POST /api/tables`` (never a program): a card bot at a card
    table, a dice bot at a dice table."""


Seat = Annotated[int, Field(ge=0, le=5)]


class RemovePlayer(_Message):
    """The host removes another player: in the lobby the seat is open again, in a game a
    bot takes it over; their link stops working."""

    type: Literal["remove_player"]
    seat: Seat
    """The player's seat."""


class SeatBot(_Message):
    """The host gives a seat to a bot: an open seat in the lobby, or another player's
    (who is removed)."""

    type: Literal["seat_bot"]
    seat: Seat
    """The seat."""


class HandOver(_Message):
    """The host makes another player the host."""

    type: Literal["hand_over"]
    seat: Seat
    """The new host's seat."""


class Leave(_Message):
    """A player gives up their seat (open again in the lobby, a bot's in a game); a host
    who leaves hands the role to another player."""

    type: Literal["leave"]


class Act(_Message):
    """The player to move plays an action."""

    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=400)]
    """The action's text: an ``action`` from the ``legal`` block or from ``choices``
    (``draw``, ``take``, ``lay R7 B7 W + G3 G4 W G6``, ``hit W=9 g2``, ``discard S>p1``,
    ``declare 4``, ``give p1``, ``save R7``, ``take-saved R7``, ``give-up``, ``discard A>p1``)."""
    version: Annotated[int, Field(ge=0)] | None = None
    """The ``state`` version the action was chosen on; refused as ``stale`` unless it is the
    current one (left out: no check)."""


class Choices(_Message):
    """The player to move asks which lay-downs use exactly these cards, or where one card
    may be hit. Answered by ``choices`` (or an error) when worked out."""

    type: Literal["choices"]
    kind: Literal["lay", "hit"]
    """``lay`` (every lay-down of exactly these cards) or ``hit`` (every hit of one card)."""
    cards: Annotated[str, Field(max_length=200)]
    """Cards from your hand, as one text (``R3 G3 W``); one card for ``hit``."""


class Hint(_Message):
    """The player to move asks for the solver's advice, answered by ``hint`` (at a dice
    table by ``dice_hint``)."""

    type: Literal["hint"]


class Rematch(_Message):
    """A player, when the game is over, asks for a new game at the same table (same seats
    and links); it starts once every player who is connected asked."""

    type: Literal["rematch"]
    force: bool = False
    """The host starts the rematch at once (``not_host`` from anyone else)."""


class Ping(_Message):
    """Answered by ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[
    Hello
    | Start
    | SetBots
    | RemovePlayer
    | SeatBot
    | HandOver
    | Leave
    | Act
    | Choices
    | Hint
    | Rematch
    | Ping,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)
TYPES = "hello, start, bots, remove_player, seat_bot, hand_over, leave, action, choices, hint, rematch, ping"
#: the messages only the host may send
HOST_ONLY = frozenset({"start", "bots", "remove_player", "seat_bot", "hand_over"})


def parse_client_message(text: str | bytes, max_bytes: int = MAX_MESSAGE_BYTES) -> Any:
    """One client message of at most ``max_bytes`` (the server's ``max_message_bytes``),
    validated; raises :class:`ProtocolError` with the code."""
    if len(text) > max_bytes or (
        isinstance(text, str) and len(text.encode("utf-8", "replace")) > max_bytes
    ):
        raise ProtocolError("too_large", f"the message is longer than {max_bytes} bytes")
    if isinstance(text, bytes):
        try:
            text.decode("utf-8")
        except UnicodeDecodeError as error:
            where = f"byte {error.start + 1}"
            raise ProtocolError("bad_json", f"the message is not UTF-8 text ({where})") from None
    try:
        # orjson: strict JSON (no NaN), and nesting deeper than 1024 is an error, not a crash
        data = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise ProtocolError("bad_json", f"the message is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        loc = first.get("loc", ())
        where = ".".join(str(part) for part in loc[1:])  # loc[0] is the message's type
        detail = f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
        if first.get("type") == "union_tag_invalid":
            detail = f"no message type {excerpt(str(data.get('type')), 24)!r}; the types: {TYPES}"
        elif first.get("type") == "union_tag_not_found":
            detail = f"a message needs a type: {TYPES}"
        raise ProtocolError("invalid_message", f"invalid message: {excerpt(detail, 200)}") from None
