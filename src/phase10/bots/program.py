"""Out-of-process bots, the engine side: :class:`SubprocessPlayer` runs a program and asks
it for each decision over the JSON-lines protocol of :mod:`phase10.bots.protocol`.

Kept apart from the bot side (:func:`phase10.bots.protocol.serve` and its command) so
that :mod:`phase10.bots.registry` can make ``cmd:PROGRAM`` players while that command
makes built-in players through the registry, with no import cycle. Everything here is
also importable from :mod:`phase10.bots.protocol`.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import shlex
import subprocess
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import IO, Any, NoReturn

from phase10.core import (
    Action,
    Game,
    IllegalActionError,
    InvalidActionError,
    Phase,
    PlayerView,
    RecordError,
    Refusal,
    action_from_dict,
    is_plain_number,
    parse_action,
)

__all__ = [
    "ANSWER_PROBLEMS",
    "MAX_ATTEMPTS",
    "PROBLEMS",
    "PROTOCOL_VERSION",
    "BotError",
    "BotStartError",
    "Problem",
    "SubprocessPlayer",
    "finish_game",
    "hello_message",
    "parse_view_action",
    "turn_message",
]

#: The protocol's version, sent in ``hello``.
PROTOCOL_VERSION = 1
#: How many answers a bot may give for one decision before the engine gives up.
MAX_ATTEMPTS = 3
#: The longest line a bot may write (bytes).
MAX_LINE = 1 << 22
#: the most of a bot's stderr read at once (a line without end is read in pieces)
STDERR_CHUNK = 1 << 16
#: How much of a bot's stderr is kept for error messages.
STDERR_LINES = 40
STDERR_LINE_CHARS = 400
#: Seconds to start a program and get its ``ready``, at least (interpreters and imports).
STARTUP_TIMEOUT = 10.0
#: Seconds a bot has to exit after ``quit`` before it is killed.
QUIT_TIMEOUT = 2.0


class BotError(RuntimeError):
    """An out-of-process bot that failed: no answer in time, no legal answer, a crash, a
    line that is not JSON, or no handshake. The message names the bot and the problem and
    ends with the last lines of its stderr. ``problem`` is the key of :data:`PROBLEMS`.
    """

    def __init__(self, message: str, problem: str = "") -> None:
        super().__init__(message)
        self.problem = problem


class BotStartError(BotError):
    """A bot program that cannot be started at all (a setup error, not a move)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One way a bot fails: when it happens and the message's text (``str.format``)."""

    when: str
    text: str
    #: values that fill ``text`` for the documentation's example
    example: Mapping[str, object]

    def say(self, **values: object) -> str:
        return self.text.format(**values)


#: Every :class:`BotError` problem, by key: the code raises these texts and nothing else,
#: and docs/bot-protocol.md's table of errors is generated from them.
PROBLEMS: Mapping[str, Problem] = {
    "no_legal_action": Problem(
        f"gives no legal action in {MAX_ATTEMPTS} answers",
        "gave no legal action in {attempts} answers; the last: {reason}",
        {"attempts": MAX_ATTEMPTS, "reason": "<reason>"},
    ),
    "timeout": Problem(
        "does not answer within `timeout` seconds (default 10; blank lines do not restart "
        "the clock; the hello allows at least 10 s)",
        "did not answer {waiting_for} within {seconds:g} s",
        {"waiting_for": "a turn", "seconds": 10.0},
    ),
    "exited": Problem(
        "exits",
        "exited with code {code} instead of answering {waiting_for}",
        {"code": 1, "waiting_for": "a turn"},
    ),
    "closed_stdout": Problem(
        "closes its stdout but keeps running",
        "closed its stdout instead of answering {waiting_for}",
        {"waiting_for": "a turn"},
    ),
    "line_too_long": Problem(
        "writes a line longer than 4 MiB",
        "wrote a line longer than {limit} bytes",
        {"limit": 1 << 22},
    ),
    "not_json": Problem(
        "writes a line that is not JSON",
        "wrote a line that is not JSON: {line!r}",
        {"line": "..."},
    ),
    "json_too_deep": Problem(
        "writes JSON nested too deep or a number too long to read",
        "wrote JSON too deep or too long to read: {line!r}",
        {"line": "..."},
    ),
    "not_ready": Problem(
        "answers `hello` with anything but `ready`",
        'answered the hello with {reply} instead of {{"type": "ready"}}',
        {"reply": "..."},
    ),
    "protocol": Problem(
        "says it speaks another protocol version in `ready`",
        "speaks protocol {version!r}; this engine speaks {engine}",
        {"version": 2, "engine": 1},
    ),
    "cannot_start": Problem(
        "cannot be started",
        "cannot be started: {error}",
        {"error": "[Errno 2] No such file or directory: ..."},
    ),
    "already_failed": Problem(
        "is asked again after it failed",
        "has already failed: {problem}",
        {"problem": "..."},
    ),
    "closed": Problem("is asked after it was closed", "is closed", {}),
}


