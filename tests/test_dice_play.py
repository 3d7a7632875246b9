"""Random play of whole dice games (seeded loops): every legal action applies, illegal ones
are refused leaving the game as it was, totals change only by the rules (docs/dice.md §4-§6),
games end, and records replay them exactly."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from phase10.dice import (
    BONUS,
    FIVE_PHASE_OVER,
    PENALTY,
    BonusKind,
    DiceActionError,
    DiceGame,
    DiceGameEnded,
    DiceRecord,
    DiceSetup,
    DiceStage,
    EarnedBonus,
    GroupKind,
    Keep,
    Penalised,
    Roll,
    Score,
    ScoredPhase,
    Unkeep,
    dice_phase,
    dumps,
    loads,
)
from phase10.dice.actions import DiceAction
from phase10.dice.records import RecordError

#: texts tried at random: most are illegal at most moments, some malformed
PROBES = (
    "roll",
    "pass",
    "score",
    "keep H1",
    "unkeep H1",
    "keep L4 H6",
    "unkeep L2 L3",
    "score H1 H2 H3 H4 H5 H6",
    "keep R5",
    "keep GW",
    "score H1",
    "keep",
    "jump",
    "keep H9",
)


def aim(game: DiceGame, rng: random.Random) -> DiceAction:
    """A simple player: score when it may (at once half the time), otherwise set aside the
    dice that suit the phase's groups and roll the rest, with a random slip now and then."""
    legal = game.legal_actions()
    if game.stage is DiceStage.ROLL:
        return Roll()
    if Roll() not in legal or (Score() in legal and rng.random() < 0.5):
        return legal[-1]  # score or pass
    if rng.random() < 0.1:
        return rng.choice(legal)
    faces = {i: face for i, face in enumerate(game.showing) if face is not None}
    kinds = {kind for kind, _ in dice_phase(game.phase).groups}
    if kinds == {GroupKind.COLOUR}:
        colour = Counter(face.colour for face in faces.values()).most_common(1)[0][0]
        want = {i for i, face in faces.items() if face.colour is colour}
    elif kinds == {GroupKind.RUN}:
        seen: dict[int, int] = {}
        for i, face in faces.items():
            seen.setdefault(face.value, i)
        want = {i for i, face in faces.items() if face.is_wild} | set(seen.values())
    else:
        counts = Counter(face.value for face in faces.values() if not face.is_wild)
        common = {value for value, _ in counts.most_common(2)}
        want = {i for i, face in faces.items() if face.is_wild or face.value in common}
    if want - game.kept:
        return Keep(tuple(sorted(want - game.kept)))
    if game.kept - want:
        return Unkeep(tuple(sorted(game.kept - want)))
    return Roll()


def snapshot(game: DiceGame) -> object:
    return (game.view(None).to_dict(), game.rng.getstate(), list(game.actions))


def play(seed: int, players: int, setup: DiceSetup | None = None) -> DiceGame:
    rng = random.Random(seed)
    game = DiceGame(players, seed=seed, setup=setup)
    moves = 0
    while not game.is_over:
        moves += 1
        assert moves < 5000, "the game does not end"
        if rng.random() < 0.3:
            probe = rng.choice(PROBES)
            before = snapshot(game)
            try:
                game.apply(probe)
            except DiceActionError:
                assert snapshot(game) == before, probe
            continue
        totals = game.totals()
        events = game.apply(aim(game, rng))
        gained = [0] * players
        for event in events:
            if isinstance(event, ScoredPhase):
                assert event.points == sum(face.points for g in event.groups for face in g)
                gained[event.player] += event.points
            elif isinstance(event, EarnedBonus):
                gained[event.player] += BONUS
                scored = events[events.index(event) - 1]  # a bonus follows its phase
                assert isinstance(scored, ScoredPhase) and scored.player == event.player
                if event.kind is BonusKind.FIVE_PHASE:
                    assert scored.phase == 5 and scored.total > FIVE_PHASE_OVER
                else:
                    assert scored.phase == 10
            elif isinstance(event, Penalised):
                assert event.points == -PENALTY * event.failures and players == 1
                gained[event.player] += event.points
        assert game.totals() == tuple(t + g for t, g in zip(totals, gained, strict=True))
    return game


@pytest.mark.parametrize("players", [1, 2, 3, 5, 8])
def test_random_games_apply_legal_actions_refuse_the_rest_and_end(players: int) -> None:
    for seed in range(2):
        phases = tuple(random.Random(seed).randint(6, 10) for _ in range(players))
        game = play(seed, players, DiceSetup(phases=phases))
        end = game.history[-1]
        assert isinstance(end, DiceGameEnded) and end.totals == game.totals()
        assert set(end.winners) == {i for i, t in enumerate(end.totals) if t == max(end.totals)}
        assert any(seat.phase == 11 for seat in game.seats)
        # the record replays the game exactly, result and all
        replayed = loads(dumps(game)).replay()
        assert replayed.history == game.history and replayed.totals() == game.totals()


def test_every_legal_action_listed_applies() -> None:
    game = DiceGame(3, seed=9)
    rng = random.Random(9)
    for _ in range(300):
        if game.is_over:
            break
        for action in game.legal_actions():
            game.copy().apply(action)
        game.apply(aim(game, rng))


def test_a_whole_game_from_phase_1_ends() -> None:
    game = play(4, 2)
    assert game.is_over and game.turn > 20


def test_records_replay_exactly_and_refuse_what_they_do_not_reach() -> None:
    game = play(
        3, 2, DiceSetup(phases=(9, 10), totals=(100, 90), rolls=("R5 R6 R7 B8 R9 O10 B1 B2 R3 R4",))
    )
    text = dumps(game)
    record = loads(text)
    assert record.setup == game.setup and record.actions == tuple(map(str, game.actions))
    assert loads(dumps(record)).to_dict() == record.to_dict()
    assert (
        record.replay(upto=3).history
        == DiceRecord(record.players, record.seed, record.actions[:3], record.setup)
        .replay()
        .history
    )
    data = json.loads(text)
    data["result"]["totals"][0] += 1
    with pytest.raises(RecordError, match="totals are"):
        loads(json.dumps(data)).replay()
    data = json.loads(text)
    data["actions"][0] = "pass"
    with pytest.raises(RecordError, match=r"action 1 \('pass'\) does not apply: roll the dice"):
        loads(json.dumps(data)).replay()
    data = json.loads(text)
    data["format"] = "phase10-record"
    with pytest.raises(RecordError, match="not a phase10-dice-record"):
        loads(json.dumps(data))
    data = json.loads(text)
    data["setup"]["rolls"] = ["G10 G10 G10"]
    with pytest.raises(RecordError, match="only 2 dice have a G10 face"):
        loads(json.dumps(data))
    data = json.loads(text)
    data["setup"]["phase"] = [1, 2]  # a misspelt field is named, not dropped
    with pytest.raises(RecordError, match="unknown set-up field 'phase'; fields: order, phases"):
        loads(json.dumps(data))
