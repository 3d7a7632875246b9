"""The strong bot: Monte Carlo search over the cards it cannot see.

Where the greedy bot counts how many cards its phase still misses, the strong bot
asks how likely each choice is to finish the phase soon. It samples futures: draw
sequences dealt from the cards its view cannot see (other hands and the draw pile,
less the cards other players are known to hold because they took them from the
discard pile), the same futures for every choice it compares. For each candidate
hand it checks, in one batch with :class:`phase10.solver.BatchChecker`, whether the
hand plus the first 1, 2, ... cards of each future holds the phase, and scores the
hand by the expected number of turns within its horizon that the phase is made.
That decides which card to discard, whether to take the top discard, and which
phase to declare. A discard's score is lowered by how likely it is to help the next
player: the share of hands sampled for them (their known cards plus unseen ones, kept
only if none of the discards they passed over this hand would have helped them) that
the card brings closer to their phase, or certain when they are down and can hit it.

Once its phase is down, the race is to go out. Level 4 plays each candidate discard
forward over sampled draws, hitting all it can onto the table as it lies and throwing
the card furthest from any run's end, and keeps the hand that empties soonest, counting
a card the next player would surely use as a turn lost (lower levels keep back what
the next player could use and shed points). Level 4 also aims Skips at whoever
threatens the hand: while it is not down, the player down with the fewest cards (who
may end the hand first); once down, a player not yet down (who may still gain a phase);
then the game's leader (lower levels skip the leader). The greedy bot's judgement
breaks ties and plays the rest (laying down at once, hitting everything, and the
Anti-phase card as :mod:`phase10.bots.anti` says).

Level 4 looks past its horizon too: a future in which the hand still misses cards at
the horizon counts two more turns for each card missing (as exactly counted by
:meth:`phase10.solver.BatchChecker.shortfall`), so a hand far from its phase still
prefers the discard that keeps it closest. It weighs a card given to the next player
like that too, two turns, shared out among its opponents (a third of it with four
players: holding back one of three rivals helps less than holding back the only one);
lower levels give a fixed half turn.

Levels change the budget (futures, horizon and samples), the noise and the model, so
that each is measurably stronger than the one below (see the README's "Strength and
speed"):

====== ======== ======== ====== ========= ======= ===========================================
level  futures  horizon  theirs way out   tail    noise
====== ======== ======== ====== ========= ======= ===========================================
1      12       3        4      -         -       picks among its three best discards at random 35% of the time
2      16       3        8      -         -       20% of the time
3      64       6        16     -         -       none
4      256      6        64     64        2       none (the default)
====== ======== ======== ====== ========= ======= ===========================================

"theirs" is the number of hands sampled for the next player; "way out" the number of
sampled draw sequences for the race to go out (``-``: not searched; Skips go to the
game's leader); "tail" is the turns counted per card still missing at the horizon, with
the shared denial weight of two turns (``-``: neither).

>>> import random
>>> from phase10.core import Game
>>> from phase10.bots import play_game
>>> game = Game(2, seed=5)
>>> play_game(game, [StrongPlayer(random.Random(0)), StrongPlayer(random.Random(1), level=1)])
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from phase10.core import (
    DISTINCT_CARDS,
    Action,
    Card,
    Declare,
    Discard,
    Group,
    NaturalMin,
    Phase,
    PlayerView,
)
from phase10.solver import BatchChecker, compile_phase, hand_counts, missing
from phase10.solver.batch import shared_checker
from phase10.solver.tactics import best_hits, view_unseen_counts

from .greedy import GreedyPlayer, _wanted_by_next, partner_score
from .knowledge import danger, declined, known_held, next_player, skip_key, target_phases

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "StrongPlayer"]


@dataclass(frozen=True, slots=True)
class Level:
    futures: int
    horizon: int
    noise: float
    opponent_samples: int
    #: futures searched for the fastest way out once down (0: shed points, deny the next player)
    outs: int = 0
    #: aim Skips at whoever threatens this hand most (else at the game's leader)
    aim_skips: bool = False
    #: turns each card still missing at the horizon is counted as (0: not counted)
    tail: float = 0.0
    #: turns of its own progress given up to keep a card from the next player, shared out
    #: among the opponents (0: :data:`DENIAL_WEIGHT`, not shared)
    denial: float = 0.0


LEVELS = {
    1: Level(futures=12, horizon=3, noise=0.35, opponent_samples=4),
    2: Level(futures=16, horizon=3, noise=0.20, opponent_samples=8),
    3: Level(futures=64, horizon=6, noise=0.0, opponent_samples=16),
    4: Level(
        futures=256,
        horizon=6,
        noise=0.0,
        opponent_samples=64,
        outs=64,
        aim_skips=True,
        tail=2.0,
        denial=2.0,
    ),
}
DEFAULT_LEVEL = 4
#: how many turns of its own progress the bot gives up to keep a card from the next player
DENIAL_WEIGHT = 0.5
#: sample the next player's hand among those that would not have taken what they passed
OPPONENT_MODEL = True
#: once down, how many turns of going out the bot gives up to keep a card from the next player
DOWN_DENIAL_WEIGHT = 1.0


class StrongPlayer(GreedyPlayer):
    """Monte Carlo search at difficulty ``level`` (1 to 4); ``rng`` seeds every sample.
    ``saves=False`` never saves a card nor takes one back; ``anti=False`` plays the
    Anti-phase card like any other card (see :class:`GreedyPlayer`)."""

    #: searches: a decision can take a tenth of a second
    instant = False

    def __init__(
        self,
        rng: random.Random,
        level: int = DEFAULT_LEVEL,
        *,
        saves: bool = True,
        anti: bool = True,
    ) -> None:
        super().__init__(rng, saves=saves, anti=anti)
        if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
            raise ValueError(f"strong's level is 1 to 4, not {level!r}")
        self.level = level
        self.budget = LEVELS[level]

    # -- the model --------------------------------------------------------------------

    def _futures(self, view: PlayerView, horizon: int, checker: BatchChecker) -> np.ndarray:
        """Sampled draw sequences, shape (futures, horizon), as card indices."""
        deck = _draw_pool(view, known_held(view))
        futures = (
            self.budget.futures if checker.mode != "rows" else max(8, self.budget.futures // 4)
        )
        horizon = min(horizon, len(deck))
        if horizon == 0:
            return np.zeros((futures, 0), dtype=np.int64)
        generator = np.random.default_rng(self.rng.getrandbits(64))
        keys = generator.random((futures, len(deck)))
        return deck[np.argpartition(keys, horizon - 1, axis=1)[:, :horizon]]

    def _values(
        self,
        hands: list[list[int]],
        phase: Phase,
        natural_min: NaturalMin,
        view: PlayerView,
        ahead: list[int] | None = None,
    ) -> list[float]:
        """For each hand (card counts), the expected number of turns within the horizon in
        which the hand, plus the cards drawn so far, holds the phase (common futures).

        A hand's turn ``k`` (from 0, this turn) adds the first ``k + 1`` cards of each
        future, or ``k + 1 - a`` (never fewer than none) for its entry ``a`` in ``ahead``:
        a hand that already took this turn's card (the top discard) instead of drawing
        it, or that counts saved cards it will take back instead of its next draws.
        """
        gap = min(missing(phase, hand, natural_min) for hand in hands)
        horizon = min(self.budget.horizon, max(2, gap + 2))
        checker = shared_checker(phase, natural_min)
        futures = self._futures(view, horizon, checker)
        samples, steps = futures.shape
        if steps == 0:
            return [0.0] * len(hands)
        # drawn[:, k] holds the first k cards of each future (k = 0 .. steps)
        drawn = np.zeros((samples, steps + 1, DISTINCT_CARDS), dtype=np.int16)
        for step in range(steps):
            drawn[np.arange(samples), step + 1 :, futures[:, step]] += 1
        base = np.array(hands, dtype=np.int16)  # (H, cards)
        offsets = np.array([1 - a for a in (ahead or [0] * len(hands))])
        # (H, T): cards drawn by turn k
        index = np.clip(np.arange(steps)[None, :] + offsets[:, None], 0, steps)
        rows = base[:, None, None, :] + drawn[:, index, :].transpose(1, 0, 2, 3)  # (H, S, T, cards)
        made = checker(rows.reshape(-1, DISTINCT_CARDS)).reshape(len(hands), samples, steps)
        values = made.mean(axis=1).sum(axis=1)
        if self.budget.tail:
            # A hand that still misses cards at the horizon will take longer yet.
            short = checker.shortfall(rows[:, :, -1, :].reshape(-1, DISTINCT_CARDS))
            values = values - self.budget.tail * short.reshape(len(hands), samples).mean(axis=1)
        return [float(v) for v in values]

    # -- decisions --------------------------------------------------------------------

    def declare(self, view: PlayerView, actions: list[Action]) -> Action:
        options = [a for a in actions if isinstance(a, Declare)]
        hand = hand_counts(view.hand)
        # saved cards count, each taken back instead of a draw: the hand holds them all
        # and draws blind only once the ones the phase needs are back
        kept = hand_counts([*view.hand, *view.saved]) if self.saves else hand
        natural_min = view.rules.natural_min
        scored = []
        for action in options:
            phase = view.phase_of(action.phase - 1)
            now = missing(phase, kept, natural_min)
            back = missing(phase, hand, natural_min) - now
            value = self._values([kept], phase, natural_min, view, ahead=[back])[0]
            scored.append((value, -now, action.phase, action))
        return max(scored, key=lambda item: item[:3])[3]

    def wants(self, view: PlayerView, top: Card) -> bool:
        phases = target_phases(view)
        if not phases:
            return bool(best_hits([m.group for m in view.melds], [top]))
        if top.is_wild:
            return True
        natural_min = view.rules.natural_min
        hand = hand_counts(view.hand)
        taken = list(hand)
        taken[top.index] += 1
        _, phase = self._aim(view, phases, hand)
        # Taking the top card is worth it when the hand with it is more likely to make
        # the phase soon than the hand with a blind draw (the futures' first card).
        with_top, without = self._values([taken, hand], phase, natural_min, view, ahead=[1, 0])
        return with_top > without

    def discard(self, view: PlayerView, discards: list[Discard]) -> Action:
        phases = target_phases(view)
        skips = [d for d in discards if d.card.is_skip]
        if skips:
            aimed = [(d, d.target) for d in skips if d.target is not None]
            if self.budget.aim_skips and aimed:
                return max(aimed, key=lambda pair: skip_key(view, pair[1]))[0]
            return super().discard(view, discards)
        if not phases:
            # Down already: go out fast, keep back what would help the next player, shed points.
            kept = [d for d in discards if not d.card.is_wild] or discards
            helps = self._helps_next(view, list(dict.fromkeys(d.card for d in kept)))
            if self.budget.outs and len(kept) > 1:
                return self._down_discard(view, kept, helps)
            return min(kept, key=lambda d: (round(helps[d.card], 6), -d.card.points, d.card.index))
        candidates = [d for d in discards if not d.card.is_wild] or discards
        cards = list(dict.fromkeys(d.card for d in candidates))
        natural_min = view.rules.natural_min
        hand = hand_counts(view.hand)
        _, phase = self._aim(view, phases, hand)
        hands = []
        for card in cards:
            rest = list(hand)
            rest[card.index] -= 1
            hands.append(rest)
        values = self._values(hands, phase, natural_min, view)
        compiled = compile_phase(phase, natural_min)
        wanted = _wanted_by_next(view)
        helps = self._helps_next(view, cards)
        denial = self.denial_weight(view)
        scored = []
        for card, rest, value in zip(cards, hands, values, strict=True):
            scored.append(
                (
                    -round(value - denial * helps[card], 6),
                    missing(compiled, rest),
                    -partner_score(card, view.hand, [phase]),
                    danger(view, card, wanted),
                    -card.points,
                    self.rng.random(),
                    card,
                )
            )
        scored.sort(key=lambda item: item[:6])
        choice = scored[0][6]
        if self.budget.noise and self.rng.random() < self.budget.noise:
            choice = self.rng.choice(scored[:3])[6]
        return next(d for d in candidates if d.card == choice)

    def denial_weight(self, view: PlayerView) -> float:
        """How many turns of its own progress the bot gives up to keep a card from the next
        player: :data:`DENIAL_WEIGHT`, or the level's weight shared out among the opponents
        (holding back one of three opponents helps less than holding back the only one).
        """
        if not self.budget.denial:
            return DENIAL_WEIGHT
        return self.budget.denial / max(1, len(view.players_in_hand) - 1)

    def _down_discard(
        self, view: PlayerView, kept: list[Discard], helps: dict[Card, float]
    ) -> Discard:
        """Once down: the discard after which the hand goes out soonest (hitting all it can
        of the sampled draws onto the table as it lies), less what it gives the next player.
        """
        cards = list(dict.fromkeys(d.card for d in kept))
        table = [meld.group for meld in view.melds]
        deck = _draw_pool(view, known_held(view))
        horizon = min(self.budget.horizon, len(deck))
        samples = self.budget.outs
        futures: list[list[Card]] = [[] for _ in range(samples)]
        if horizon:
            generator = np.random.default_rng(self.rng.getrandbits(64))
            keys = generator.random((samples, len(deck)))
            drawn = deck[np.argpartition(keys, horizon - 1, axis=1)[:, :horizon]]
            futures = [[Card.from_index(int(index)) for index in row] for row in drawn]
        scored = []
        for card in cards:
            rest = list(view.hand)
            rest.remove(card)
            turns = sum(_turns_to_out(table, rest, future) for future in futures) / samples
            scored.append(
                (round(turns + DOWN_DENIAL_WEIGHT * helps[card], 6), -card.points, card.index, card)
            )
        choice = min(scored)[3]
        return next(d for d in kept if d.card == choice)

    def _helps_next(self, view: PlayerView, cards: list[Card]) -> dict[Card, float]:
        """For each card, how likely it is to help the next player if discarded: the share
        of sampled hands for them (their known cards plus unseen ones) that it brings
        closer to their phase, or 1 when they are down and can hit it.
        """
        after = next_player(view)
        helps = dict.fromkeys(cards, 0.0)
        if after is None:
            return helps
        info = view.seats[after]
        if info.laid is not None:
            table = [meld.group for meld in view.melds]
            return {card: float(any(g.placements(card) for g in table)) for card in cards}
        phases = [phase for _, phase in target_phases(view, after)]
        if not phases:
            return helps
        held = known_held(view)
        theirs = held.get(after, Counter())
        deck = _draw_pool(view, held)
        unknown = max(0, info.hand_size - sum(theirs.values()))
        if unknown > len(deck):
            return helps
        natural_min = view.rules.natural_min
        checkers = [shared_checker(phase, natural_min) for phase in phases]
        generator = np.random.default_rng(self.rng.getrandbits(64))
        samples = self.budget.opponent_samples
        # Their hands: the cards they are known to hold plus unseen ones, four times as
        # many as needed so that enough remain once the inconsistent ones are dropped.
        keys = generator.random((4 * samples, len(deck)))
        picked = deck[np.argpartition(keys, unknown - 1, axis=1)[:, :unknown]] if unknown else None
        hands = np.zeros((4 * samples, DISTINCT_CARDS), dtype=np.int16)
        for card, copies in theirs.items():
            hands[:, card.index] += copies
        if picked is not None:
            np.add.at(hands, (np.arange(4 * samples)[:, None], picked), 1)
        now = _distance(checkers, hands)
        passed = list(dict.fromkeys(declined(view, after)[-3:])) if OPPONENT_MODEL else []
        if passed:
            # Keep the hands that would not have taken a card they passed over.
            closer = _closer(checkers, hands, now, passed)
            hands, now = hands[~closer.any(axis=1)], now[~closer.any(axis=1)]
        hands, now = hands[:samples], now[:samples]
        if not len(hands):
            return helps
        # A hand holding its phase is brought no closer by anything.
        closer = _closer(checkers, hands, now, cards) & (now > 0)[:, None]
        share = closer.mean(axis=0)
        return {card: float(share[i]) for i, card in enumerate(cards)}

    def _aim(
        self, view: PlayerView, phases: list[tuple[int, Phase]], hand: list[int]
    ) -> tuple[int, Phase]:
        """The phase to work on: the one it may lay (declared or in order), or the closest."""
        if len(phases) == 1:
            return phases[0]
        natural_min = view.rules.natural_min
        return min(phases, key=lambda p: (missing(p[1], hand, natural_min), -p[0]))


def _turns_to_out(table: list[Group], hand: list[Card], future: list[Card]) -> int:
    """The turn (from 0) in which the hand is gone, drawing the ``future`` cards in turn,
    hitting all it can onto ``table`` and discarding its least promising card; the
    horizon plus one when it never is.
    """
    groups = list(table)
    hand = list(hand)
    for turn, card in enumerate(future):
        hand.append(card)
        for hit in best_hits(groups, hand):
            groups[hit.group] = groups[hit.group].hit(hit.card, hit.number)
            hand.remove(hit.card)
        if len(hand) <= 1:
            return turn
        live = _liveness(hand, groups)
        hand.remove(min(hand, key=lambda c: (c.is_wild, live.get(c, 0.0), -c.points, c.index)))
    return len(future) + 1


def _liveness(hand: Sequence[Card], table: Sequence[Group]) -> dict[Card, float]:
    """For each numbered card in hand, how close it is to fitting a run on the table: 1
    when the rest of the hand fills the gap to a run's end, halved for each number that
    has still to come; 0 when no run can reach it.
    """
    numbers = Counter(card.number for card in hand if card.number is not None)
    live: dict[Card, float] = {}
    for card in hand:
        number = card.number
        if number is None:
            continue
        best = 0.0
        for group in table:
            low, high = group.low, group.high
            if low is None or high is None:
                continue
            if group.color is not None and card.color is not group.color:
                continue
            if number > high:
                gap = range(high + 1, number)
            elif number < low:
                gap = range(number + 1, low)
            else:
                continue
            short = sum(1 for n in gap if not numbers[n])
            best = max(best, 0.5**short)
        live[card] = best
    return live


def _distance(
    checkers: Sequence[BatchChecker], hands: np.ndarray, below: np.ndarray | None = None
) -> np.ndarray:
    """For each hand (a row of card counts), how many cards the nearest phase still
    misses: the batch shortfall (exact for the standard phases), or the exact solver
    row by row for phases the batch checks that way. With ``below`` (one number a hand),
    a count of at least its number may come back as that number: only "fewer than
    ``below``?" is asked, which the solver answers with a narrower search.
    """
    out: np.ndarray | None = None
    for checker in checkers:
        if checker.mode == "rows":
            rows = hands.tolist()
            limits = [12] * len(rows) if below is None else np.maximum(below - 1, 0).tolist()
            pairs = zip(rows, limits, strict=True)
            far = np.array([missing(checker.compiled, row, limit=limit) for row, limit in pairs])
        else:
            far = checker.shortfall(hands)
        out = far if out is None else np.minimum(out, far)
    assert out is not None
    return out


def _closer(
    checkers: Sequence[BatchChecker], hands: np.ndarray, now: np.ndarray, cards: Sequence[Card]
) -> np.ndarray:
    """Whether each card brings each hand closer to its nearest phase, shape (hands, cards)."""
    grown = np.repeat(hands[:, None, :], len(cards), axis=1)  # (H, C, cards)
    grown[:, np.arange(len(cards)), [card.index for card in cards]] += 1
    below = np.repeat(now, len(cards))
    grown = grown.reshape(-1, DISTINCT_CARDS)
    after = _distance(checkers, grown, below).reshape(len(hands), len(cards))
    return np.asarray(after < now[:, None])


def _draw_pool(view: PlayerView, held: dict[int, Counter[Card]]) -> np.ndarray:
    """The cards that may still be drawn, as card indices: the unseen ones less those
    other players are known to hold.
    """
    pool = view_unseen_counts(view)
    for cards in held.values():
        for card, copies in cards.items():
            pool[card.index] = max(0, pool[card.index] - copies)
    return np.repeat(np.arange(DISTINCT_CARDS), pool)