_EOF = object()
_TOO_LONG = object()


class SubprocessPlayer:
    """A player whose decisions come from another program over the JSON-lines protocol.

    The program starts at the first decision (``hello``/``ready``), then gets a ``turn``
    message for each decision and answers with one action. An illegal or malformed answer
    is sent back as an ``error`` and the bot may try again, ``attempts`` answers in all;
    then :meth:`choose` raises :class:`BotError`, as it does when the bot does not answer
    within ``timeout`` seconds, exits, or writes a line that is not JSON. After a
    ``BotError`` the player is spent. :meth:`close` (or leaving a ``with`` block) sends
    ``quit`` and waits for the program to exit.

    ``env`` replaces the environment (``PYTHONUNBUFFERED=1`` is added unless set, so Python
    bots need not flush). ``startup_timeout`` bounds starting the program and its
    ``ready`` (default: ``timeout``, but at least 10 seconds). ``transcript``, a list,
    receives every message sent and every JSON value read (``phase10 protocol-test``).
    """

    #: another program: it may take its time
    instant = False

    def __init__(
        self,
        command: Sequence[str],
        *,
        timeout: float = 10.0,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        attempts: int = MAX_ATTEMPTS,
        startup_timeout: float | None = None,
        transcript: list[tuple[str, Any]] | None = None,
    ) -> None:
        if isinstance(command, str) or not command or not all(isinstance(a, str) for a in command):
            raise ValueError(f"give the bot's command as a list of strings, not {command!r}")
        if not timeout > 0:
            raise ValueError(f"the timeout must be a positive number of seconds, not {timeout!r}")
        if startup_timeout is not None and not startup_timeout > 0:
            raise ValueError(f"the startup timeout must be positive, not {startup_timeout!r}")
        if isinstance(attempts, bool) or not isinstance(attempts, int) or attempts < 1:
            raise ValueError(f"attempts must be a whole number from 1, not {attempts!r}")
        self.command = tuple(command)
        self.timeout = float(timeout)
        self.startup_timeout = (
            max(self.timeout, STARTUP_TIMEOUT) if startup_timeout is None else startup_timeout
        )
        self.attempts = attempts
        self.env = dict(os.environ if env is None else env)
        self.env.setdefault("PYTHONUNBUFFERED", "1")
        self.cwd = cwd
        #: the name the bot gave in ``ready`` (None until then, or if it gave none)
        self.name: str | None = None
        self.author: str | None = None
        #: every reason the engine gave the bot for refusing an answer (the ``error``s sent)
        self.refusals: list[str] = []
        #: when given, every message as it goes: ("sent", message) and ("received", value)
        self.transcript = transcript
        #: whether the bot had to be killed because it did not exit after ``quit``
        self.killed_on_quit = False
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._threads: list[threading.Thread] = []
        self._game: tuple[object, ...] | None = None  # seat, players, rules of the game
        self._position: tuple[int, int] = (0, 0)  # (hand, events) of the last decision
        self._failed: str | None = None
        self._closed = False
        self._finalizer: weakref.finalize[Any, Any] | None = None

    # -- the Player protocol ------------------------------------------------------------

    def choose(self, view: PlayerView) -> Action:
        """Ask the bot for the action of ``view.viewer``; return it checked and canonical."""
        if self._failed is not None:
            self._raise("already_failed", problem=self._failed)
        if self._closed:
            self._raise("closed")
        if not view.is_my_turn:
            raise ValueError(f"it is not player {view.viewer}'s turn in this view")
        self._begin_game(view)
        self._send(turn_message(view))
        problem = ""
        for attempt in range(1, self.attempts + 1):
            reply = self._receive(self.timeout, "a turn")
            try:
                return _read_answer(view, reply)
            except (IllegalActionError, InvalidActionError, RecordError) as error:
                problem = str(error)
                code = getattr(error, "code", Refusal.MALFORMED)
            left = self.attempts - attempt
            self.refusals.append(problem)
            self._send(
                {"type": "error", "message": problem, "code": str(code), "attempts_left": left}
            )
        self._failed = PROBLEMS["no_legal_action"].say(attempts=self.attempts, reason=problem)
        self._raise("no_legal_action", attempts=self.attempts, reason=problem)

    def game_over(self, winners: Sequence[int], scores: Sequence[int]) -> None:
        """Tell the bot the game has ended; its next decision starts a new game (``hello``)."""
        if self._game is None or self._process is None or self._failed is not None:
            self._game = None
            return
        self._send({"type": "game_over", "winners": list(winners), "scores": list(scores)})
        self._game = None

    def close(self) -> None:
        """Send ``quit`` and wait for the bot to exit (killing it if it does not)."""
        if self._closed:
            return
        self._closed = True
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            self._outbox.put(json.dumps({"type": "quit"}).encode() + b"\n")
            self._outbox.put(None)  # the writer closes the bot's stdin
            try:
                process.wait(QUIT_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                self.killed_on_quit = True
        self._stop()

    def __enter__(self) -> SubprocessPlayer:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"SubprocessPlayer({list(self.command)!r}, timeout={self.timeout})"

    @property
    def stderr_tail(self) -> str:
        """The last lines the bot wrote to its stderr."""
        return "\n".join(self._stderr.copy())

    # -- the process ----------------------------------------------------------------------

    def _begin_game(self, view: PlayerView) -> None:
        """Start the program if needed, and say ``hello`` when a new game begins."""
        assert view.viewer is not None
        game = (view.viewer, tuple(seat.name for seat in view.seats), view.rules)
        position = (view.hand_number, len(view.history))
        if self._game != game or position < self._position:
            self._game = None
        self._position = position
        if self._game is not None:
            return
        if self._process is None:
            self._start()
        self._send(hello_message(view, self.timeout))
        reply = self._receive(self.startup_timeout, "the hello")
        if not isinstance(reply, dict) or reply.get("type") != "ready":
            self._fatal("not_ready", reply=_short(reply))
        version = reply.get("protocol", PROTOCOL_VERSION)
        if version != PROTOCOL_VERSION:
            self._fatal("protocol", version=version, engine=PROTOCOL_VERSION)
        name, author = reply.get("name"), reply.get("author")
        self.name = name if isinstance(name, str) and name else self.name
        self.author = author if isinstance(author, str) and author else self.author
        self._game = game

    def _start(self) -> None:
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self.env,
                cwd=self.cwd,
            )
        except OSError as error:
            self._failed = PROBLEMS["cannot_start"].say(error=error)
            raise BotStartError(f"{self._label()} {self._failed}", "cannot_start") from None
        self._process = process
        self._finalizer = weakref.finalize(self, _kill, process)
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        self._threads = [
            threading.Thread(target=_read_lines, args=(process.stdout, self._lines), daemon=True),
            threading.Thread(target=_read_stderr, args=(process.stderr, self._stderr), daemon=True),
            threading.Thread(target=_write_lines, args=(process.stdin, self._outbox), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
        self._outbox.put(None)
        for thread in self._threads:
            thread.join(QUIT_TIMEOUT)
        process = self._process
        if process is not None:
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()

    def _send(self, message: Mapping[str, Any]) -> None:
        if self.transcript is not None:
            self.transcript.append(("sent", message))
        self._outbox.put(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def _receive(self, timeout: float, waiting_for: str) -> Any:
        """The next JSON value the bot writes (blank lines are skipped, but the time they
        take counts: one deadline for the whole answer)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._fatal("timeout", waiting_for=waiting_for, seconds=timeout)
            if line is _EOF:
                process = self._process
                assert process is not None
                try:
                    code: int | None = process.wait(QUIT_TIMEOUT)
                except subprocess.TimeoutExpired:
                    code = None
                if code is None:
                    self._fatal("closed_stdout", waiting_for=waiting_for)
                self._fatal("exited", code=code, waiting_for=waiting_for)
            if line is _TOO_LONG:
                self._fatal("line_too_long", limit=MAX_LINE)
            assert isinstance(line, bytes)
            text = line.decode("utf-8", errors="replace").strip()
            if not text:
                continue
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                self._fatal("not_json", line=_clip(text))
            except (ValueError, RecursionError):  # nested too deep, a number of 5,000 digits
                self._fatal("json_too_deep", line=_clip(text))
            if self.transcript is not None:
                self.transcript.append(("received", value))
            return value

    def _fatal(self, key: str, **values: object) -> NoReturn:
        """Kill the bot and raise the :class:`BotError` of ``PROBLEMS[key]``."""
        self._failed = PROBLEMS[key].say(**values)
        process = self._process
        if process is not None:
            if process.poll() is None:
                process.kill()
            self._stop()
        self._raise(key, **values)

    def _raise(self, key: str, **values: object) -> NoReturn:
        """Raise the :class:`BotError` of ``PROBLEMS[key]``, ending with the stderr's tail."""
        tail = self.stderr_tail
        stderr = f"\n--- the bot's stderr, last lines ---\n{tail}" if tail else ""
        raise BotError(f"{self._label()} {PROBLEMS[key].say(**values)}{stderr}", key)

    def _label(self) -> str:
        command = shlex.join(self.command)
        return f"bot {self.name!r} ({command})" if self.name else f"bot {command!r}"


def _read_lines(stream: IO[bytes], lines: queue.Queue[object]) -> None:
    try:
        while True:
            line = stream.readline(MAX_LINE)
            if not line:
                break
            if len(line) >= MAX_LINE and not line.endswith(b"\n"):
                lines.put(_TOO_LONG)
                return
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(_EOF)


def _read_stderr(stream: IO[bytes], tail: collections.deque[str]) -> None:
    """Keep the last lines the bot writes to stderr, each clipped; a line without end (a
    progress bar redrawn with carriage returns) is read in pieces, never whole."""
    try:
        while line := stream.readline(STDERR_CHUNK):
            tail.append(_clip(line.decode("utf-8", errors="replace").rstrip(), STDERR_LINE_CHARS))
    except (OSError, ValueError):
        pass


def _write_lines(stream: IO[bytes], outbox: queue.Queue[bytes | None]) -> None:
    """Write queued lines to the bot (a bot that does not read cannot block the engine)."""
    try:
        while (data := outbox.get()) is not None:
            stream.write(data)
            stream.flush()
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError, ValueError):
            stream.close()


def _kill(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(QUIT_TIMEOUT)


def _clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _short(value: Any) -> str:
    return _clip(json.dumps(value))


# -- the engine's messages (docs/schemas/bot/ describes each) ---------------------------


def hello_message(view: PlayerView, timeout: float) -> dict[str, Any]:
    """The ``hello`` that starts a game for the player of ``view``."""
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "seat": view.viewer,
        "players": [seat.name for seat in view.seats],
        "rules": view.rules.to_dict(),
        "timeout": timeout,
    }


def turn_message(view: PlayerView) -> dict[str, Any]:
    """The ``turn`` asking the player of ``view`` for a decision."""
    return {
        "type": "turn",
        "view": view.to_dict(),
        "legal": [str(action) for action in view.legal_actions],
    }


# -- reading answers --------------------------------------------------------------------


def parse_view_action(view: PlayerView, text: str) -> Action:
    """Read an action's text for the player to move in ``view`` (as ``Game.parse_action``
    does: a lay-down is read against the phase the player may lay).

    >>> from phase10.core import Game
    >>> game = Game(2, seed=1)
    >>> parse_view_action(game.view(game.current), "DISCARD s>p1")
    Discard(card=Card.parse('S'), target=1)
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action's text must be a string, not {text!r}")
    phase: Phase | None = None
    if text.strip().lower().startswith("lay"):
        count = view.rules.phase_count
        allowed = view.allowed_phases(view.current) or (view.seats[view.current].phase,)
        head, colon, _ = text.strip()[3:].strip().partition(":")
        if colon and is_plain_number(head.strip()):
            index = int(head) - 1
            if not 0 <= index < count:
                raise InvalidActionError(f"there is no phase {head.strip()}")
            phase = view.phase_of(index)
        elif len(allowed) > 1:
            phases = ", ".join(str(i + 1) for i in allowed)
            raise InvalidActionError(
                f"say which phase you lay down: lay N: ... (you may lay phase {phases})"
            )
        elif allowed and allowed[0] < count:
            phase = view.phase_of(allowed[0])
    return parse_action(text, phase)


#: The engine's own reasons for refusing an answer's shape, sent in ``error`` messages
#: (code ``malformed``) beside the rulebook's; docs/bot-protocol.md lists them.
ANSWER_PROBLEMS: Mapping[str, Problem] = {
    "not_an_answer": Problem(
        "an answer that is not an object with `action`",
        'answer with {{"action": "<action text>"}}, not {reply}',
        {"reply": '{"move": "draw"}'},
    ),
    "not_an_action": Problem(
        "an `action` that is neither text nor an object",
        "an action is its text or a JSON object, not {value}",
        {"value": "42"},
    ),
}


def _read_answer(view: PlayerView, reply: Any) -> Action:
    """The action a bot's answer names, checked against the view (canonical form)."""
    if not isinstance(reply, dict) or "action" not in reply:
        raise InvalidActionError(ANSWER_PROBLEMS["not_an_answer"].say(reply=_short(reply)))
    value = reply["action"]
    if isinstance(value, str):
        action = parse_view_action(view, value)
    elif isinstance(value, dict):
        action = action_from_dict(value)
    else:
        raise InvalidActionError(ANSWER_PROBLEMS["not_an_action"].say(value=_short(value)))
    return view.check(action)


# -- games ------------------------------------------------------------------------------


def finish_game(game: Game, players: Sequence[object]) -> None:
    """Tell every player that listens (a :class:`SubprocessPlayer`) that ``game`` is over."""
    if not game.is_over:
        raise ValueError("the game is not over yet")
    scores = [seat.score for seat in game.seats]
    for player in players:
        hook = getattr(player, "game_over", None)
        if callable(hook):
            hook(game.winners, scores)
