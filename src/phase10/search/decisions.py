"""One decision weighed over sampled deals: the review's weighing, and the hint's.

:func:`weigh_decision` plays every legal move (at most :data:`MAX_CANDIDATES`) from the
player's view to the hand's end over the same deals of the cards the player cannot see,
as the expert does (:class:`~phase10.search.ExpertPlayer`), a lay-down with the rest of
its turn. The strong bot's choice stands unless another move beats it beyond the
search's noise, after a closer look at the two.

Its deals come from the decision itself (:func:`decision_rng`: the view's content and a
seed), so a review of a game and the hints given during it see the same deals at every
decision: a player who follows every hint is reviewed with no mistakes.

>>> from phase10.core import Game
>>> game = Game(2, seed=4)
>>> view = game.view(game.current)
>>> decision_rng(view).random() == decision_rng(view).random()
True
>>> weighed = weigh_decision(view, None, decision_rng(view), deals=8)
>>> weighed.action(weighed.best) in view.legal_actions
True
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from phase10.bots.strong import StrongPlayer
from phase10.core import Action, PlayerView
from phase10.kernel import KernelGame, steps_left, to_action
from phase10.kernel.convert import action_key, game_from_view

from .expert import (
    CLOSER_LOOK,
    KERNEL_STEPS,
    MISTAKE,
    ExpertPlayer,
    Weighing,
    _declined,
    _settled,
    fits,
    greedy_hits,
    lead_held,
    noise,
)

__all__ = [
    "MARGIN",
    "MAX_CANDIDATES",
    "REVIEW_STEPS",
    "WHOLE_TURNS",
    "DecisionSearch",
    "HandOver",
    "Weighed",
    "decision_rng",
    "view_after",
    "weigh_decision",
]

#: the most moves weighed at one decision (the move played and the expert's prior are
#: always among them): bounds the work a review of any record can ask for
MAX_CANDIDATES = 24
#: how many standard errors of the paired difference a mistake must exceed
MARGIN = 2.0
#: the most lay-downs of one search valued with the rest of their turn (the move played
#: and the prior's among them, then the likeliest best): each costs a search of its discards
WHOLE_TURNS = 3
#: the kernel search steps one decision's weighing may take: thrice the expert's bound,
#: as a review weighs every move, plays two out to the game's end and looks closer at
#: close calls (under edition-3's phases a decision took up to 28 million)
REVIEW_STEPS = 3 * KERNEL_STEPS


def decision_rng(view: PlayerView, seed: int = 0) -> random.Random:
    """The generator a decision's weighing draws on: seeded by everything ``view`` shows
    (this hand's events too) and ``seed``, so the same position is weighed alike, whether
    for a hint during the game or in its review afterwards."""
    text = json.dumps(view.to_dict(), sort_keys=True)
    return random.Random(hashlib.sha256(f"{seed}\n{text}".encode()).hexdigest())


class HandOver(ValueError):
    """The move ends the hand: the view after it holds a deal the player has not seen."""


def view_after(view: PlayerView, action: Action) -> PlayerView:
    """``view`` once its player has made ``action`` (a lay-down or a hit: a move that
    reveals no hidden card), as the game would show it: the engine plays the move on a
    game that agrees with the view. Raises the engine's error for an illegal move, and
    :class:`HandOver` for one that ends the hand (the next deal is hidden).

    >>> from phase10.bots.greedy import GreedyPlayer
    >>> from phase10.core import Game, LayDown
    >>> game, bot = Game(2, seed=8), GreedyPlayer(random.Random(0))
    >>> while not any(isinstance(action, LayDown) for action in game.legal_actions):
    ...     _ = game.apply(bot.choose(game.view(game.current)))
    >>> view = game.view(game.current)
    >>> lay = next(action for action in view.legal_actions if isinstance(action, LayDown))
    >>> after = view_after(view, lay)
    >>> after.seats[view.viewer].laid is not None, len(after.hand) < len(view.hand)
    (True, True)
    """
    if view.viewer is None:
        raise ValueError("a spectator's view has no player to move")
    game = game_from_view(view)
    game.apply(action)
    if game.is_over or game.hand_number != view.hand_number:
        raise HandOver(f"{action} ends the hand: what comes next is not in the view")
    after = game.view(view.viewer)
    return replace(
        after,
        history=view.history + after.history,
        hand_results=view.hand_results,
    )


class DecisionSearch:
    """The kernel searches of one decision, from the player's view alone."""

    def __init__(self, view: PlayerView, play: KernelGame, expert: ExpertPlayer, me: int):
        self.view, self.play, self.expert, self.me = view, play, expert, me
        self.known = expert._known(view)
        self.keys = play.legal()
        self.settled = _settled(view)
        self.declined = _declined(view)

    def _search(
        self,
        candidates: list[int],
        count: int,
        hands: int,
        seed: int,
        play: KernelGame | None = None,
    ) -> NDArray[np.int32]:
        return (play or self.play).search(
            self.me,
            self.known,
            candidates,
            count,
            seed,
            hands,
            settled=self.settled,
            declined=self.declined,
        )

    def hands(
        self,
        candidates: list[int],
        rng: random.Random,
        deals: int | None = None,
        firsts: Collection[int] = (),
    ) -> tuple[NDArray[np.int32], NDArray[np.float64]]:
        """Each candidate's hand's end over the same deals, and its value. A lay-down is
        valued with the rest of its turn (:meth:`_rest_of_turn`), as waiting is by its
        discard: at most :data:`WHOLE_TURNS` of them, those in ``firsts`` first."""
        count = self.expert.deals if deals is None else deals
        seed = rng.getrandbits(63)
        results = np.array(self._search(candidates, count, 1, seed))
        values = self.expert._values(results, self.view, self.me)
        means = values.mean(axis=0)
        lays = [j for j, c in enumerate(candidates) if self.keys[c][0] == 4]
        lays.sort(key=lambda j: (candidates[j] not in firsts, -means[j]))
        for j in lays[:WHOLE_TURNS]:
            turn = self._rest_of_turn(self.keys[candidates[j]], count, seed)
            if turn is not None:
                results[:, j], values[:, j] = turn
        return results, values

    def _rest_of_turn(
        self, lay: Any, count: int, seed: int
    ) -> tuple[NDArray[np.int32], NDArray[np.float64]] | None:
        """The lay-down ``lay`` played, then the greedy policy's hits and the best discard
        (by its mean) over the deals of ``seed``: a lay-down's play-out ends the turn by
        the greedy policy, where a discard's own is the one weighed, and against the best
        discard that would undervalue laying down. None: the turn ends without a discard."""
        after = self.play.copy()  # (the hidden cards lie alike: the seed deals both alike)
        after.apply(lay)
        if not greedy_hits(after, self.me, random.Random(seed)):
            return None
        drops = [i for i, key in enumerate(after.legal()) if key[0] == 2]
        if not drops:
            return None
        results = self._search(drops, count, 1, seed, after)
        values = self.expert._values(results, self.view, self.me)
        best = int(np.argmax(values.mean(axis=0)))
        return results[:, best], values[:, best]

    def wins(self, candidates: list[int], count: int, rng: random.Random) -> NDArray[np.float64]:
        """Each candidate's chance, per seat, to win the game (shared wins shared)."""
        won = self._search(candidates, count, 0, rng.getrandbits(63))[..., 2].astype(np.float64)
        shares = won / np.maximum(won.sum(axis=-1, keepdims=True), 1.0)
        return shares.mean(axis=0)  # type: ignore[no-any-return]


@dataclass
class Weighed:
    """One decision weighed: the moves (indices into ``search.keys``), each one's hand's
    end and value over the deals (None with a single move), and which of them is the
    strong bot's (``prior``), the best (``best``) and the one asked about (``mine``)."""

    search: DecisionSearch
    candidates: list[int]
    results: NDArray[np.int32] | None
    values: NDArray[np.float64] | None
    prior: int
    best: int
    mine: int
    #: the best move's lead over ``mine``, a paired difference a deal (over the closer look
    #: too, where one was taken)
    diff: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))

    def action(self, j: int) -> Action:
        """The ``j``-th candidate's action."""
        return to_action(self.search.keys[self.candidates[j]])

    @property
    def loss(self) -> float:
        return max(float(self.diff.mean()), 0.0) if len(self.diff) else 0.0

    @property
    def noise(self) -> float:
        return noise(self.diff) if len(self.diff) else 0.0

    @property
    def mistake(self) -> bool:
        """Whether ``mine`` gives up a mistake's worth against the best, beyond the noise."""
        return self.best != self.mine and len(self.diff) > 0 and flagged(self.diff)

    def weighing(self) -> Weighing:
        """The candidates as the expert reports a search (the first deals' outcomes)."""
        assert self.results is not None and self.values is not None
        search = self.search
        actions = [self.action(j) for j in range(len(self.candidates))]
        options = search.expert._options(self.results, self.values, actions, search.view)
        return Weighing(options, self.best, self.prior, search.expert.deals)


