"""Perft-style fixtures: the exact legal actions of a few seeded positions.

Each position in ``perft_fixtures.json`` is a preset, a player count, a seed and the
actions (in text form) that lead to it from the deal. The fixture holds the number
of legal actions there, their text forms sorted and a SHA-256 of that list; the
test rebuilds each position and compares. Each position also shows the feature it
was chosen for (a lay-down with Wilds, hits, a declaration, a Wild to give, a
floating player ...), checked by the predicate of the same name.

Regenerate the fixtures deliberately, after a change that is meant to alter them::

    .venv/bin/python tests/test_perft.py --regenerate
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from phase10 import (
    ANTI,
    SKIP,
    WILD,
    Action,
    Game,
    GroupKind,
    Hit,
    LayDown,
    Stage,
    preset,
)
from randomplay import choose, legal_list

FIXTURES = Path(__file__).with_name("perft_fixtures.json")


def _lays(game: Game) -> list[LayDown]:
    return [a for a in game.legal_actions if isinstance(a, LayDown)]


def _hand(game: Game) -> tuple[Any, ...]:
    return game.hand(game.current)


def opening_draw(game: Game) -> bool:
    return game.stage is Stage.DRAW and not game.actions and game.can_take()


def lay_with_wilds(game: Game) -> bool:
    lays = _lays(game) if game.stage is Stage.PLAY and WILD in _hand(game) else []
    return any(WILD in lay.cards for lay in lays) and len(legal_list(game)) <= 40


def play_with_hits(game: Game) -> bool:
    if game.stage is not Stage.PLAY or game.seats[game.current].laid is None:
        return False
    actions = legal_list(game)
    hits = [a for a in actions if isinstance(a, Hit)]
    return len(hits) >= 3 and any(h.card is WILD for h in hits) and len(actions) <= 40


def declare_stage(game: Game) -> bool:
    return game.stage is Stage.DECLARE and len(game.seats[game.current].completed) >= 2


def give_wild(game: Game) -> bool:
    return game.stage is Stage.GIVE_WILD


def wild_discard(game: Game) -> bool:
    return game.stage is Stage.WILD_DISCARD and SKIP in _hand(game)


def floating(game: Game) -> bool:
    return game.seats[game.current].floating and game.stage is Stage.PLAY


def skip_targets(game: Game) -> bool:
    if game.stage is not Stage.PLAY or SKIP not in _hand(game):
        return False
    pending = [seat for seat in game.seats if seat.pending_skip]
    return bool(pending) and len(legal_list(game)) <= 20


def skip_in_hand(game: Game) -> bool:
    return game.stage is Stage.PLAY and SKIP in _hand(game) and len(legal_list(game)) <= 20


def any_order_lays(game: Game) -> bool:
    if game.stage is not Stage.PLAY:
        return False
    phases = {lay.phase for lay in _lays(game)}
    return len(phases) >= 2 and len(legal_list(game)) <= 80


def all_wild_group(game: Game) -> bool:
    lays = _lays(game) if game.stage is Stage.PLAY else []
    return any(g.natural_count == 0 for lay in lays for g in lay.groups) and len(lays) <= 60


def even_odd(game: Game) -> bool:
    lays = _lays(game) if game.stage is Stage.PLAY else []
    kinds = {group.kind for lay in lays for group in lay.groups}
    return GroupKind.EVEN_ODD in kinds and len(legal_list(game)) <= 60


def colour_kinds(game: Game) -> bool:
    lays = _lays(game) if game.stage is Stage.PLAY else []
    kinds = {group.kind for lay in lays for group in lay.groups}
    wanted = {GroupKind.COLOR, GroupKind.COLOR_RUN, GroupKind.COLOR_EVEN_ODD}
    return bool(kinds & wanted) and len(legal_list(game)) <= 80


def take_saved(game: Game) -> bool:
    """A draw with a choice of saved cards, in a later hand than they were saved in."""
    saved = game.seats[game.current].saved
    return game.stage is Stage.DRAW and len(set(saved)) >= 2 and game.hand_number >= 2


def save_with_hits(game: Game) -> bool:
    """A turn whose player may save, hit or give up (Variant #2)."""
    actions = legal_list(game) if game.stage is Stage.PLAY else []
    kinds = {type(action).__name__ for action in actions}
    return {"Save", "Hit", "GiveUp"} <= kinds and len(actions) <= 40


def anti_last_card(game: Game) -> bool:
    """The Anti-phase card as the last card: going out names who moves down."""
    return game.stage is Stage.PLAY and _hand(game) == (ANTI,)


def anti_in_hand(game: Game) -> bool:
    """The Anti-phase card among other cards, with a save pile: discard it, never save it."""
    actions = legal_list(game) if game.stage is Stage.PLAY and ANTI in _hand(game) else []
    return any(type(a).__name__ == "Save" for a in actions) and len(actions) <= 40


def tie_break(game: Game) -> bool:
    return game.tie_break and game.stage is Stage.PLAY


#: (name, preset, players, first seed, feature): the positions, in fixture order.
POSITIONS: list[tuple[str, str, int, int, Callable[[Game], bool]]] = [
    ("opening-draw", "official", 4, 1, opening_draw),
    ("lay-with-wilds", "official", 3, 2, lay_with_wilds),
    ("play-with-hits", "official", 2, 3, play_with_hits),
    ("declare", "masters", 5, 4, declare_stage),
    ("give-wild", "wild-deal-up", 6, 5, give_wild),
    ("wild-discard", "wild-deal-up", 3, 6, wild_discard),
    ("floating", "floating", 4, 7, floating),
    ("skip-targets", "official", 5, 8, skip_targets),
    ("arkansas-any-phase", "arkansas", 3, 1, any_order_lays),
    ("natural-per-phase", "natural-per-phase", 2, 2, all_wild_group),
    ("edition-3-even-odd", "edition-3", 4, 3, even_odd),
    ("edition-3-colour-run", "edition-3", 2, 5, colour_kinds),
    ("edition-4-colour-groups", "edition-4", 3, 6, colour_kinds),
    ("skip-next", "skip-next", 3, 4, skip_in_hand),
    ("masters-take-saved", "masters", 3, 9, take_saved),
    ("variant-2-save-hit-give-up", "masters-variant-2", 2, 10, save_with_hits),
    ("anti-phase-in-hand", "anti-phase", 3, 11, anti_in_hand),
    ("anti-phase-last-card", "anti-phase", 4, 12, anti_last_card),
]
FEATURES = {name: feature for name, _, _, _, feature in POSITIONS}
#: Positions whose action lists were checked by hand against the rules, card by card.
HAND_CHECKED = (
    "lay-with-wilds",
    "play-with-hits",
    "skip-targets",
    "natural-per-phase",
    "edition-3-colour-run",
    "edition-4-colour-groups",
)


def fingerprint(texts: list[str]) -> str:
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()


def legal_texts(game: Game) -> list[str]:
    return sorted(str(action) for action in game.legal_actions)


def find_position(
    preset_name: str, players: int, first_seed: int, feature: Callable[[Game], bool]
) -> tuple[int, list[str]]:
    """The first seed (from ``first_seed``) and actions of random play reaching the feature."""
    for seed in range(first_seed, first_seed + 500):
        game = Game(players, rules=preset(preset_name), seed=seed)
        policy = random.Random(seed)
        while not game.is_over and len(game.actions) < 5000:
            if feature(game):
                return seed, [str(action) for action in game.actions]
            action: Action = choose(game, policy)
            game.apply(action)
    raise LookupError(f"no position with {feature.__name__} under {preset_name}")


def rebuild(position: dict[str, Any]) -> Game:
    game = Game(position["players"], rules=preset(position["preset"]), seed=position["seed"])
    for text in position["actions"]:
        game.apply(text)
    return game


def describe(game: Game) -> dict[str, Any]:
    """The position as a person reads it, to check the listed actions by hand."""
    return {
        "hand_number": game.hand_number,
        "stage": game.stage.value,
        "current": game.current,
        "hand": " ".join(map(str, game.hand(game.current))),
        "phase": [str(game.phase_of(i)) for i in game.allowed_phases(game.current)],
        "laid": game.seats[game.current].laid is not None,
        "table": [f"g{i} p{m.owner}: {m.group.describe()}" for i, m in enumerate(game.melds)],
        "discard_top": str(game.discard_top) if game.discard_top else None,
        "draw_size": len(game.draw_pile),
        "pending_skips": [i for i, seat in enumerate(game.seats) if seat.pending_skip],
        "completed": [sorted(i + 1 for i in seat.completed) for seat in game.seats],
        "saved": [" ".join(map(str, seat.saved)) for seat in game.seats],
    }


def regenerate() -> list[dict[str, Any]]:
    positions = []
    for name, preset_name, players, first_seed, feature in POSITIONS:
        seed, actions = find_position(preset_name, players, first_seed, feature)
        game = Game(players, rules=preset(preset_name), seed=seed)
        for text in actions:
            game.apply(text)
        texts = legal_texts(game)
        positions.append(
            {
                "name": name,
                "preset": preset_name,
                "players": players,
                "seed": seed,
                "actions": actions,
                "position": describe(game),
                "count": len(texts),
                "sha256": fingerprint(texts),
                "legal": texts,
            }
        )
    return positions


def load_fixtures() -> list[dict[str, Any]]:
    data = json.loads(FIXTURES.read_text())
    positions: list[dict[str, Any]] = data["positions"]
    return positions


# A missing fixture file fails test_fixtures_cover_every_position_kind, not the import.
@pytest.mark.parametrize(
    "position", load_fixtures() if FIXTURES.exists() else [], ids=lambda p: p["name"]
)
def test_perft(position: dict[str, Any]) -> None:
    game = rebuild(position)
    assert describe(game) == position["position"]
    assert FEATURES[position["name"]](game), f"{position['name']} lost its feature"
    actions = legal_list(game)
    assert game.legal_actions.count() == len(set(actions)) == len(actions) == position["count"]
    texts = legal_texts(game)
    assert fingerprint(texts) == position["sha256"]
    assert texts == position["legal"]
    for action in actions:
        assert game.check(action) == action
        assert game.parse_action(str(action)) == action


def test_fixtures_cover_every_position_kind() -> None:
    names = [position["name"] for position in load_fixtures()]
    assert names == [name for name, *_ in POSITIONS]
    stages = {position["position"]["stage"] for position in load_fixtures()}
    assert stages >= {"draw", "play", "declare", "give_wild", "wild_discard"}


def test_hand_checked_positions_are_in_the_fixtures() -> None:
    names = {position["name"] for position in load_fixtures()}
    assert set(HAND_CHECKED) <= names


def test_natural_per_phase_lays_by_hand() -> None:
    """Hand-checked: B12 G12 Y12, five single cards and three Wilds make 45 ways to lay
    "2 sets of 3" when a set may be all Wilds: 27 with the three 12s in one set (the other
    set one single card and two or three Wilds, or three Wilds of any of 12 numbers, or
    the 12s take a Wild and a single card takes the other two), 3 splitting the 12s two
    and one, and 15 with two 12s and a Wild beside a single card and two Wilds.
    """
    position = next(p for p in load_fixtures() if p["name"] == "natural-per-phase")
    assert position["position"]["hand"] == "G11 B12 G7 Y2 W W G12 B1 W Y12 Y5"
    lays = [text for text in position["legal"] if text.startswith("lay")]
    assert len(lays) == 45
    assert sum("W=" in text for text in lays) == 12
    assert position["count"] == 45 + 9


def test_fixture_hash_detects_a_change() -> None:
    position = load_fixtures()[1]
    texts = list(position["legal"])
    assert fingerprint(texts) == position["sha256"]
    assert fingerprint(texts[1:]) != position["sha256"]


def test_opening_draw_by_hand() -> None:
    """Hand-checked: at the deal the player to move may draw or take the turned-up card."""
    position = load_fixtures()[0]
    assert position["legal"] == ["draw", "take"]


def test_give_wild_by_hand() -> None:
    """Hand-checked: the dealer may give the turned-up Wild to any of the six players."""
    position = next(p for p in load_fixtures() if p["name"] == "give-wild")
    assert position["legal"] == [f"give p{p}" for p in range(6)]


def _discards(hand: str) -> list[str]:
    return sorted({f"discard {card}" for card in hand.split()})


def test_wild_discard_by_hand() -> None:
    """Hand-checked: given the Wild, the player discards any one card, a Skip naming a target."""
    position = next(p for p in load_fixtures() if p["name"] == "wild-discard")
    hand = position["position"]["hand"]
    current = position["position"]["current"]
    skips = [f"discard S>p{p}" for p in range(3) if p != current]
    expected = sorted([t for t in _discards(hand) if t != "discard S"] + skips)
    assert position["legal"] == expected


def test_declare_by_hand() -> None:
    """Hand-checked: a Masters player declares any phase not yet completed."""
    position = next(p for p in load_fixtures() if p["name"] == "declare")
    done = position["position"]["completed"][position["position"]["current"]]
    assert position["legal"] == sorted(f"declare {n}" for n in range(1, 11) if n not in done)


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit("usage: python tests/test_perft.py --regenerate")
    FIXTURES.write_text(json.dumps({"positions": regenerate()}, indent=1) + "\n")
    print(f"wrote {FIXTURES}")
