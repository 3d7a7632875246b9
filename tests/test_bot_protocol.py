"""The out-of-process bot protocol: JSON lines over a bot program's stdin and stdout."""

from __future__ import annotations

import collections
import io
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from phase10 import (
    PRESETS,
    Action,
    Card,
    CardHit,
    Draw,
    Game,
    IllegalActionError,
    InvalidActionError,
    LaidDown,
    LayDown,
    PlayerView,
    RecordError,
    Stage,
    parse_cards,
    preset,
)
from phase10.bots import RandomPlayer, SimplePlayer, make_player, play_game
from phase10.bots.protocol import (
    PROTOCOL_VERSION,
    BotError,
    SubprocessPlayer,
    finish_game,
    main,
    parse_view_action,
    serve,
)
from randomplay import play_game as random_play

EXAMPLE_BOT = Path(__file__).resolve().parents[1] / "examples" / "bots" / "random_bot.py"

#: A bot driven by its command line: what to say to hello, a list of answers (the last
#: repeats) and a file where it logs every message it receives.
SCRIPTED_BOT = r"""
import json, sys, time

ready, answers, log = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
legal = []

def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()

def answer(plan):
    if "sleep" in plan:
        time.sleep(plan["sleep"])
    if "crash" in plan:
        raise ZeroDivisionError("the bot divided by zero")
    if "raw" in plan:
        sys.stdout.write(plan["raw"] + "\n")
        sys.stdout.flush()
    if "send" in plan:
        send(plan["send"])
    if "legal" in plan:
        send({"action": legal[plan["legal"]]})

turns = 0
for line in sys.stdin:
    message = json.loads(line)
    with open(log, "a") as out:
        out.write(json.dumps(message) + "\n")
    if message["type"] == "hello":
        answer(ready)
    elif message["type"] == "turn" or (
        message["type"] == "error" and message["attempts_left"] > 0
    ):
        legal = message.get("legal", legal)
        answer(answers[min(turns, len(answers) - 1)])
        turns += 1
    elif message["type"] == "quit":
        print("bye", file=sys.stderr)
        break
"""

READY = {"send": {"type": "ready", "name": "scripted", "author": "tests"}}


@pytest.fixture
def scripted(tmp_path: Path) -> Any:
    """Make a :class:`SubprocessPlayer` for the scripted bot; returns (player, read_log)."""
    script = tmp_path / "scripted_bot.py"
    script.write_text(SCRIPTED_BOT)
    log = tmp_path / "messages.jsonl"
    made: list[SubprocessPlayer] = []

    def make(
        answers: list[dict[str, Any]], ready: dict[str, Any] = READY, **options: Any
    ) -> tuple[SubprocessPlayer, Any]:
        command = [sys.executable, str(script), json.dumps(ready), json.dumps(answers), str(log)]
        player = SubprocessPlayer(command, **options)
        made.append(player)

        def read_log() -> list[dict[str, Any]]:
            if not log.exists():
                return []
            return [json.loads(line) for line in log.read_text().splitlines()]

        return player, read_log

    yield make
    for player in made:
        player.close()


def first_view(seed: int = 3, players: int = 2) -> tuple[Game, PlayerView]:
    game = Game(players, seed=seed)
    return game, game.view(game.current)


def actions_text(game: Game) -> list[str]:
    return [str(action) for action in game.actions]


# -- whole games ------------------------------------------------------------------------


