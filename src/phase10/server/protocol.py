"""The WebSocket protocol's client messages (validated with pydantic) and error codes.

docs/server-protocol.md describes every message and every code.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = [
    "ERRORS",
    "MAX_MESSAGE_BYTES",
    "ClientMessage",
    "ProtocolError",
    "parse_client_message",
]

#: the largest message a client may send, in bytes
MAX_MESSAGE_BYTES = 4096

#: every error code the server sends, with what it means
ERRORS: dict[str, str] = {
    "no_such_table": "there is no table with this id (the socket is closed)",
    "bad_json": "the message is not a JSON object",
    "too_large": f"the message is longer than {MAX_MESSAGE_BYTES} bytes",
    "invalid_message": "the message does not match any message type (see the details)",
    "rate_limited": "too many messages: this one was dropped",
    "not_joined": "send hello first",
    "already_joined": "hello was already sent on this connection",
    "bad_token": "the token belongs to no seat at this table",
    "spectator": "spectators cannot play",
    "not_host": "only the table's host can do that",
    "not_started": "the game has not started",
    "already_started": "the game has already started",
    "game_over": "the game is over",
    "game_not_over": "the game is not over yet",
    "not_your_turn": "it is another player's turn",
    "stale": "the action was chosen on an older state (version mismatch)",
    "invalid_action": "the action's text cannot be read",
    "illegal_action": "the action breaks a rule (the message says which)",
    "no_choice": "the selected cards make no legal lay-down or hit",
    "no_hint": "there is no hint now",
}


class ProtocolError(Exception):
    """A message refused with an error code; nothing was changed."""

    def __init__(self, code: str, message: str | None = None) -> None:
        assert code in ERRORS, code
        super().__init__(message or ERRORS[code])
        self.code = code
        self.message = message or ERRORS[code]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Message):
    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=64)] | None = None


class Start(_Message):
    type: Literal["start"]


class SetBots(_Message):
    type: Literal["bots"]
    bots: Annotated[str, Field(pattern=r"^(random|greedy|strong(:[1-4])?)$")]


class Act(_Message):
    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=400)]
    #: the state version the action was chosen on (optional): a mismatch is refused
    version: Annotated[int, Field(ge=0)] | None = None


class Choices(_Message):
    type: Literal["choices"]
    kind: Literal["lay", "hit"]
    cards: Annotated[str, Field(max_length=200)]


class Hint(_Message):
    type: Literal["hint"]


class Rematch(_Message):
    type: Literal["rematch"]


class Ping(_Message):
    type: Literal["ping"]


ClientMessage = Annotated[
    Hello | Start | SetBots | Act | Choices | Hint | Rematch | Ping,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def parse_client_message(text: str) -> Any:
    """One client message, validated; raises :class:`ProtocolError` with the code."""
    if len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large")
    try:
        data = json.loads(text)
    except ValueError:
        raise ProtocolError("bad_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        detail = f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
        raise ProtocolError("invalid_message", f"invalid message: {detail}") from None
