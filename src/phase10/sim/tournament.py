"""Tournaments: many seeded games between bots, with seats rotated and deals duplicated.

Every game is fixed by the master seed and its index, so a tournament gives the same
result however many worker processes (or Ray nodes) play it:

>>> from phase10.core import Rules
>>> result = run_tournament(["greedy", "random"], games=4, rules=Rules(phases=(1,)), seed=1)
>>> result.duplicate, result.rotations, [entry.name for entry in result.entries]
(True, 2, ['greedy', 'random'])
>>> [game.seating for game in result.games]
[(0, 1), (1, 0), (0, 1), (1, 0)]
>>> sum(entry.wins for entry in result.entries)
4.0

Seat rotation: game ``g`` seats entry ``e`` at seat ``(e + g) % players``, so every
entry sits in every seat equally often when ``games`` is a multiple of ``players``.
Duplicate deals: the ``players`` games of a rotation share one game seed (the same
cards dealt to the same seats, the same dealer), so each entry plays every seat's
cards of every deal once and the luck of the deal cancels out.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phase10.bots import GameTooLongError, Player, make_player, parse_bot_list, play_game
from phase10.bots.program import BotError, BotStartError
from phase10.bots.simple import MAX_ACTIONS
from phase10.core import MAX_PLAYERS, MIN_PLAYERS, Event, Game, GameRecord, Rules, dumps
from phase10.solver.blas import single_blas_thread

from .kernel_play import kernel_greedy, play_greedy_game
from .ray_backend import run_on_ray
from .stats import ELO_SCALE, RATING_ANCHOR, fit_ratings, pairwise_wins, places, wilson_interval
from .workers import as_finished

__all__ = [
    "BACKENDS",
    "EntryStats",
    "GamePlan",
    "GameSummary",
    "TournamentResult",
    "entry_names",
    "plan_games",
    "play_chunk",
    "play_planned",
    "run_tournament",
    "simulate",
]

#: Where games can be played: worker processes on this machine, or a Ray cluster.
BACKENDS = ("process", "ray")
#: the most games one tournament plays (its plans are made up front)
MAX_GAMES = 10_000_000
#: How a shared win is counted.
TIE_RULE = "a win shared by k players counts 1/k to each"
#: How the ratings are made.
RATING_METHOD = (
    "Bradley-Terry fit to every pair's finishing order in each game (winner first, then "
    "phases completed, then lower score), one virtual draw per pair as a prior; "
    f"Elo scale ({ELO_SCALE:.0f} points = 10:1 odds), mean {RATING_ANCHOR:.0f}"
)
#: the longest answer time a program bot may be given (seconds: a day)
MAX_BOT_TIMEOUT = 86_400.0
#: Chunks per worker: small enough for a smooth progress bar and an even finish.
_CHUNKS_PER_WORKER = 16
_MAX_CHUNK = 50

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class GamePlan:
    """Everything that fixes one game: its seed, who sits where and the bots' seeds."""

    index: int
    #: the deal this game plays: its duplicate set, or its own index with fresh deals
    deal: int
    seed: int
    #: the entry in each seat
    seating: tuple[int, ...]
    #: the seed of each seat's bot
    bot_seeds: tuple[int, ...]
    #: seconds a program bot (``cmd:``) has for each answer; None: its default (10)
    bot_timeout: float | None = None
    #: play the game in the compiled kernel when every seat is the plain greedy bot and
    #: the kernel plays these rules greedily (False: always the Python engine); the game
    #: is the same either way, only faster
    kernel: bool = True
    #: a directory to write the game's record to (``game-00001.json`` for game 1), for
    #: ``phase10 review`` and ``replay``; None: not kept
    save_to: str | None = None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """How one game went. ``scores``, ``phases`` and ``winners`` speak of entries, not seats."""

    index: int
    deal: int
    seed: int
    seating: tuple[int, ...]
    winners: tuple[int, ...]
    #: final total score of each entry
    scores: tuple[int, ...]
    #: phases completed by each entry
    phases: tuple[int, ...]
    hands: int
    actions: int
    seconds: float = field(default=0.0, compare=False)
    #: the CPU time the game took in the process that played it
    cpu_seconds: float = field(default=0.0, compare=False)
    #: the entry whose program bot failed (crash, bad output, timeout) and forfeited the
    #: game, which stopped there: the others are ranked as they stood, the best winning
    forfeit: int | None = None
    #: why it forfeited: the bot's error
    forfeit_reason: str = ""
    #: whether the game was played wholly in the compiled kernel (every seat greedy)
    kernel: bool = field(default=False, compare=False)

    def places(self) -> tuple[int, ...]:
        """Each entry's finishing place (0 first): winners, then phases, then lower score;
        an entry that forfeited comes last."""
        ranked = places(self.winners, self.phases, self.scores)
        if self.forfeit is None:
            return ranked
        return tuple(
            len(ranked) - 1 if entry == self.forfeit else place
            for entry, place in enumerate(ranked)
        )

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        return {
            "index": self.index,
            "deal": self.deal,
            "seed": self.seed,
            "seating": [names[entry] for entry in self.seating],
            "winners": [names[entry] for entry in self.winners],
            "scores": list(self.scores),
            "phases": list(self.phases),
            "hands": self.hands,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
            "forfeit": None if self.forfeit is None else names[self.forfeit],
            "forfeit_reason": self.forfeit_reason or None,
        }


