"""Phase 10 as an OpenSpiel Python game: importing this module registers ``python_phase10``.

Chance is explicit: the game starts with four chance nodes, each picking one byte of
the game's 32-bit seed (256 equally likely outcomes); the engine's seeded shuffles then
fix every deal, draw and reshuffle. Parameters: ``players`` (2-6), ``rules`` (a preset
name, ``"official"`` by default), ``phases`` (play only the first N phases of the
preset's sequence; 0: all) and ``max_steps`` (the step cap: the game then ends there).

>>> import pyspiel
>>> import phase10.rl.openspiel
>>> game = pyspiel.load_game("python_phase10", {"players": 3, "phases": 1})
>>> state = game.new_initial_state()
>>> for byte in (5, 0, 0, 0):
...     state.apply_action(byte)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(0, ['draw', 'take'])
>>> len(state.observation_tensor(2)) == game.observation_tensor_size()
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from phase10.bots.knowledge import known_held
from phase10.core import PRESETS, Event, PlayerView, Rules

from .core import DEFAULT_MAX_STEPS, EnvCore
from .encoding import CARDS, Layout
from .render import render_text

__all__ = ["Phase10Game", "Phase10State"]

_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "rules": "official",
    "phases": 0,
    "max_steps": DEFAULT_MAX_STEPS,
}
#: chance nodes at the start, one byte of the game's seed each
SEED_BYTES = 4

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
    rules = PRESETS[str(params["rules"])]
    phases = int(params["phases"])
    if phases:
        numbers = rules.phases or tuple(range(1, len(rules.phase_list) + 1))
        rules = rules.with_options(phases=numbers[:phases])
    return rules


class Phase10Game(pyspiel.Game):
    """The game: its parameters, sizes and a seeded source of deals."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        players = int(merged["players"])
        self.rules = _rules(merged)
        self.layout = Layout(players, self.rules)
        self.max_steps = int(merged["max_steps"])
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.num_actions,
            max_chance_outcomes=256,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.max_steps + SEED_BYTES,
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> Phase10State:
        return Phase10State(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Phase10Observer:
        return Phase10Observer(
            self.layout, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


class Phase10State(pyspiel.State):
    """One game in progress."""

    def __init__(self, game: Phase10Game) -> None:
        super().__init__(game)
        self.core = EnvCore(game.num_players(), rules=game.rules, max_steps=game.max_steps)
        self._seed: list[int] = []
        self._returns = [0.0] * game.num_players()

    def current_player(self) -> int:
        if len(self._seed) < SEED_BYTES:
            return int(pyspiel.PlayerId.CHANCE)
        if self.core.done:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.core.current

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(byte, 1 / 256) for byte in range(256)]

    def _legal_actions(self, player: int) -> list[int]:
        if len(self._seed) < SEED_BYTES or self.core.done or player != self.core.current:
            return []
        return self.core.legal_actions()

    def _apply_action(self, action: int) -> None:
        if len(self._seed) < SEED_BYTES:
            self._seed.append(action)
            if len(self._seed) == SEED_BYTES:
                self.core.reset(sum(byte << (8 * i) for i, byte in enumerate(self._seed)))
            return
        for seat, reward in enumerate(self.core.step(action)):
            self._returns[seat] += reward

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {len(self._seed)}: {action}"
        if not self.core.done and player == self.core.current:
            return self.core.describe(action)
        return self.core.layout.action_name(action)

    def is_terminal(self) -> bool:
        return len(self._seed) == SEED_BYTES and self.core.done

    def returns(self) -> list[float]:
        return list(self._returns)

    def __str__(self) -> str:
        if len(self._seed) < SEED_BYTES:
            return f"dealing: seed bytes {self._seed}"
        return render_text(self.core.game, self.core.current)


class Phase10Observer:
    """Tensors and strings for one player (OpenSpiel's PyObserver interface).

    The observation tensor is the environments' observation vector. The information-state
    tensor adds, for each other seat in turn order, the cards it is known to hold (taken
    from the discard pile and not played since). Strings: the rendered view, and for the
    information state the events of the hand as that player saw them. Without private
    information the observing player's hand is left out.
    """

    def __init__(self, layout: Layout, iig_obs_type: Any) -> None:
        self.layout = layout
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        size = layout.observation_size
        if self.perfect_recall:
            size += (layout.players - 1) * CARDS
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: Phase10State, player: int) -> None:
        if state.current_player() == pyspiel.PlayerId.CHANCE:
            self.tensor[:] = 0.0
            return
        core = state.core
        size = self.layout.observation_size
        core.observe(player, self.tensor[:size])
        if not self.private:
            self.tensor[:CARDS] = 0.0
        if self.perfect_recall:
            self.tensor[size:] = 0.0
            held = known_held(core.game.view(player))
            for relative in range(1, self.layout.players):
                seat = (player + relative) % self.layout.players
                start = size + (relative - 1) * CARDS
                for card, copies in held.get(seat, {}).items():
                    self.tensor[start + card.index] = copies

    def string_from(self, state: Phase10State, player: int) -> str:
        if state.current_player() == pyspiel.PlayerId.CHANCE:
            return str(state)
        view = state.core.game.view(player)
        if self.perfect_recall:
            return _history_text(view)
        return render_text(state.core.game, player, show_hand=self.private)


def _history_text(view: PlayerView) -> str:
    events: list[Event] = list(view.history)
    head = f"p{view.viewer} hand {view.hand_number} scores {[s.score for s in view.seats]}"
    return "\n".join([head, *map(repr, events)])


pyspiel.register_game(_GAME_TYPE, Phase10Game)
