"""What knowing the other hands is worth to the expert: a soft oracle deals each other
player's hidden cards in proportion to exp(beta x the copies of that card in the player's
real hidden hand) (``KernelGame.search``'s ``weights``). Beta 0 is the expert's own
uniform dealing; the larger beta, the more of the real hand each deal holds, up to the
hands oracle of ``benchmarks.expert_oracle`` (the real hands, the draw pile shuffled).

    python -m benchmarks.expert_information regret --games 16
    python -m benchmarks.expert_information wins --beta 2 --games 200

``regret`` plays the expert against greedy bots and, at each of its searched discards,
has every beta's soft oracle and the hands oracle pick a discard; a search that sees the
other hands (``--oracle-deals`` play-outs a discard) values every discard, and a pick's
regret is the best value less the pick's. It prints each one's mean regret and the share
of the hidden cards its deals get right, then each one's paired difference from the
expert. ``wins`` plays the soft oracle (or ``--beta 0``: the expert) heads-up against
greedy (``--against strong``: the strong bot), on the same deals as
``benchmarks.expert_oracle``. ``--margin`` sets the standard errors a pick must lead the
strong bot's choice by (the expert's own: 2).

    python -m benchmarks.expert_information margins --games 20 [--against strong]

``margins`` asks whether any margin would make the expert's search worth more: at each
of the expert's searched discards it runs the expert's search once (its 48 deals) and
reads off the pick at each margin of :data:`MARGINS` (0: the search's best whatever its
lead; the larger, the more often the strong bot's choice stands), and a search that sees
the other hands values every discard. It prints the strong bot's mean regret, then each
margin's paired difference from it (below zero: the search helped) and how often that
margin overrides, over all decisions and by who is down.
"""

from __future__ import annotations

import argparse
import math
import random
from collections import Counter

import numpy as np
from numpy.typing import NDArray

from phase10.bots import Player, play_game
from phase10.bots.greedy import GreedyPlayer
from phase10.bots.knowledge import known_held
from phase10.bots.strong import StrongPlayer
from phase10.core import DISTINCT_CARDS, Action, Discard, Game, PlayerView, Stage
from phase10.kernel import KernelGame
from phase10.kernel.convert import ActionKey, action_key
from phase10.kernel.engine import SEARCH_MAX_WEIGHT
from phase10.search import ExpertPlayer
from phase10.search.expert import Weighing, searchable
from phase10.sim.stats import mean_interval

from .expert_oracle import OracleExpert, win_rate

BETAS = (1.0, 2.0, 4.0, 8.0)
#: the margins ``margins`` compares (standard errors of the search's lead)
MARGINS = (0.0, 1.0, 2.0, 3.0, 4.0, 6.0)


def hidden(game: Game, view: PlayerView) -> list[Counter[int]]:
    """Each seat's cards that the view's player cannot see, by card index."""
    known = known_held(view)
    out = []
    for seat, info in enumerate(game.seats):
        cards = Counter(card.index for card in info.hand)
        if seat in known:
            cards -= Counter(card.index for card in known[seat].elements())
        out.append(cards)
    return out


class SoftOracle(ExpertPlayer):
    """The expert, its deals weighted toward the other players' real hidden cards."""

    def __init__(self, rng: random.Random, game: Game, beta: float, margin: float) -> None:
        super().__init__(rng, margin=margin)
        self.game = game
        self.beta = beta

    def _weights(self, view: PlayerView) -> list[list[float] | None] | None:
        if self.beta == 0:
            return None
        return [
            None
            if seat == view.viewer
            else [
                min(math.exp(self.beta * cards[k]), SEARCH_MAX_WEIGHT)
                for k in range(DISTINCT_CARDS)
            ]
            for seat, cards in enumerate(hidden(self.game, view))
        ]


def dealt_right(game: Game, view: PlayerView, beta: float, rng: random.Random) -> float:
    """The share of the other seats' hidden cards a deal weighted so gets right (by kind),
    over 10 deals drawn as the kernel draws them."""
    seats = hidden(game, view)
    pool = [card.index for card in game.draw_pile]
    for seat, cards in enumerate(seats):
        if seat != view.viewer:
            pool += list(cards.elements())
    right = total = 0
    for _ in range(10):
        left = list(pool)
        for seat, cards in enumerate(seats):
            if seat == view.viewer:
                continue
            wanted = Counter(cards)
            for _ in range(cards.total()):
                weights = [min(math.exp(beta * cards[k]), SEARCH_MAX_WEIGHT) for k in left]
                card = left.pop(rng.choices(range(len(left)), weights=weights)[0])
                right += wanted[card] > 0
                wanted[card] -= 1
                total += 1
    return right / max(total, 1)