@dataclass(frozen=True, slots=True)
class EntryStats:
    """The record of one entry (or of every entry of one bot)."""

    name: str
    bot: str
    #: games played; for a bot, the games of all its entries together (seat-games)
    games: int
    #: wins, a shared win counting 1/k
    wins: float
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float
    mean_phases: float
    mean_hands: float
    rating: float
    #: games forfeited (its program bot failed)
    forfeits: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "bot": self.bot,
            "games": self.games,
            "wins": round(self.wins, 6),
            "win_rate": round(self.win_rate, 6),
            "ci95": [round(self.ci_low, 6), round(self.ci_high, 6)],
            "mean_score": round(self.mean_score, 3),
            "mean_phases": round(self.mean_phases, 3),
            "mean_hands": round(self.mean_hands, 3),
            "rating": round(self.rating, 1),
            "forfeits": self.forfeits,
        }


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A tournament's settings, every game and the statistics.

    Equal results compare equal whatever ``jobs`` and ``backend`` played them (the
    timings are not compared).
    """

    bots: tuple[str, ...]
    players: int
    rules: Rules
    seed: int
    rotate: bool
    duplicate: bool
    #: entries, in the order of ``bots``: one per seat, same bots numbered ("greedy#2")
    entries: tuple[EntryStats, ...]
    #: one line per distinct bot, all its entries together
    by_bot: tuple[EntryStats, ...]
    games: tuple[GameSummary, ...]
    jobs: int = field(default=1, compare=False)
    backend: str = field(default="process", compare=False)
    seconds: float = field(default=0.0, compare=False)

    @property
    def rotations(self) -> int:
        """How many seatings the games cycle through (1 without rotation)."""
        return self.players if self.rotate else 1

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(entry.name for entry in self.entries)

    @property
    def mean_hands(self) -> float:
        return _mean(game.hands for game in self.games)

    @property
    def mean_actions(self) -> float:
        return _mean(game.actions for game in self.games)

    @property
    def forfeits(self) -> tuple[GameSummary, ...]:
        """The games an entry forfeited, in order."""
        return tuple(game for game in self.games if game.forfeit is not None)

    @property
    def kernel_games(self) -> int:
        """How many games were played wholly in the compiled kernel (every seat greedy)."""
        return sum(1 for game in self.games if game.kernel)

    @property
    def games_per_second(self) -> float:
        return len(self.games) / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The whole result, JSON-ready."""
        names = self.names
        return {
            "settings": {
                "bots": list(self.bots),
                "entries": list(names),
                "games": len(self.games),
                "players": self.players,
                "seed": self.seed,
                "rules": self.rules.to_dict(),
                "backend": self.backend,
                "jobs": self.jobs,
                "rotate": self.rotate,
                "rotations": self.rotations,
                "duplicate": self.duplicate,
            },
            "ties": TIE_RULE,
            "rating_method": RATING_METHOD,
            "entries": [entry.to_dict() for entry in self.entries],
            "bots": [bot.to_dict() for bot in self.by_bot],
            "mean_hands": round(self.mean_hands, 3),
            "mean_actions": round(self.mean_actions, 3),
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 3),
            "kernel_games": self.kernel_games,
            "games": [game.to_dict(names) for game in self.games],
        }


# -- planning ----------------------------------------------------------------------------


def _derive(*parts: object) -> int:
    """A 63-bit seed from the parts' text: stable across runs, processes and platforms."""
    return random.Random(":".join(map(str, ("phase10", *parts)))).getrandbits(63)


