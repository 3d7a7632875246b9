"""How well could any model of the other hand know it? Heads-up against greedy, a particle
filter that knows the greedy policy exactly follows the other player's hand through every
hand: at each of that player's choices it keeps the particles (hands it could hold) in
proportion to how often the kernel's greedy policy, holding them, does what the player did,
and it deals the cards drawn from the draw pile afresh to each particle. The particles are
then (up to their number) the posterior of the other hand given all the viewer has seen: no
model can know this opponent's hand better.

    python -m benchmarks.expert_posterior --games 20 --measure
    python -m benchmarks.expert_posterior --games 200

At each of the expert's searched discards while the other player is not down, it prints
the share of the other player's hidden cards that deals weighted by the posterior get
right (as ``KernelGame.search`` deals them); the share the single best guess gets right
(the cards likeliest held, as many as are hidden: the most any guess can expect to get
right); the shares ``benchmarks.expert_information``'s soft oracles (beta 2 and 8) get
right on the same decisions; and the share uniform dealing gets right. Without
``--measure`` the expert searches over the posterior's deals (overriding the strong bot's
choice beyond ``--margin`` standard errors), and the win rate is printed too, on the deals
of ``benchmarks.expert_information``'s ``wins`` (the same seed, seats and greedy
generators). ``benchmarks.expert_information`` shows the expert needs deals about three
quarters right to win 75% of these games. ``--against strong`` seats the strong bot
instead, which the filter models as greedy (the two discard by the same ranks) unless
``--model strong`` has it know the strong bot exactly (slow: about a minute a game with
1,000 particles).

    python -m benchmarks.expert_posterior --against strong --model strong --games 20 --measure
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from phase10.bots import Player
from phase10.bots.greedy import GreedyPlayer
from phase10.bots.knowledge import known_held
from phase10.bots.strong import StrongPlayer
from phase10.core import DISTINCT_CARDS, Action, Card, Discard, Game, PlayerView, Stage
from phase10.kernel import new_kernel
from phase10.kernel.convert import ActionKey, action_key, state_of
from phase10.kernel.engine import SEARCH_MAX_WEIGHT
from phase10.kernel.greedy import held_knowledge
from phase10.search import ExpertPlayer
from phase10.search.expert import searchable
from phase10.sim.stats import mean_interval

from .expert_oracle import win_rate

#: the weight left to a particle whose greedy play differs (not zero: the greedy bot's
#: ties are broken at random, and a few rejected particles keep the filter alive)
MISMATCH = 1e-3
#: generators tried per discard: the share that discards as the player did is its likelihood
TIE_DRAWS = 6
#: the soft oracles of benchmarks.expert_information measured alongside (their win rates
#: are in the README)
BETAS = (2.0, 8.0)


def unseen(game: Game, viewer: int) -> Counter[int]:
    """The cards ``viewer`` cannot see (the draw pile and the other hands), by index."""
    pool = Counter(card.index for card in game.draw_pile)
    for seat, info in enumerate(game.seats):
        if seat != viewer:
            pool.update(card.index for card in info.hand)
    return pool


def _uses(key: ActionKey) -> Counter[int]:
    """The cards an action takes out of the hand."""
    if key[0] in (2, 3):  # discard, hit
        return Counter([key[1]])
    if key[0] == 4:  # lay down
        return Counter(card for group in key[1] for card in group[1])
    return Counter()


class GreedyFilter:
    """Particles of ``seat``'s hand as ``viewer`` could know it, the seat playing greedily."""

    def __init__(self, game: Game, viewer: int, seat: int, count: int, rng: random.Random):
        self.viewer, self.seat, self.count, self.rng = viewer, seat, count, rng
        self.kernel = new_kernel(game.num_players, game.rules)
        self.generators = [random.Random(j).getstate()[1] for j in range(TIE_DRAWS)]
        #: times every particle was ruled out and the filter dealt afresh, in all and before
        #: the seat was down other than at its lay-down (these lose what it had read)
        self.restarts = self.early_restarts = 0
        self._start(game)

    def _start(self, game: Game) -> None:
        self.hand_number = game.hand_number
        self.taken: Counter[int] = Counter()  # cards the seat took from the discard pile
        self._deal(game, Counter())

    def _deal(self, game: Game, held: Counter[int]) -> None:
        """Particles afresh: ``held`` and the rest of the hand uniformly from the unseen."""
        rest = list((unseen(game, self.viewer) - held).elements())
        size = len(game.seats[self.seat].hand) - held.total()
        self.particles = [held + Counter(self.rng.sample(rest, size)) for _ in range(self.count)]
        self.weights = np.ones(self.count)

    def before(self, game: Game, seat: int, key: ActionKey) -> None:
        """Weigh the particles by ``seat``'s action ``key`` (not yet applied) and move them."""
        if game.hand_number != self.hand_number:
            self._start(game)
        if seat != self.seat:
            return
        pool = unseen(game, self.viewer)
        uses = _uses(key)
        self._weigh(game, key, pool, uses)
        if self.weights.sum() <= 0:  # every particle lacked the cards played: start over
            self.restarts += 1
            self.early_restarts += game.seats[seat].laid is None and key[0] != 4
            self._deal(game, self.taken | uses)
        self._resample()
        top = game.discard_pile[-1].index if game.discard_pile else -1
        moved = []
        for particle in self.particles:
            hand = Counter(particle)
            if key[0] == 0:  # drew: a card of this particle's draw pile
                hand[self.rng.choice(list((pool - hand).elements()))] += 1
            elif key[0] == 1:
                hand[top] += 1
            hand.subtract(uses)
            moved.append(+hand)
        self.particles = moved
        if key[0] == 1:
            self.taken[top] += 1
        self.taken = +(self.taken - uses)

    def _weigh(self, game: Game, key: ActionKey, pool: Counter[int], uses: Counter[int]) -> None:
        """Each particle's weight times its likelihood of ``key`` (0 if it lacks the cards
        ``key`` uses), worked out once for each distinct hand."""
        share = self._likelihoods(game, key, pool)
        seen: dict[tuple[int, ...], float] = {}
        for i, particle in enumerate(self.particles):
            if self.weights[i] == 0:
                continue
            if any(particle[card] < n for card, n in uses.items()):
                self.weights[i] = 0.0
                continue
            hand = tuple(sorted(particle.elements()))
            likelihood = seen.get(hand)
            if likelihood is None:
                likelihood = seen[hand] = max(share(particle, hand), MISMATCH)
            self.weights[i] *= likelihood

    def _likelihoods(
        self, game: Game, key: ActionKey, pool: Counter[int]
    ) -> Callable[[Counter[int], tuple[int, ...]], float]:
        """For a particle (and its cards, sorted): the share of the kernel's greedy policy's
        generators that, holding it, do ``key``."""
        state = list(state_of(game))
        seats = list(state[11])
        knowledge = held_knowledge(game)
        tries = self.generators if key[0] == 2 else self.generators[:1]

        def share(particle: Counter[int], hand: tuple[int, ...]) -> float:
            seat = list(seats[self.seat])
            seat[0] = hand
            seats_now = list(seats)
            seats_now[self.seat] = tuple(seat)
            state[11] = tuple(seats_now)
            state[8] = tuple(sorted((pool - particle).elements()))  # its draw pile
            self.kernel.load(tuple(state))
            self.kernel.set_knowledge(*knowledge)
            return sum(self.kernel.greedy_action(g)[0] == key for g in tries) / len(tries)

        return share

    def after(self, game: Game) -> None:
        """Drop the particles holding a card the viewer has since seen elsewhere."""
        if game.hand_number != self.hand_number or game.is_over:
            return
        pool = unseen(game, self.viewer)
        for i, particle in enumerate(self.particles):
            if self.weights[i] > 0 and any(pool[card] < n for card, n in particle.items()):
                self.weights[i] = 0.0
        if self.weights.sum() <= 0:
            self.restarts += 1
            self.early_restarts += game.seats[self.seat].laid is None
            self._deal(game, self.taken)
        self._resample()

    def _resample(self) -> None:
        total = self.weights.sum()
        if total**2 / (self.weights**2).sum() >= self.count / 2:
            return
        points = (self.rng.random() + np.arange(self.count)) / self.count
        chosen = np.searchsorted(np.cumsum(self.weights / total), points)
        self.particles = [Counter(self.particles[j]) for j in np.minimum(chosen, self.count - 1)]
        self.weights = np.ones(self.count)

    def at_least(self) -> dict[tuple[int, int], float]:
        """The posterior chance that the hand holds at least j copies of card c, by (c, j)."""
        odds: defaultdict[tuple[int, int], float] = defaultdict(float)
        for weight, particle in zip(self.weights / self.weights.sum(), self.particles, strict=True):
            if weight:
                for card, n in particle.items():
                    for j in range(1, n + 1):
                        odds[(card, j)] += float(weight)
        return odds


