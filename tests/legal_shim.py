"""A stand-in for the server's ``legal`` block and ``progress`` (issue 24), for the browser
tests until the server sends them itself: ``python tests/legal_shim.py serve ...`` runs
``phase10 serve`` with every state message given both fields, built from the engine's
``legal_actions`` as /work/shared-notes/legal-block.md describes. A state message that
already carries them (the real server) is left as it is.

The browser client never works these out itself: it only shows what the server sends.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from phase10.bots.knowledge import target_phases
from phase10.core import Declare, Discard, Draw, GiveWild, Hit, LayDown, PlayerView, TakeDiscard
from phase10.core.state import Stage
from phase10.solver import missing

#: the most lay-downs a block lists (the rest are asked for with ``choices``)
LAY_CAP = 40


def legal_block(view: PlayerView) -> dict[str, Any]:
    """The ``legal`` field of a seated player's state message."""
    names = [seat.name for seat in view.seats]
    turn = view.is_my_turn
    block: dict[str, Any] = {
        "turn": turn,
        "stage": None if view.stage is Stage.GAME_OVER else str(view.stage.value),
        "prompt": "",
        "draw": [],
        "declare": [],
        "give": [],
        "lay": {"ways": [], "total": 0, "complete": True},
        "hits": [],
        "discards": [],
        "skips": [],
    }
    if view.stage is Stage.GAME_OVER:
        block["stage"] = "over"
    if not turn:
        current = names[view.current] if view.stage is not Stage.GAME_OVER else ""
        block["prompt"] = f"Waiting for {current} to play" if current else "The game is over"
        return block
    hits: dict[int, dict[str, Any]] = {}
    ways: list[dict[str, Any]] = []
    total = 0
    for action in view.legal_actions:
        text = str(action)
        match action:
            case Draw():
                block["draw"].append({"action": text, "label": "Draw from the pile"})
            case TakeDiscard():
                top = str(view.discard_top)
                block["draw"].append({"action": text, "label": f"Take {top}", "card": top})
            case Declare():
                phase = view.phase_of(action.phase - 1)
                block["declare"].append(
                    {
                        "action": text,
                        "label": f"Phase {action.phase}: {phase}",
                        "phase": action.phase,
                    }
                )
            case GiveWild():
                label = (
                    "Keep the Wild"
                    if action.player == view.viewer
                    else f"Give the Wild to {names[action.player]}"
                )
                block["give"].append({"action": text, "label": label, "seat": action.player})
            case LayDown():
                total += 1
                if len(ways) < LAY_CAP:
                    ways.append(
                        {
                            "action": text,
                            "label": " + ".join(group.describe() for group in action.groups),
                            "cards": [str(card) for card in action.cards],
                            "phase": action.phase,
                        }
                    )
            case Hit():
                meld = view.melds[action.group]
                owner = names[meld.owner]
                kind = meld.group.kind.value.replace("_", " ")
                owner = "Your" if meld.owner == view.viewer else f"{owner}'s"
                title = f"{owner} {kind} {meld.group.describe()}"
                entry = hits.setdefault(
                    action.group,
                    {"group": action.group, "owner": meld.owner, "title": title, "hits": []},
                )
                end = None
                if meld.group.kind.is_run:
                    number = action.number if action.number is not None else action.card.number
                    low = meld.group.low
                    end = (
                        "low" if low is not None and number is not None and number < low else "high"
                    )
                shown = text.split()[1]
                label = f"Hit {shown} on {title}" + (f", {end} end" if end else "")
                entry["hits"].append(
                    {"action": text, "card": str(action.card), "end": end, "label": label}
                )
            case Discard() if action.target is not None:
                block["skips"].append(
                    {
                        "action": text,
                        "card": "S",
                        "seat": action.target,
                        "label": f"Skip {names[action.target]}",
                    }
                )
            case Discard():
                card = str(action.card)
                label = f"Discard {card}"
                if action.card.is_skip:
                    targets = view.skip_targets(view.current)
                    label += f" (skips {names[targets[0]] if targets else 'nobody'})"
                block["discards"].append({"action": text, "card": card, "label": label})
    block["lay"] = {"ways": ways, "total": total, "complete": total <= LAY_CAP}
    block["hits"] = [hits[group] for group in sorted(hits)]
    prompts = {
        Stage.DRAW: "Draw a card"
        + (
            f", or take {view.discard_top} from the discard pile"
            if any(entry["action"] == "take" for entry in block["draw"])
            else ""
        ),
        Stage.PLAY: "Lay down, hit, then discard a card",
        Stage.WILD_DISCARD: "You have the Wild: discard a card",
        Stage.DECLARE: "Declare the phase you will make this hand",
        Stage.GIVE_WILD: "Give the turned-up Wild to a player, or keep it",
    }
    block["prompt"] = prompts.get(view.stage, "")
    return block


def progress(view: PlayerView) -> dict[str, Any] | None:
    """The ``progress`` field: the viewer's phase and how far the hand is from it."""
    me = view.viewer
    if me is None:
        return None
    seat = view.seats[me]
    if seat.laid is not None:
        index = seat.laid
        text = str(view.phase_of(index))
        return {
            "phase": index + 1,
            "text": text,
            "laid": True,
            "away": None,
            "label": f"Phase {index + 1}: {text} — laid down",
        }
    phases = target_phases(view)
    if not phases:
        return None
    hand = list(view.hand)
    natural_min = view.rules.natural_min
    index, phase = min(phases, key=lambda p: (missing(p[1], hand, natural_min), p[0]))
    away = missing(phase, hand, natural_min)
    how = "ready to lay down" if away == 0 else f"{away} card{'s' if away != 1 else ''} away"
    return {
        "phase": index + 1,
        "text": str(phase),
        "laid": False,
        "away": away,
        "label": f"Phase {index + 1}: {phase} — {how}",
    }


def install() -> None:
    """Wrap the server's state messages so that each carries ``legal`` and ``progress``."""
    from phase10.server import manager

    original = manager.state_message

    def with_legal(table: Any, seat: int | None, clock: float) -> dict[str, Any]:
        message = original(table, seat, clock)
        if "legal" in message:
            return message
        game = table.game
        if game is None or seat is None:
            return {**message, "legal": None, "progress": None}
        view = game.view(seat)
        return {**message, "legal": legal_block(view), "progress": progress(view)}

    manager.state_message = with_legal  # type: ignore[assignment]


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    install()
    from phase10.cli import main

    sys.argv = ["phase10", *sys.argv[1:]]
    main()
