"""Rules-engine throughput: complete games of seeded random legal play, legality
enumeration, checked versus unchecked application, and record replay.

The players lay a phase down whenever they can and otherwise pick a random legal
action, so these are full games under the complete rules.

``greedy_games_without_the_bot`` is the engine's own ceiling for greedy games: 4-player
games the greedy bots played are replayed action for action with no bot thinking, the
way a tournament plays them (a fresh view for the player to move, then a checked action),
then without the views, then unchecked. However fast a bot decided, no game could run
faster than the first of these.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from phase10 import PRESETS, Action, Game, LayDown, dumps, loads
from phase10.bots import play_game
from phase10.bots.greedy import GreedyPlayer

RESULTS = Path(__file__).resolve().parent / "results"


def _play(game: Game, rng: random.Random, checked: bool) -> int:
    actions = 0
    while not game.is_over:
        legal = list(game.legal_actions)
        lays = [a for a in legal if isinstance(a, LayDown)]
        action = rng.choice(lays or legal)
        if checked:
            game.apply(action)
        else:
            game.apply_unchecked(action)
        actions += 1
    return actions


def _games(preset: str, players: int, count: int, checked: bool) -> dict[str, float]:
    rules = PRESETS[preset]
    start = time.perf_counter()
    actions = hands = 0
    for seed in range(count):
        game = Game(players, rules=rules, seed=seed)
        actions += _play(game, random.Random(seed), checked)
        hands += game.hand_number
    elapsed = time.perf_counter() - start
    return {
        "games_per_s": round(count / elapsed, 2),
        "actions_per_s": round(actions / elapsed),
        "actions_per_game": round(actions / count),
        "hands_per_game": round(hands / count, 1),
    }


def _enumeration(samples: int) -> dict[str, float]:
    """Time to enumerate every legal action of positions met in play."""
    positions: list[Game] = []
    for seed in range(40):
        game = Game(4, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 400)):
            if game.is_over:
                break
            legal = list(game.legal_actions)
            game.apply_unchecked(rng.choice(legal))
        positions.append(game)
    start = time.perf_counter()
    total = 0
    for i in range(samples):
        total += positions[i % len(positions)].legal_actions.count()
    elapsed = time.perf_counter() - start
    return {
        "enumerations_per_s": round(samples / elapsed),
        "mean_actions": round(total / samples, 1),
    }


def _replay(count: int) -> dict[str, float]:
    texts = []
    for seed in range(count):
        game = Game(3, seed=seed)
        _play(game, random.Random(seed), checked=False)
        texts.append(dumps(game))
    start = time.perf_counter()
    actions = 0
    for text in texts:
        record = loads(text)
        record.replay()
        actions += len(record.actions)
    elapsed = time.perf_counter() - start
    return {"replayed_actions_per_s": round(actions / elapsed)}


def _greedy_ceiling(count: int) -> dict[str, float]:
    games: list[tuple[int, list[Action]]] = []
    for seed in range(count):
        game = Game(4, seed=seed)
        play_game(game, [GreedyPlayer(random.Random(seed * 10 + seat)) for seat in range(4)])
        games.append((seed, list(game.actions)))
    total = sum(len(actions) for _, actions in games)

    def replay(views: bool, checked: bool) -> float:
        start = time.perf_counter()
        for seed, actions in games:
            game = Game(4, seed=seed)
            apply = game.apply if checked else game.apply_unchecked
            for action in actions:
                if views:
                    game.view(game.current)
                apply(action)
        return time.perf_counter() - start

    out: dict[str, float] = {"games": count, "actions_per_game": round(total / count)}
    for label, views, checked in (
        ("views_and_checked", True, True),
        ("checked_only", False, True),
        ("unchecked_only", False, False),
    ):
        elapsed = min(replay(views, checked) for _ in range(3))
        out[f"{label}_games_per_s"] = round(count / elapsed, 1)
        out[f"{label}_us_per_action"] = round(1e6 * elapsed / total, 2)
    return out


def main() -> dict[str, object]:
    results: dict[str, object] = {
        "official_2p_checked": _games("official", 2, 20, checked=True),
        "official_4p_checked": _games("official", 4, 20, checked=True),
        "official_4p_unchecked": _games("official", 4, 20, checked=False),
        "floating_4p_checked": _games("floating", 4, 10, checked=True),
        "masters_4p_checked": _games("masters", 4, 10, checked=True),
        "legal_action_enumeration": _enumeration(4000),
        "record_replay": _replay(10),
        "greedy_games_without_the_bot": _greedy_ceiling(40),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "engine.json").write_text(json.dumps(results, indent=2) + "\n")
    return results