def plan_games(
    entries: int,
    games: int,
    seed: int,
    *,
    rotate: bool = True,
    duplicate: bool = True,
    bot_timeout: float | None = None,
    kernel: bool = True,
    save_to: str | None = None,
) -> list[GamePlan]:
    """The plan of every game: game ``g`` is fixed by ``seed`` and ``g`` alone.

    With ``rotate`` game ``g`` uses seating rotation ``g % entries``; with ``duplicate``
    (which needs ``rotate``) the ``entries`` games of a rotation cycle share a deal.

    >>> [(p.deal, p.seating) for p in plan_games(3, 4, seed=0)]
    [(0, (0, 1, 2)), (0, (2, 0, 1)), (0, (1, 2, 0)), (1, (0, 1, 2))]
    >>> len({p.seed for p in plan_games(3, 3, seed=0)}), len({p.seed for p in plan_games(3, 3, 0, duplicate=False)})
    (1, 3)
    """
    if entries < 1:
        raise ValueError(f"a game needs at least 1 entry, not {entries}")
    plans = []
    for index in range(games):
        shift = index % entries if rotate else 0
        deal = index // entries if rotate and duplicate else index
        seating = tuple((seat - shift) % entries for seat in range(entries))
        plans.append(
            GamePlan(
                index=index,
                deal=deal,
                seed=_derive(seed, "deal", deal),
                seating=seating,
                bot_seeds=tuple(_derive(seed, "game", index, "seat", s) for s in range(entries)),
                bot_timeout=bot_timeout,
                kernel=kernel,
                save_to=save_to,
            )
        )
    return plans


def entry_names(bots: Sequence[str]) -> list[str]:
    """A name per entry: the bot's spec, numbered when it appears more than once.

    >>> entry_names(["strong", "greedy", "greedy"])
    ['strong', 'greedy#1', 'greedy#2']
    """
    counts = Counter(bots)
    seen: Counter[str] = Counter()
    names = []
    for bot in bots:
        seen[bot] += 1
        names.append(f"{bot}#{seen[bot]}" if counts[bot] > 1 else bot)
    return names


# -- playing -----------------------------------------------------------------------------


def play_planned(
    plan: GamePlan,
    bots: Sequence[str],
    rules: Rules,
    on_events: Callable[[list[Event]], None] | None = None,
) -> GameSummary:
    """Play one planned game to its end. ``bots`` are the entries' specs, in entry order.

    ``on_events`` receives the events of the deal and then of every action. Unless
    ``plan.kernel`` is False the greedy bots choose in the compiled kernel where it plays
    them exactly, and a game of greedy bots only (without ``on_events``) is played there
    whole (see :mod:`phase10.sim.kernel_play`): the same game, only faster. A program bot
    that fails (:class:`~phase10.bots.protocol.BotError`: a crash, bad output, a timeout)
    forfeits the game, which stops there; one that cannot be started at all stops the
    tournament (:class:`~phase10.bots.protocol.BotStartError`).
    """
    start, cpu_start = time.perf_counter(), time.process_time()
    names = entry_names(bots)  # (a record names its players; the deal is the same)
    game = Game([names[entry] for entry in plan.seating], rules=rules, seed=plan.seed)
    players: list[Player] = [
        make_player(bots[entry], random.Random(bot_seed), bot_timeout=plan.bot_timeout)
        for entry, bot_seed in zip(plan.seating, plan.bot_seeds, strict=True)
    ]
    forfeit: tuple[int, str] | None = None  # (seat, reason)
    played = None
    if plan.kernel and on_events is None and plan.save_to is None:  # (keeps no history)
        played = play_greedy_game(game, players, MAX_ACTIONS)
    if played is not None:  # greedy bots only: no program bot to tell or close
        return _summary(plan, *played, start=start, cpu_start=cpu_start, kernel=True)
    try:
        if on_events is not None:
            on_events(list(game.history))
        try:
            seated = kernel_greedy(game, players) if plan.kernel else players
            play_game(game, seated, on_events)
        except GameTooLongError as error:
            raise GameTooLongError(f"game {plan.index + 1} (seed {plan.seed}): {error}") from None
        except BotStartError:
            raise
        except BotError as error:
            forfeit = (game.current, str(error))
        if forfeit is None:
            final = [seat.score for seat in game.seats]
            for player in players:  # a program bot hears the game is over before it quits
                game_over = getattr(player, "game_over", None)
                if callable(game_over):
                    game_over(game.winners, final)
    finally:
        for player in players:
            close = getattr(player, "close", None)
            if callable(close):
                close()
    if plan.save_to is not None:  # (a forfeited game too, as far as it went)
        tags = {"event": "phase10 tournament", "game": str(plan.index + 1)}
        saved = Path(plan.save_to) / f"game-{plan.index + 1:05d}.json"
        saved.write_text(dumps(GameRecord.from_game(game, tags)), encoding="utf-8")
    return _summary(
        plan, game, len(game.actions), start=start, cpu_start=cpu_start, forfeit=forfeit
    )