def weigh_decision(
    view: PlayerView, played: Action | None, rng: random.Random, deals: int
) -> Weighed:
    """Weigh the decision at ``view`` (its player's turn) over ``deals`` deals drawn from
    ``rng`` (:func:`decision_rng`), ``played`` among the moves (None: the strong bot's
    choice is the one asked about). Run it inside a kernel step bound
    (:data:`REVIEW_STEPS`): whether a close call gets its closer look depends on the
    steps left."""
    me = ExpertPlayer._me(view)
    play = KernelGame.from_view(view)
    keys = play.legal()
    expert = ExpertPlayer(random.Random(rng.getrandbits(32)), deals=deals)
    prior_key = action_key(StrongPlayer(random.Random(rng.getrandbits(32))).choose(view))
    played_key = prior_key if played is None else action_key(played)
    candidates = _candidates(keys, played_key, prior_key)
    search = DecisionSearch(view, play, expert, me)
    mine, prior = (candidates.index(keys.index(key)) for key in (played_key, prior_key))
    if len(candidates) < 2:
        return Weighed(search, candidates, None, None, prior, mine, mine)
    left = steps_left()
    # a closer look at two moves, and the play-outs to the game's end after, to the search
    room = fits(left, (2 * CLOSER_LOOK + 2) / len(candidates))
    results, values = search.hands(candidates, rng, firsts={candidates[mine], candidates[prior]})
    means = values.mean(axis=0)
    best = int(np.argmax(means))
    looked: NDArray[np.float64] | None = None  # the differences by which best leads prior
    if best != prior:

        def closer_look() -> NDArray[np.float64]:
            more = search.hands([candidates[prior], candidates[best]], rng, CLOSER_LOOK * deals)
            return more[1][:, 1] - more[1][:, 0]

        diff = values[:, best] - values[:, prior]
        looked = lead_held(diff, MARGIN, closer_look if room else None)
        if looked is None:
            best = prior
    if means[mine] >= means[best]:
        best, looked = mine, None
    diff = looked if looked is not None and mine == prior else values[:, best] - values[:, mine]
    if best != mine and len(diff) == len(values) and flagged(diff) and room:
        # a move is called a mistake only after a closer look, as the prior gets before it
        # is set aside on a close call: on the first deals alone a loss can read several
        # times what it is
        more = search.hands([candidates[mine], candidates[best]], rng, CLOSER_LOOK * deals)
        diff = np.concatenate([diff, more[1][:, 1] - more[1][:, 0]])
    return Weighed(search, candidates, results, values, prior, best, mine, diff)


def _candidates(keys: Sequence[Any], played: Any, prior: Any) -> list[int]:
    """Indices into ``keys`` to weigh: every move, at most :data:`MAX_CANDIDATES`, the
    move played and the prior's always among them, then discards, lay-downs and hits in
    that order (a hand with many Wilds can be laid down in dozens of ways)."""
    first = [keys.index(played)]
    if keys.index(prior) not in first:
        first.append(keys.index(prior))
    order = {2: 0, 4: 1, 3: 2}
    rest = sorted(
        (i for i in range(len(keys)) if i not in first), key=lambda i: order.get(keys[i][0], 3)
    )
    return sorted(first + rest[: MAX_CANDIDATES - len(first)])


def flagged(diff: NDArray[np.float64]) -> bool:
    """Whether the expert's choice leads the move played by a mistake's worth, beyond the
    noise (``diff``: its lead, a paired difference a deal)."""
    loss = float(diff.mean())
    return loss >= MISTAKE and loss > MARGIN * noise(diff)