class StrongFilter(GreedyFilter):
    """The same filter, knowing the seat plays as the strong bot (level 4): a particle's
    likelihood is the share of ``tries`` strong bots, each with its own generator and
    holding the particle, that do what the player did. The strong bot's choices hang on its
    samples, so that share estimates the chance (the filter stays unbiased, only noisier)."""

    def __init__(
        self, game: Game, viewer: int, seat: int, count: int, rng: random.Random, tries: int
    ):
        self.tries = tries
        super().__init__(game, viewer, seat, count, rng)

    def _likelihoods(
        self, game: Game, key: ActionKey, pool: Counter[int]
    ) -> Callable[[Counter[int], tuple[int, ...]], float]:
        view = game.view(self.seat)
        tries = self.tries if key[0] == 2 else 1

        def share(_particle: Counter[int], hand: tuple[int, ...]) -> float:
            held = dataclasses.replace(view, hand=tuple(Card.from_index(c) for c in hand))
            bots = (StrongPlayer(random.Random(self.rng.random())) for _ in range(tries))
            return sum(action_key(bot.choose(held)) == key for bot in bots) / tries

        return share


class PosteriorExpert(ExpertPlayer):
    """The expert, dealing the other seat's hidden cards by the filter's posterior."""

    def __init__(
        self,
        rng: random.Random,
        game: Game,
        tracked: GreedyFilter,
        *,
        margin: float,
        use: bool,
        measuring: int,
    ) -> None:
        super().__init__(rng, margin=margin)
        self.game, self.tracked, self.use = game, tracked, use
        self.rows: list[tuple[float, ...]] = []
        self.measuring = random.Random(measuring)

    def _hidden(
        self, view: PlayerView
    ) -> tuple[list[float], Counter[int], Counter[int], list[tuple[float, int]]]:
        """Per card index, the chance each unseen copy is in the hidden hand (a kernel
        weight); the cards the viewer knows the seat holds; the pool the hidden cards are
        dealt from; and the chance of each further hidden copy, as (chance, card)."""
        seat = self.tracked.seat
        known = Counter(card.index for card in known_held(view).get(seat, Counter()).elements())
        pool = unseen(self.game, self._me(view)) - known
        chances = [
            (chance, card)
            for (card, j), chance in self.tracked.at_least().items()
            if j > known[card]
        ]
        expected = [0.0] * DISTINCT_CARDS
        for chance, card in chances:
            expected[card] += chance
        weights = [
            1000 * min(max(expected[c] / pool[c] if pool[c] else 0.0, 1e-4), 1.0)
            for c in range(DISTINCT_CARDS)
        ]
        return weights, known, pool, chances

    def _weights(self, view: PlayerView) -> list[list[float] | None] | None:
        if not self.use:
            return None
        weights = self._hidden(view)[0]
        return [None if seat != self.tracked.seat else weights for seat in range(len(view.seats))]

    def choose(self, view: PlayerView) -> Action:
        action = super().choose(view)
        other_down = self.game.seats[self.tracked.seat].laid is not None
        searched = searchable(view) and view.stage is Stage.PLAY and isinstance(action, Discard)
        if searched and not other_down:
            self._measure(view)
        return action

    def _measure(self, view: PlayerView) -> None:
        seat = self.tracked.seat
        weights, known, pool, chances = self._hidden(view)
        truth = Counter(card.index for card in self.game.seats[seat].hand) - known
        size = truth.total()
        if size == 0:
            return
        guess = Counter(card for _, card in sorted(chances, reverse=True)[:size])
        row = [self._right(weights, pool, truth), (guess & truth).total() / size]
        for beta in BETAS:  # benchmarks.expert_information's soft oracles
            oracle = [
                min(math.exp(beta * truth[c]), SEARCH_MAX_WEIGHT) for c in range(DISTINCT_CARDS)
            ]
            row.append(self._right(oracle, pool, truth))
        row.append(self._right([1.0] * DISTINCT_CARDS, pool, truth))
        self.rows.append(tuple(row))

    def _right(self, weights: list[float], pool: Counter[int], truth: Counter[int]) -> float:
        """The share of ``truth`` that 10 deals from ``pool`` weighted so get right, the
        cards drawn one by one as ``KernelGame.search`` draws them."""
        right = 0
        for _ in range(10):
            left = list(pool.elements())
            deal: Counter[int] = Counter()
            for _ in range(truth.total()):
                drawn = self.measuring.choices(range(len(left)), [weights[c] for c in left])[0]
                deal[left.pop(drawn)] += 1
            right += (deal & truth).total()
        return right / (10 * truth.total())


