"""What the expert's search could reach if it saw the hidden cards: oracles that search the
real game with the expert's candidates, play-outs and values, against greedy bots.

    python -m benchmarks.expert_oracle --players 4 --games 200
    python -m benchmarks.expert_oracle --players 2 --against strong --bots hands,expert

prints the win rate with its 95% Wilson interval of the oracle (every card as it lies,
the draw pile's order too), of a half oracle that sees the other hands but not the draw
order (its play-outs shuffle the draw pile afresh), and of the expert, on the same deals
and seats, the other seats greedy bots (``--against strong``: strong bots). The half oracle
bounds what better guesses of the other hands could give the expert's search; the draw
order nobody can know.
"""

from __future__ import annotations

import argparse
import random

from phase10.bots import Player, play_game
from phase10.bots.greedy import GreedyPlayer
from phase10.bots.strong import StrongPlayer
from phase10.core import Game, PlayerView
from phase10.kernel import KernelGame
from phase10.search import ExpertPlayer
from phase10.sim.stats import wilson_interval


class OracleExpert(ExpertPlayer):
    """The expert, searching the real game rather than deals that agree with its view:
    every card as it lies (``order``), or the other hands as they are and the draw pile
    shuffled afresh for each play-out."""

    def __init__(self, rng: random.Random, game: Game, *, order: bool) -> None:
        super().__init__(rng, deals=4 if order else 48, margin=0.0 if order else 1.0)
        self.game = game
        self.redeal = not order

    def _game(self, view: PlayerView) -> KernelGame:
        return KernelGame(self.game)

    def _known(self, view: PlayerView) -> list[list[int]]:
        return [[card.index for card in seat.hand] for seat in self.game.seats]


def win_rate(wins: float, games: int) -> str:
    """``wins`` of ``games`` as a share with its 95% Wilson interval, as these benchmarks
    print it.

    >>> win_rate(150, 200)
    '75.0% (68.6%-80.5%) of 200 games'
    """
    low, high = wilson_interval(wins, games)
    return f"{wins / games:.1%} ({low:.1%}-{high:.1%}) of {games} games"


def play(bot: str, players: int, games: range, seed: int, against: str = "greedy") -> float:
    """Wins of ``bot`` (``oracle``, ``hands`` or ``expert``) in seat g % players of each
    game g, the other seats ``against`` (``greedy`` or ``strong``)."""
    other = GreedyPlayer if against == "greedy" else StrongPlayer
    wins = 0.0
    for number in games:
        deal = seed + number // players
        game = Game(players, seed=deal)
        seat = number % players
        seats: list[Player] = [other(random.Random(deal * 10 + s)) for s in range(players)]
        rng = random.Random(deal)
        if bot == "expert":
            seats[seat] = ExpertPlayer(rng)
        else:
            seats[seat] = OracleExpert(rng, game, order=bot == "oracle")
        play_game(game, seats)
        if seat in game.winners:
            wins += 1 / len(game.winners)
    return wins


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument(
        "--bots",
        default="oracle,hands,expert",
        help="which to play: oracle (sees every card and the draw order), hands (sees the "
        "other hands, not the draw order), expert (sees its view)",
    )
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--against", choices=("greedy", "strong"), default="greedy")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    games = range(args.first, args.first + args.games)
    for bot in args.bots.split(","):
        wins = play(bot, args.players, games, args.seed, args.against)
        print(f"{bot:7} {win_rate(wins, args.games)} against {args.against}")


if __name__ == "__main__":
    main()