def test_the_example_bot_plays_a_whole_game_and_quits_cleanly() -> None:
    game = Game(["example", "greedy", "random"], seed=21)
    bot = SubprocessPlayer([sys.executable, str(EXAMPLE_BOT), "--seed", "5"])
    with bot:
        play_game(game, [bot, SimplePlayer(random.Random(1)), RandomPlayer(random.Random(2))])
        finish_game(game, [bot])
    assert game.is_over and game.winners
    assert bot.name == "random-example"
    assert sum(1 for event in game.history if getattr(event, "player", None) == 0) > 50
    assert bot._process is not None and bot._process.returncode == 0
    assert f"game over: winners {list(game.winners)}" in bot.stderr_tail
    # the example bot is seeded: the same game again gives the same actions
    again = Game(["example", "greedy", "random"], seed=21)
    with SubprocessPlayer([sys.executable, str(EXAMPLE_BOT), "--seed", "5"]) as bot:
        play_game(again, [bot, SimplePlayer(random.Random(1)), RandomPlayer(random.Random(2))])
    assert actions_text(again) == actions_text(game)


@pytest.mark.parametrize("seed", [7, 30])
def test_a_builtin_bot_over_the_protocol_plays_exactly_as_in_process(seed: int) -> None:
    """The view a protocol bot rebuilds is the engine's own: same seed, same game."""
    local = Game(["greedy", "random"], seed=seed)
    play_game(local, [make_player("greedy", random.Random(seed)), RandomPlayer(random.Random(1))])
    remote = Game(["greedy", "random"], seed=seed)
    command = [sys.executable, "-m", "phase10.bots.protocol", "greedy", "--seed", str(seed)]
    with SubprocessPlayer(command) as bot:
        play_game(remote, [bot, RandomPlayer(random.Random(1))])
        finish_game(remote, [bot])
        assert bot.name == "greedy"
    assert remote.is_over
    assert actions_text(remote) == actions_text(local)


def test_make_player_cmd_gives_a_subprocess_player_that_starts_lazily() -> None:
    player = make_player(f"cmd:{sys.executable} {EXAMPLE_BOT} --seed 2", random.Random(0))
    assert isinstance(player, SubprocessPlayer)
    assert player.command == (sys.executable, str(EXAMPLE_BOT), "--seed", "2")
    assert player._process is None
    player.close()


# -- the handshake and the messages ------------------------------------------------------


def test_hello_turn_game_over_and_quit_carry_what_the_protocol_says(scripted: Any) -> None:
    game, view = first_view(players=3)
    bot, read_log = scripted([{"legal": 0}], timeout=4.0)
    assert bot.name is None
    action = bot.choose(view)
    assert bot.name == "scripted" and bot.author == "tests"
    legal = [str(a) for a in view.legal_actions]
    assert str(action) == legal[0] and view.is_legal(action)
    bot.game_over([1], [10, 0, 35])
    bot.close()
    hello, turn, over, quit_ = read_log()
    assert hello == {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "seat": view.viewer,
        "players": ["Player 0", "Player 1", "Player 2"],
        "rules": game.rules.to_dict(),
        "timeout": 4.0,
    }
    assert turn == {"type": "turn", "view": json.loads(json.dumps(view.to_dict())), "legal": legal}
    assert over == {"type": "game_over", "winners": [1], "scores": [10, 0, 35]}
    assert quit_ == {"type": "quit"}
    assert bot._process is not None and bot._process.returncode == 0
    assert bot.stderr_tail == "bye"


def test_each_game_begins_with_a_hello(scripted: Any) -> None:
    bot, read_log = scripted([{"legal": 0}])
    game, view = first_view(seed=5)
    game.apply(bot.choose(view))
    game.apply(bot.choose(game.view(game.current)))  # the same game: no new hello
    bot.game_over([0], [0, 0])
    bot.choose(first_view(seed=6)[1])  # after game_over
    bot.choose(first_view(seed=8, players=3)[1])  # another table, without game_over
    bot.close()
    kinds = [message["type"] for message in read_log()]
    assert kinds == [
        "hello",
        "turn",
        "turn",
        "game_over",
        "hello",
        "turn",
        "hello",
        "turn",
        "quit",
    ]


def test_the_answer_may_be_an_action_object(scripted: Any) -> None:
    _, view = first_view()
    bot, _ = scripted([{"send": {"action": {"type": "Draw"}}}])
    assert bot.choose(view) == Draw()


