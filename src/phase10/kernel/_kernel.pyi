"""Type information for the compiled kernel (_kernel.c)."""

from collections.abc import Sequence
from typing import Any

class Kernel:
    stage: int
    current: int
    hand_events: int
    def __init__(
        self,
        players: int,
        phases: Sequence[Sequence[tuple[int, int]]],
        skip_next: bool = False,
        end_on_empty: bool = False,
        end_at_once: bool = False,
        advance_all: bool = False,
        dealer_gives_wild: bool = False,
        floating: bool = False,
        any_order: bool = False,
        all_wild: bool = False,
        declare_deal: bool = False,
        wilds: int = 8,
        skips: int = 4,
        save_pile: int = 0,
        saved_penalty: bool = False,
        give_up: int = 0,
        antis: bool = False,
    ) -> None: ...
    def dump(self) -> tuple[Any, ...]: ...
    def load(self, state: tuple[Any, ...], /) -> None: ...
    def legal(self) -> list[tuple[Any, ...]]: ...
    def apply(self, action: tuple[Any, ...], /) -> int: ...
    def apply_index(self, index: int, /) -> None: ...
    def play_random(
        self, seed: int, max_actions: int = -1, record: bool = False
    ) -> tuple[int, list[tuple[Any, ...]] | None]: ...
    def copy(self) -> Kernel: ...
    def events(self) -> list[tuple[Any, ...]]: ...
    def determinize(self, viewer: int, known: Sequence[Sequence[int]], seed: int, /) -> None: ...
    def playouts(
        self,
        viewer: int,
        known: Sequence[Sequence[int]],
        count: int,
        seed: int,
        max_actions: int = -1,
        /,
    ) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]: ...
    def greedy_action(
        self, rng_state: Sequence[int], /
    ) -> tuple[tuple[Any, ...], tuple[int, ...]]: ...
    def set_knowledge(
        self, hand_events: int, held: Sequence[Sequence[int]], started: Sequence[bool], /
    ) -> None: ...
    def play_greedy(
        self, rng_states: Sequence[Sequence[int]], max_actions: int = -1, record: bool = False, /
    ) -> tuple[int, list[tuple[Any, ...]] | None, tuple[tuple[int, ...], ...]]: ...
    def greedy_playouts(
        self,
        viewer: int,
        known: Sequence[Sequence[int]],
        count: int,
        seed: int,
        max_actions: int = -1,
        /,
    ) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]: ...
    def missing(self, phase: int, hand: Sequence[int], limit: int, /) -> int: ...
    def search(
        self,
        viewer: int,
        known: Sequence[Sequence[int]],
        candidates: Sequence[int],
        count: int,
        seed: int,
        hands: int = 1,
        max_actions: int = 20000,
        settled: int = 0,
        declined: Sequence[Sequence[int]] | None = None,
        redeal: bool = True,
        weights: Sequence[Sequence[float] | None] | None = None,
        /,
    ) -> bytes: ...

class RLStepper:
    """phase10.rl's stepping (action numbers, masks, observations, rewards) over kernels."""

    sizes: tuple[int, int]
    def __init__(
        self, players: int, version: int, groups: int, phase_reward: float = 0.0
    ) -> None: ...
    def start(self, kernel: Kernel, /) -> None: ...
    def mask(self, kernel: Kernel, out: Any, /) -> None: ...
    def observe(self, kernel: Kernel, seat: int, out: Any, /) -> None: ...
    def step(self, kernel: Kernel, action: int, /) -> tuple[float, ...]: ...
    def apply(self, kernel: Kernel, action: tuple[Any, ...], /) -> tuple[float, ...]: ...
    def take_log(self, kernel: Kernel, /) -> list[int]: ...
    def status(self, kernel: Kernel, /) -> tuple[int, int, int, int]: ...
    def winners(self, kernel: Kernel, /) -> tuple[int, ...]: ...
    def ended(self, kernel: Kernel, max_steps: int, /) -> int: ...
    def completed(
        self, kernel: Kernel, counts: Sequence[int] | None = None, /
    ) -> tuple[int, ...]: ...
    def write(
        self, kernel: Kernel, index: int, count: int, observations: Any, masks: Any, agents: Any, /
    ) -> None: ...
    def step_batch(
        self,
        kernels: list[Kernel],
        actions: Any,
        max_steps: int,
        observations: Any,
        masks: Any,
        agents: Any,
        rewards: Any,
        terminated: Any,
        truncated: Any,
        /,
    ) -> list[int]: ...
    def choose(self, masks: Any, uniforms: Any, out: Any, /) -> None: ...

def bound_steps(steps: int, /) -> tuple[int, int]: ...
def steps_spent() -> bool: ...
def steps_taken() -> int: ...
