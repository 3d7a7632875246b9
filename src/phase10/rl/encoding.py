"""The integer actions and the observation vector of the Phase 10 environments.

One :class:`Layout` per table (number of players and rules) fixes both. Actions are
numbered in blocks (``G`` is the most groups any phase of the rules has, ``P`` the
number of players, ``M = P * G`` the table slots):

=============  =====  ==========================================================
first index    count  action
=============  =====  ==========================================================
0              1      draw from the draw pile
1              1      take the top discard
2              10     lay down phase ``k`` (1-10 of the rules' sequence): the
                      arrangement laying the most cards
12             10     lay down phase ``k``: the arrangement laying the fewest
                      cards (then the fewest Wilds)
22             10     declare phase ``k`` (``declare = "deal"``)
32             6      give the turned-up Wild to the player ``r`` seats on (0: self)
38             49     discard card ``c`` (card index 0-47 numbered cards, 48 Wild)
87             1      discard a Skip naming nobody
88             5      discard a Skip on the player ``r`` seats on (1-5)
93             50*M   hit card ``c`` on table slot ``s``: index ``93 + 50*s + c``;
                      ``c`` 0-47 a numbered card, 48 a Wild on a set, colour or
                      even/odd group or below a run, 49 a Wild above a run
=============  =====  ==========================================================

Version 2 (``version=2``: ``phase10_v2``) adds three blocks after those, for the save
pile and giving up a phase (``H = 93 + 50*M``, where version 1's actions end):

=============  =====  ==========================================================
``H``          50     save card ``c`` (card index 0-49) on the own save pile
``H + 50``     50     take card ``c`` back from the own save pile (instead of drawing)
``H + 100``    1      give up the phase laid down this hand (Variant #2)
=============  =====  ==========================================================

Version 3 (``phase10_v3``) adds one block after version 2's, for the Anti-phase card
(``K = H + 101``, where version 2's actions end):

=============  =====  ==========================================================
``K``          1      discard the Anti-phase card naming nobody
``K + 1``      5      go out with the Anti-phase card, moving the player ``r``
                      seats on (1-5) down a phase: index ``K + r``
=============  =====  ==========================================================

Versions 0 and 1 cannot number version 2's actions: they refuse rules with a save pile
or giving up; versions 0-2 refuse rules with the Anti-phase card. Their card blocks have
50 card indices (the numbered cards, the Wild, the Skip); version 3 keeps those blocks
and puts what it shows of the Anti-phase card (card index 50) in a block of its own.

A table slot is ``(r, j)``: the ``j``-th group of the phase laid by the player ``r``
seats on from the player to act (``s = r * G + j``), so "my first group" is always
slot 0.

>>> from phase10.core import Game
>>> layout = Layout(2)
>>> layout.num_actions, layout.observation_size
(293, 520)
>>> game = Game(2, seed=3)
>>> [layout.action_name(a) for a in layout.legal_actions(game)]
['draw', 'take']
>>> v2 = Layout(2, version=2)
>>> v2.num_actions, v2.observation_size, v2.action_name(v2.save_offset + 6)
(394, 685, 'save R7')
>>> v3 = Layout(2, version=3)
>>> v3.num_actions, v3.observation_size, v3.action_name(v3.anti_offset + 1)
(400, 692, 'discard A>+1')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, assert_never

import numpy as np
from numpy.typing import NDArray

from phase10.bots.knowledge import HeldTracker, known_held
from phase10.core import (
    ANTI,
    ANTI_INDEX,
    DISTINCT_CARDS,
    SKIP,
    SKIP_INDEX,
    WILD,
    WILD_INDEX,
    Action,
    AntiPhase,
    Card,
    Declare,
    Discard,
    Draw,
    Game,
    GiveUp,
    GiveWild,
    GivingUp,
    Group,
    Hit,
    LayDown,
    Meld,
    PlayerView,
    Rules,
    Save,
    SavePile,
    SkipTarget,
    Stage,
    TakeDiscard,
    TakeSaved,
)
from phase10.core.feasibility import can_lay, hand_counts

from .blocks import (
    ANTI_FEATURES,
    ANTI_SEAT_FEATURES,
    CARDS,
    RULE_FEATURES,
    SAVE_SEAT_FEATURES,
    SaveState,
    SeatState,
    anti_block,
    save_block,
)
from .table import SLOT_FEATURES, WILD_HIGH, WILD_LOW, Fit, arrangements, group_fit

__all__ = ["CARDS", "VERSIONS", "Layout", "SaveState", "SeatState", "arrangements"]

#: the versions of the encoding: 1 added the known-cards block, 2 the save pile and giving
#: up, 3 the Anti-phase card
VERSIONS: Final = (0, 1, 2, 3)
#: the current version (OpenSpiel's default)
LATEST: Final = VERSIONS[-1]
MAX_PLAYERS: Final = 6
MAX_PHASES: Final = 10

DRAW: Final = 0
TAKE: Final = 1
LAY_MOST: Final = 2
LAY_FEWEST: Final = LAY_MOST + MAX_PHASES
DECLARE: Final = LAY_FEWEST + MAX_PHASES
GIVE: Final = DECLARE + MAX_PHASES
DISCARD: Final = GIVE + MAX_PHASES - 4  # 38: six give actions
SKIP_NONE: Final = DISCARD + SKIP_INDEX  # after one discard per card but the Skip
SKIP_ON: Final = SKIP_NONE + 1  # r = 1..5 at SKIP_ON + r - 1
HIT: Final = SKIP_ON + MAX_PLAYERS - 1  # 93
_STAGES: Final = (
    Stage.DRAW,
    Stage.PLAY,
    Stage.DECLARE,
    Stage.GIVE_WILD,
    Stage.WILD_DISCARD,
    Stage.GAME_OVER,
)
_STAGE_INDEX: Final = {stage: index for index, stage in enumerate(_STAGES)}
_CARD: Final = tuple(Card.from_index(i) for i in range(DISTINCT_CARDS))
_DISCARD_ACTION: Final = tuple(Discard(card) for card in _CARD[:SKIP_INDEX])

#: features of one seat: hand size / 10, score / 100, phase (11), completed (10),
#: laid, declared (10), pending skip, floating, dealer, to act, in the hand
SEAT_FEATURES: Final = 2 + (MAX_PHASES + 1) + MAX_PHASES + 1 + MAX_PHASES + 5
#: global features: stage (6), draw pile / 108, discard pile / 108, tie-break, hand / 100
GLOBAL_FEATURES: Final = len(_STAGES) + 4
#: version 3's Anti-phase discards: naming nobody, then the player r = 1-5 seats on
ANTI_ACTIONS: Final = MAX_PLAYERS


class Layout:
    """The action numbering and observation layout for ``players`` players under ``rules``.

    Masks and observations come from what the player to act may know; the engine
    decides every legal action (:meth:`legal_actions` lists exactly the engine's legal
    actions in this numbering, up to the lay-downs described in the module docstring).
    """

    def __init__(
        self,
        players: int,
        rules: Rules | None = None,
        *,
        known_cards: bool = False,
        version: int | None = None,
    ) -> None:
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"Phase 10 is for 2 to {MAX_PLAYERS} players, not {players}")
        if version is None:
            version = 1 if known_cards else 0
        if version not in VERSIONS:
            raise ValueError(f"the encoding's versions are {VERSIONS}, not {version!r}")
        if known_cards and version == 0:
            raise ValueError("version 0 has no known-cards block (known_cards=True is version 1)")
        self.players = players
        self.rules = rules = rules if rules is not None else Rules()
        if version < 3 and rules.anti_phase is not AntiPhase.OFF:
            raise ValueError(
                f"version {version} of the encoding has no actions for the Anti-phase card, "
                f"and these rules have anti_phase={rules.anti_phase.value!r}: use version 3 "
                "(phase10_v3, Phase10-v3)"
            )
        if version < 2 and (
            rules.save_pile is not SavePile.OFF or rules.give_up is not GivingUp.OFF
        ):
            raise ValueError(
                f"version {version} of the encoding has no actions for save piles or giving "
                f"up a phase, and these rules have save_pile={rules.save_pile.value!r}, "
                f"give_up={rules.give_up.value!r}: use version 2 (phase10_v2, Phase10-v2) "
                "or later"
            )
        #: the encoding's version (docs/rl.md, "Versioning")
        self.version = version
        self.groups_per_phase = max(len(phase.groups) for phase in rules.phase_sequence)
        self.slots = players * self.groups_per_phase
        #: where version 2's save, take-saved and give-up actions start
        self.save_offset = HIT + CARDS * self.slots
        #: where version 3's Anti-phase discards start
        self.anti_offset = self.save_offset + (2 * CARDS + 1) * (version >= 2)
        self.num_actions = self.anti_offset + ANTI_ACTIONS * (version >= 3)
        self.seat_offset = 4 * CARDS
        self.slot_offset = self.seat_offset + players * SEAT_FEATURES
        self.global_offset = self.slot_offset + self.slots * SLOT_FEATURES
        #: where version 2's save-pile block starts (its size is 0 before version 2)
        self.save_pile_offset = self.global_offset + GLOBAL_FEATURES
        save_size = CARDS + players * SAVE_SEAT_FEATURES + (players - 1) * CARDS + RULE_FEATURES
        #: where version 3's Anti-phase block starts (its size is 0 before version 3)
        self.anti_block_offset = self.save_pile_offset + save_size * (version >= 2)
        anti_size = ANTI_FEATURES + players * ANTI_SEAT_FEATURES
        self.known_offset = self.anti_block_offset + anti_size * (version >= 3)
        #: whether observations end with the known-cards block (version 1 on)
        self.known_cards = version >= 1
        #: the card indices this version knows: the Anti-phase card's too from version 3 (the
        #: width of each seat's known cards; OpenSpiel's chance outcomes)
        self.card_indices = DISTINCT_CARDS if version >= 3 else CARDS
        known = (players - 1) * self.card_indices * self.known_cards
        self.observation_size = self.known_offset + known
        self._fits: dict[int, Fit] = {}
        self._pile: tuple[Sequence[Card], int, list[int]] | None = None
        self._lays: dict[tuple[int, tuple[int, ...]], tuple[LayDown, LayDown]] = {}
        high = np.ones(self.observation_size, np.float32)
        most = float(max(self.rules.deck_counts.values()))  # the most copies: the Wilds
        high[: 4 * CARDS] = most  # card counts
        high[self.known_offset :] = most
        for seat in range(players):
            high[self.seat_offset + seat * SEAT_FEATURES] = 10.8  # hand size / 10
            high[self.seat_offset + seat * SEAT_FEATURES + 1] = 100.0  # score / 100, capped
        if version >= 2:
            at = self.save_pile_offset
            high[at : at + CARDS] = most  # the own save pile's card counts
            at += CARDS
            for seat in range(players):  # a save pile's size / 10
                high[at + seat * SAVE_SEAT_FEATURES] = sum(rules.deck_counts.values()) / 10
            at += players * SAVE_SEAT_FEATURES
            high[at : at + (players - 1) * CARDS] = most  # the public save piles' counts
        # (the Anti-phase block's features are at most 1)
        self.observation_high = high

    # -- the table --------------------------------------------------------------------

    def fit(self, group: Group) -> Fit:
        """Where cards fit ``group`` (cached while the group stays on the table)."""
        cached = self._fits.get(id(group))
        if cached is None or cached.group is not group:
            if len(self._fits) > 512:
                self._fits.clear()
            cached = self._fits[id(group)] = group_fit(group)
        return cached

    def slot_ids(self, melds: Sequence[Meld], me: int) -> list[int]:
        """The table slot of each group on the table (by meld id), seen from seat ``me``."""
        first: dict[int, int] = {}
        slots = []
        for gid, meld in enumerate(melds):
            start = first.setdefault(meld.owner, gid)
            relative = (meld.owner - me) % self.players
            slots.append(relative * self.groups_per_phase + gid - start)
        return slots

    # -- legal actions ----------------------------------------------------------------

    def mask(
        self, game: Game | PlayerView, out: NDArray[np.int8] | None = None
    ) -> NDArray[np.int8]:
        """The legal actions of the player to act, as 0/1 (all 0 once the game is over)."""
        if out is None:
            out = np.zeros(self.num_actions, np.int8)
        else:
            out[:] = 0
        for action in self._legal(game):
            out[action] = 1
        return out

    def legal_actions(self, game: Game | PlayerView) -> list[int]:
        """The legal actions of the player to act, sorted."""
        return sorted(set(self._legal(game)))

    def _legal(self, game: Game | PlayerView) -> list[int]:
        stage = game.stage
        me = game.current
        if stage is Stage.GAME_OVER:
            return []
        if isinstance(game, PlayerView):
            if not game.is_my_turn:
                return []
            hand: Sequence[Card] = game.hand
            saved: Sequence[Card] = game.saved
        else:
            hand = game.seats[me].hand
            saved = game.seats[me].saved
        n = self.players
        rules = self.rules
        if stage is Stage.DRAW:
            # the engine's own tests (Rulebook._check_draw), without building actions
            top = game.discard_top
            can_draw = game.can_draw()
            can_take = top is not None and not top.is_skip
            floating = game.seats[me].floating
            fits_top = floating and top is not None and game.fits_anywhere(top)
            must_take = floating and can_take and fits_top
            out = [DRAW] if can_draw and not must_take else []
            if can_take and not (floating and not fits_top and can_draw):
                out.append(TAKE)
            if saved and not must_take:  # (Rulebook._check_take_saved)
                out.extend({self.save_offset + CARDS + card.index for card in saved})
            return out
        if stage is Stage.GIVE_WILD:
            return [GIVE + (p - me) % n for p in game.players_in_hand]
        if stage is Stage.DECLARE:
            completed = game.seats[me].completed
            return [DECLARE + i for i in range(self.rules.phase_count) if i not in completed]
        info = game.seats[me]
        bits = 0
        for card in hand:
            bits |= 1 << card.index
        out = []
        fits: list[Fit] = []
        if stage is Stage.PLAY and game.melds:
            fits = [self.fit(meld.group) for meld in game.melds]
        bound = False
        if info.floating and fits:
            wild = bits >> WILD_INDEX & 1
            bound = any(
                f.naturals & bits or (wild and (f.wild_low is not None or f.wild_high is not None))
                for f in fits
            )
        if stage is Stage.PLAY and not bound and info.laid is None and not info.refill:
            allowed = game.allowed_phases(me)
            if allowed:
                counts = hand_counts(hand)
                natural_min = self.rules.natural_min
                for index in allowed:
                    if can_lay(game.phase_of(index), counts, natural_min):
                        out.append(LAY_MOST + index)
                        out.append(LAY_FEWEST + index)
        if fits and info.laid is not None:
            wild = bits >> WILD_INDEX & 1
            for fit, slot in zip(fits, self.slot_ids(game.melds, me), strict=True):
                base = HIT + CARDS * slot
                hits = fit.naturals & bits
                while hits:
                    low = hits & -hits
                    out.append(base + low.bit_length() - 1)
                    hits ^= low
                if wild:
                    if fit.wild_low is not None:
                        out.append(base + WILD_LOW)
                    if fit.wild_high is not None:
                        out.append(base + WILD_HIGH)
        if (  # (Rulebook._check_give_up)
            stage is Stage.PLAY
            and info.laid is not None
            and rules.give_up is not GivingUp.OFF
            and not game.tie_break
            and not info.gave_up
        ):
            out.append(self.save_offset + 2 * CARDS)
        if bound:
            return out
        if (  # (Rulebook._check_save: a floating hand not bound has no card that fits)
            stage is Stage.PLAY
            and rules.save_pile is not SavePile.OFF
            and not info.saved_this_hand
            and len(hand) > 1
        ):
            out.extend(self.save_offset + index for index in range(CARDS) if bits >> index & 1)
        for index in range(SKIP_INDEX):
            if bits >> index & 1:
                out.append(DISCARD + index)
        if bits >> SKIP_INDEX & 1:
            if self.rules.skip_target is SkipTarget.NEXT:
                out.append(SKIP_NONE)
            else:
                targets = game.skip_targets(me)
                if targets:
                    out.extend(SKIP_ON + (t - me) % n - 1 for t in targets)
                else:
                    out.append(SKIP_NONE)
        if bits >> ANTI_INDEX & 1:  # (Rulebook._check_anti_discard: only the last card names)
            targets = game.anti_targets(me) if stage is Stage.PLAY and len(hand) == 1 else ()
            if targets:
                out.extend(self.anti_offset + (t - me) % n for t in targets)
            else:
                out.append(self.anti_offset)
        return out

    # -- from numbers to the engine's actions -----------------------------------------

    def decode(self, game: Game | PlayerView, action: int) -> Action:
        """The engine's action for ``action`` in this position (assumed legal: see :meth:`mask`)."""
        me = game.current
        n = self.players
        if action >= self.anti_offset:
            relative = action - self.anti_offset
            return Discard(ANTI, (me + relative) % n if relative else None)
        if action >= self.save_offset:
            column = action - self.save_offset
            if column < CARDS:
                return Save(_CARD[column])
            if column < 2 * CARDS:
                return TakeSaved(_CARD[column - CARDS])
            return GiveUp()
        if action >= HIT:
            slot, column = divmod(action - HIT, CARDS)
            gid = self.slot_ids(game.melds, me).index(slot)
            if column < WILD_LOW:
                return Hit(_CARD[column], gid)
            fit = self.fit(game.melds[gid].group)
            number = fit.wild_low if column == WILD_LOW else fit.wild_high
            return Hit(WILD, gid, number or None)
        if action >= SKIP_ON:
            return Discard(SKIP, (me + action - SKIP_ON + 1) % n)
        if action == SKIP_NONE:
            return Discard(SKIP)
        if action >= DISCARD:
            return _DISCARD_ACTION[action - DISCARD]
        if action >= GIVE:
            return GiveWild((me + action - GIVE) % n)
        if action >= DECLARE:
            return Declare(action - DECLARE + 1)
        if action >= LAY_MOST:
            most = action < LAY_FEWEST
            index = action - (LAY_MOST if most else LAY_FEWEST)
            hand = game.hand if isinstance(game, PlayerView) else game.seats[me].hand
            lays = self._lay_downs(game, index, hand)
            return lays[0] if most else lays[1]
        return Draw() if action == DRAW else TakeDiscard()

    def _lay_downs(
        self, game: Game | PlayerView, index: int, hand: Sequence[Card]
    ) -> tuple[LayDown, LayDown]:
        key = (index, tuple(sorted(card.index for card in hand)))
        cached = self._lays.get(key)
        if cached is None:
            explicit = index + 1 if game.names_phase_when_laid else None
            most, fewest = arrangements(game.phase_of(index), hand, self.rules.natural_min)
            cached = (LayDown(most, explicit), LayDown(fewest, explicit))
            if len(self._lays) > 64:
                self._lays.clear()
            self._lays[key] = cached
        return cached

    def encode(self, game: Game | PlayerView, action: Action) -> int:
        """The number of an engine action (canonical, as :attr:`legal_actions` lists it),
        seen by the player to act. Lay-downs map to the "most cards" number of their phase.
        """
        me = game.current
        n = self.players
        match action:
            case Draw():
                return DRAW
            case TakeDiscard():
                return TAKE
            case LayDown():
                if action.phase is not None:
                    return LAY_MOST + action.phase - 1
                allowed = game.allowed_phases(me)
                return LAY_MOST + allowed[0]
            case Declare():
                return DECLARE + action.phase - 1
            case GiveWild():
                return GIVE + (action.player - me) % n
            case Discard():
                if action.card.is_anti:
                    if self.version < 3:
                        raise ValueError(
                            f"version {self.version} of the encoding has no number for {action}"
                        )
                    target = action.target
                    return self.anti_offset + (0 if target is None else (target - me) % n)
                if action.card.is_skip:
                    if action.target is None:
                        return SKIP_NONE
                    return SKIP_ON + (action.target - me) % n - 1
                return DISCARD + action.card.index
            case Hit():
                slot = self.slot_ids(game.melds, me)[action.group]
                if not action.card.is_wild:
                    column = action.card.index
                else:
                    group = game.melds[action.group].group
                    column = (
                        WILD_HIGH
                        if group.low is not None and action.number != group.low - 1
                        else WILD_LOW
                    )
                return HIT + CARDS * slot + column
            case Save() | TakeSaved() | GiveUp() if self.version < 2:
                raise ValueError(
                    f"version {self.version} of the encoding has no number for {action}"
                )
            case Save() | TakeSaved() if action.card.is_anti:
                raise ValueError(f"{action} is never legal: the Anti-phase card is never saved")
            case Save():
                return self.save_offset + action.card.index
            case TakeSaved():
                return self.save_offset + CARDS + action.card.index
            case GiveUp():
                return self.save_offset + 2 * CARDS
            case _:
                assert_never(action)

    def action_name(self, action: int) -> str:
        """A short text for an action number (the same in every position)."""
        if action >= self.anti_offset:
            relative = action - self.anti_offset
            return f"discard A>+{relative}" if relative else "discard A"
        if action >= self.save_offset:
            column = action - self.save_offset
            if column < CARDS:
                return f"save {_CARD[column]}"
            if column < 2 * CARDS:
                return f"take-saved {_CARD[column - CARDS]}"
            return "give-up"
        if action >= HIT:
            slot, column = divmod(action - HIT, CARDS)
            seat, group = divmod(slot, self.groups_per_phase)
            card = "W" if column >= WILD_LOW else str(_CARD[column])
            end = {WILD_LOW: " low", WILD_HIGH: " high"}.get(column, "")
            return f"hit {card}{end} on +{seat}.{group}"
        if action >= SKIP_ON:
            return f"discard S>+{action - SKIP_ON + 1}"
        if action == SKIP_NONE:
            return "discard S"
        if action >= DISCARD:
            return f"discard {_CARD[action - DISCARD]}"
        if action >= GIVE:
            return f"give +{action - GIVE}"
        if action >= DECLARE:
            return f"declare {action - DECLARE + 1}"
        if action >= LAY_FEWEST:
            return f"lay {action - LAY_FEWEST + 1} fewest"
        if action >= LAY_MOST:
            return f"lay {action - LAY_MOST + 1} most"
        return "draw" if action == DRAW else "take"

    # -- observations -----------------------------------------------------------------

    def observe_view(self, view: PlayerView, out: NDArray[np.float32] | None = None) -> Any:
        """The observation of ``view.viewer`` from their view (the reference encoder)."""
        if view.viewer is None:
            raise ValueError("an observation belongs to a player, not to a spectator")
        held: list[Mapping[Card, int]] | None = None
        if self.known_cards:
            known = known_held(view)
            held = [known.get(seat, {}) for seat in range(self.players)]
        saves = None
        if self.version >= 2:
            public = self.rules.save_pile is SavePile.PUBLIC
            saves = SaveState(
                view.saved,
                [seat.saved_count for seat in view.seats],
                [seat.saved or () for seat in view.seats] if public else None,
            )
        return self.observe(
            view.viewer,
            view.hand,
            [seat.hand_size for seat in view.seats],
            view.seats,
            view,
            out,
            held,
            saves,
        )

    def observe_game(
        self,
        game: Game,
        seat: int,
        out: NDArray[np.float32] | None = None,
        tracker: HeldTracker | None = None,
    ) -> NDArray[np.float32]:
        """The same observation as ``observe_view(game.view(seat))``, read straight from the
        game: the seat's own hand and the public state only (tested equal). With known cards,
        ``tracker`` is one fed every event of the hand so far."""
        saves = None
        if self.version >= 2:
            public = self.rules.save_pile is SavePile.PUBLIC
            saves = SaveState(
                game.seats[seat].saved,
                [len(other.saved) for other in game.seats],
                [other.saved for other in game.seats] if public else None,  # else unseen
            )
        out = self.observe(
            seat,
            game.seats[seat].hand,
            [len(other.hand) for other in game.seats],
            game.seats,
            game,
            out,
            saves=saves,
        )
        if self.known_cards:
            if tracker is None:
                tracker = HeldTracker(self.players)
                for event in game.history[game.hand_start :]:
                    tracker.feed(event)
            n = self.players
            for relative in range(1, n):
                other = (seat + relative) % n
                if tracker.started[other]:  # the counts, where positive (HeldTracker.held)
                    width = self.card_indices
                    start = self.known_offset + (relative - 1) * width
                    out[start : start + width] = np.maximum(tracker.counts[other][:width], 0)
        return out

    def observe(
        self,
        me: int,
        hand: Sequence[Card],
        hand_sizes: Sequence[int],
        seats: Sequence[SeatState],
        public: Game | PlayerView,
        out: NDArray[np.float32] | None = None,
        held: Sequence[Mapping[Card, int]] | None = None,
        saves: SaveState | None = None,
    ) -> NDArray[np.float32]:
        """Write the observation of seat ``me`` (see docs/rl.md for the layout); ``held``
        is, per seat, the cards it is known to hold (the known-cards block); ``saves``
        what ``me`` may know of the save piles (the save-pile block, version 2)."""
        if out is None:
            out = np.zeros(self.observation_size, np.float32)
        else:
            out[:] = 0.0
        held_counts = [0] * DISTINCT_CARDS
        for card in hand:
            held_counts[card.index] += 1
        out[:CARDS] = held_counts[:CARDS]
        pile = public.discard_pile
        pile_counts: list[int] = []
        if pile:
            if not pile[-1].is_anti:  # (version 3 shows it in its own block)
                out[CARDS + pile[-1].index] = 1.0
            pile_counts = self._pile_counts(pile)
            out[2 * CARDS : 3 * CARDS] = pile_counts[:CARDS]
        n = self.players
        melds = public.melds
        if melds:
            counts = [0] * CARDS
            base = self.slot_offset
            for meld, slot in zip(melds, self.slot_ids(melds, me), strict=True):
                for card in meld.group.cards:
                    counts[card.index] += 1
                start = base + slot * SLOT_FEATURES
                out[start : start + SLOT_FEATURES] = self.fit(meld.group).features
            out[3 * CARDS : 4 * CARDS] = counts
        players_in_hand = public.players_in_hand
        dealer = public.dealer
        acting = public.current if public.stage is not Stage.GAME_OVER else -1
        block = [0.0] * (n * SEAT_FEATURES)
        for relative in range(n):
            seat_index = (me + relative) % n
            seat = seats[seat_index]
            at = relative * SEAT_FEATURES
            block[at] = hand_sizes[seat_index] / 10
            block[at + 1] = min(seat.score / 100, 100.0)
            block[at + 2 + min(seat.phase, MAX_PHASES)] = 1.0
            at += 3 + MAX_PHASES
            for phase in seat.completed:
                block[at + phase] = 1.0
            at += MAX_PHASES
            if seat.laid is not None:
                block[at] = 1.0
            if seat.declared is not None:
                block[at + 1 + seat.declared] = 1.0
            at += 1 + MAX_PHASES
            block[at] = seat.pending_skip
            block[at + 1] = seat.floating
            block[at + 2] = seat_index == dealer
            block[at + 3] = seat_index == acting
            block[at + 4] = seat_index in players_in_hand
        out[self.seat_offset : self.slot_offset] = block
        tail = [0.0] * GLOBAL_FEATURES
        tail[_STAGE_INDEX[public.stage]] = 1.0
        tail[-4] = public.draw_size / 108
        tail[-3] = len(pile) / 108
        tail[-2] = public.tie_break
        tail[-1] = min(public.hand_number / 100, 1.0)
        out[self.global_offset : self.save_pile_offset] = tail
        rules = self.rules
        if self.version >= 2:
            save_block(out[self.save_pile_offset : self.anti_block_offset], me, seats, saves, rules)
        if self.version >= 3:
            on_top = bool(pile) and pile[-1].is_anti
            in_pile = pile_counts[ANTI_INDEX] if pile else 0
            held_anti = held_counts[ANTI_INDEX], on_top, in_pile
            anti = out[self.anti_block_offset : self.known_offset]
            anti_block(anti, me, seats, public.tie_break, rules, *held_anti)
        if self.known_cards and held is not None:
            for relative in range(1, n):
                start = self.known_offset + (relative - 1) * self.card_indices
                for card, copies in held[(me + relative) % n].items():
                    out[start + card.index] = copies
        return out

    def _pile_counts(self, pile: Sequence[Card]) -> list[int]:
        """Card counts of the discard pile (every card index). The engine only ever pops the top of the same
        list or pushes on it, and never pops twice in a row between pushes, so below the
        length it had minus one a list seen before is unchanged: only the rest is counted.
        A new list (a new hand, a reshuffle) or a view's tuple is counted in full, and so is
        every pile under rules that let a phase be given up (its cards go to the bottom)."""
        last = self._pile
        if self.rules.give_up is not GivingUp.OFF:
            last = None
        size = len(pile)
        if last is not None and last[0] is pile and size >= last[1]:
            _, covered, counts = last
            counts = list(counts)
        else:
            covered, counts = 0, [0] * DISTINCT_CARDS
        below_top = max(size - 1, 0)
        if covered <= below_top:
            for card in pile[covered:below_top]:
                counts[card.index] += 1
        else:  # the whole pile was counted: take its top back out
            counts[pile[-1].index] -= 1
        self._pile = (pile, below_top, counts) if isinstance(pile, list) else None
        if pile:
            counts = list(counts)
            counts[pile[-1].index] += 1
        return counts