def test_a_lay_down_is_read_against_the_bots_phase(scripted: Any) -> None:
    game = Game(2, seed=2)
    rng = random.Random(4)
    lays: list[str] = []
    while not lays:  # play on to a position where the player to move can lay down
        random_play(game, rng, stop_after=1)
        view = game.view(game.current)
        lays = [str(a) for a in view.legal_actions if isinstance(a, LayDown)]
    bot, _ = scripted([{"send": {"action": lays[-1].lower()}}])
    action = bot.choose(view)
    assert isinstance(action, LayDown) and str(action) == lays[-1]
    assert not Counter(action.cards) - Counter(view.hand)


def test_a_lay_down_may_be_answered_in_any_group_order(scripted: Any) -> None:
    """A set and a run written run first, a Wild with its implied value: the same lay-down,
    returned in its one written form."""
    from helpers import arranged

    game = arranged(
        ["R7 B7 W G3 G4 G6 W Y2", "R1 R2 R3 R4 R5 R6 R8 R9 R10 R11"], "B12", "Y12", phases=(2, 1)
    )
    game.apply("draw")
    view = game.view(0)
    bot, read_log = scripted([{"send": {"action": "lay g3 g4 W=5 g6 + r7 b7 w"}}])
    action = bot.choose(view)
    assert str(action) == "lay R7 B7 W + G3 G4 W G6"
    assert "lay R7 B7 W + G3 G4 W G6" in read_log()[-1]["legal"]
    assert bot.refusals == []


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ({"send": {"action": "discard W9"}}, "'W9' is not a card"),
        ({"send": {"action": "fly away"}}, "unknown action 'fly away'"),
        (
            {"send": {"action": "discard R1"}},
            "you must draw a card (or take the top discard) first",
        ),
        ({"send": {"move": "draw"}}, 'answer with {"action": "<action text>"}'),
        ({"send": ["draw"]}, 'answer with {"action": "<action text>"}'),
        ({"send": {"action": 42}}, "an action is its text or a JSON object, not 42"),
        ({"send": {"action": {"type": "Jump"}}}, "unknown action type 'Jump'"),
    ],
)
def test_illegal_answers_are_sent_back_then_the_bot_fails(
    scripted: Any, answer: dict[str, Any], reason: str
) -> None:
    _, view = first_view()
    bot, read_log = scripted([answer])
    with pytest.raises(BotError) as raised:
        bot.choose(view)
    message = str(raised.value)
    assert "bot 'scripted'" in message and "no legal action in 3 answers" in message
    assert reason in message
    with pytest.raises(BotError, match="has already failed"):
        bot.choose(view)
    bot.close()
    errors = [m for m in read_log() if m["type"] == "error"]
    assert [e["attempts_left"] for e in errors] == [2, 1, 0]
    assert all(reason in e["message"] for e in errors)
    assert bot._process is not None and bot._process.returncode == 0  # still well: it quit


def test_the_error_message_is_the_engines_own(scripted: Any) -> None:
    game, view = first_view()
    bot, read_log = scripted([{"send": {"action": "discard W9"}}], attempts=1)
    with pytest.raises(BotError):
        bot.choose(view)
    bot.close()
    with pytest.raises(InvalidActionError) as expected:
        game.parse_action("discard W9")
    (error,) = [m for m in read_log() if m["type"] == "error"]
    assert error == {
        "type": "error",
        "message": str(expected.value),
        "code": "malformed",
        "attempts_left": 0,
    }


def test_a_bot_may_correct_itself_after_an_error(scripted: Any) -> None:
    game = Game(2, seed=3)
    game.apply("draw")
    view = game.view(game.current)
    bot, read_log = scripted([{"send": {"action": "draw"}}, {"legal": 0}])
    action = bot.choose(view)
    assert view.is_legal(action)
    with pytest.raises(IllegalActionError) as expected:
        game.check(Draw())
    errors = [m for m in read_log() if m["type"] == "error"]
    assert errors == [
        {
            "type": "error",
            "message": str(expected.value),
            "code": "already_drew",
            "attempts_left": 2,
        }
    ]
    wire = pytest.importorskip("phase10.bots.wire")
    wire.ErrorMessage.model_validate(errors[0])
    assert bot.refusals == [str(expected.value)]


