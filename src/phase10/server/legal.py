"""The ``legal`` block and ``progress`` of a seat's ``state`` message (docs/server-protocol.md).

The engine decides every choice listed here: each action is one the engine's rulebook
accepts for the seat (``PlayerView.check``), grouped the way an interface shows them and
named by :mod:`phase10.core.labels`. The client derives nothing.

Listing every lay-down can cost seconds (three Wilds and eight 4s make over 10,000 ways
to lay the ten phases when any phase may be laid), and a state message is built on the
event loop, so the search is bounded: at most :data:`LAY_STEPS` groups tried (shared by
the phases allowed) and :data:`LAY_SCAN` ways looked at. At most :data:`LAY_WAYS` are
sent, the best first (most cards laid, then most points, then the lowest numbers); when they are cut, one per
set of cards (another Wild value or split of the same cards is left out) and
``complete`` is false: the ``choices`` message (worked out off the event loop) lists
every way of the cards a player selects.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from phase10.core import (
    Action,
    Declare,
    Discard,
    Draw,
    GiveUp,
    GiveWild,
    Hit,
    LayDown,
    PlayerView,
    Save,
    SearchLimitError,
    Stage,
    TakeDiscard,
    TakeSaved,
    lay_downs,
)
from phase10.core.choices import lay_down_order
from phase10.core.labels import action_label, group_title, hit_end, progress, stage_prompt
from phase10.core.rules import GivingUp, SavePile

__all__ = ["LAY_SCAN", "LAY_STEPS", "LAY_WAYS", "legal_block", "progress_block"]

#: the most lay-downs a state message lists
LAY_WAYS = 20
#: the most lay-downs looked at for one state message (every phase together)
LAY_SCAN = 40
#: the most groups the lay-down search tries for one state message (split among the phases)
LAY_STEPS = 600

_STAGES = {Stage.GAME_OVER: "over"}


def legal_block(view: PlayerView) -> dict[str, Any] | None:
    """The viewer's legal choices now, grouped and labelled; None for a spectator."""
    if view.viewer is None:
        return None
    block: dict[str, Any] = {
        "turn": view.is_my_turn,
        "stage": _STAGES.get(view.stage, view.stage.value),
        "prompt": stage_prompt(view),
        "draw": [],
        "declare": [],
        "give": [],
        "lay": {"ways": [], "total": 0, "complete": True, "counted": True},
        "hits": [],
        "discards": [],
        "skips": [],
        "anti": [],
        "saves": [],
        "take_saved": [],
        "give_up": [],
    }
    if not view.is_my_turn:
        return block
    for action in _candidates(view):
        _file(block, view, action)
    if view.stage is Stage.PLAY:
        block["lay"] = _lay_block(view)
    return block


def progress_block(view: PlayerView) -> dict[str, Any] | None:
    """The viewer's phase and how far it is (None for a spectator)."""
    found = progress(view)
    return None if found is None else found.to_dict()


def _candidates(view: PlayerView) -> Iterator[Action]:
    """Every legal action but the lay-downs, each once in its canonical form: candidates
    made from the cards and seats at hand, kept when the engine accepts them."""
    seats = range(view.num_players)
    hand = sorted(set(view.hand), key=lambda card: card.sort_key)
    saved = sorted(set(view.saved), key=lambda card: card.sort_key)
    # (without the options nothing is tried: the engine would refuse each anyway)
    saving = view.rules.save_pile is not SavePile.OFF
    giving_up = view.rules.give_up is not GivingUp.OFF
    tried: tuple[Iterable[Action], ...] = (
        [Draw(), TakeDiscard()],
        (TakeSaved(card) for card in saved),
        (Declare(n) for n in range(1, view.rules.phase_count + 1)),
        (GiveWild(seat) for seat in seats),
        (
            Hit(card, gid, spot if card.is_wild else None)
            for card in hand
            for gid, meld in enumerate(view.melds)
            for spot in meld.group.placements(card)
        ),
        (
            Discard(card, target)
            for card in hand
            # a Skip, or the Anti-phase card as the last card, may name a player
            for target in ([None, *seats] if card.is_skip or card.is_anti else [None])
        ),
        (Save(card) for card in hand if saving),
        [GiveUp()] if giving_up else [],
    )
    seen: set[str] = set()
    for group in tried:
        for action in group:
            if view.is_legal(action):
                canonical = view.check(action)
                if str(canonical) not in seen:
                    seen.add(str(canonical))
                    yield canonical


