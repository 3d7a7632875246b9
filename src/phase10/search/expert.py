"""The expert bot: the strong bot's play, checked by a search with the compiled kernel.

At the choice where rules of thumb are weakest, which card to discard (and at whom a
Skip), the expert deals the cards it cannot see afresh many
times, consistently with its view: the cards others took from the discard pile stay in
their hands, a player who has ended a turn without laying down is never dealt a phase they
could lay, and a top discard a player passed over must not bring their hand closer to its
phase. On the same deals it plays each candidate out, the candidate and then every seat by
the greedy policy to the end of the hand, all inside the kernel
(:meth:`phase10.kernel.KernelGame.search`), and values each hand's end for itself
(:class:`Weights`): its own phase completed, its opponents' phases, points.

The choice to beat is the strong bot's (:class:`phase10.bots.strong.StrongPlayer`, level
4). It stands unless another candidate does better by more than the search's own noise
(``margin`` standard errors of the paired difference over the same deals, two by
default): a choice picked for a small lead over a few dozen deals is as often worse as
better, the more so as the deals' other hands are random where the real ones were built. Lay-downs, hits and whether to take the
top discard are the strong bot's (``draws=True`` searches take-or-draw too: over sampled
deals the search prefers taking more often than taking pays, its opponents' hands being
random where the real ones are built up).

Where the kernel is not built, or its greedy policy does not play the rules (see
:func:`phase10.kernel.greedy_unsupported`), the expert plays as the strong bot does; so it
does when it declares a phase after the deal, a decision it never searches. Under the
Masters rules it searches its discards as under any other (a save is the strong bot's
choice, never searched): the other players' private save piles are dealt afresh with
their hands.

>>> import random
>>> from phase10.core import Game
>>> from phase10.bots import play_game
>>> from phase10.bots.greedy import GreedyPlayer
>>> game = Game(2, seed=5)
>>> play_game(game, [ExpertPlayer(random.Random(0), deals=8), GreedyPlayer(random.Random(1))])
>>> game.is_over
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from phase10.bots.bounded import bounded
from phase10.bots.knowledge import declined, known_held, target_phases
from phase10.bots.simple import checked_rng
from phase10.bots.strong import StrongPlayer
from phase10.core import Action, Discard, LayDown, PlayerView, SearchLimitError, Stage
from phase10.core.events import Discarded, Refilled
from phase10.core.feasibility import can_lay
from phase10.kernel import (
    KernelGame,
    available,
    bounded_steps,
    greedy_unsupported,
    steps_left,
    to_action,
)
from phase10.kernel.convert import ActionKey, action_key

__all__ = ["DEFAULT_DEALS", "MISTAKE", "ExpertPlayer", "Option", "Weighing", "Weights"]

#: deals searched per decision by default
DEFAULT_DEALS = 48
#: a second look at a close call, in multiples of the deals: where another move leads the
#: one that stands, but by less than the margin, the two are played over this many times
#: as many deals again and weighed over all of them (hints and reviews take it; the
#: expert bot does not, its strength measured without it)
CLOSER_LOOK = 4
#: the kernel search steps one decision's play-outs may take together (phase10.kernel.
#: bounded_steps; the kernel takes 10 to 80 million a second). A decision under the
#: presets' phases takes up to 15 million (edition-3; 1 million under the official
#: phases); past the bound (house phases such as "11 sets of 1") the strong bot's
#: choice stands
KERNEL_STEPS = 20_000_000
#: the least a move must lead by to count (one's own phase completed this hand counts 1):
#: a review's mistake gives up at least this much, and a hint says to keep the phase in
#: hand only when waiting leads by this much (a lead of a point or two, however sure, is
#: no reason to leave a phase unlaid)
MISTAKE = 0.15


@dataclass(frozen=True, slots=True)
class Weights:
    """How the expert values the end of a hand: each phase it completes counts 1, each
    phase an opponent completes ``rival`` shared out among its opponents, each point it
    scores ``-points`` and each point an opponent scores ``+points`` shared out, and the
    game won ``win`` (lost to an opponent: ``-win`` shared out)."""

    rival: float = 1.0
    points: float = 0.004
    win: float = 10.0


@dataclass(frozen=True, slots=True)
class Option:
    """One candidate as the search saw it, over every deal searched."""

    action: Action
    #: the mean value of the hand's end (:class:`Weights`)
    value: float
    #: the share of deals in which the player completes their phase this hand
    phase: float
    #: the mean points the player scores this hand
    points: float
    #: the mean number of phases the player's opponents complete this hand, between them
    rivals: float
    #: the share of deals in which the game ends this hand won by the player, and by an
    #: opponent (a last phase in reach can outweigh everything else)
    won: float = 0.0
    lost: float = 0.0


@dataclass(frozen=True, slots=True)
class Weighing:
    """A searched decision: every candidate, the one chosen and the one that stood unless
    beaten (``greedy``: the greedy policy's, or the one given, such as the strong bot's)."""

    options: tuple[Option, ...]
    chosen: int
    greedy: int
    deals: int

    @property
    def action(self) -> Action:
        return self.options[self.chosen].action


class ExpertPlayer:
    """Determinized search over the cards it cannot see, with greedy play-outs."""

    def __init__(
        self,
        rng: random.Random,
        *,
        deals: int = DEFAULT_DEALS,
        margin: float = 2.0,
        draws: bool = False,
        declines: bool = True,
        prior: str = "strong",
        hands: int = 1,
        weights: Weights | None = None,
        saves: bool = True,
        anti: bool = True,
        closer: int = 0,
        waits: bool = False,
    ) -> None:
        self.rng = checked_rng(rng)
        self.deals = deals
        self.margin = margin
        #: a second look at close calls, in multiples of ``deals`` (:data:`CLOSER_LOOK`)
        self.closer = closer
        self.draws = draws
        #: weigh keeping the phase in hand a turn more against the strong bot's lay-down
        #: (:meth:`weigh_waiting`)
        self.waits = waits
        self.declines = declines
        self.prior = prior
        #: deal the hidden cards afresh for each play-out (False: an oracle's search, from
        #: a game whose hidden cards are the real ones; see benchmarks/expert_oracle.py)
        self.redeal = True
        self.hands = hands
        self.weights = weights or Weights()
        self.saves, self.anti = saves, anti
        self._strong: StrongPlayer | None = None

    @bounded
    def choose(self, view: PlayerView) -> Action:
        if not searchable(view):
            return self._fallback().choose(view)
        if self.prior == "strong":
            action = self._fallback().choose(view)
            searched = (view.stage is Stage.DRAW and self.draws) or (
                view.stage is Stage.PLAY and isinstance(action, Discard)
            )
            if self.waits and view.stage is Stage.PLAY and isinstance(action, LayDown):
                waiting = self.weigh_waiting(view, [action])
                return action if waiting is None else waiting.action
            if not searched:  # (no kernel game to build for a choice not searched)
                return action
            try:
                with bounded_steps(KERNEL_STEPS):
                    weighing = self._weigh(view, self._game(view), action_key(action))
            except SearchLimitError:
                return action  # (phases too costly to play out: the strong bot's choice)
            return action if weighing is None else weighing.action
        with bounded_steps(KERNEL_STEPS):
            play = self._game(view)
            weighing = self._weigh(view, play)
            if weighing is not None:
                return weighing.action
            return to_action(play.greedy_action(self._me(view), self.rng))

    def weigh(
        self, view: PlayerView, first: Sequence[Action] = (), standing: Action | None = None
    ) -> Weighing | None:
        """The search of this decision, or of the one after playing ``first`` (say, the
        lay-down and hits of a hint, before its discard); None where the expert does not
        search (a lay-down, a hit, a single choice, rules it plays as the strong bot).
        ``standing`` is the choice that stands unless the search beats it beyond its noise
        (a hint's own discard; None: the greedy policy's)."""
        if not searchable(view):
            return None
        try:
            with bounded_steps(KERNEL_STEPS):
                play = self._game(view)
                for action in first:
                    play.apply(action_key(action))
                default = None if standing is None else action_key(standing)
                return self._weigh(view, play, default)
        except SearchLimitError:
            return None  # (phases too costly to play out)

    def weigh_waiting(self, view: PlayerView, lay: Sequence[Action]) -> Weighing | None:
        """Laying the phase down now (``lay``: the lay-down, then any hits; the greedy
        policy's hits after those) and the best discard then, against keeping it in hand a
        turn more and the best discard now that keeps a phase in hand, over the same deals.
        The lay-down stands unless waiting leads by :data:`MISTAKE` and beyond the search's
        noise. The weighing's options are the lay-down (valued with its best discard) and
        the discard with the phase kept; None where there is nothing to weigh (the lay-down
        goes out, say, no discard keeps the phase, or the search is not made)."""
        if not (searchable(view) and view.stage is Stage.PLAY and lay):
            return None
        if not isinstance(lay[0], LayDown):
            raise ValueError(f"a lay-down is weighed against waiting, not {lay[0]!r}")
        me = self._me(view)
        try:
            with bounded_steps(KERNEL_STEPS):
                now = self._game(view)
                later = now.copy()  # (the hidden cards lie alike: a seed deals both alike)
                for action in lay:
                    later.apply(action_key(action))
                if not greedy_hits(later, me, self.rng):
                    return None  # (out by the lay-down and hits)
                keys = now.legal()
                waits = [i for i, key in enumerate(keys) if _keeps_phase(view, key)]
                drops = [i for i, key in enumerate(later.legal()) if key[0] == 2]
                if not waits or not drops:
                    return None
                left = steps_left()
                seed = self.rng.getrandbits(63)
                laid, lay_values = self._played_out(view, later, drops, self.deals, seed)
                kept, wait_values = self._played_out(view, now, waits, self.deals, seed)
                a = int(np.argmax(lay_values.mean(axis=0)))
                b = int(np.argmax(wait_values.mean(axis=0)))

                def closer_look() -> NDArray[np.float64]:
                    more, seed = self.closer * self.deals, self.rng.getrandbits(63)
                    _, down = self._played_out(view, later, [drops[a]], more, seed)
                    _, hold = self._played_out(view, now, [waits[b]], more, seed)
                    return hold[:, 0] - down[:, 0]

                room = self.closer > 0 and fits(left, 2 * self.closer / (len(waits) + len(drops)))
                diff = wait_values[:, b] - lay_values[:, a]
                held = lead_held(diff, self.margin, closer_look if room else None)
                if held is not None and float(held.mean()) < MISTAKE:
                    held = None
        except SearchLimitError:
            return None  # (phases too costly to play out)
        wait = to_action(keys[waits[b]])
        options = (
            self._options(laid[:, a : a + 1], lay_values[:, a : a + 1], [lay[0]], view)[0],
            self._options(kept[:, b : b + 1], wait_values[:, b : b + 1], [wait], view)[0],
        )
        return Weighing(options, 0 if held is None else 1, 0, self.deals)

    def _played_out(
        self, view: PlayerView, play: KernelGame, chosen: list[int], deals: int, seed: int
    ) -> tuple[NDArray[np.int32], NDArray[np.float64]]:
        """The hands' ends of each candidate (indices into ``play``'s legal actions) over
        ``deals`` deals from ``seed``, and their values."""
        me = self._me(view)
        results = play.search(
            me,
            self._known(view),
            chosen,
            deals,
            seed,
            self.hands,
            settled=_settled(view),
            declined=_declined(view) if self.declines else None,
            redeal=self.redeal,
            weights=self._weights(view),
        )
        return results, self._values(results, view, me)

    def _options(
        self,
        results: NDArray[np.int32],
        values: NDArray[np.float64],
        actions: Sequence[Action],
        view: PlayerView,
    ) -> tuple[Option, ...]:
        """What each candidate gives over the deals (``results``: a column each)."""
        me = self._me(view)
        before = view.seats[me]
        means = values.mean(axis=0)
        phase = (results[..., me, 0] > len(before.completed)).mean(axis=0)
        points = results[..., me, 1].mean(axis=0) - before.score
        done = sum(len(seat.completed) for seat in view.seats) - len(before.completed)
        rivals = (results[..., 0].sum(axis=-1) - results[..., me, 0]).mean(axis=0) - done
        won = results[..., me, 2] > 0
        lost = (results[..., 2].sum(axis=-1) - results[..., me, 2] > 0) & ~won
        return tuple(
            Option(
                action,
                float(means[j]),
                float(phase[j]),
                float(points[j]),
                float(rivals[j]),
                float(won.mean(axis=0)[j]),
                float(lost.mean(axis=0)[j]),
            )
            for j, action in enumerate(actions)
        )

    def _game(self, view: PlayerView) -> KernelGame:
        """The game searched from: what the view shows, the hidden cards dealt anyhow."""
        return KernelGame.from_view(view)

    def _known(self, view: PlayerView) -> list[list[int]]:
        """The cards each seat is known to hold (taken from the discard pile), as indices."""
        known: list[list[int]] = [[] for _ in view.seats]
        for seat, cards in known_held(view).items():
            known[seat] = [card.index for card in cards.elements()]
        return known

    def _weights(self, view: PlayerView) -> list[list[float] | None] | None:
        """How much likelier each other seat holds each kind of card than any card unseen,
        per seat and card index (:meth:`~phase10.kernel.KernelGame.search`'s ``weights``;
        None: uniformly). The expert has no model of the other hands, so None; a subclass
        with one overrides this (``benchmarks/expert_information.py``'s soft oracle does)."""
        return None

    def _fallback(self) -> StrongPlayer:
        if self._strong is None:
            seed = self.rng.getrandbits(32)
            self._strong = StrongPlayer(random.Random(seed), saves=self.saves, anti=self.anti)
        return self._strong

    @staticmethod
    def _me(view: PlayerView) -> int:
        if view.viewer is None:
            raise ValueError("a spectator's view has no player to choose for")
        return view.viewer

    def _weigh(
        self, view: PlayerView, play: KernelGame, default: ActionKey | None = None
    ) -> Weighing | None:
        """Search ``play``'s decision against ``default`` (None: the greedy policy's)."""
        me = self._me(view)
        if play.is_over or play.current != me:
            return None
        keys = play.legal()
        greedy_key = play.greedy_action(me, self.rng) if default is None else default
        if play.stage is Stage.DRAW and self.draws:  # draw or take
            candidates = list(range(len(keys)))
        elif play.stage is Stage.PLAY and greedy_key[0] == 2:  # greedy would discard now
            candidates = [i for i, key in enumerate(keys) if key[0] == 2]
        else:
            return None
        if len(candidates) < 2:
            return None
        greedy = candidates.index(keys.index(greedy_key))

        def played_out(chosen: list[int], deals: int) -> NDArray[np.float64]:
            return self._played_out(view, play, chosen, deals, self.rng.getrandbits(63))[1]

        left = steps_left()
        results, values = self._played_out(
            view, play, candidates, self.deals, self.rng.getrandbits(63)
        )
        means = values.mean(axis=0)
        best = int(np.argmax(means))
        if best != greedy:
            # keep the standing choice unless the search shows a better one beyond its noise

            def closer_look() -> NDArray[np.float64]:
                pair = [candidates[greedy], candidates[best]]
                more = played_out(pair, self.closer * self.deals)
                return more[:, 1] - more[:, 0]

            looks = 2 * self.closer / len(candidates)  # its play-outs, to the first search's
            room = self.closer > 0 and fits(left, looks)
            diff = values[:, best] - values[:, greedy]
            if lead_held(diff, self.margin, closer_look if room else None) is None:
                best = greedy
        actions = [to_action(keys[c]) for c in candidates]
        options = self._options(results, values, actions, view)
        return Weighing(options, best, greedy, self.deals)

    def _values(self, results: NDArray[np.int32], view: PlayerView, me: int) -> NDArray[np.float64]:
        """Each deal's and candidate's value of the hand's end, for ``me``."""
        w = self.weights
        before_phases = np.array([len(seat.completed) for seat in view.seats], dtype=np.float64)
        before_scores = np.array([seat.score for seat in view.seats], dtype=np.float64)
        gained = results[..., 0] - before_phases
        points = results[..., 1] - before_scores
        won = results[..., 2].astype(np.float64)
        rivals = [seat for seat in range(len(view.seats)) if seat != me]
        share = 1.0 / len(rivals)
        value = gained[..., me] - w.points * points[..., me] + w.win * won[..., me]
        value -= share * (
            w.rival * gained[..., rivals].sum(axis=-1)
            - w.points * points[..., rivals].sum(axis=-1)
            + w.win * won[..., rivals].sum(axis=-1)
        )
        return value


def _keeps_phase(view: PlayerView, key: ActionKey) -> bool:
    """Whether ``key`` is a discard that leaves a phase the player may lay in their hand."""
    action = to_action(key)
    if not isinstance(action, Discard):
        return False
    rest = list(view.hand)
    rest.remove(action.card)
    natural = view.rules.natural_min
    return any(can_lay(phase, rest, natural) for _, phase in target_phases(view))


def greedy_hits(play: KernelGame, me: int, rng: random.Random) -> bool:
    """Play the greedy policy's hits for ``me`` on ``play`` (after a lay-down, say) until
    it would end the turn; whether it is still ``me``'s turn (False: out by the hits)."""
    while not play.is_over and play.current == me:
        key = play.greedy_action(me, rng)
        if key[0] != 3:  # (hits only: a discard ends the turn)
            break
        play.apply(key)
    return not play.is_over and play.current == me


def fits(before: int | None, scale: float) -> bool:
    """Whether a second search ``scale`` times the size of the one just made fits in the
    kernel steps left (``before``: those left before that one; None: no bound), with room
    to spare: past the bound a whole decision's searching is lost, not just the second."""
    now = steps_left()
    if before is None or now is None:
        return True
    return now > 1.5 * scale * (before - now)


def lead_held(
    diff: NDArray[np.float64],
    margin: float,
    closer_look: Callable[[], NDArray[np.float64]] | None,
) -> NDArray[np.float64] | None:
    """The paired differences (one a deal) by which a move leads the one that stands, if
    they lead by more than ``margin`` standard errors; where they do not, and
    ``closer_look`` is given, after it (it plays the two over more deals and gives their
    differences). None: the standing move stands.

    >>> lead_held(np.array([1.0, -1.0, 0.5]), 2.0, None) is None
    True
    >>> lead_held(np.array([1.0, -1.0, 0.5]), 2.0, lambda: np.full(50, 0.5)).size
    53
    """
    if not beyond(diff, margin) and closer_look is not None:
        diff = np.concatenate([diff, closer_look()])
    return diff if beyond(diff, margin) else None


def beyond(diff: NDArray[np.float64], margin: float) -> bool:
    """Whether paired differences (one a deal) lead by more than ``margin`` standard errors.

    >>> beyond(np.array([1.0, 1.2, 0.8, 1.1]), 2.0), beyond(np.array([1.0, -1.0, 0.5]), 2.0)
    (True, False)
    """
    return bool(float(diff.mean()) > margin * noise(diff))


def noise(diff: NDArray[np.float64]) -> float:
    """The standard error of a paired difference's mean."""
    return float(diff.std()) / math.sqrt(max(len(diff) - 1, 1))


def searchable(view: PlayerView) -> bool:
    """Whether the expert searches in ``view``'s game (else it plays as the strong bot): not
    while phases are declared, a choice it leaves to the strong bot (a review weighs it)."""
    return (
        available()
        and greedy_unsupported(view.rules) is None
        and view.is_my_turn
        and view.stage is not Stage.DECLARE
    )


def _declined(view: PlayerView) -> list[list[int]]:
    """The top discards each seat passed over this hand, as indices."""
    return [
        [] if seat == view.viewer else [card.index for card in declined(view, seat)]
        for seat in range(len(view.seats))
    ]


def _settled(view: PlayerView) -> int:
    """The seats that have ended a turn this hand and are not down: they hold no phase
    they may lay (they would have laid it), as a bit mask. A player who gave their phase
    up and drew fresh cards has not had the chance to lay those yet."""
    mask = 0
    for event in view.history:
        if isinstance(event, Discarded) and view.seats[event.player].laid is None:
            mask |= 1 << event.player
        elif isinstance(event, Refilled):
            mask &= ~(1 << event.player)
    return mask