# -- failures ---------------------------------------------------------------------------


def test_a_bot_that_does_not_answer_in_time_fails_and_is_killed(scripted: Any) -> None:
    _, view = first_view()
    bot, _ = scripted([{"sleep": 60}], timeout=0.5)
    with pytest.raises(BotError, match=r"bot 'scripted' .* did not answer a turn within 0\.5 s"):
        bot.choose(view)
    assert bot._process is not None and bot._process.poll() is not None


def test_a_bot_that_never_says_ready_fails(scripted: Any) -> None:
    _, view = first_view()
    bot, _ = scripted([{"legal": 0}], ready={"sleep": 60}, timeout=0.5, startup_timeout=0.5)
    with pytest.raises(BotError, match=r"did not answer the hello within 0\.5 s"):
        bot.choose(view)


@pytest.mark.parametrize(
    ("ready", "problem"),
    [
        ({"send": {"action": "draw"}}, 'answered the hello with {"action": "draw"} instead of'),
        ({"send": {"type": "ready", "protocol": 2}}, "speaks protocol 2; this engine speaks 1"),
    ],
)
def test_a_bad_handshake_fails(scripted: Any, ready: dict[str, Any], problem: str) -> None:
    _, view = first_view()
    bot, _ = scripted([{"legal": 0}], ready=ready)
    with pytest.raises(BotError) as raised:
        bot.choose(view)
    assert problem in str(raised.value)


def test_a_bot_that_crashes_fails_with_its_stderr(scripted: Any) -> None:
    _, view = first_view()
    bot, _ = scripted([{"crash": True}])
    with pytest.raises(BotError) as raised:
        bot.choose(view)
    message = str(raised.value)
    assert "exited with code 1 instead of answering a turn" in message
    assert "ZeroDivisionError: the bot divided by zero" in message


def test_a_bot_that_writes_something_else_than_json_fails(scripted: Any) -> None:
    _, view = first_view()
    bot, _ = scripted([{"raw": "I think I will draw"}])
    with pytest.raises(BotError, match="wrote a line that is not JSON: 'I think I will draw'"):
        bot.choose(view)


def _bot_that_prints(expression: str, startup: float = 5.0) -> SubprocessPlayer:
    """A bot that answers every message it reads by running ``expression`` (Python)."""
    source = f"import sys, time\nfor line in sys.stdin:\n    {expression}"
    return SubprocessPlayer([sys.executable, "-c", source], timeout=1, startup_timeout=startup)


def test_a_bot_that_only_writes_blank_lines_runs_out_of_time() -> None:
    _, view = first_view()
    endless = "while True: print(flush=True); time.sleep(0.2)"
    with _bot_that_prints(endless, startup=1.5) as bot:
        with pytest.raises(BotError, match=r"did not answer the hello within 1\.5 s"):
            bot.choose(view)
        assert bot._process is not None and bot._process.poll() is not None


@pytest.mark.parametrize(
    "expression",
    [
        "print('[' * 100000 + ']' * 100000, flush=True)",
        "print('{\"type\": \"ready\", \"protocol\": ' + '1' * 5000 + '}', flush=True)",
    ],
)
def test_json_too_deep_or_too_long_to_read_is_a_bot_error(expression: str) -> None:
    _, view = first_view()
    with _bot_that_prints(expression) as bot:
        with pytest.raises(BotError, match="wrote JSON too deep or too long to read"):
            bot.choose(view)
        assert bot._process is not None and bot._process.poll() is not None


