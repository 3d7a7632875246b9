"""``phase10 protocol-test CMD``: a conformance kit for bot programs.

It plays the program through short games under each rule set that brings a stage or a
rule of its own, checks every message it writes against the protocol's models
(:mod:`phase10.bots.wire`) and every answer against the rules, and lists each deviation.
The exit code is 0 when there is none, 1 otherwise.
"""

from __future__ import annotations

import json
import random
import shlex
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

import typer

from phase10.bots import make_player, play_game
from phase10.bots.program import BotError, SubprocessPlayer, finish_game
from phase10.bots.simple import Player
from phase10.core import PRESETS, Action, Game, GiveWild, PlayerView, Rules, Stage
from phase10.core.words import plural

from .common import fail as _fail

__all__ = ["RULE_SETS", "Report", "protocol_test", "run_checks"]

#: the phases the short games play
PHASES = [1, 2]
#: name: (preset, the stages the bot must meet, what it checks)
RULE_SETS: dict[str, tuple[str, frozenset[Stage], str]] = {
    "official": ("official", frozenset({Stage.DRAW, Stage.PLAY}), "the official rules"),
    "declare": (
        "arkansas",
        frozenset({Stage.DRAW, Stage.PLAY}),
        "phases in any order, named when laid down (lay N: ...)",
    ),
    "give-wild": (
        "wild-deal-up",
        frozenset({Stage.GIVE_WILD, Stage.WILD_DISCARD, Stage.DRAW, Stage.PLAY}),
        "the dealer gives a turned-up Wild; its player discards for it",
    ),
    "floating": (
        "floating",
        frozenset({Stage.DRAW, Stage.PLAY}),
        "the last card must leave by a discard",
    ),
    "masters": (
        "masters",
        frozenset({Stage.DECLARE, Stage.DRAW, Stage.PLAY}),
        "phases in any order, named after the deal (declare N), save piles",
    ),
    "give-up": (
        "masters-variant-2",
        frozenset({Stage.DRAW, Stage.PLAY}),
        "the masters rules, and a phase laid may be given up (give-up)",
    ),
    "anti-phase": (
        "anti-phase",
        frozenset({Stage.DECLARE, Stage.DRAW, Stage.PLAY}),
        "the masters rules with the Anti-phase card (discard A>pN)",
    ),
}
#: the bot's seat; the other seat is a built-in bot
BOT = 0
_SEARCH = 5000


@dataclass
class Report:
    """What one rule set's games showed."""

    name: str
    games: int = 0
    decisions: int = 0
    stages: set[Stage] = field(default_factory=set)
    deviations: list[str] = field(default_factory=list)


class _Opponent:
    """The built-in seat: greedy, and as dealer it gives a turned-up Wild to the bot."""

    instant = True

    def __init__(self, rng: random.Random) -> None:
        self.greedy = make_player("greedy", rng)

    def choose(self, view: PlayerView) -> Action:
        if view.stage is Stage.GIVE_WILD:
            return GiveWild(BOT)
        return self.greedy.choose(view)


class _Watched:
    """The bot's seat: notes the stages it answers in."""

    instant = False

    def __init__(self, bot: SubprocessPlayer, report: Report) -> None:
        self.bot, self.report = bot, report

    def choose(self, view: PlayerView) -> Action:
        action = self.bot.choose(view)  # (a bot that fails here made no decision)
        self.report.stages.add(view.stage)
        self.report.decisions += 1
        return action


def _deals(rules: Rules, wanted: frozenset[Stage], seed: int) -> list[tuple[int, int]]:
    """(seed, dealer) of each game to play: deals where the turned-up card is a Wild when
    the rules make the dealer give it (once with the bot dealing, once the other seat)."""
    if Stage.GIVE_WILD not in wanted:
        return [(seed, 1 - BOT)]
    deals = []
    for dealer in (BOT, 1 - BOT):
        for candidate in range(seed, seed + _SEARCH):
            if Game(2, rules=rules, seed=candidate, dealer=dealer).stage is Stage.GIVE_WILD:
                deals.append((candidate, dealer))
                break
    return deals


def _read_transcript(transcript: list[tuple[str, Any]], report: Report) -> None:
    """Check each value the bot wrote against the models; note each refused answer."""
    # pydantic is imported here, not when the command line starts
    from pydantic import ValidationError

    from phase10.bots.wire import Answer, Ready

    last_sent: str | None = None
    last_answer: Any = None
    for direction, message in transcript:
        if direction == "sent":
            last_sent = message.get("type")
            if last_sent == "error":
                report.deviations.append(
                    f"the answer {_short(last_answer)} was refused: {message['message']}"
                )
            continue
        model: Any = Ready if last_sent == "hello" else Answer
        name = "ready.json" if last_sent == "hello" else "answer.json"
        last_answer = message
        try:
            model.model_validate(message)
        except ValidationError as error:
            problem = error.errors()[0]
            where = ".".join(str(part) for part in problem["loc"]) or "the message"
            report.deviations.append(
                f"{_short(message)} does not match {name}: {where}: {problem['msg']}"
            )


