"""Phase 10 as an OpenSpiel Python game: importing this module registers ``python_phase10``.

Chance deals the cards, as OpenSpiel's own card games do. The first chance node picks the
first dealer; then one chance node deals each card (ten rounds in turn order from the
player after the dealer, then the turned-up card), uniform over the cards not yet dealt;
and each draw from the draw pile is a chance node over the cards in it (after a
reshuffle, over the reshuffled pile), and so is each card of a refill after a phase is
given up. Saved cards stay out of later deals. Nothing in the state fixes a card before
it is dealt or drawn, so search that samples chance samples the unseen cards.

The engine plays every action: a hand's cards are handed to it as the order of its
shuffled deck, and a drawn card is put on top of its draw pile (see ``_Dealer``).
Parameters: ``players`` (2-6), ``rules`` (a preset name, ``"official"`` by default),
``phases`` (play only the first N phases of the preset's sequence; 0: all),
``max_steps`` (the step cap on players' actions: the game then ends there),
``phase_reward`` (shaping, as the other environments': that much more in a player's return
for each phase completed; 0 by default) and ``version`` (the encoding's: 3 by default, with the save pile, giving up and the
Anti-phase card; 2 and 1 give the actions and tensors of those versions, which refuse the
rules they have no actions for).

>>> import pyspiel
>>> import phase10.rl.openspiel
>>> game = pyspiel.load_game("python_phase10", {"players": 3, "phases": 1})
>>> state = game.new_initial_state()
>>> state.chance_outcomes()[:2]
[(0, 0.333...), (1, 0.333...)]
>>> state.apply_action(2)  # player 2 deals first
>>> state.action_to_string(state.current_player(), 48)
'deal W to p0'
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(0, ['draw', 'take'])
>>> len(state.observation_tensor(2)) == game.observation_tensor_size()
True
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, MutableSequence
from typing import Any

import numpy as np
import pyspiel

from phase10.core import (
    DISTINCT_CARDS,
    HAND_SIZE,
    PRESETS,
    Arrangement,
    Card,
    Discard,
    Event,
    Game,
    HandStarted,
    Rules,
    Save,
    SavePile,
    format_cards,
)

from .core import DEFAULT_MAX_STEPS, EnvCore
from .encoding import CARDS, DRAW, LATEST, TAKE, VERSIONS, Layout
from .render import render_text

__all__ = ["Phase10Game", "Phase10State"]

_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "rules": "official",
    "phases": 0,
    "max_steps": DEFAULT_MAX_STEPS,
    "phase_reward": 0.0,
    "version": LATEST,
}
_CARD = tuple(Card.from_index(index) for index in range(DISTINCT_CARDS))

_GAME_TYPE = pyspiel.GameType(
    short_name="python_phase10",
    long_name="Python Phase 10",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _rules(params: dict[str, Any]) -> Rules:
    """The rules the parameters name; ValueError says what is wrong.

    >>> _rules({"rules": "official", "phases": 2}).phase_numbers
    (1, 2)
    >>> _rules({"rules": "offical", "phases": 0})
    Traceback (most recent call last):
    ...
    ValueError: python_phase10 has no rules 'offical': choose one of ...
    >>> _rules({"rules": "official", "phases": 11})
    Traceback (most recent call last):
    ...
    ValueError: phases is 1 to 10 (the first N of the rules' phases), or 0 for all, not 11
    """
    name = params["rules"]
    if not isinstance(name, str) or name not in PRESETS:
        choices = ", ".join(sorted(PRESETS))
        raise ValueError(f"python_phase10 has no rules {name!r}: choose one of {choices}")
    rules = PRESETS[name]
    phases = params["phases"]
    numbers = rules.phase_numbers
    if isinstance(phases, bool) or not isinstance(phases, int) or not 0 <= phases <= len(numbers):
        raise ValueError(
            f"phases is 1 to {len(numbers)} (the first N of the rules' phases), or 0 for all, "
            f"not {phases!r}"
        )
    if phases:
        rules = rules.with_options(phases=numbers[:phases])
    return rules


def _whole(params: dict[str, Any], name: str, low: int, high: int) -> int:
    """The whole-number parameter ``name``, checked to lie in ``low``..``high``."""
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} is a whole number from {low} to {high}, not {value!r}")
    return value


class Phase10Game(pyspiel.Game):
    """The game: its parameters and sizes."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        players = _whole(merged, "players", 2, 6)
        self.rules = _rules(merged)
        version = merged["version"]
        if version not in VERSIONS[1:]:  # (version 0 lacks the information state's block)
            spoken = ", ".join(map(str, VERSIONS[1:-1])) + f" and {VERSIONS[-1]}"
            raise ValueError(
                f"python_phase10 speaks versions {spoken} of the encoding, not {version}"
            )
        # the information state is the observation followed by the known-cards block
        self.layout = Layout(players, self.rules, version=version)
        self.observation_size = self.layout.known_offset
        self.max_steps = _whole(merged, "max_steps", 1, 10**7)
        self.phase_reward = float(merged["phase_reward"])
        if not math.isfinite(self.phase_reward):
            raise ValueError(f"phase_reward is a finite number, not {self.phase_reward}")
        #: the engine's random generator in every state's game (see _Dealer)
        self.dealer = _Dealer()
        #: the core of every state before its first deal (nothing steps it)
        self.blank = self.new_core(self.rules)
        deal = HAND_SIZE * players + 1
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.num_actions,
            max_chance_outcomes=max(self.layout.card_indices, players),
            num_players=players,
            # each phase completed (or lost to the Anti-phase card) moves a return by the
            # phase reward
            min_utility=-1.0 - abs(self.phase_reward) * self.rules.phase_count,
            max_utility=1.0 + abs(self.phase_reward) * self.rules.phase_count,
            utility_sum=None,
            # every action may draw (one chance node), refill a hand (up to ten) or end a
            # hand (a deal)
            max_game_length=1 + deal + self.max_steps * (1 + HAND_SIZE + deal),
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> Phase10State:
        return Phase10State(self)

    def new_core(self, rules: Rules) -> EnvCore:
        """A core stepping this game's games (in Python: chance deals the cards)."""
        return EnvCore(
            self.layout.players,
            rules=rules,
            max_steps=self.max_steps,
            phase_reward=self.phase_reward,
            version=self.layout.version,
            kernel=False,
        )

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Phase10Observer:
        return Phase10Observer(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


class _Dealer(random.Random):
    """The random generator of the engine's game: it shuffles as chance has dealt.

    Given :attr:`tops`, the next shuffle (a reshuffle before a draw or during a refill)
    puts those cards on top, the first to be drawn first; given :attr:`deck`, the next
    shuffle after that (a new hand's) makes the deck exactly that. Otherwise a shuffle
    leaves the cards as they are. One dealer serves every state of a game: it is set just
    before the engine's call that shuffles, which consumes it.
    """

    def __init__(self) -> None:
        super().__init__(0)
        self.deck: list[Card] | None = None
        self.tops: list[Card] = []

    def shuffle(self, x: MutableSequence[Any]) -> None:
        if self.tops:
            _on_top(x, self.tops)
            self.tops = []
        elif self.deck is not None:
            x[:] = self.deck
            self.deck = None


def _to_top(pile: MutableSequence[Card], card: Card) -> None:
    """Swap one copy of ``card`` to the top (the end) of ``pile``."""
    at = len(pile) - 1 - pile[::-1].index(card)
    pile[at], pile[-1] = pile[-1], pile[at]


def _on_top(pile: MutableSequence[Card], cards: list[Card]) -> None:
    """Move one copy of each of ``cards`` to the top of ``pile``, ``cards[0]`` the top."""
    for card in cards:
        pile.remove(card)
    pile.extend(reversed(cards))


class _Play:
    """Everything a state holds, in one object that copies itself fast (OpenSpiel clones a
    Python state by deep-copying each of its attributes)."""

    def __init__(self, game: Phase10Game) -> None:
        self.game = game
        self.players = game.num_players()
        self.cards = game.layout.card_indices  # the chance outcomes: card indices
        self.core = game.blank  # shared and never stepped: replaced at the first deal
        self.started = False  # whether the first hand has been dealt
        self.dealer = game.dealer
        self.first_dealer: int | None = None
        # a deal in progress: who gets each card in turn (None: the turned-up card), the
        # cards dealt so far and how many of each are left in the deck
        self.deal_to: list[int | None] | None = None
        self.dealt: list[int] = []
        self.left: list[int] = []
        # the action that ended a hand, the game before it and the cards its refill drew
        # after a reshuffle: played again with the deal
        self.resume: tuple[EnvCore, int, list[Card]] | None = None
        self.drawing = False  # a draw waits for its card
        # a discard or save that ends a turn after giving up a phase waits for the cards
        # of its refill: the action, how many cards at most, those chance chose so far
        self.refilling: tuple[int, int, list[int]] | None = None
        self.returns = [0.0] * self.players
        # per viewer: the hand it was written for, the events written and their text
        self.texts: dict[int, tuple[int, int, str]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        twin = object.__new__(_Play)
        twin.__dict__.update(self.__dict__)
        if self.started:
            twin.core = self.core.copy(rng=self.dealer)
        if self.resume is not None:
            core, action, tops = self.resume
            twin.resume = (core.copy(rng=self.dealer), action, tops)
        if self.refilling is not None:
            action, needed, picks = self.refilling
            twin.refilling = (action, needed, list(picks))
        twin.dealt = list(self.dealt)
        twin.left = list(self.left)
        twin.returns = list(self.returns)
        twin.texts = dict(self.texts)  # the texts themselves are shared: strings
        return twin

    def history_text(self, viewer: int) -> str:
        """The information-state string: the scores, phases and ``viewer``'s hand, then this
        hand's events as ``viewer`` saw them (the hand is in it so that states with the
        same string have the same legal actions, resampled ones included). The events' text is kept and only new events are written (the
        history of a state and of its clones only grows within a hand)."""
        game = self.core.game
        seen = game.seen_history(viewer)
        hand, written, text = self.texts.get(viewer, (-1, 0, ""))
        if hand != game.hand_start or written > len(seen):
            written, text = 0, ""
        if written < len(seen):
            text += "".join(f"\n{event!r}" for event in seen[written:])
            self.texts[viewer] = (game.hand_start, len(seen), text)
        seats = game.seats
        held = format_cards(sorted(seats[viewer].hand, key=lambda card: card.sort_key))
        head = (
            f"p{viewer} hand {game.hand_number} scores {[s.score for s in seats]} "
            f"phases {[s.phase for s in seats]} done {[sorted(s.completed) for s in seats]} "
            f"holding {held}"
        )
        if game.rules.save_pile is not SavePile.OFF:  # kept from hand to hand
            saved = format_cards(sorted(seats[viewer].saved, key=lambda card: card.sort_key))
            head += f" saved {saved} sizes {[len(s.saved) for s in seats]}"
        return head + text

    # -- whose turn -------------------------------------------------------------------

    def chance(self) -> bool:
        return (
            self.first_dealer is None
            or self.deal_to is not None
            or self.drawing
            or self.refilling is not None
        )

    def outcomes(self) -> list[tuple[int, float]]:
        if self.first_dealer is None:
            return [(seat, 1 / self.players) for seat in range(self.players)]
        if self.deal_to is not None:
            counts: Counter[int] | list[int] = self.left
        elif self.refilling is not None:
            counts = self.refill_pool(self.refilling[0], self.refilling[2])
        else:
            game = self.core.game
            pile = game.draw_pile or game.discard_pile[:-1]  # drawing from a reshuffle
            counts = Counter(card.index for card in pile)
        cards = range(self.cards)
        total = sum(counts[index] for index in cards)
        return [(index, counts[index] / total) for index in cards if counts[index] > 0]

    def chance_text(self, action: int) -> str:
        if self.first_dealer is None:
            return f"p{action} deals first"
        card = _CARD[action]
        if self.deal_to is not None:
            seat = self.deal_to[len(self.dealt)]
            return f"deal {card} to p{seat}" if seat is not None else f"turn up {card}"
        if self.refilling is not None:
            return f"p{self.core.current} refills with {card}"
        return f"p{self.core.current} draws {card}"

    # -- chance -----------------------------------------------------------------------

    def start_deal(self, first: int, players: tuple[int, ...], saved: list[Card]) -> None:
        """Deal ten rounds in turn order from ``first`` (as the engine deals), then the
        turned-up card, from the deck but the ``saved`` cards (they stay out of the deal)."""
        at = players.index(first)
        order = [*players[at:], *players[:at]]
        self.deal_to = [*(order * HAND_SIZE), None]
        self.dealt = []
        deck = self.game.rules.deck_counts  # the rules' deck (option deck)
        self.left = [deck.get(_CARD[index], 0) for index in range(self.cards)]
        for card in saved:
            self.left[card.index] -= 1

    def apply_chance(self, action: int) -> None:
        if self.first_dealer is None:
            self.first_dealer = action
            everyone = tuple(range(self.players))
            self.start_deal((action + 1) % self.players, everyone, [])
            return
        if self.deal_to is not None:
            if not self.left[action]:
                raise ValueError(f"no {_CARD[action]} is left to deal")
            self.left[action] -= 1
            self.dealt.append(action)
            if len(self.dealt) == len(self.deal_to):
                self.finish_deal()
            return
        if self.refilling is not None:
            move, needed, picks = self.refilling
            picks.append(action)
            if len(picks) == needed:
                self.refilling = None
                self.play(move, picks)
            return
        game = self.core.game
        card = _CARD[action]
        if game.draw_pile:
            _to_top(game.draw_pile, card)
        else:
            self.dealer.tops = [card]  # the engine reshuffles first
        self.drawing = False
        self.add(self.core.step(DRAW))

    def finish_deal(self) -> None:
        assert self.deal_to is not None
        cards = [_CARD[index] for index in self.dealt]
        if not self.started:
            assert self.first_dealer is not None
            hands: list[list[Card]] = [[] for _ in range(self.players)]
            for card, seat in zip(cards, self.deal_to, strict=True):
                if seat is not None:
                    hands[seat].append(card)
            arrangement = Arrangement(tuple(map(tuple, hands)), (cards[-1],))
            game = Game(
                self.players,
                rules=self.game.rules,
                seed=0,
                dealer=self.first_dealer,
                arrangement=arrangement,
            )
            game.rng = self.dealer
            self.core = self.game.new_core(self.game.rules)
            self.core.load(game)
            self.started = True
        else:
            assert self.resume is not None
            rest = [_CARD[index] for index in range(self.cards) for _ in range(self.left[index])]
            self.core, action, tops = self.resume
            self.resume = None
            self.dealer.tops = list(tops)  # a refill's reshuffle comes before the deal
            self.dealer.deck = [*rest, *reversed(cards)]  # the engine deals from the end
            self.add(self.core.step(action))
            self.dealer.tops, self.dealer.deck = [], None  # (both consumed: no leftovers)
        game = self.core.game
        for seat, want in zip(self.deal_to, cards, strict=True):
            if seat is not None and want not in game.seats[seat].hand:
                raise RuntimeError(f"the engine dealt p{seat} other cards than chance did")
        self.deal_to = None

    # -- players ----------------------------------------------------------------------

    def apply_player(self, action: int) -> None:
        core = self.core
        if action == DRAW and core.mask()[DRAW]:
            self.drawing = True  # the card is chance's
            return
        if action == TAKE:  # taking the top discard never ends a hand
            self.add(core.step(action))
            return
        needed = self.refill_size(action)
        if needed:
            self.refilling = (action, needed, [])  # the cards are chance's
            return
        self.play(action, [])

    def refill_size(self, action: int) -> int:
        """How many cards the refill after ``action`` may draw (0: none, or no card to draw):
        a discard or save that ends the turn of a player who gave up their phase."""
        core = self.core
        seat = core.game.seats[core.current]
        if not seat.refill:
            return 0
        mask = core.mask()
        if not 0 <= action < len(mask) or not mask[action]:
            return 0  # core.step refuses it
        move = core.layout.decode(core.game, action)
        if not isinstance(move, Discard | Save):
            return 0
        held = len(seat.hand) - 1
        if held == 0:  # the last card discarded: the player goes out
            return 0
        available = len(core.game.draw_pile) + len(self.reshuffled(move))
        return min(HAND_SIZE - held, available)

    def reshuffled(self, move: Discard | Save) -> list[Card]:
        """The cards the discard pile reshuffles into once ``move`` is played (all but the
        top: a discard's card, or the old top under a save)."""
        pile = self.core.game.discard_pile
        return list(pile) if isinstance(move, Discard) else list(pile[:-1])

    def refill_pool(self, action: int, picks: list[int]) -> list[int]:
        """Copies of each card the next card of a refill may be, ``picks`` chosen so far:
        the draw pile's, then (once it is drawn out) those of the reshuffled discard pile."""
        core = self.core
        draw = core.game.draw_pile
        counts = [0] * self.cards
        if len(picks) < len(draw):
            cards: list[Card] = draw
        else:
            move = core.layout.decode(core.game, action)
            assert isinstance(move, Discard | Save)
            cards = self.reshuffled(move)
            picks = picks[len(draw) :]
        for card in cards:
            counts[card.index] += 1
        for index in picks:
            counts[index] -= 1
        return counts

    def play(self, action: int, refill: list[int]) -> None:
        """Play a player's action (other than a draw), its refill's cards (if any) on top."""
        core = self.core
        tops: list[Card] = []
        if refill:
            draw = core.game.draw_pile
            cards = [_CARD[index] for index in refill]
            _on_top(draw, cards[: len(draw)])
            tops = cards[len(draw) :]  # drawn after the engine reshuffles
            self.dealer.tops = list(tops)
        before = core.copy(rng=self.dealer)
        rewards = core.step(action)
        self.dealer.tops = []
        start = _hand_start(core.last_events)
        if start is None:
            self.add(rewards)
            return
        # The engine dealt the next hand from an unshuffled deck: deal it by chance, then
        # play the action again on the game as it was, with the deck chance dealt.
        self.resume = (before, action, tops)
        saved = [card for seat in core.game.seats for card in seat.saved]
        self.start_deal(start.first_player, start.players, saved)

    def add(self, rewards: list[float]) -> None:
        for seat, reward in enumerate(rewards):
            self.returns[seat] += reward


def _hand_start(events: list[Event]) -> HandStarted | None:
    for event in events:
        if isinstance(event, HandStarted):
            return event
    return None


class Phase10State(pyspiel.State):
    """One game in progress (its whole state is one fast-copying attribute)."""

    def __init__(self, game: Phase10Game) -> None:
        super().__init__(game)
        self._play = _Play(game)

    @property
    def core(self) -> EnvCore:
        """The stepping core: its ``game`` is the engine's game (valid once dealt)."""
        return self._play.core

    @property
    def engine_game(self) -> Game:
        """The engine's game being played (once the first hand is dealt)."""
        return self._play.core.game

    def current_player(self) -> int:
        play = self._play
        if play.chance():
            return int(pyspiel.PlayerId.CHANCE)
        if play.core.done:
            return int(pyspiel.PlayerId.TERMINAL)
        return play.core.current

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._play.outcomes() if self._play.chance() else []

    def _legal_actions(self, player: int) -> list[int]:
        play = self._play
        if play.chance() or play.core.done or player != play.core.current:
            return []
        return play.core.legal_actions()

    def _apply_action(self, action: int) -> None:
        play = self._play
        if play.chance():
            play.apply_chance(action)
        else:
            play.apply_player(action)

    def _action_to_string(self, player: int, action: int) -> str:
        play = self._play
        if player == pyspiel.PlayerId.CHANCE:
            return play.chance_text(action) if play.chance() else f"chance {action}"
        core = play.core
        if not play.chance() and not core.done and player == core.current:
            return core.describe(action)
        return core.layout.action_name(action)

    def is_terminal(self) -> bool:
        return not self._play.chance() and self._play.core.done

    def returns(self) -> list[float]:
        return list(self._play.returns)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> Phase10State:
        """A state ``player_id`` cannot tell from this one, drawn at random: the other
        players' hands (but the cards they are known to hold), their save piles unless the
        piles are public, and the draw pile are dealt again from the cards this player has
        not seen. Used by ISMCTS and other
        imperfect-information search. Only the cards move: the other players' own past
        events (their deals and draws) are left as they were, so their information-state
        strings in the new state name their new hands but their old dealt cards."""
        twin = self.clone()
        play = twin._play
        if play.chance() or play.core.done:
            return twin  # type: ignore[no-any-return]
        game = play.core.game
        tracker = play.core.tracker
        assert tracker is not None
        others = [seat for seat in game.players_in_hand if seat != player_id]
        pool = list(game.draw_pile)
        hidden = game.rules.save_pile is SavePile.PRIVATE
        piles = [seat for seat in range(self._play.players) if seat != player_id and hidden]
        for seat in piles:  # only their sizes are known (a tie-break's idle seats' too)
            pool.extend(game.seats[seat].saved)
        kept: dict[int, list[Card]] = {}
        for seat in others:
            known = Counter(tracker.held(seat))
            kept[seat] = []
            for card in game.seats[seat].hand:
                if known[card] > 0:
                    known[card] -= 1
                    kept[seat].append(card)
                else:
                    pool.append(card)
        for last in range(len(pool) - 1, 0, -1):  # Fisher-Yates with the caller's sampler
            pick = min(int(probability_sampler() * (last + 1)), last)
            pool[last], pool[pick] = pool[pick], pool[last]
        for seat in others:
            needed = len(game.seats[seat].hand) - len(kept[seat])
            game.seats[seat].hand = kept[seat] + pool[:needed]
            del pool[:needed]
        for seat in piles:
            size = len(game.seats[seat].saved)
            game.seats[seat].saved = pool[:size]
            del pool[:size]
        game.draw_pile = pool
        play.core.refresh()
        return twin  # type: ignore[no-any-return]

    def __str__(self) -> str:
        play = self._play
        if play.first_dealer is None:
            return "choosing the first dealer"
        if play.deal_to is not None:
            return f"dealing: {len(play.dealt)} of {len(play.deal_to)} cards dealt"
        return render_text(play.core.game, play.core.current)


class Phase10Observer:
    """Tensors and strings for one player (OpenSpiel's PyObserver interface).

    The observation tensor is the environments' observation vector without its
    known-cards block (in version 1, ``phase10_v0``'s layout). The information-state
    tensor adds, for each other seat in turn order, the cards it is known to hold (taken
    from the discard pile and not played since): that is the observation of
    ``phase10_v3`` (versions 1 and 2: ``phase10_v1``, ``phase10_v2``). Strings: the rendered view, and for the information
    state the scores, phases and the player's hand, then the events of the hand as that
    player saw them.
    Without private information the observing player's hand is left out. At chance nodes
    (a deal or a draw in progress) the tensors are all zeros.
    """

    def __init__(self, game: Phase10Game, iig_obs_type: Any) -> None:
        self.layout = game.layout
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.full = np.zeros(self.layout.observation_size, np.float32)
        size = self.layout.observation_size if self.perfect_recall else game.observation_size
        self.tensor = self.full[:size]
        self.dict = {"observation": self.tensor}

    def set_from(self, state: Phase10State, player: int) -> None:
        play = state._play
        if play.chance() or not play.started:
            self.full[:] = 0.0
            return
        play.core.observe(player, self.full)
        if not self.private:
            self.full[:CARDS] = 0.0
            if self.layout.version >= 3:  # the Anti-phase card in the hand
                self.full[self.layout.anti_block_offset] = 0.0

    def string_from(self, state: Phase10State, player: int) -> str:
        play = state._play
        if play.chance() or not play.started:
            return str(state)
        if self.perfect_recall:
            return play.history_text(player)
        return render_text(play.core.game, player, show_hand=self.private)


pyspiel.register_game(_GAME_TYPE, Phase10Game)
