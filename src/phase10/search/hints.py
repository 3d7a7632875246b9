"""Hints checked by the expert's search.

:func:`searched_hint` is :func:`phase10.bots.hints.hint` with the step the expert searches
(the discard that ends the turn, after the hint's lay-down and hits) weighed by :class:`~phase10.search.ExpertPlayer` over sampled deals played to
the hand's end. Where the search finds a better step beyond its noise, the hint gives that
one; either way the step's reason says what the search saw.

>>> from phase10.core import Game
>>> game = Game(2, seed=4)
>>> advice = searched_hint(game.view(game.current))
>>> advice.steps[0].text
'draw from the pile'
>>> game.apply(advice.steps[0].action)  # doctest: +ELLIPSIS
[...]
>>> searched = searched_hint(game.view(game.current)).steps[-1]
>>> searched.text.startswith("discard"), "played out over 48 sampled deals" in searched.reason
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import replace

from phase10.bots.hints import Advice, Hint, hint
from phase10.core import Discard, PlayerView, Stage
from phase10.core.labels import view_action_text

from .expert import ExpertPlayer, Option, Weighing, searchable

__all__ = ["searched_hint"]


def searched_hint(view: PlayerView, player: ExpertPlayer | None = None) -> Hint:
    """The hint for ``view``'s player, its searched step weighed by ``player`` (an
    :class:`ExpertPlayer` seeded at 0 if None). Raises ValueError when it is not the
    viewer's turn, as :func:`~phase10.bots.hints.hint` does."""
    advice = hint(view)
    steps = list(advice.steps)
    if not steps or not searchable(view) or view.stage not in (Stage.DRAW, Stage.PLAY):
        return advice
    index = 0 if view.stage is Stage.DRAW else len(steps) - 1
    if view.stage is Stage.PLAY and not isinstance(steps[index].action, Discard):
        return advice
    expert = player if player is not None else ExpertPlayer(random.Random(0))
    weighing = expert.weigh(view, [step.action for step in steps[:index]])
    if weighing is None:
        return advice
    steps[index] = _searched_step(view, steps[index], weighing)
    if steps[index].action != advice.steps[index].action:
        del steps[index + 1 :]  # (the rest of the plan followed the step replaced)
    return replace(advice, steps=tuple(steps))


def _searched_step(view: PlayerView, step: Advice, weighing: Weighing) -> Advice:
    down = view.viewer is not None and view.seats[view.viewer].laid is not None
    rivals = len(view.seats) - 1
    chosen = weighing.options[weighing.chosen]
    same = [option for option in weighing.options if option.action == step.action]
    summary = f"played out over {weighing.deals} sampled deals, {_outcome(chosen, down, rivals)}"
    if same and same[0].action == chosen.action:
        return Advice(step.action, f"{step.reason}; {summary}", step.text)
    if same:
        was = f"{view_action_text(view, same[0].action)}: {_outcome(same[0], down, rivals)}"
        summary += f" (against {was})"
    return Advice(chosen.action, summary, view_action_text(view, chosen.action))


def _outcome(option: Option, down: bool, rivals: int) -> str:
    mine = "" if down else f"you make your phase {option.phase:.0%} of the time, "
    theirs = (
        f"your opponent makes theirs {option.rivals:.0%}"
        if rivals == 1
        else f"your opponents make {option.rivals:.1f} phases between them"
    )
    return f"{mine}{theirs}, and you score {option.points:.0f} points on average"