def _short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def run_checks(
    command: Sequence[str],
    *,
    timeout: float = 10.0,
    seed: int = 1,
    rule_sets: Sequence[str] = tuple(RULE_SETS),
    on_report: Callable[[Report], None] | None = None,
) -> list[Report]:
    """Play ``command`` under each rule set; a :class:`Report` per rule set."""
    reports = []
    for name in rule_sets:
        preset_name, wanted, _ = RULE_SETS[name]
        rules = Rules.from_dict({**PRESETS[preset_name].to_dict(), "phases": PHASES})
        report = Report(name)
        for game_seed, dealer in _deals(rules, wanted, seed):
            report.games += 1
            transcript: list[tuple[str, Any]] = []
            bot = SubprocessPlayer(command, timeout=timeout, transcript=transcript)
            game = Game(["bot", "greedy"], rules=rules, seed=game_seed, dealer=dealer)
            players: list[Player] = [_Watched(bot, report), _Opponent(random.Random(game_seed))]
            try:
                play_game(game, players)
                finish_game(game, [bot])
            except BotError as error:
                report.deviations.append(f"the bot failed: {error}")
            finally:
                bot.close()
            _read_transcript(transcript, report)
            if bot.killed_on_quit:
                report.deviations.append("it did not exit within 2 s of quit: it was killed")
            if any(d.startswith("the bot failed") for d in report.deviations):
                break
        else:  # (a bot that failed did not get the chance)
            for stage in sorted(wanted - report.stages):
                report.deviations.append(f"it never reached the {stage.value} stage")
        reports.append(report)
        if on_report is not None:
            on_report(report)
    return reports


def protocol_test(
    command: Annotated[
        list[str],
        typer.Argument(
            metavar="CMD",
            help="The bot program and its arguments, or one quoted command line (quote it, or "
            "put -- before it, when an argument starts with -).",
            show_default=False,
        ),
    ],
    timeout: Annotated[
        float, typer.Option("--timeout", metavar="SECONDS", help="Seconds for each answer.")
    ] = 10.0,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Where deals start.")] = 1,
    only: Annotated[
        list[str] | None,
        typer.Option(
            "--rules",
            metavar="NAME",
            help=f"Only this rule set (repeatable): {', '.join(RULE_SETS)}.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Check a bot program against the bot protocol (docs/bot-protocol.md).

    Plays it through short games (phases 1 and 2) under the official rules and the rule
    sets with stages or actions of their own (declare, give-wild, floating, masters,
    give-up, anti-phase), so that it meets every stage; checks every message it writes
    against docs/schemas/bot/ and every answer against the rules. Prints each deviation; exits with 1 when there is one.
    """
    if len(command) == 1:
        try:
            command = shlex.split(command[0])
        except ValueError as error:
            _fail(f"cannot read the command {command[0]!r}: {error}")
    if not command:
        _fail("name the bot's program, e.g. phase10 protocol-test node bot.js")
    if not 0 < timeout <= 3600:
        _fail(f"--timeout is a number of seconds above 0, at most 3600, not {timeout}")
    rule_sets = list(dict.fromkeys(only or RULE_SETS))
    unknown = [name for name in rule_sets if name not in RULE_SETS]
    if unknown:
        _fail(f"no rule set named {unknown[0]!r}; rule sets: {', '.join(RULE_SETS)}")
    if shutil.which(command[0]) is None:  # (once, not a failed game per rule set)
        _fail(
            f"cannot start {command[0]!r}: no such program here (name one on the PATH, or "
            "a path to an executable file)"
        )

    def show(report: Report) -> None:
        _, _, what = RULE_SETS[report.name]
        stages = ", ".join(stage.value for stage in sorted(report.stages)) or "none"
        verdict = "ok" if not report.deviations else plural(len(report.deviations), "deviation")
        typer.echo(
            f"{report.name} ({what}): {plural(report.games, 'game')}, "
            f"{plural(report.decisions, 'decision')} made, "
            f"stages {stages}: {verdict}"
        )
        for deviation in report.deviations:
            typer.echo(f"  - {deviation}")

    reports = run_checks(command, timeout=timeout, seed=seed, rule_sets=rule_sets, on_report=show)
    failed = sum(len(report.deviations) for report in reports)
    if failed:
        typer.echo(f"{plural(failed, 'deviation')} from the bot protocol.")
        raise typer.Exit(1)
    tried = "every rule set" if len(rule_sets) == len(RULE_SETS) else ", ".join(rule_sets)
    typer.echo(f"The bot follows the bot protocol under {tried}.")
