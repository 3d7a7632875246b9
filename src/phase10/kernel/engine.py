"""The Python engine behind the kernel's interface: the fallback, and the reference the
differential tests hold the kernel to.

It lists the legal actions in the kernel's order (the engine's, with the lay-downs
sorted as :func:`~phase10.kernel.convert.lay_down_order` says) and makes random
play-outs' choices with the kernel's generator, so a play-out from the same seed plays
the same actions on either side.

>>> from phase10.core import Game
>>> play = EngineGame(Game(2, seed=3))
>>> play.legal()
[(0,), (1,)]
>>> splitmix64(1)[0]
10451216379200822465
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

from phase10.bots.greedy import GreedyPlayer
from phase10.core import (
    DISTINCT_CARDS,
    WILD,
    Card,
    Game,
    IllegalActionError,
    InvalidActionError,
    PlayerView,
    SavePile,
    Stage,
)
from phase10.solver import missing

from .convert import (
    ActionKey,
    EventKey,
    StateKey,
    action_key,
    event_key,
    game_from_view,
    lay_down_order,
    state_of,
    to_action,
)
from .greedy import engine_greedy_action, engine_play_greedy

__all__ = [
    "SEARCH_DECLINED",
    "SEARCH_MAX_ACTIONS",
    "SEARCH_MAX_WEIGHT",
    "SEARCH_REDEALS",
    "EngineGame",
    "Playout",
    "check_search",
    "splitmix64",
]

#: One play-out's end: the winners (none if it stopped first), the scores, the actions played.
Playout: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], int]

_MASK = (1 << 64) - 1
#: the most actions a search's play-out plays after its candidate (a stalled hand stops there)
SEARCH_MAX_ACTIONS = 20000
#: the most times a search deals again to agree with what the other seats showed
SEARCH_REDEALS = 64
#: the most passed-over discards per seat a search's deal is checked against (the latest)
SEARCH_DECLINED = 8
#: the most a card kind's weight may be (:meth:`EngineGame.search`'s ``weights``)
SEARCH_MAX_WEIGHT = 1e6
#: 2 ** -53: a 53-bit number to a fraction of one
_UNIT = 1.0 / 9007199254740992.0
#: per seat, a weight for each card kind, or None (as likely as any card unseen)
Weights: TypeAlias = list[list[float] | None]


def splitmix64(state: int) -> tuple[int, int]:
    """The next number of the SplitMix64 generator from ``state``, and the new state (what
    the kernel's random play-outs choose their actions with)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


class EngineGame:
    """An engine game with :class:`~phase10.kernel.KernelGame`'s methods."""

    def __init__(self, game: Game) -> None:
        check_game(game)
        self.game = game.copy()

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def stage(self) -> Stage:
        """The stage of the turn."""
        return self.game.stage

    @property
    def current(self) -> int:
        """The seat to move."""
        return self.game.current

    @classmethod
    def from_view(cls, view: PlayerView) -> EngineGame:
        """An engine game that agrees with all ``view`` shows, as
        :meth:`KernelGame.from_view <phase10.kernel.KernelGame.from_view>` makes one. It
        has no history, so its greedy play does not know the cards each player took from
        the discard pile (the kernel's does): their play-outs may differ."""
        if view.viewer is None:
            raise ValueError("a spectator's view has no player to search for")
        return cls(game_from_view(view))

    def legal(self) -> list[ActionKey]:
        keys = [action_key(action) for action in self.game.legal_actions]
        lays = sorted((key for key in keys if key[0] == 4), key=lay_down_order)
        return lays + [key for key in keys if key[0] != 4]

    def apply(self, action: ActionKey) -> list[EventKey]:
        try:  # (the engine's check is the one judge: a second membership test only costs)
            events = self.game.apply(to_action(action))
        except (IllegalActionError, InvalidActionError) as error:
            raise ValueError(f"not a legal action now: {error}") from None
        return [event_key(event) for event in events]

    def state(self) -> StateKey:
        return state_of(self.game)

    def to_game(self) -> Game:
        return self.game.copy()

    def play_random(
        self, seed: int, max_actions: int = -1, *, record: bool = False
    ) -> tuple[int, list[ActionKey] | None]:
        check_bounds(0, max_actions)
        chosen: list[ActionKey] | None = [] if record else None
        played, _ = self._play(seed & _MASK, max_actions, chosen)
        return played, chosen

    def _play(
        self, state: int, max_actions: int, chosen: list[ActionKey] | None = None
    ) -> tuple[int, int]:
        """Random play from the generator ``state``: (actions played, the state after)."""
        played = 0
        while not self.game.is_over and (max_actions < 0 or played < max_actions):
            legal = self.legal()
            if not legal:
                break
            number, state = splitmix64(state)
            key = legal[number % len(legal)]
            if chosen is not None:
                chosen.append(key)
            self.game.apply_unchecked(self.game.check(to_action(key)))
            played += 1
        return played, state

    def determinize(self, viewer: int, known: Sequence[Sequence[int]], seed: int) -> EngineGame:
        twin, _ = self._determinized(viewer, known, seed & _MASK)
        return twin

    def _determinized(
        self,
        viewer: int,
        known: Sequence[Sequence[int]],
        state: int,
        weights: Weights | None = None,
    ) -> tuple[EngineGame, int]:
        game = self.game
        check_known(known, [len(seat.hand) for seat in game.seats], viewer)
        twin = EngineGame(game)
        seats = twin.game.seats
        private = game.rules.save_pile is SavePile.PRIVATE
        pool: list[Card] = []
        drawn = [0] * len(seats)
        for player, seat in enumerate(seats):
            if player == viewer:
                continue
            left = Counter(Card.from_index(index) for index in known[player])
            kept = []
            for card in seat.hand:
                if left[card] > 0:
                    left[card] -= 1
                    kept.append(card)
                else:
                    pool.append(card)
            drawn[player] = len(seat.hand) - len(kept)
            seat.hand = kept
            if private:  # a private save pile: only its size is known
                pool += seat.saved
        pool += twin.game.draw_pile
        if weights is not None:  # the kernel's determinize_weighted, draw for draw
            for player, seat in enumerate(seats):
                row = weights[player]
                for _ in range(drawn[player]):
                    number, state = splitmix64(state)
                    if row is None:
                        pick = number % len(pool)
                    else:
                        u = (number >> 11) * _UNIT * sum(row[card.index] for card in pool)
                        pick = 0
                        while pick < len(pool) - 1:
                            u -= row[pool[pick].index]
                            if u < 0:
                                break
                            pick += 1
                    seat.hand.append(pool[pick])
                    pool[pick] = pool[-1]
                    pool.pop()
            drawn = [0] * len(seats)
        for i in reversed(range(1, len(pool))):
            number, state = splitmix64(state)
            j = number % (i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        for player, seat in enumerate(seats):
            seat.hand += pool[: drawn[player]]
            del pool[: drawn[player]]
            if private and player != viewer:
                seat.saved = pool[: len(seat.saved)]
                del pool[: len(seat.saved)]
        twin.game.draw_pile = pool
        number, state = splitmix64(state)
        twin.game.rng = random.Random(number)
        return twin, state

    def playouts(
        self,
        viewer: int,
        known: Sequence[Sequence[int]],
        count: int,
        seed: int,
        max_actions: int = -1,
    ) -> list[Playout]:
        check_bounds(0, max_actions)
        return self._playouts(
            viewer, known, count, seed, lambda twin, state: twin._play(state, max_actions)
        )

    def _playouts(
        self,
        viewer: int,
        known: Sequence[Sequence[int]],
        count: int,
        seed: int,
        play: Callable[[EngineGame, int], tuple[int, int]],
    ) -> list[Playout]:
        """``count`` games, each from a fresh determinization played by ``play`` (which
        takes the generator's state and gives the actions played and the state after)."""
        if count < 0:
            raise ValueError(f"a count of play-outs, not {count}")
        state = seed & _MASK
        results: list[Playout] = []
        for _ in range(count):
            twin, state = self._determinized(viewer, known, state)
            played, state = play(twin, state)
            scores = tuple(seat.score for seat in twin.game.seats)
            results.append((tuple(twin.game.winners), scores, played))
        return results

    def greedy_action(self, player: int, rng: random.Random) -> ActionKey:
        return engine_greedy_action(self.game, player, rng)

    def play_greedy(
        self, rngs: Sequence[random.Random], max_actions: int = -1, *, record: bool = False
    ) -> tuple[int, list[ActionKey] | None]:
        return engine_play_greedy(self.game, rngs, max_actions, record=record)

    def greedy_playouts(
        self,
        viewer: int,
        known: Sequence[Sequence[int]],
        count: int,
        seed: int,
        max_actions: int = -1,
    ) -> list[Playout]:
        check_bounds(0, max_actions)

        def play(twin: EngineGame, state: int) -> tuple[int, int]:
            rngs = []
            for _ in twin.game.seats:  # each seat's generator, from the same stream
                number, state = splitmix64(state)
                rngs.append(random.Random(number))
            played, _ = engine_play_greedy(twin.game, rngs, max_actions)
            return played, state

        return self._playouts(viewer, known, count, seed, play)

    def search(
        self,
        viewer: int,
        known: Sequence[Sequence[int]],
        candidates: Sequence[int],
        count: int,
        seed: int,
        hands: int = 1,
        max_actions: int = SEARCH_MAX_ACTIONS,
        settled: int = 0,
        declined: Sequence[Sequence[int]] | None = None,
        *,
        redeal: bool = True,
        weights: Sequence[Sequence[float] | None] | None = None,
    ) -> NDArray[np.int32]:
        game = self.game
        legal = self.legal()
        check_search(game.current, game.is_over, len(legal), viewer, candidates, count)
        check_bounds(hands, max_actions)
        check_known(known, [len(seat.hand) for seat in game.seats], viewer)
        seats = game.num_players
        weighted = check_weights(weights, seats, viewer)
        passed = [
            [] if p == viewer else list(cards)[-SEARCH_DECLINED:]
            for p, cards in enumerate(declined or [[]] * seats)
        ]
        settled &= ~(1 << viewer)
        out = np.zeros((count, len(candidates), seats, 3), dtype=np.int32)
        state = seed & _MASK
        for i in range(count):
            twin = EngineGame(game)
            for _ in range(SEARCH_REDEALS if redeal else 0):
                twin, state = self._determinized(viewer, known, state, weighted)
                if _deal_agrees(twin.game, settled, passed):
                    break
            numbers = []
            for _ in range(seats):  # each seat's generator, from the same stream
                number, state = splitmix64(state)
                numbers.append(number)
            for c, index in enumerate(candidates):
                play = EngineGame(twin.game)
                play.game.apply(to_action(legal[index]))
                left = hands - (play.game.hand_number - game.hand_number)  # (it may end one)
                if hands <= 0 or left > 0:
                    rngs = [random.Random(number) for number in numbers]
                    engine_play_greedy(play.game, rngs, max_actions, hands=max(left, 0))
                for seat, info in enumerate(play.game.seats):
                    won = seat in play.game.winners
                    out[i, c, seat] = (len(info.completed), info.score, won)
        return out

    def copy(self) -> EngineGame:
        return EngineGame(self.game)


def _deal_agrees(game: Game, settled: int, declined: Sequence[Sequence[int]]) -> bool:
    """What the kernel's ``deal_agrees`` checks: no seat in the bit mask ``settled`` holds a
    phase it may lay, and no card a seat passed over (``declined``) would bring it closer to
    its phases now, as the greedy bot judges (a Wild is not held against it)."""
    judge = GreedyPlayer(random.Random(0))
    natural_min = game.rules.natural_min
    for seat, info in enumerate(game.seats):
        passed = [Card.from_index(c) for c in declined[seat] if c != WILD.index]
        if not (settled >> seat & 1 or declined[seat]):
            continue
        allowed = game.allowed_phases(seat)  # in any order, every phase it may lay
        if not allowed:
            continue
        if settled >> seat & 1 and any(
            missing(game.phase_of(index), info.hand, natural_min) == 0 for index in allowed
        ):
            return False
        view = game.view(seat)
        if any(judge.wants(view, card) for card in passed):
            return False
    return True


def check_weights(
    weights: Sequence[Sequence[float] | None] | None, players: int, viewer: int
) -> Weights | None:
    """``weights`` for a search, checked (ValueError), as single-precision numbers as the
    kernel keeps them; None where no seat but the viewer has any (the viewer's are unused:
    it deals no cards to itself)."""
    if weights is None:
        return None
    if len(weights) != players:
        raise ValueError(f"weights: one per player ({players})")
    out: Weights = []
    for seat, row in enumerate(weights):
        if row is None:
            out.append(None)
            continue
        if len(row) != DISTINCT_CARDS:
            raise ValueError(f"weights: {DISTINCT_CARDS} per player")
        values = [float(value) for value in row]
        if not all(0 < value <= SEARCH_MAX_WEIGHT for value in values):  # (NaN fails too)
            raise ValueError("weights: from above 0 to 1e6")
        out.append(None if seat == viewer else [float(np.float32(v)) for v in values])
    return out if any(row is not None for row in out) else None


def check_game(game: object) -> None:
    """TypeError unless ``game`` is an engine game (what both players start from)."""
    if not isinstance(game, Game):
        raise TypeError(f"a kernel game starts from a phase10 Game, not {game!r}")


def check_known(known: Sequence[Sequence[int]], hands: Sequence[int], viewer: int) -> None:
    """ValueError unless ``known`` lists, per seat, card indices that seat may hold: no more
    than its hand's ``hands[seat]`` cards (the viewer's own entry is not used: it sees its
    hand); ``viewer`` must be a seat."""
    seats = len(hands)
    if not (isinstance(viewer, int) and 0 <= viewer < seats):
        raise ValueError(f"the viewer is a seat from 0 to {seats - 1}, not {viewer!r}")
    if len(known) != seats:
        raise ValueError(f"known: one list of card indices per seat ({seats}), not {len(known)}")
    for seat, cards in enumerate(known):
        if not all(isinstance(c, int) and 0 <= c < DISTINCT_CARDS for c in cards):
            raise ValueError(
                f"known: seat {seat}'s cards are indices from 0 to {DISTINCT_CARDS - 1}"
            )
        if seat != viewer and len(cards) > hands[seat]:
            raise ValueError(
                f"known: seat {seat} holds {hands[seat]} cards, not the {len(cards)} listed"
            )


def check_bounds(hands: int, max_actions: int) -> None:
    """ValueError unless ``hands`` is 0 (to the game's end) or more and ``max_actions`` -1
    (no bound) or more."""
    if not (isinstance(hands, int) and hands >= 0):
        raise ValueError(f"hands is 0 (to the game's end) or more, not {hands!r}")
    if not (isinstance(max_actions, int) and max_actions >= -1):
        raise ValueError(f"max_actions is -1 (no bound) or more, not {max_actions!r}")


def check_search(
    current: int, over: bool, legal: int, viewer: int, candidates: Sequence[int], count: int
) -> None:
    """Raise ValueError unless ``viewer`` is to move and ``candidates`` index ``legal`` actions."""
    if over:
        raise ValueError("the game is over")
    if viewer != current:
        raise ValueError(f"player {viewer} is not the one to move")
    if not candidates:
        raise ValueError("no candidate actions to compare")
    if not 0 <= count <= 1_000_000:
        raise ValueError(f"a count of play-outs from 0 to 1000000, not {count}")
    for index in candidates:
        if not 0 <= index < legal:
            raise ValueError(f"candidate {index} is not an index into the {legal} legal actions")
