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

from phase10.core import Game, Stage

from .convert import ActionKey, StateKey, action_key, lay_down_order, state_of, to_action

__all__ = ["EngineGame", "splitmix64"]

_MASK = (1 << 64) - 1


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
        self.game = game.copy()

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def legal(self) -> list[ActionKey]:
        keys = [action_key(action) for action in self.game.legal_actions]
        lays = sorted((key for key in keys if key[0] == 4), key=lay_down_order)
        return lays + [key for key in keys if key[0] != 4]

    def apply(self, action: ActionKey) -> None:
        engine_action = to_action(action)
        if self.game.stage is Stage.GAME_OVER or engine_action not in self.game.legal_actions:
            raise ValueError("not a legal action now")
        self.game.apply(engine_action)

    def state(self) -> StateKey:
        return state_of(self.game)

    def to_game(self) -> Game:
        return self.game.copy()

    def play_random(
        self, seed: int, max_actions: int = -1, *, record: bool = False
    ) -> tuple[int, list[ActionKey] | None]:
        chosen: list[ActionKey] | None = [] if record else None
        state = seed & _MASK
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
        return played, chosen

    def copy(self) -> EngineGame:
        return EngineGame(self.game)
