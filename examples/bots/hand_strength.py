"""How much better a bot plays a hand than greedy does, on the same deals.

Each hand is a fresh deal with every player on a random phase (1-10). The bot under
test takes one seat, greedy bots the others, and the hand is played to its end; then
the same deal is played again with greedy in the bot's seat. The bot's edge is how much
more often it lays its phase down than its opponents do, less the same for greedy in
its place. A hand says far less than a game, but costs a fifteenth of one, so a few
thousand hands tell bots apart that a tournament needs thousands of games for:

    python examples/bots/hand_strength.py strong:4 --hands 3000 --players 2 --jobs 2

prints, for the bot and for greedy in its seat, the share of hands in which it laid
its phase down, the share for its opponents, the gap between them (with a 95%
interval), how often it went out and the points it was left holding less its opponents'
(with a 95% interval); then the bot's edge over greedy in both. ``--by-phase`` adds,
for each phase the seat under test was dealt, how often the bot and greedy in its seat
laid it down, and the difference.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from phase10.bots import make_player
from phase10.core import Arrangement, Game, HandEnded, full_deck
from phase10.solver.blas import set_blas_threads, single_blas_thread

HAND_SIZE = 10


@dataclass(frozen=True)
class HandResult:
    """One hand from the seat under test: laid its phase, share of opponents who did, out,
    points left."""

    laid: bool
    opponents: float
    went_out: bool
    #: points the seat was left holding, less the mean of its opponents'
    points: float


def deal(seed: int, players: int) -> tuple[Arrangement, int]:
    """The hand's deal (every player on a random phase) and the seat under test."""
    rng = random.Random(seed)
    deck = full_deck()
    rng.shuffle(deck)
    hands = tuple(tuple(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(players))
    rest = deck[players * HAND_SIZE :]
    phases = tuple(rng.randint(1, 10) for _ in range(players))
    arrangement = Arrangement(hands=hands, discard=(rest[0],), draw=tuple(rest[1:]), phases=phases)
    return arrangement, seed % players


def play_hand(bot: str, seed: int, players: int) -> HandResult:
    """Play one hand of deal ``seed`` with ``bot`` in the seat under test."""
    arrangement, test = deal(seed, players)
    game = Game(players, seed=seed, arrangement=arrangement)
    seats = [
        make_player(bot if seat == test else "greedy", random.Random(seed * 10 + seat))
        for seat in range(players)
    ]
    while True:
        seat = game.current
        for event in game.apply(seats[seat].choose(game.view(seat))):
            if isinstance(event, HandEnded):
                others = [s for s in range(players) if s != test]
                points = [p or 0 for p in event.points]
                return HandResult(
                    laid=test in event.advanced,
                    opponents=sum(s in event.advanced for s in others) / len(others),
                    went_out=event.went_out == test,
                    points=points[test] - sum(points[s] for s in others) / len(others),
                )


def _job(args: tuple[str, int, int]) -> HandResult:
    return play_hand(*args)


def measure(bot: str, hands: int, players: int, seed: int, jobs: int) -> list[HandResult]:
    """``hands`` hands from deal ``seed`` on, with ``bot`` in the seat under test."""
    work = [(bot, seed + i, players) for i in range(hands)]
    if jobs <= 1:
        with single_blas_thread():  # the strong bot's small matrix products
            return [_job(item) for item in work]
    with ProcessPoolExecutor(jobs, initializer=set_blas_threads, initargs=(1,)) as pool:
        return list(pool.map(_job, work, chunksize=8))


def mean_ci95(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95% interval."""
    return statistics.fmean(values), 1.96 * statistics.pstdev(values) / math.sqrt(len(values))


def summary(results: list[HandResult]) -> dict[str, float]:
    """Shares over the hands, and the gap (laid minus opponents) with its 95% half-width."""
    gap, gap_ci95 = mean_ci95([r.laid - r.opponents for r in results])
    points, points_ci95 = mean_ci95([r.points for r in results])
    return {
        "laid": statistics.fmean(r.laid for r in results),
        "opponents": statistics.fmean(r.opponents for r in results),
        "gap": gap,
        "gap_ci95": gap_ci95,
        "went_out": statistics.fmean(r.went_out for r in results),
        "points": points,
        "points_ci95": points_ci95,
    }


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bot", help="the bot to measure: random, greedy, strong:1 ... strong:4")
    parser.add_argument("--hands", type=int, default=3000, help="hands to deal (default 3000)")
    parser.add_argument("--players", type=int, default=2, help="players, 2 to 6 (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--by-phase", action="store_true", help="break the lay-down rates down by phase"
    )
    args = parser.parse_args(argv)
    if args.hands < 1 or not 2 <= args.players <= 6 or args.jobs < 1:
        parser.error("--hands and --jobs are at least 1, --players from 2 to 6")
    try:
        make_player(args.bot, random.Random(0))
    except ValueError as error:
        parser.error(str(error))
    found: dict[str, dict[str, float]] = {}
    paired: dict[str, list[HandResult]] = {}
    for name in dict.fromkeys([args.bot, "greedy"]):
        paired[name] = measure(name, args.hands, args.players, args.seed, args.jobs)
        found[name] = row = summary(paired[name])
        print(
            f"{name:10} laid {row['laid']:.3f}  opponents {row['opponents']:.3f}  "
            f"gap {row['gap']:+.3f} ± {row['gap_ci95']:.3f}  went out {row['went_out']:.3f}  "
            f"points {row['points']:+.1f} ± {row['points_ci95']:.1f}"
        )
    if args.bot != "greedy":
        pairs = list(zip(paired[args.bot], paired["greedy"], strict=True))
        gap, gap_ci95 = mean_ci95(
            [(a.laid - a.opponents) - (b.laid - b.opponents) for a, b in pairs]
        )
        points, points_ci95 = mean_ci95([a.points - b.points for a, b in pairs])
        found["edge"] = {
            "gap": gap,
            "gap_ci95": gap_ci95,
            "points": points,
            "points_ci95": points_ci95,
        }
        print(
            f"edge over greedy, same deals: {gap:+.3f} ± {gap_ci95:.3f}, "
            f"points {points:+.1f} ± {points_ci95:.1f}"
        )
        if args.by_phase:
            found.update(by_phase(pairs, args.seed, args.players, args.bot))
    return found


def by_phase(
    pairs: list[tuple[HandResult, HandResult]], seed: int, players: int, bot: str
) -> dict[str, dict[str, float]]:
    """For each phase the seat under test was dealt: the hands, the share of them in which
    the bot and greedy in its seat laid it down, and the difference with its 95% half-width.
    """
    rows: dict[int, list[tuple[HandResult, HandResult]]] = {}
    for offset, pair in enumerate(pairs):
        arrangement, seat = deal(seed + offset, players)
        rows.setdefault(arrangement.phases[seat], []).append(pair)
    found: dict[str, dict[str, float]] = {}
    print(f"{'phase':>5} {'hands':>6} {bot:>10} {'greedy':>7}  difference")
    for phase in sorted(rows):
        hands = rows[phase]
        laid = statistics.fmean(a.laid for a, _ in hands)
        greedy_laid = statistics.fmean(b.laid for _, b in hands)
        difference, ci95 = mean_ci95([a.laid - b.laid for a, b in hands])
        found[f"phase {phase}"] = {
            "hands": len(hands),
            "laid": laid,
            "greedy_laid": greedy_laid,
            "difference": difference,
            "difference_ci95": ci95,
        }
        print(
            f"{phase:5} {len(hands):6} {laid:10.3f} {greedy_laid:7.3f}  "
            f"{difference:+.3f} ± {ci95:.3f}"
        )
    return found


if __name__ == "__main__":
    main()