def _file(block: dict[str, Any], view: PlayerView, action: Action) -> None:
    text, label = str(action), action_label(view, action)
    entry: dict[str, Any] = {"action": text, "label": label}
    match action:
        case Draw():
            block["draw"].append(entry)
        case TakeDiscard():
            block["draw"].append(entry | {"card": str(view.discard_top)})
        case Declare():
            block["declare"].append(entry | {"phase": action.phase})
        case GiveWild():
            block["give"].append(entry | {"seat": action.player})
        case Hit():
            hits = block["hits"]
            entries = next((g for g in hits if g["group"] == action.group), None)
            if entries is None:
                meld = view.melds[action.group]
                title = _capital(group_title(view, action.group))
                entries = {"group": action.group, "owner": meld.owner, "title": title, "hits": []}
                hits.append(entries)
                hits.sort(key=lambda group: group["group"])
            end = hit_end(view, action)
            entries["hits"].append(entry | {"card": str(action.card), "end": end})
        case Discard() if action.target is not None and action.card.is_anti:
            block["anti"].append(entry | {"card": str(action.card), "seat": action.target})
        case Discard() if action.target is not None:
            block["skips"].append(entry | {"card": str(action.card), "seat": action.target})
        case Discard():
            block["discards"].append(entry | {"card": str(action.card)})
        case Save():
            block["saves"].append(entry | {"card": str(action.card)})
        case TakeSaved():
            block["take_saved"].append(entry | {"card": str(action.card)})
        case GiveUp():
            block["give_up"].append(entry)
        case LayDown():  # pragma: no cover (lay-downs are listed by _lay_block)
            pass


def _lay_block(view: PlayerView) -> dict[str, Any]:
    """The lay-downs, bounded (see the module's docstring)."""
    me = view.viewer
    assert me is not None
    explicit = view.names_phase_when_laid
    natural_min = view.rules.natural_min
    found: dict[str, LayDown] = {}
    scanned_all = True
    allowed = view.allowed_phases(me)
    steps = LAY_STEPS // max(1, len(allowed))
    for index in allowed:
        number = index + 1 if explicit else None
        try:
            for groups in lay_downs(view.phase_of(index), view.hand, natural_min, max_steps=steps):
                if len(found) >= LAY_SCAN:
                    scanned_all = False
                    break
                action = LayDown(groups, number)
                found.setdefault(str(action), action)
        except SearchLimitError:
            scanned_all = False
    ranked = sorted(found.values(), key=lay_down_order)
    complete = scanned_all and len(ranked) <= LAY_WAYS
    if not complete:
        ranked = _one_per_card_set(ranked)
    # the search is the engine's own (legal_actions lists the same); checked all the same
    legal = [action for action in ranked[:LAY_WAYS] if view.is_legal(action)]
    ways = [
        {
            "action": str(action),
            "label": action_label(view, action),
            "cards": [str(card) for card in sorted(action.cards, key=lambda c: c.sort_key)],
            "phase": action.phase if action.phase is not None else _phase_number(view, me),
        }
        for action in legal
    ]
    return {"ways": ways, "total": len(found), "complete": complete, "counted": scanned_all}


def _one_per_card_set(ways: list[LayDown]) -> list[LayDown]:
    """The best way for each set of cards (other Wild values and splits dropped)."""
    kept: dict[tuple[int | None, frozenset[tuple[Any, int]]], LayDown] = {}
    for action in ways:
        key = (action.phase, frozenset(Counter(action.cards).items()))
        kept.setdefault(key, action)
    return list(kept.values())


def _phase_number(view: PlayerView, seat: int) -> int:
    """The phase a lay-down without a number lays (the one phase allowed)."""
    [index] = view.allowed_phases(seat)
    return index + 1


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
