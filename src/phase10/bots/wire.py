"""The bot protocol's messages as typed models: one pydantic model per message, each field
with its type, default and meaning, from which the JSON Schemas in ``docs/schemas/bot/``
and the field tables of ``docs/bot-protocol.md`` are generated.

The engine (:class:`~phase10.bots.program.SubprocessPlayer`) writes and reads its messages
with the core's own codec and needs none of this: this module, which needs pydantic (the
``cli`` and ``server`` extras bring it), is the protocol's description, and the tests hold
every message the engine sends and every answer it accepts to it. ``phase10 protocol-test``
checks a bot's messages with it.

``python -m phase10.bots.wire`` writes the schemas and the tables; ``--check`` only says
whether the committed ones are stale (non-zero exit).

>>> Ready.model_validate({"type": "ready", "name": "tiny"}).protocol
1
>>> Answer.model_validate({"action": {"type": "Hit", "card": "W", "group": 1, "number": 12}}).action
Hit(type='Hit', card='W', group=1, number=12)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from phase10.core import GroupKind, Refusal
from phase10.core.codec import ACTION_READERS

from .formats import (
    EVENTS,
    GroupData,
    RulesData,
    SeatData,
    TableGroup,
    ViewData,
)
from .program import ANSWER_PROBLEMS, MAX_ATTEMPTS, PROBLEMS, PROTOCOL_VERSION

__all__ = [
    "ACTIONS",
    "EVENTS",
    "MESSAGES",
    "Answer",
    "ErrorMessage",
    "GameOver",
    "Hello",
    "LayDownGroup",
    "Quit",
    "Ready",
    "Turn",
    "main",
    "render_tables",
    "schemas",
]

#: the schemas' folder and the document whose tables are generated, from the project root
SCHEMA_DIR = Path("docs/schemas/bot")
DOC = Path("docs/bot-protocol.md")
#: where each schema says it lives
SCHEMA_BASE = "https://phase10.invalid/schemas/bot/"


class _Model(BaseModel):
    # unknown fields are ignored by both sides (newer engines and bots may add some); the
    # engine's forms inside (phase10.bots.formats) refuse them, so that the tests catch a
    # field the engine sends without its documentation
    model_config = ConfigDict(extra="ignore", frozen=True)


Seat = Annotated[int, Field(ge=0, le=5, description="a seat, from 0")]
Phase = Annotated[int, Field(ge=1, description="a phase, numbered from 1")]
CardText = Annotated[
    str,
    Field(
        description=(
            "a card: a colour letter R, B, G or Y and 1-12, W (Wild), S (Skip) or A (the "
            "Anti-phase card)"
        )
    ),
]


# -- the rules, the view and the events: phase10.bots.formats -----------------------------


class LayDownGroup(_Model):
    """A group as a LayDown answer gives it: ``cards`` (each Wild a bare ``W``, its value
    in number, low, color or parity where no numbered card implies it) or ``text``
    (written as in a lay-down, ``W=5`` allowed, no values beside it), never both."""

    kind: GroupKind = Field(description="the kind of group")
    cards: str | None = Field(
        default=None, description="the cards, runs lowest first; each Wild a bare W"
    )
    text: str | None = Field(default=None, description="the group as written in a lay-down")
    number: int | None = Field(default=None, ge=1, le=12, description="a set's number")
    low: int | None = Field(default=None, ge=1, le=12, description="a run's lowest number")
    color: Literal["R", "B", "G", "Y"] | None = Field(
        default=None, description="the colour of the colour kinds"
    )
    parity: Literal["even", "odd"] | None = Field(
        default=None, description="the parity of the even/odd kinds"
    )


# -- actions (the object form of an answer) ----------------------------------------------


class Draw(_Model):
    """Draw the top card of the draw pile (``draw``)."""

    type: Literal["Draw"]


class TakeDiscard(_Model):
    """Take the top discard, never a Skip (``take``)."""

    type: Literal["TakeDiscard"]


class LayDown(_Model):
    """Lay down a phase (``lay ...``): its groups, in any order."""

    type: Literal["LayDown"]
    groups: list[LayDownGroup] = Field(description="the groups (cards or text each)")
    phase: Phase | None = Field(
        default=None, description="the phase laid, when phases may be made in any order"
    )


class Hit(_Model):
    """Put a card on a table group (``hit R8 g2``, ``hit W=9 g2``)."""

    type: Literal["Hit"]
    card: CardText
    group: int = Field(ge=0, description="the table group's id")
    number: int | None = Field(
        default=None, ge=1, le=12, description="a Wild's number at either end of a run"
    )


class Discard(_Model):
    """Discard a card, ending the turn (``discard R7``, ``discard S>p2``)."""

    type: Literal["Discard"]
    card: CardText
    target: Seat | None = Field(default=None, description="the seat a Skip skips")


class Declare(_Model):
    """Name the phase for this hand (``declare 4``; declare = deal)."""

    type: Literal["Declare"]
    phase: Phase


class GiveWild(_Model):
    """The dealer gives the turned-up Wild (``give p1``; wild_deal_up = dealer_chooses)."""

    type: Literal["GiveWild"]
    player: Seat = Field(description="the seat that gets it")


class Save(_Model):
    """End the turn by saving a card on your save pile (``save R7``; save_pile on)."""

    type: Literal["Save"]
    card: CardText


class TakeSaved(_Model):
    """Take a card back from your save pile instead of drawing (``take-saved R7``)."""

    type: Literal["TakeSaved"]
    card: CardText


class GiveUp(_Model):
    """Give up your laid phase (``give-up``; give_up = forfeit or keep)."""

    type: Literal["GiveUp"]


#: Every action's object form, by its ``type``.
ACTIONS: dict[str, type[_Model]] = {
    model.__name__: model
    for model in (
        Draw,
        TakeDiscard,
        LayDown,
        Hit,
        Discard,
        Declare,
        GiveWild,
        Save,
        TakeSaved,
        GiveUp,
    )
}
assert set(ACTIONS) == set(ACTION_READERS), "every action the core reads has its model"
ActionObject = Annotated[
    Draw | TakeDiscard | LayDown | Hit | Discard | Declare | GiveWild | Save | TakeSaved | GiveUp,
    Field(discriminator="type"),
]


# -- the messages ------------------------------------------------------------------------


class Hello(_Model):
    """engine → bot, once at the start of each game the bot plays."""

    type: Literal["hello"]
    protocol: Literal[1] = Field(default=1, description="the protocol version")
    seat: Seat = Field(description="the bot's seat (seats are p0, p1, ... in actions)")
    players: list[str] = Field(description="every seat's name, in seat order")
    rules: RulesData = Field(description="the game's rules")
    timeout: float = Field(gt=0, description="seconds the bot has for each answer")


class Ready(_Model):
    """bot → engine, the answer to hello. A bot naming another protocol fails."""

    type: Literal["ready"]
    name: str | None = Field(default=None, description="the bot's name, used in errors")
    author: str | None = Field(default=None, description="who wrote it")
    protocol: Literal[1] = Field(default=1, description="the protocol spoken")


class Turn(_Model):
    """engine → bot, for each decision: answer with one action."""

    type: Literal["turn"]
    view: ViewData = Field(description="what the player may know")
    legal: list[str] = Field(description="the text of every legal action, each once")


class Answer(_Model):
    """bot → engine, the answer to turn and error: one action."""

    action: str | ActionObject = Field(
        description="the action's text ('discard G9') or its object form"
    )


class ErrorMessage(_Model):
    """engine → bot: the answer was refused; answer again while attempts_left > 0."""

    type: Literal["error"]
    message: str = Field(description="why the answer was refused")
    code: Refusal = Field(description="the refusal's stable code (malformed: unreadable)")
    attempts_left: int = Field(
        ge=0,
        description=f"answers left (a decision allows {MAX_ATTEMPTS}); 0: do not answer, the "
        "engine gave up",
    )


class GameOver(_Model):
    """engine → bot: the game has ended. No answer."""

    type: Literal["game_over"]
    winners: list[Seat] = Field(description="the winning seats")
    scores: list[int] = Field(description="every seat's final total")


class Quit(_Model):
    """engine → bot: exit, without answering."""

    type: Literal["quit"]


#: Every message, by the name of its schema file (``docs/schemas/bot/NAME.json``).
MESSAGES: dict[str, type[_Model]] = {
    "hello": Hello,
    "ready": Ready,
    "turn": Turn,
    "answer": Answer,
    "error": ErrorMessage,
    "game_over": GameOver,
    "quit": Quit,
}


# -- generating the schemas and the tables -----------------------------------------------


def _open(schema: Any) -> Any:
    """``schema`` without ``additionalProperties: false``: the engine's forms refuse unknown
    fields in the tests, but a bot must ignore the fields a newer engine may add."""
    if isinstance(schema, dict):
        return {
            key: _open(value)
            for key, value in schema.items()
            if not (key == "additionalProperties" and value is False)
        }
    if isinstance(schema, list):
        return [_open(value) for value in schema]
    return schema


def schemas() -> dict[str, dict[str, Any]]:
    """Each message's JSON Schema, by file name."""
    out = {}
    for name, model in MESSAGES.items():
        schema = _open(model.model_json_schema())
        out[name] = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"{SCHEMA_BASE}{name}.json",
            **schema,
            "x-protocol-version": PROTOCOL_VERSION,
        }
    return out