def test_stderr_without_line_ends_is_read_in_pieces() -> None:
    from phase10.bots.program import STDERR_CHUNK, _read_stderr

    tail: collections.deque[str] = collections.deque(maxlen=40)
    _read_stderr(io.BytesIO(b"\r50%" * STDERR_CHUNK), tail)  # 4 chunks' worth, no line end
    assert len(tail) == 4
    assert all(len(line) <= 400 for line in tail)


def test_a_program_that_does_not_exist_fails(tmp_path: Path) -> None:
    _, view = first_view()
    with (
        SubprocessPlayer([str(tmp_path / "no-such-bot")]) as bot,
        pytest.raises(BotError, match="cannot be started"),
    ):
        bot.choose(view)


def test_the_player_refuses_bad_arguments_and_foreign_turns() -> None:
    with pytest.raises(ValueError, match="list of strings"):
        SubprocessPlayer("python bot.py")
    with pytest.raises(ValueError, match="positive"):
        SubprocessPlayer(["bot"], timeout=0)
    with pytest.raises(ValueError, match="attempts"):
        SubprocessPlayer(["bot"], attempts=0)
    game, view = first_view()
    other = game.view(1 - view.current)
    with pytest.raises(ValueError, match="not player"):
        SubprocessPlayer(["bot"]).choose(other)


# -- the view as JSON -------------------------------------------------------------------

ROUND_TRIP_PRESETS = [
    "official",
    "masters",
    "floating",
    "wild-deal-up",
    "masters-variant-2",
    "ten-hands",
]


@dataclass(frozen=True)
class Position:
    """One sampled position: every player's view (and the spectator's), and the hidden truth."""

    views: tuple[PlayerView, ...]  # seat by seat, then the spectator's
    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...]
    saved: tuple[tuple[Card, ...], ...]
    #: the text of each legal action with the action the game reads from it
    texts: tuple[tuple[str, Action], ...]


def sampled_positions(every: int = 40) -> list[Position]:
    """Positions from seeded random games under several rules: every ``every`` actions, and
    every position where a player declares a phase or the dealer gives a Wild.
    """
    positions: list[Position] = []
    for number, name in enumerate(ROUND_TRIP_PRESETS):

        def keep(game: Game, action: Action, events: object) -> None:
            rare = game.stage in (Stage.DECLARE, Stage.GIVE_WILD)
            if len(game.actions) % every and not game.is_over and not rare:
                return
            views = tuple(game.view(seat) for seat in [*range(game.num_players), None])
            texts: tuple[tuple[str, Action], ...] = ()
            if not game.is_over and len(positions) % 2 == 0:
                texts = tuple((str(a), game.parse_action(str(a))) for a in game.legal_actions)
            hands = tuple(game.hand(seat) for seat in range(game.num_players))
            saved = tuple(tuple(seat.saved) for seat in game.seats)
            positions.append(Position(views, hands, tuple(game.draw_pile), saved, texts))

        game = Game(2 + number % 4, rules=preset(name), seed=number)
        random_play(game, random.Random(number), on_step=keep)
    return positions


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    return sampled_positions()


def test_views_round_trip_through_json(positions: list[Position]) -> None:
    seen: Counter[str] = Counter()
    for position in positions:
        for view in position.views:
            back = PlayerView.from_dict(json.loads(json.dumps(view.to_dict())))
            assert back == view
            seen["melds"] += bool(view.melds)
            seen["results"] += bool(view.hand_results)
            seen["hits"] += any(isinstance(e, CardHit) for e in view.history)
            seen["laid"] += any(isinstance(e, LaidDown) for e in view.history)
            seen["declare"] += view.stage is Stage.DECLARE
            seen["give"] += view.stage is Stage.GIVE_WILD
            seen["over"] += view.is_over
    assert all(seen[key] > 0 for key in ("melds", "results", "hits", "laid", "declare", "over"))
    assert seen["give"] > 0
    assert len(positions) > 300


