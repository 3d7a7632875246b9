"""Reinforcement-learning stepping in the compiled kernel: ``phase10.rl``'s action numbers,
legal-action masks, observations and rewards (docs/rl.md), for its ``EnvCore`` (and so every
adapter) and ``VectorPhase10``.

An :class:`~phase10.kernel._kernel.RLStepper` holds one table's layout (players, encoding
version, groups per phase, phase reward) and steps kernel games (:func:`new_kernel`, loaded
with :func:`load_position`): ``step(kernel, action)`` decodes and plays an action number and
gives every seat's reward, ``mask`` and ``observe`` write into numpy arrays, and
``step_batch`` steps many games at once. The encoding itself stays defined by
``phase10.rl.encoding``: the tests hold the kernel's arrays equal to it, value for value.

>>> from phase10.core import Game, Rules
>>> stepper = rl_stepper(2, Rules(), version=3, groups=2, phase_reward=0.0)
>>> if stepper is not None:
...     kernel = new_kernel(2, Rules())
...     load_position(kernel, Game(2, seed=3))
...     stepper.start(kernel)
...     assert stepper.step(kernel, 0) == (0.0, 0.0)  # draw
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from phase10.core import Rules

from . import (
    KernelFallbackWarning,
    KernelUnsupported,
    available,
    check_rules,
    load_error,
    load_position,
    new_kernel,
)

if TYPE_CHECKING:
    from ._kernel import RLStepper

__all__ = ["fallback", "load_position", "new_kernel", "rl_stepper"]

_warned = False


def fallback(reason: str) -> None:
    """Say that the environments step in Python: each time for rules or a position the
    kernel cannot play, once when the kernel is not in use at all."""
    warnings.warn(
        f"phase10.rl: stepping in the Python engine: {reason}", KernelFallbackWarning, stacklevel=3
    )


def rl_stepper(
    players: int,
    rules: Rules,
    *,
    version: int,
    groups: int,
    phase_reward: float,
    required: bool = False,
) -> RLStepper | None:
    """The kernel's stepper for this table, or None (with a :class:`KernelFallbackWarning`)
    when the kernel is not in use or does not play ``rules``. ``required``: raise instead
    (RuntimeError, :class:`KernelUnsupported`)."""
    global _warned
    if not available():
        if required:
            raise RuntimeError(f"the compiled kernel is not available: {load_error()}")
        if not _warned:
            _warned = True
            fallback(str(load_error()))
        return None
    try:
        check_rules(rules)
    except KernelUnsupported as error:
        if required:
            raise
        fallback(str(error))
        return None
    from . import _kernel  # (built: available() said so)

    stepper = getattr(_kernel, "RLStepper", None)
    if stepper is None:  # a kernel built before RL stepping came
        why = "the compiled kernel was built without RL stepping: rebuild it (make install)"
        if required:
            raise RuntimeError(why)
        fallback(why)
        return None
    made: RLStepper = stepper(players, version, groups, phase_reward)
    return made