def play(number: int, args: argparse.Namespace) -> tuple[float, list[tuple[float, ...]], int]:
    """Game ``number`` as ``benchmarks.expert_information wins`` deals and seats it: the
    expert's share of the win, its measured rows, the filter's restarts before the other
    player was down."""
    deal = args.seed + number // 2
    game = Game(2, seed=deal)
    seat = number % 2
    tracked = (
        GreedyFilter(game, seat, 1 - seat, args.particles, random.Random(deal))
        if args.model == "greedy"
        else StrongFilter(game, seat, 1 - seat, args.particles, random.Random(deal), args.tries)
    )
    expert = PosteriorExpert(
        random.Random(deal), game, tracked, margin=args.margin, use=not args.measure, measuring=deal
    )
    other = GreedyPlayer if args.against == "greedy" else StrongPlayer
    players: list[Player] = [other(random.Random(deal * 10 + s)) for s in range(2)]
    players[seat] = expert
    while not game.is_over:
        mover = game.current
        action = players[mover].choose(game.view(mover))
        tracked.before(game, mover, action_key(action))
        game.apply(action)
        tracked.after(game)
    won = 1 / len(game.winners) if seat in game.winners else 0.0
    return won, expert.rows, tracked.early_restarts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--particles", type=int, default=1000)
    parser.add_argument("--margin", type=float, default=1.0)
    parser.add_argument(
        "--against",
        choices=("greedy", "strong"),
        default="greedy",
        help="the other player",
    )
    parser.add_argument(
        "--model",
        choices=("greedy", "strong"),
        default="greedy",
        help="the policy the filter knows the other player by (greedy models the strong bot "
        "too, as the two discard by the same ranks; strong is exact for it, and slow)",
    )
    parser.add_argument(
        "--tries",
        type=int,
        default=2,
        help="with --model strong: strong bots asked per discard and particle",
    )
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument(
        "--measure", action="store_true", help="the expert deals uniformly; measure only"
    )
    args = parser.parse_args(argv)
    if min(args.games, args.particles, args.tries, args.jobs) < 1:
        parser.error("--games, --particles, --tries and --jobs must be at least 1")
    won, rows, restarts = 0.0, [], 0
    numbers = range(args.first, args.first + args.games)
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, numbers, [args] * args.games))
    for result, measured, started_over in results:
        won += result
        rows += measured
        restarts += started_over
    if not rows:
        parser.error("no discard was measured: play more games (--games)")
    table = np.array(rows)
    print(f"{len(table)} discards while the other player was not down, {args.particles} particles")
    print(
        f"the filter started over {restarts} times in {args.games} games before the other "
        "player was down (every particle ruled out: more particles make it rarer)"
    )
    names = (
        "posterior deals",
        "best guess",
        *(f"oracle beta {b:g}" for b in BETAS),
        "uniform deals",
    )
    for column, name in enumerate(names):
        print(
            "{:16} {:.3f} ± {:.3f} of the hidden cards right".format(
                name, *mean_interval(table[:, column])
            )
        )
    if not args.measure:
        print(f"wins {win_rate(won, args.games)} against {args.against}")


if __name__ == "__main__":
    main()
