"""Tables: the presets to choose from, creating and joining a table, what a table shows."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from phase10.bots.registry import bot_choices
from phase10.core import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError, preset
from phase10.core.labels import option_label, option_value_label
from phase10.core.phase_lists import PHASE_LISTS
from phase10.core.rules import PRESET_NOTES

from ..dice import DICE_BOT, card_table_bot, dice_bot_choices, dice_table_bot
from ..models import (
    BotChoice,
    CreateTable,
    Health,
    JoinTable,
    OptionWords,
    Presets,
    PublicTable,
    SchemaIndex,
    Seated,
    SeatKind,
    TableKind,
    TableList,
    TableOptions,
    TableStatus,
)
from ..protocol import ERRORS, PROTOCOL_VERSION, ProtocolError, excerpt
from ..tables import LiveTable
from .common import ApiError, client_address, manager_of, refusal, table_or_404

__all__ = ["router"]

router = APIRouter()

#: the bot of a new card table's open seats unless its host chooses another
CARD_TABLE_BOT = "greedy"


@router.get("/api/presets")
def presets() -> Presets:
    """The rules presets, every option's values and the bots, for the new-table form."""
    defaults = Rules()
    choices = {
        name: [member.value for member in type(getattr(defaults, name))]
        for name, value in defaults.to_dict().items()
        if isinstance(value, str)
    }
    labels = {
        name: OptionWords(
            label=option_label(name),
            values={value: option_value_label(name, value) for value in values},
        )
        for name, values in choices.items()
    }
    bots = [BotChoice(spec=spec, label=label) for label, spec in bot_choices(CARD_TABLE_BOT)]
    lists = {name: [str(phase) for phase in phases] for name, phases in PHASE_LISTS.items()}
    dice_bots = [BotChoice.model_validate(choice) for choice in dice_bot_choices()]
    return Presets(
        presets=dict(PRESET_NOTES),
        options=choices,
        labels=labels,
        phase_lists=lists,
        bots=bots,
        bot=CARD_TABLE_BOT,
        dice_bots=dice_bots,
        dice_bot=DICE_BOT,
    )


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, request: Request) -> Seated:
    manager = manager_of(request)
    bots = _check_dice_table(body) if body.kind is TableKind.DICE else _card_bots(body)
    try:
        base = preset(body.preset)
        rules = Rules.from_dict({**base.to_dict(), **body.options.given()})
    except RulesError as error:
        raise ApiError("bad_rules", excerpt(str(error), 200)) from None
    if not manager.visitors.creates.take(client_address(request)):
        raise ApiError("rate_limited", "you have opened many tables lately: wait a while")
    options = TableOptions(
        kind=body.kind,
        preset=body.preset,
        rules=rules.to_dict(),
        seats=body.seats,
        bots=bots,
        turn_seconds=body.turn_seconds,
        away_seconds=body.away_seconds,
        public=body.public,
        seed=body.seed,
    )
    try:
        table, seat, token = await manager.create(body.name, options, client_address(request))
    except ProtocolError as error:
        raise refusal(error) from None
    return _seated(table, seat, token)


@router.post("/api/tables/{table_id}/join")
async def join_table(table_id: str, body: JoinTable, request: Request) -> Seated:
    manager = manager_of(request)
    table = await table_or_404(request, table_id)
    if not manager.visitors.joins.take(client_address(request)):
        raise ApiError("rate_limited", "you have joined many tables lately: wait a while")
    try:
        seat, token = await manager.join(table, body.name)
    except ProtocolError as error:
        raise refusal(error) from None
    return _seated(table, seat, token)


@router.get("/api/tables/{table_id}")
async def get_table(table_id: str, request: Request) -> PublicTable:
    table = await table_or_404(request, table_id)
    return PublicTable.model_validate(table.public(manager_of(request).clock()))


@router.get("/api/tables")
def open_tables(request: Request) -> TableList:
    """The public tables waiting for players (a table is public only if its host said so)."""
    manager = manager_of(request)
    waiting = [
        PublicTable.model_validate(table.public(manager.clock()))
        for table in manager.tables.values()
        if table.status is TableStatus.LOBBY
        and table.options.public
        and any(seat.kind is SeatKind.OPEN for seat in table.seats)
    ]
    return TableList(tables=waiting[:50])


@router.get("/api/errors")
def errors() -> dict[str, str]:
    """Every error code of the socket's protocol, with its meaning."""
    return dict(ERRORS)


@router.get("/api/schemas")
def schema_index() -> SchemaIndex:
    """The protocol's version and its JSON Schemas (docs/schemas/server/)."""
    from ..schemas import SCHEMAS  # imported when asked: `python -m` runs that module

    return SchemaIndex(
        protocol=PROTOCOL_VERSION,
        schemas={name: f"/api/schemas/{name}.json" for name in SCHEMAS},
    )


@router.get("/api/schemas/{name}.json")
def schema(name: str) -> JSONResponse:
    """One JSON Schema, as ``python -m phase10.server.schemas`` writes it."""
    from ..schemas import SCHEMAS, schema_of

    if name not in SCHEMAS:
        raise ApiError("not_found", f"no schema {excerpt(name, 40)!r}")
    return JSONResponse(schema_of(name), media_type="application/schema+json")


@router.get("/healthz")
def health(request: Request) -> Health:
    return Health(ok=True, tables=len(manager_of(request).tables))


def _check_dice_table(body: CreateTable) -> str:
    """A dice table plays Phase 10 Dice as docs/dice.md has it, with a dice bot; returns
    the bot."""
    if body.preset != "official" or body.options.given():
        raise ApiError(
            "bad_rules", "a dice table takes no card rules: leave out preset and options"
        )
    try:
        return DICE_BOT if body.bots is None else dice_table_bot(body.bots)
    except ValueError as error:
        raise ApiError("invalid_request", excerpt(str(error), 200)) from None


def _card_bots(body: CreateTable) -> str:
    """A card table's bot (and its seats: solitaire is for dice only)."""
    if body.seats < MIN_PLAYERS:
        raise ApiError(
            "invalid_request",
            f"seats: a card table has {MIN_PLAYERS} to {MAX_PLAYERS} seats (one seat: a dice table's solitaire)",
        )
    try:
        return CARD_TABLE_BOT if body.bots is None else card_table_bot(body.bots)
    except ValueError as error:
        raise ApiError("invalid_request", excerpt(str(error), 200)) from None


def _seated(table: LiveTable, seat: int, token: str) -> Seated:
    return Seated(
        table=table.id,
        seat=seat,
        token=token,
        invite=f"/t/{table.id}",
        link=f"/t/{table.id}#token={token}",
    )