def test_the_view_json_holds_no_hidden_card(positions: list[Position]) -> None:
    """Whatever the view JSON says of where cards are, with the cards it cannot know
    (other hands and private save piles, the draw pile), accounts for the deck's cards
    exactly once: it shows no hidden card. The history shows only the viewer's own dealt
    and drawn cards.
    """
    for position in positions:
        for viewer, view in enumerate(position.views[:-1]):
            data = json.loads(json.dumps(view.to_dict()))
            assert data["viewer"] == viewer
            assert not {"seed", "rng", "draw_pile", "hands"} & set(data)
            assert parse_cards(data["hand"]) == position.hands[viewer]
            shown = Counter(parse_cards(data["hand"]) + parse_cards(data["discard_pile"]))
            shown.update(parse_cards(data["saved"]))
            for meld in data["melds"]:
                shown.update(parse_cards(meld["group"]["cards"]))
            hidden = Counter(position.draw_pile)
            for seat, hand in enumerate(position.hands):
                if seat != viewer:
                    hidden.update(hand)
                    assert data["seats"][seat]["hand_size"] == len(hand)
                    assert data["seats"][seat]["saved_count"] == len(position.saved[seat])
                    if data["seats"][seat]["saved"] is None:
                        hidden.update(position.saved[seat])
                    else:
                        shown.update(parse_cards(data["seats"][seat]["saved"]))
            assert shown + hidden == Counter(dict(view.rules.deck_counts))
            assert data["draw_size"] == len(position.draw_pile)
            for event in data["history"]:
                if event["type"] == "Dealt" and event["player"] != viewer:
                    assert event["cards"] is None
                if event["type"] == "Drew" and event["player"] != viewer:
                    assert event["card"] is None
                private = event["type"] in ("Saved", "TookSaved") and not event["public"]
                if private and event["player"] != viewer:
                    assert event["card"] is None
            own = [e for e in data["history"] if e["type"] == "Dealt" and e["player"] == viewer]
            assert all(e["cards"] is not None for e in own)
        spectator = position.views[-1].to_dict()
        assert spectator["viewer"] is None and spectator["hand"] == ""


def test_phases_in_the_view_json_are_numbered_from_one() -> None:
    game = Game(2, seed=1, rules=preset("official").with_options(phases=(2, 5)))
    data = game.view(0).to_dict()
    assert data["phase_sequence"] == ["1 set of 3 + 1 run of 4", "1 run of 8"]
    assert [seat["phase"] for seat in data["seats"]] == [1, 1]
    assert data["seats"][0]["completed"] == [] and data["seats"][0]["laid"] is None


def test_from_dict_refuses_a_malformed_view() -> None:
    data = Game(2, seed=1).view(0).to_dict()
    with pytest.raises(RecordError, match="no 'draw_size'"):
        PlayerView.from_dict({k: v for k, v in data.items() if k != "draw_size"})
    with pytest.raises(RecordError, match="whole number"):
        PlayerView.from_dict(data | {"current": "1"})
    with pytest.raises(RecordError, match="HandEnded"):
        PlayerView.from_dict(data | {"hand_results": data["history"][:1]})
    with pytest.raises(RecordError):
        PlayerView.from_dict(data | {"stage": "dance"})
    with pytest.raises(RecordError, match="JSON object"):
        PlayerView.from_dict([])  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="2 to 6 seats, not 0"):
        PlayerView.from_dict(data | {"seats": []})
    with pytest.raises(RecordError, match="viewer is seat 9, but the seats are 0 to 1"):
        PlayerView.from_dict(data | {"viewer": 9})
    with pytest.raises(RecordError, match="current is seat -1"):
        PlayerView.from_dict(data | {"current": -1})