def _summary(
    plan: GamePlan,
    game: Game,
    actions: int,
    *,
    start: float,
    cpu_start: float,
    forfeit: tuple[int, str] | None = None,
    kernel: bool = False,
) -> GameSummary:
    """The summary of a game played to ``game``'s position in ``actions`` actions (or
    stopped by a forfeit: the forfeiting seat and its reason)."""
    seat_of = {entry: seat for seat, entry in enumerate(plan.seating)}
    entries = range(len(plan.seating))
    scores = tuple(game.seats[seat_of[e]].score for e in entries)
    phases = tuple(len(game.seats[seat_of[e]].completed) for e in entries)
    if forfeit is None:
        winners = tuple(sorted(plan.seating[seat] for seat in game.winners))
    else:
        loser = plan.seating[forfeit[0]]
        standing = {e: (-phases[e], scores[e]) for e in entries if e != loser}
        best = min(standing.values())
        winners = tuple(e for e in entries if standing.get(e) == best)
    return GameSummary(
        index=plan.index,
        deal=plan.deal,
        seed=plan.seed,
        seating=plan.seating,
        winners=winners,
        scores=scores,
        phases=phases,
        hands=game.hand_number,
        actions=actions,
        seconds=time.perf_counter() - start,
        cpu_seconds=time.process_time() - cpu_start,
        forfeit=None if forfeit is None else plan.seating[forfeit[0]],
        forfeit_reason="" if forfeit is None else forfeit[1],
        kernel=kernel,
    )


def play_chunk(bots: Sequence[str], rules: Rules, plans: Sequence[GamePlan]) -> list[GameSummary]:
    """Play several planned games (the unit of work a worker process or Ray task gets)."""
    with single_blas_thread():  # the strong bot's checks: see phase10.solver.blas
        return [play_planned(plan, bots, rules) for plan in plans]


def chunked(plans: Sequence[GamePlan], workers: int) -> list[list[GamePlan]]:
    """Split the plans into chunks, several per worker, in order."""
    size = max(1, min(_MAX_CHUNK, math.ceil(len(plans) / (workers * _CHUNKS_PER_WORKER))))
    return [list(plans[i : i + size]) for i in range(0, len(plans), size)]


def _run_in_process(
    bots: Sequence[str], rules: Rules, plans: Sequence[GamePlan], progress: Progress | None
) -> list[GameSummary]:
    results = []
    with single_blas_thread():
        for plan in plans:
            results.append(play_planned(plan, bots, rules))
            if progress is not None:
                progress(len(results))
    return results