class Probe(ExpertPlayer):
    """The expert in play; at each of its searched discards, every soft oracle's pick and
    the hands oracle's are valued by a search that sees the other hands."""

    def __init__(self, rng: random.Random, game: Game, oracle_deals: int, margin: float) -> None:
        super().__init__(rng)
        self.game = game
        self.oracle_deals = oracle_deals
        self.margin_tried = margin
        self.rows: list[dict[str, float]] = []

    def choose(self, view: PlayerView) -> Action:
        action = super().choose(view)
        if searchable(view) and view.stage is Stage.PLAY and isinstance(action, Discard):
            self._probe(view)
        return action

    def _probe(self, view: PlayerView) -> None:
        me = self._me(view)
        strong = StrongPlayer(random.Random(self.rng.getrandbits(32))).choose(view)
        truth = KernelGame(self.game)
        keys = truth.legal()
        candidates = [i for i, key in enumerate(keys) if key[0] == 2]
        if not isinstance(strong, Discard) or len(candidates) < 2:
            return
        known = [[card.index for card in seat.hand] for seat in self.game.seats]
        results = truth.search(me, known, candidates, self.oracle_deals, self.rng.getrandbits(63))
        values = self._values(results, view, me).mean(axis=0)
        best = float(values.max())
        row = {"strong": best - float(values[candidates.index(keys.index(action_key(strong)))])}
        seed = self.rng.getrandbits(32)
        right = random.Random(seed)
        for beta in (0.0, *BETAS):
            soft = SoftOracle(random.Random(seed), self.game, beta, self.margin_tried)
            weighing = soft._weigh(view, soft._game(view), action_key(strong))
            if weighing is None:
                return
            row[f"beta {beta:g}"] = best - float(values[weighing.chosen])
            row[f"beta {beta:g} right"] = dealt_right(self.game, view, beta, right)
        hands = OracleExpert(random.Random(seed), self.game, order=False)
        hands.margin = self.margin_tried
        weighing = hands._weigh(view, KernelGame(self.game), action_key(strong))
        if weighing is not None:
            row["hands"] = best - float(values[weighing.chosen])
            self.rows.append(row)


class MarginProbe(ExpertPlayer):
    """The expert in play; at each of its searched discards, the lead of its search's best
    pick over the strong bot's, in standard errors, and the two picks valued by a search
    that sees the other hands."""

    def __init__(self, rng: random.Random, game: Game, oracle_deals: int) -> None:
        super().__init__(rng)
        self.game = game
        self.oracle_deals = oracle_deals
        self.rows: list[dict[str, float]] = []
        self._last: NDArray[np.float64] | None = None

    def _values(self, results: NDArray[np.int32], view: PlayerView, me: int) -> NDArray[np.float64]:
        self._last = super()._values(results, view, me)
        return self._last

    def _weigh(
        self, view: PlayerView, play: KernelGame, default: ActionKey | None = None
    ) -> Weighing | None:
        keys = play.legal()
        weighing = super()._weigh(view, play, default)
        if weighing is None or self._last is None or play.stage is not Stage.PLAY:
            return weighing
        values, picked = self._last, weighing.greedy
        best = int(np.argmax(values.mean(axis=0)))
        diff = values[:, best] - values[:, picked]
        noise = float(diff.std()) / max(len(diff) - 1, 1) ** 0.5
        gain = float(diff.mean())
        lead = gain / noise if noise > 0 else (math.inf if gain > 0 else 0.0)  # (as _weigh)
        me = self._me(view)
        candidates = [i for i, key in enumerate(keys) if key[0] == 2]
        known = [[card.index for card in seat.hand] for seat in self.game.seats]
        truth = KernelGame(self.game)
        seen = truth.search(me, known, candidates, self.oracle_deals, self.rng.getrandbits(63))
        worth = self._values(seen, view, me).mean(axis=0)
        top = float(worth.max())
        others = [seat for i, seat in enumerate(view.seats) if i != me]
        self.rows.append(
            {
                "strong": top - float(worth[picked]),
                "search": top - float(worth[best]),
                "lead": lead,
                "down": 2 * (view.seats[me].laid is not None)
                + any(seat.laid is not None for seat in others),
            }
        )
        return weighing