def test_action_text_reads_the_same_from_a_view_as_from_the_game(
    positions: list[Position],
) -> None:
    checked = 0
    for position in positions:
        if not position.texts:
            continue
        view = next(v for v in position.views if v.is_my_turn)
        for text, action in position.texts:
            assert parse_view_action(view, text) == action
            checked += 1
    assert checked > 500
    any_order = Game(2, seed=4, rules=PRESETS["arkansas"])
    any_order.apply("draw")
    with pytest.raises(InvalidActionError, match="say which phase"):
        parse_view_action(any_order.view(any_order.current), "lay R1 R1 R1 + R2 R2 R2")
    with pytest.raises(InvalidActionError, match="there is no phase 11"):
        parse_view_action(any_order.view(any_order.current), "lay 11: R1 R1 R1")


# -- the bot side -----------------------------------------------------------------------


def run_serve(player: Any, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = io.StringIO()
    serve(player, io.StringIO("".join(json.dumps(m) + "\n" for m in messages)), out, name="t")
    return [json.loads(line) for line in out.getvalue().splitlines()]


class Scripted:
    """A Python player that plays the given actions in turn, recording the views it gets."""

    def __init__(self, *actions: str) -> None:
        self.actions = list(actions)
        self.views: list[PlayerView] = []

    def choose(self, view: PlayerView) -> Action:
        self.views.append(view)
        return view.check(parse_view_action(view, self.actions.pop(0)))


def test_serve_answers_hello_turns_and_errors_and_stops_at_quit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, view = first_view()
    turn = {"type": "turn", "view": view.to_dict(), "legal": []}
    player = Scripted("take", "draw")
    answers = run_serve(
        player,
        [
            {"type": "hello", "protocol": 1, "seat": view.viewer, "players": 2, "rules": {}},
            turn,
            {"type": "error", "message": "no, really", "attempts_left": 1},
            {"type": "error", "message": "still no", "attempts_left": 0},
            {"type": "whatever"},
            {"type": "game_over", "winners": [0], "scores": [0, 5]},
            {"type": "quit"},
            turn,
        ],
    )
    assert answers == [
        {"type": "ready", "name": "t", "author": "phase10", "protocol": PROTOCOL_VERSION},
        {"action": "take"},
        {"action": "draw"},
    ]
    assert player.views == [view, view]
    err = capsys.readouterr().err
    assert "no, really" in err and "still no" in err and "unknown message" in err


def test_the_command_line_refuses_unknown_bots(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["clever"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "unknown bot 'clever'" in err and "strong:1 to strong:4" in err
    assert "cmd:" not in err  # this command runs built-in bots only
    with pytest.raises(SystemExit):
        main(["cmd:python bot.py"])


def test_serve_skips_lines_that_are_not_json_and_refuses_a_turn_it_cannot_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = io.StringIO()
    hello = json.dumps({"type": "hello", "protocol": 1, "seat": 0, "players": 2, "rules": {}})
    serve(Scripted(), io.StringIO("not json\n" + hello + "\n"), out, name="t")
    assert json.loads(out.getvalue())["type"] == "ready"
    assert "not JSON: not json" in capsys.readouterr().err
    bad_turn = json.dumps({"type": "turn", "view": {}}) + "\n"
    with pytest.raises(ValueError, match="cannot read the engine's turn"):
        serve(Scripted(), io.StringIO(bad_turn), io.StringIO())
    monkeypatch.setattr(sys, "stdin", io.StringIO(bad_turn))
    assert main(["greedy"]) == 1
    assert "error: cannot read the engine's turn" in capsys.readouterr().err


def test_serve_answers_again_only_for_a_whole_number_of_attempts_left() -> None:
    game = Game(2, seed=1)
    turn = json.dumps({"type": "turn", "view": game.view(game.current).to_dict()})
    refused = json.dumps({"type": "error", "message": "no", "attempts_left": "2"})
    again = json.dumps({"type": "error", "message": "no", "attempts_left": 1})
    out = io.StringIO()
    serve(RandomPlayer(random.Random(0)), io.StringIO(f"{turn}\n{refused}\n{again}\n"), out)
    assert len(out.getvalue().splitlines()) == 2  # the turn's answer, then one more