def _words(text: str) -> str:
    """A description as one Markdown table cell (``code`` becomes `code`)."""
    return " ".join(text.split()).replace("``", "`").replace("|", "\\|")


def _type_text(info: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    """A schema's type in a few words: an enum by its values, a model by its name (an
    engine form's without its ``Data``: ``RulesData`` is the rules)."""
    if "$ref" in info:
        name = info["$ref"].rsplit("/", 1)[-1]
        target = defs.get(name, {})
        return _type_text(target, defs) if "enum" in target else name.removesuffix("Data")
    if "anyOf" in info:
        return " or ".join(_type_text(part, defs) for part in info["anyOf"])
    if "oneOf" in info:
        return "one of " + ", ".join(_type_text(part, defs) for part in info["oneOf"])
    if "enum" in info:
        return " / ".join(f"`{value}`" for value in info["enum"])
    if "const" in info:
        return f"`{info['const']}`"
    if info.get("type") == "array":
        return f"list of {_type_text(info.get('items', {}), defs)}"
    return str(info.get("type", "any"))


def _table(model: type[BaseModel]) -> list[str]:
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    rows = ["| field | type | default | meaning |", "|---|---|---|---|"]
    for name, info in schema.get("properties", {}).items():
        field = model.model_fields[name]
        default = "required" if field.is_required() else f"`{json.dumps(info.get('default'))}`"
        meaning = _words(field.description or "")
        if name == "type" and not meaning:
            meaning = "what the object is"
        rows.append(f"| `{name}` | {_type_text(info, defs)} | {default} | {meaning} |")
    return rows


def _event_table() -> list[str]:
    rows = ["| event | fields (type, default) | what happened |", "|---|---|---|"]
    for name, model in EVENTS.items():
        schema = model.model_json_schema()
        defs = schema.get("$defs", {})
        fields = []
        for field, info in schema["properties"].items():
            if field == "type":
                continue
            spec = model.model_fields[field]
            default = "" if spec.is_required() else f" = {json.dumps(info.get('default'))}"
            fields.append(f"`{field}` ({_type_text(info, defs)}{default})")
        rows.append(f"| `{name}` | {', '.join(fields)} | {_words(model.__doc__ or '')} |")
    return rows


def _problem_table() -> list[str]:
    rows = ["| when the bot | the message says |", "|---|---|"]
    for problem in PROBLEMS.values():
        rows.append(f"| {problem.when} | `{problem.say(**problem.example)}` |")
    return rows


def _answer_table() -> list[str]:
    rows = ["| when | the message says |", "|---|---|"]
    for problem in ANSWER_PROBLEMS.values():
        rows.append(f"| {problem.when} | `{problem.say(**problem.example)}` |")
    return rows


def render_tables() -> dict[str, list[str]]:
    """The generated parts of docs/bot-protocol.md, by marker name."""
    tables = {name: _table(model) for name, model in MESSAGES.items()}
    tables |= {
        "view": _table(ViewData),
        "seat": _table(SeatData),
        "group": _table(GroupData),
        "lay-down-group": _table(LayDownGroup),
        "table-group": _table(TableGroup),
        "events": _event_table(),
        "rules": _table(RulesData),
        "bot-errors": _problem_table(),
        "answer-errors": _answer_table(),
    }
    for name, model in ACTIONS.items():
        tables[f"action-{name}"] = _table(model)
    return tables


def render_doc(text: str) -> str:
    """``text`` with every ``<!-- generated: NAME -->`` ... ``<!-- end -->`` part rewritten."""
    tables = render_tables()
    out: list[str] = []
    lines = iter(text.splitlines())
    for line in lines:
        out.append(line)
        marker = line.strip()
        if marker.startswith("<!-- generated: ") and marker.endswith(" -->"):
            name = marker[len("<!-- generated: ") : -len(" -->")]
            if name not in tables:
                raise ValueError(f"{DOC}: no generated table named {name!r}")
            out.extend(tables[name])
            for skipped in lines:
                if skipped.strip() == "<!-- end -->":
                    out.append(skipped)
                    break
            else:
                raise ValueError(f"{DOC}: the table {name!r} has no <!-- end --> line")
    return "\n".join(out) + "\n"


def generated_files(root: Path) -> Mapping[Path, str]:
    """Every generated file's path (under ``root``) and its content."""
    files = {
        root / SCHEMA_DIR / f"{name}.json": json.dumps(schema, indent=2, sort_keys=True) + "\n"
        for name, schema in schemas().items()
    }
    files[root / DOC] = render_doc((root / DOC).read_text())
    return files


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m phase10.bots.wire [--check] [--root DIR]``."""
    parser = argparse.ArgumentParser(
        prog="python -m phase10.bots.wire",
        description="Write the bot protocol's JSON Schemas and docs/bot-protocol.md's tables.",
    )
    parser.add_argument("--check", action="store_true", help="only check they are up to date")
    parser.add_argument("--root", type=Path, default=Path("."), help="the project's folder")
    args = parser.parse_args(argv)
    stale = []
    for path, content in generated_files(args.root).items():
        if not path.exists() or path.read_text() != content:
            stale.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(content)
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path}", file=sys.stderr)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