def margins(args: argparse.Namespace) -> None:
    rows: list[dict[str, float]] = []
    other = GreedyPlayer if args.against == "greedy" else StrongPlayer
    for number in range(args.first, args.first + args.games):
        game = Game(args.players, seed=args.seed + number)
        seat = number % args.players
        seats: list[Player] = [other(random.Random(number * 10 + s)) for s in range(args.players)]
        probe = MarginProbe(random.Random(number), game, args.oracle_deals)
        seats[seat] = probe
        play_game(game, seats)
        rows += probe.rows
    strong = np.array([row["strong"] for row in rows])
    print(f"{len(rows)} decisions against {args.against}; the strong bot's regret", end=" ")
    print("{:.4f} ± {:.4f}".format(*mean_interval(strong)))
    for label, down in (
        ("all", None),
        ("nobody down", 0),
        ("an opponent down", 1),
        ("it down", 2),
        ("both down", 3),
    ):
        chosen = [row for row in rows if down is None or row["down"] == down]
        if not chosen:
            continue
        parts = [f"{label:17} {len(chosen):5}"]
        for margin in MARGINS:
            diff = np.array(
                [
                    (row["search"] if row["lead"] > margin else row["strong"]) - row["strong"]
                    for row in chosen
                ]
            )
            mean, half = mean_interval(diff)
            share = np.mean([row["lead"] > margin for row in chosen])
            parts.append(f"m{margin:g} {mean:+.4f}±{half:.4f} ({share:.0%})")
        print("  ".join(parts))


def regret(args: argparse.Namespace) -> None:
    rows: list[dict[str, float]] = []
    for number in range(args.first, args.first + args.games):
        game = Game(args.players, seed=args.seed + number)
        seat = number % args.players
        seats: list[Player] = [
            GreedyPlayer(random.Random(number * 10 + s)) for s in range(args.players)
        ]
        probe = Probe(random.Random(number), game, args.oracle_deals, args.margin)
        seats[seat] = probe
        play_game(game, seats)
        rows += probe.rows
    print(f"{len(rows)} decisions, margin {args.margin:g}")
    base = np.array([row["beta 0"] for row in rows])
    for name in rows[0]:
        values = np.array([row[name] for row in rows])
        line = "{:15} {:.4f} ± {:.4f}".format(name, *mean_interval(values))
        if not name.endswith("right") and name != "beta 0":
            line += "   vs the expert {:+.4f} ± {:.4f}".format(*mean_interval(values - base))
        print(line)


def wins(args: argparse.Namespace) -> None:
    won = 0.0
    for number in range(args.first, args.first + args.games):
        deal = args.seed + number // args.players
        game = Game(args.players, seed=deal)
        seat = number % args.players
        other = GreedyPlayer if args.against == "greedy" else StrongPlayer
        seats: list[Player] = [other(random.Random(deal * 10 + s)) for s in range(args.players)]
        seats[seat] = SoftOracle(random.Random(deal), game, args.beta, args.margin)
        play_game(game, seats)
        if seat in game.winners:
            won += 1 / len(game.winners)
    rate = win_rate(won, args.games)
    print(f"beta {args.beta:g}, margin {args.margin:g}: {rate} against {args.against}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("regret", "wins", "margins"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--seed", type=int, help="9000 for regret, 7000 for wins, 9500 margins")
    parser.add_argument("--margin", type=float, default=2.0)
    parser.add_argument("--beta", type=float, default=2.0, help="for wins")
    parser.add_argument("--oracle-deals", type=int, default=400)
    parser.add_argument(
        "--against", choices=("greedy", "strong"), default="greedy", help="wins and margins"
    )
    args = parser.parse_args(argv)
    if args.seed is None:
        args.seed = {"regret": 9000, "wins": 7000, "margins": 9500}[args.what]
    {"regret": regret, "wins": wins, "margins": margins}[args.what](args)


if __name__ == "__main__":
    main()
