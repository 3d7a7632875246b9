"""Whether a learned value makes the expert stronger: the expert's search values each
play-out's hand end by a fixed sum (its phase counts 1, its opponents' -1 between them,
points a little, the game won 10; :class:`phase10.search.expert.Weights`). Here it values
it by the chance of winning the game from there instead, learned from greedy self-play.

    python -m benchmarks.expert_value table --games 30000 [--players 4]
    python -m benchmarks.expert_value play --first 0 --games 300 [--match vs-strong]

``table`` plays greedy games (heads-up, or of ``--players``) in the kernel and counts, at
the start of every hand, who went on to win: by a player's phases completed, the most any
opponent has, and the player's score less the lowest of theirs (25-point steps), each
cell shrunk toward the cell of the same lead in phases and the same stage, and that toward
the lead alone. It writes ``benchmarks/results/win-chances-Np.npy``. ``play`` plays the
expert valuing hand ends by that table (a hand that ends the game: by who won it) on the
games of one of ``python -m benchmarks.bench_expert``'s matches (``hu``, heads-up against
greedy, by default; ``vs-strong``; ``4p``; ``--first`` and ``--games`` pick them), keeps
each game in ``benchmarks/results/expert-value-MATCH-seed7.jsonl`` and compares game for
game with the expert's own, where ``bench_expert`` kept them.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

import phase10.sim.tournament as tournament
from phase10.bots import Player
from phase10.core import Game, PlayerView, Rules
from phase10.kernel import KernelGame
from phase10.search import ExpertPlayer
from phase10.sim.stats import mean_interval

from .bench_expert import RESULTS, SEED

#: the score differences' steps: 16 of 25 points, from -200 and less to 175 and more
STEP, STEPS = 25, 16
#: how many games a cell's count is shrunk by, toward the coarser cell's chance
SHRINK = 20.0
#: the deals of ``table``'s games (none of them a deal the matches play)
TABLE_SEED = 100_000


def step(difference: NDArray[np.int64] | int) -> NDArray[np.int64]:
    """The table's step for a score difference (mine less theirs).

    >>> step(np.array([-1000, -25, -1, 0, 24, 25, 1000])).tolist()
    [0, 7, 7, 8, 8, 9, 15]
    """
    return np.clip(np.floor_divide(difference, STEP), -STEPS // 2, STEPS // 2 - 1) + STEPS // 2


Row = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def hand_starts(players: int, games: int, seed: int) -> list[Row]:
    """(phases completed, scores, the game's winners) at every hand's start of ``games``
    greedy games of ``players`` played in the kernel."""
    rows: list[Row] = []
    for number in range(games):
        game = Game(players, seed=seed + number)
        play = KernelGame(game)
        rngs = [random.Random((seed + number) * 10 + s) for s in range(players)]
        starts = [((0,) * players, (0,) * players)]
        winners: tuple[int, ...] = ()
        while not play.is_over:
            seat = play.current
            for event in play.apply(play.greedy_action(seat, rngs[seat])):
                if event[0] == 13:  # the hand's end: totals, then phases completed
                    starts.append((tuple(event[7]), tuple(event[5])))
                elif event[0] == 15:  # the game's end
                    winners = tuple(event[1])
        rows += [(phases, scores, winners) for phases, scores in starts[:-1]]
    return rows


def fit(rows: list[Row], players: int) -> NDArray[np.float64]:
    """The win chances [mine, the best opponent's, step] of every seat's hand starts: by
    its phases completed, the most any opponent has, and its score less the lowest of its
    opponents'. Each cell is shrunk toward (lead, stage, step) and that toward (lead,
    step)."""
    count: Counter[tuple[int, ...]] = Counter()
    won: dict[tuple[int, ...], float] = defaultdict(float)
    for phases, scores, winners in rows:
        for me in range(players):
            others = [seat for seat in range(players) if seat != me]
            mine, theirs = min(phases[me], 9), min(max(phases[s] for s in others), 9)
            at = int(step(scores[me] - min(scores[s] for s in others)))
            lead = max(-3, min(3, mine - theirs))
            for key in ((lead, at), (lead, max(mine, theirs), at), (mine, theirs, at, 0)):
                count[key] += 1
                won[key] += (me in winners) / len(winners)
    table = np.zeros((10, 10, STEPS))
    for mine in range(10):
        for theirs in range(10):
            lead = max(-3, min(3, mine - theirs))
            for at in range(STEPS):
                chance = (won[lead, at] + 5 / players) / (count[lead, at] + 5)
                for key in ((lead, max(mine, theirs), at), (mine, theirs, at, 0)):
                    chance = (won[key] + SHRINK * chance) / (count[key] + SHRINK)
                table[mine, theirs, at] = chance
    return table


class ChanceExpert(ExpertPlayer):
    """The expert, valuing a hand's end by the chance of winning the game from there."""

    def __init__(self, rng: random.Random, table: NDArray[np.float64]) -> None:
        super().__init__(rng)
        self.table = table

    def _values(self, results: NDArray[np.int32], view: PlayerView, me: int) -> NDArray[np.float64]:
        others = [seat for seat in range(len(view.seats)) if seat != me]
        mine = np.minimum(results[..., me, 0], 9)
        theirs = np.minimum(results[..., others, 0].max(axis=-1), 9)
        lowest = results[..., others, 1].min(axis=-1)
        chance = self.table[mine, theirs, step(results[..., me, 1] - lowest)]
        won = results[..., 2].astype(np.float64)
        over = won.sum(axis=-1) > 0
        share = won[..., me] / np.maximum(won.sum(axis=-1), 1.0)
        value: NDArray[np.float64] = np.where(over, share, chance)
        return value


#: the matches ``play`` plays: name (as ``bench_expert`` names it) to the bots
MATCHES = {"hu": "expert,greedy", "vs-strong": "expert,strong", "4p": "expert,greedy,greedy,greedy"}


def table_path(players: int) -> Path:
    """Where ``table`` keeps the win chances of games of ``players``."""
    return RESULTS / f"win-chances-{players}p.npy"


def play(first: int, games: int, match: str = "hu") -> None:
    """Play ``match``'s games ``first`` on, keeping each, and compare."""
    bots = MATCHES[match]
    table = np.load(table_path(len(bots.split(","))))
    path = RESULTS / f"expert-value-{match}-seed{SEED}.jsonl"
    real = tournament.make_player  # type: ignore[attr-defined]

    def make_player(spec: str, rng: random.Random, **options: Any) -> Player:
        return ChanceExpert(rng, table) if spec == "expert" else real(spec, rng, **options)

    tournament.make_player = make_player  # type: ignore[attr-defined]  # (the plan's expert)
    specs = tournament.check_bots(bots, None)
    plans = tournament.plan_games(len(specs), first + games, SEED)
    kept = _kept(path)
    with path.open("a") as out:
        for plan in plans[first:]:
            if plan.index in kept:
                continue
            summary = tournament.play_planned(plan, specs, Rules())
            kept[plan.index] = (0 in summary.winners) / len(summary.winners)
            out.write(json.dumps({"game": plan.index, "first_wins": kept[plan.index]}) + "\n")
            out.flush()
    expert = _kept(RESULTS / f"expert-{match}-seed{SEED}.jsonl")
    mine = [number for number in range(first, first + games) if number in kept]
    print(f"the expert valuing by win chances: {_share(kept, mine)}")
    both = [number for number in mine if number in expert]
    if both:
        mean, half = mean_interval(kept[number] - expert[number] for number in both)
        print(f"the expert on the same games: {_share(expert, both)}")
        print(f"game for game: {100 * mean:+.1f} ± {100 * half:.1f} in 100")


def _kept(path: Path) -> dict[int, float]:
    if not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    return {row["game"]: row["first_wins"] for row in rows}


def _share(wins: dict[int, float], games: list[int]) -> str:
    return f"{sum(wins[number] for number in games) / len(games):.1%} of {len(games)} games"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("table", "play"))
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--match", choices=sorted(MATCHES), default="hu")
    parser.add_argument("--players", type=int, choices=(2, 4), default=2, help="(table)")
    args = parser.parse_args(argv)
    games = (30_000 if args.what == "table" else 300) if args.games is None else args.games
    if games < 1 or args.first < 0:
        parser.error("--games must be at least 1 and --first at least 0")
    RESULTS.mkdir(exist_ok=True)
    if args.what == "table":
        rows = hand_starts(args.players, games, TABLE_SEED)
        np.save(table_path(args.players), fit(rows, args.players))
        print(f"{len(rows)} hand starts of {games} games: {table_path(args.players)}")
    elif not table_path(len(MATCHES[args.match].split(","))).exists():
        players = len(MATCHES[args.match].split(","))
        parser.error(f"no table of win chances for {players} players: make it with `table`")
    else:
        play(args.first, games, args.match)


if __name__ == "__main__":
    main()