def _process_context() -> multiprocessing.context.BaseContext:
    """Workers forked by a fresh server process (safe when this process runs threads,
    such as a progress bar's) that has phase10 loaded already; spawned where there is none.
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    return context


def _run_in_processes(
    bots: Sequence[str],
    rules: Rules,
    plans: Sequence[GamePlan],
    workers: int,
    progress: Progress | None,
) -> list[GameSummary]:
    context = _process_context()
    results: list[GameSummary] = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        chunks = ((tuple(bots), rules, chunk) for chunk in chunked(plans, workers))
        try:
            for summaries in as_finished(pool, play_chunk, chunks, workers=workers):
                results.extend(summaries)
                if progress is not None:
                    progress(len(results))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return results


# -- the tournament ----------------------------------------------------------------------


def check_bots(bots: Sequence[str] | str, players: int | None) -> tuple[str, ...]:
    """The entries' bot specs, checked; ``players`` (if given) must match their number.

    Raises :class:`ValueError` with a message for the user.

    >>> check_bots("greedy, random", None)
    ('greedy', 'random')
    >>> check_bots(["greedy", "random"], 3)
    Traceback (most recent call last):
    ...
    ValueError: 2 bots for 3 players: name one bot per seat, e.g. greedy,random,random
    """
    if not isinstance(bots, str) and not (
        isinstance(bots, Sequence) and all(isinstance(bot, str) for bot in bots)
    ):
        raise ValueError(
            f"bots are named by text, 'strong,greedy' or a list of names, not {bots!r}"
        )
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise ValueError(f"players is a whole number, not {players!r}")
    specs = tuple(parse_bot_list(bots if isinstance(bots, str) else ",".join(bots)))
    if not isinstance(bots, str) and len(specs) != len(bots):
        raise ValueError(f"each bot is one name without commas, not {list(bots)!r}")
    if players is not None and not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if players is not None and players != len(specs):
        example = ",".join([*specs, *[specs[-1]] * max(0, players - len(specs))][:players])
        raise ValueError(
            f"{len(specs)} bots for {players} players: name one bot per seat, e.g. {example}"
        )
    if not MIN_PLAYERS <= len(specs) <= MAX_PLAYERS:
        raise ValueError(
            f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players: name that many bots, "
            f"not {len(specs)}"
        )
    for spec in set(specs):
        if not spec.lower().startswith("cmd:"):
            make_player(spec, random.Random(0))  # fails here, not in a worker
    return specs


def run_tournament(
    bots: Sequence[str] | str,
    *,
    games: int,
    players: int | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    rotate: bool = True,
    duplicate: bool = True,
    progress: Progress | None = None,
    bot_timeout: float | None = None,
    kernel: bool = True,
    save_to: str | os.PathLike[str] | None = None,
) -> TournamentResult:
    """Play ``games`` games between the ``bots`` (one entry per seat) and sum them up.

    ``bots`` are specs for :func:`~phase10.bots.make_player` (a list, or text like
    ``"strong,greedy,greedy"``); ``players``, if given, must equal their number.
    Seats rotate from game to game (``rotate``); ``duplicate`` replays each deal in
    every seating, used when ``games`` is a multiple of the number of seatings (the
    result's ``duplicate`` says whether it was). ``jobs`` worker processes play the
    games (1: in this process; 0: one per CPU); ``backend="ray"`` plays them as Ray
    tasks on the cluster at ``address`` (None: a local Ray instance of ``jobs`` CPUs).
    ``progress`` is called with the number of games finished so far as they finish.
    ``bot_timeout`` is the seconds a program bot (``cmd:``) has for each answer (None:
    10). A program bot that fails forfeits that game (:attr:`GameSummary.forfeit`) and
    the tournament goes on. ``kernel``: the greedy bots choose in the compiled kernel where
    it plays them exactly, whole games of greedy bots only running there (False: the
    Python bots everywhere, to compare or time them); the result is the same either way.
    ``save_to``: a directory (made if need be) where each game's record is written,
    ``game-00001.json`` for the first, as ``phase10 review`` and ``replay`` read them
    (the process backend only: Ray's workers may run on other machines).

    Raises :class:`ValueError` for bad settings.
    """
    specs = check_bots(bots, players)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"play at least 1 game, not {games!r}")
    if games > MAX_GAMES:
        raise ValueError(f"play at most {MAX_GAMES:,} games, not {games:,}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise ValueError(f"jobs is a number of worker processes (0: one per CPU), not {jobs!r}")
    if backend not in BACKENDS:
        raise ValueError(f"the backend is one of {', '.join(BACKENDS)}, not {backend!r}")
    if address is not None and not address.strip():
        raise ValueError("the Ray address is empty: give host:port, ray://host:port or auto")
    if address is not None and backend != "ray":
        raise ValueError("an address is for the Ray backend (backend='ray')")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the seed must be a whole number, not {seed!r}")
    if bot_timeout is not None and (
        isinstance(bot_timeout, bool)
        or not isinstance(bot_timeout, (int, float))
        or not 0 < bot_timeout <= MAX_BOT_TIMEOUT
    ):
        raise ValueError(
            f"the bot timeout is a number of seconds above 0, at most {MAX_BOT_TIMEOUT:g}, "
            f"not {bot_timeout!r}"
        )
    rules = rules if rules is not None else Rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules object (see preset()), not {rules!r}")
    folder = None if save_to is None else _record_folder(save_to, backend)
    count = len(specs)
    duplicate = duplicate and rotate and games % count == 0
    plans = plan_games(
        count,
        games,
        seed,
        rotate=rotate,
        duplicate=duplicate,
        bot_timeout=bot_timeout,
        kernel=bool(kernel),
        save_to=folder,
    )
    workers = jobs or os.cpu_count() or 1
    start = time.perf_counter()
    if backend == "ray":
        chunks = chunked(plans, workers)
        summaries = run_on_ray(
            play_chunk, specs, rules, chunks, jobs=jobs, address=address, progress=progress
        )
    elif workers == 1 or games == 1:
        workers = 1
        summaries = _run_in_process(specs, rules, plans, progress)
    else:
        workers = min(workers, games)
        summaries = _run_in_processes(specs, rules, plans, workers, progress)
    seconds = time.perf_counter() - start
    summaries.sort(key=lambda summary: summary.index)
    return summarize(
        specs,
        summaries,
        rules=rules,
        seed=seed,
        rotate=rotate,
        duplicate=duplicate,
        jobs=workers,
        backend=backend,
        seconds=seconds,
    )


def _record_folder(save_to: str | os.PathLike[str], backend: str) -> str:
    """The directory the games' records go to, made if need be; ValueError if it cannot be."""
    if backend == "ray":
        raise ValueError("saving games is for the process backend: Ray's workers may be elsewhere")
    folder = Path(save_to)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot keep the games in {str(folder)!r}: {error.strerror}") from None
    return str(folder.resolve())


def simulate(
    bots: Sequence[str] | str,
    *,
    games: int,
    rules: Rules | None = None,
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
) -> TournamentResult:
    """Plain games: the bots keep their seats and every game is a fresh deal.

    >>> from phase10.core import Rules
    >>> result = simulate("greedy,random", games=3, rules=Rules(phases=(1,)), seed=2)
    >>> result.rotations, result.duplicate, {game.seating for game in result.games}
    (1, False, {(0, 1)})
    """
    return run_tournament(
        bots,
        games=games,
        rules=rules,
        seed=seed,
        jobs=jobs,
        rotate=False,
        duplicate=False,
        progress=progress,
    )


def summarize(
    bots: Sequence[str],
    games: Sequence[GameSummary],
    *,
    rules: Rules,
    seed: int,
    rotate: bool,
    duplicate: bool,
    jobs: int = 1,
    backend: str = "process",
    seconds: float = 0.0,
) -> TournamentResult:
    """The statistics of played games (in index order), as a :class:`TournamentResult`."""
    names = entry_names(bots)
    distinct = list(dict.fromkeys(bots))
    bot_index = [distinct.index(bot) for bot in bots]
    rankings = [game.places() for game in games]
    entry_ratings = fit_ratings(
        pairwise_wins(len(bots), ([(e, p) for e, p in enumerate(r)] for r in rankings))
    )
    bot_ratings = fit_ratings(
        pairwise_wins(
            len(distinct), ([(bot_index[e], p) for e, p in enumerate(r)] for r in rankings)
        )
    )
    entries = tuple(
        _stats(names[e], bots[e], games, [e], entry_ratings[e]) for e in range(len(bots))
    )
    by_bot = tuple(
        _stats(
            bot,
            bot,
            games,
            [e for e in range(len(bots)) if bots[e] == bot],
            bot_ratings[b],
        )
        for b, bot in enumerate(distinct)
    )
    return TournamentResult(
        bots=tuple(bots),
        players=len(bots),
        rules=rules,
        seed=seed,
        rotate=rotate,
        duplicate=duplicate,
        entries=entries,
        by_bot=by_bot,
        games=tuple(games),
        jobs=jobs,
        backend=backend,
        seconds=seconds,
    )


def _stats(
    name: str, bot: str, games: Sequence[GameSummary], entries: list[int], rating: float
) -> EntryStats:
    played = len(games) * len(entries)
    wins = math.fsum(1 / len(g.winners) for g in games for e in entries if e in g.winners)
    low, high = wilson_interval(wins, played)
    return EntryStats(
        name=name,
        bot=bot,
        games=played,
        wins=wins,
        win_rate=wins / played if played else 0.0,
        ci_low=low,
        ci_high=high,
        mean_score=_mean(g.scores[e] for g in games for e in entries),
        mean_phases=_mean(g.phases[e] for g in games for e in entries),
        mean_hands=_mean(g.hands for g in games for _ in entries),
        rating=rating,
        forfeits=sum(1 for g in games for e in entries if g.forfeit == e),
    )


def _mean(values: Iterable[float]) -> float:
    total = count = 0.0
    for value in values:
        total += value
        count += 1
    return total / count if count else 0.0
