"""Hints checked by the expert's search.

:func:`searched_hint` is :func:`phase10.bots.hints.hint` with the step the expert searches
(the discard that ends the turn, after the hint's lay-down and hits) weighed by :class:`~phase10.search.ExpertPlayer` over sampled deals played to
the hand's end. Where the search finds a better step beyond its noise, the hint gives that
one; either way the step's reason says what the search saw. A lay-down the hint would make
is first weighed against waiting (laid with its hits and the best discard after, against
the best discard with the phase kept in hand, on the same deals): where waiting leads by
:data:`~phase10.search.expert.MISTAKE` and beyond the noise, the hint is that discard alone.

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
from phase10.core import Discard, LayDown, PlayerView, Stage
from phase10.core.labels import view_action_text
from phase10.core.words import plural

from .expert import CLOSER_LOOK, ExpertPlayer, Option, Weighing, searchable

__all__ = ["searched_hint"]


def searched_hint(view: PlayerView, player: ExpertPlayer | None = None) -> Hint:
    """The hint for ``view``'s player, its searched step weighed by ``player`` (if None,
    an :class:`ExpertPlayer` seeded at 0 that looks closer at close calls:
    :data:`~phase10.search.expert.CLOSER_LOOK`). Raises ValueError when it is not the
    viewer's turn, as :func:`~phase10.bots.hints.hint` does."""
    advice = hint(view)
    steps = list(advice.steps)
    if not steps or not searchable(view) or view.stage not in (Stage.DRAW, Stage.PLAY):
        return advice
    index = 0 if view.stage is Stage.DRAW else len(steps) - 1
    if view.stage is Stage.PLAY and not isinstance(steps[index].action, Discard):
        return advice
    expert = player if player is not None else ExpertPlayer(random.Random(0), closer=CLOSER_LOOK)
    if view.stage is Stage.PLAY and isinstance(steps[0].action, LayDown):
        # laying the phase down now, against keeping it in hand a turn more (seldom
        # better, and only by a mistake's worth is it advised)
        # (with a search of its own: the discard's below then deals alike whether or not
        # this came first, and the hint once the lay-down is made gives the same discard)
        waiter = (
            player if player is not None else ExpertPlayer(random.Random(1), closer=CLOSER_LOOK)
        )
        waiting = waiter.weigh_waiting(view, [step.action for step in steps[:index]])
        if waiting is not None and waiting.action != steps[0].action:
            step = Advice(
                waiting.action,
                _waiting_reason(view, waiting),
                view_action_text(view, waiting.action),
            )
            return replace(advice, steps=(step,))
    # the hint's own step stands unless the search beats it beyond its noise, as the
    # expert keeps the strong bot's choice
    planned = steps[index].action
    weighing = expert.weigh(view, [step.action for step in steps[:index]], standing=planned)
    if weighing is None:
        return advice
    steps[index] = _searched_step(view, steps[index], weighing)
    if steps[index].action != advice.steps[index].action:
        del steps[index + 1 :]  # (the rest of the plan followed the step replaced)
    return replace(advice, steps=tuple(steps))


def _searched_step(view: PlayerView, step: Advice, weighing: Weighing) -> Advice:
    down = view.viewer is not None and view.seats[view.viewer].laid is not None
    others = [seat for i, seat in enumerate(view.seats) if i != view.viewer]
    rivals = (len(others), sum(seat.laid is not None for seat in others))
    chosen = weighing.options[weighing.chosen]
    same = [option for option in weighing.options if option.action == step.action]
    # the game can end this hand: who wins it is said first, as it counts most
    ends = any(option.won or option.lost for option in (chosen, *same))
    told = _outcome(chosen, down, rivals, ends)
    summary = f"played out over {weighing.deals} sampled deals, {told}"
    if same and same[0].action == chosen.action:
        return Advice(step.action, f"{step.reason}; {summary}", step.text)
    if same:
        was = f"{view_action_text(view, same[0].action)}: {_outcome(same[0], down, rivals, ends)}"
        summary += f" (against {was})"
    return Advice(chosen.action, summary, view_action_text(view, chosen.action))


def _waiting_reason(view: PlayerView, waiting: Weighing) -> str:
    """Why to keep the phase in hand: what waiting gives that laying down now does not,
    each part that differs, over the deals searched.

    >>> from phase10.core import Card, Game, LayDown
    >>> lay = Option(LayDown(()), 0.2, 1.0, 2.4, 0.62, won=0.0, lost=0.0)
    >>> wait = Option(Discard(Card.parse("R7")), 0.4, 1.0, 5.1, 0.35, won=0.0, lost=0.0)
    >>> print(_waiting_reason(Game(2, seed=1).view(0), Weighing((lay, wait), 1, 0, 48)))
    keep your phase in hand this turn and lay it down later. Over 48 sampled deals of the cards you cannot see, your opponent makes their phase this hand 35% of the time if you wait, 62% if you lay down now; you are left with 5 points on average if you wait, 2 if you lay down now (points count against you)
    """
    lay, wait = waiting.options[waiting.greedy], waiting.options[waiting.chosen]
    others = [seat for i, seat in enumerate(view.seats) if i != view.viewer]
    parts = []

    def compare(text: str, now: str, later: str, unit: str = "of the time") -> None:
        if now != later:
            parts.append(f"{text} {later} {unit} if you wait, {now} if you lay down now")

    compare("you win the game this hand", f"{lay.won:.0%}", f"{wait.won:.0%}")
    compare("an opponent wins it", f"{lay.lost:.0%}", f"{wait.lost:.0%}")
    compare("you make your phase", f"{lay.phase:.0%}", f"{wait.phase:.0%}")
    if len(others) > 1:
        theirs = "your opponents make"
        compare(theirs, f"{lay.rivals:.1f}", f"{wait.rivals:.1f}", "phases between them")
    elif others[0].laid is None:  # (an opponent down already has made theirs)
        theirs = "your opponent makes their phase this hand"
        compare(theirs, f"{lay.rivals:.0%}", f"{wait.rivals:.0%}")
    points = (round(lay.points), round(wait.points))
    if points[0] != points[1]:
        parts.append(
            f"you are left with {plural(points[1], 'point')} on average if you wait, "
            f"{points[0]} if you lay down now (points count against you)"
        )
    told = "; ".join(parts) if parts else "waiting does better"
    return (
        "keep your phase in hand this turn and lay it down later. Over "
        f"{waiting.deals} sampled deals of the cards you cannot see, {told}"
    )


def _outcome(option: Option, down: bool, rivals: tuple[int, int], ends: bool = False) -> str:
    """What a choice gives, on average over the deals: ``rivals`` is how many opponents
    there are and how many of them are down already (their phase made, said no more);
    ``ends``: the game can end this hand, and who wins it is said first.

    >>> from phase10.core import Card
    >>> option = Option(Discard(Card.parse("R7")), 0.0, 0.5, 1.0, 0.25)
    >>> _outcome(option, False, (1, 0)).split(", ")
    ['you make your phase 50% of the time', 'your opponent makes theirs 25% of the time', 'and you score 1 point on average']
    >>> _outcome(option, True, (1, 1))
    'you score 1 point on average'
    >>> _outcome(option, True, (3, 2)).split(", ")
    ['your opponents make 0.2 phases between them (2 of them down already)', 'and you score 1 point on average']
    >>> last = Option(Discard(Card.parse("R7")), 0.0, 0.5, 1.0, 0.25, won=0.1, lost=0.3)
    >>> _outcome(last, True, (1, 0), ends=True).split(", ")[0]
    'you win the game this hand 10% of the time and an opponent does 30%'
    """
    parts = [] if down else [f"you make your phase {option.phase:.0%} of the time"]
    if ends:
        parts.insert(
            0,
            f"you win the game this hand {option.won:.0%} of the time"
            f" and an opponent does {option.lost:.0%}",
        )
    count, done = rivals
    if count == 1 and not done:
        parts.append(f"your opponent makes theirs {option.rivals:.0%} of the time")
    elif count > 1:
        already = f" ({done} of them down already)" if done else ""
        parts.append(f"your opponents make {option.rivals:.1f} phases between them{already}")
    points = round(option.points)
    score = f"you score {points} point{'' if points == 1 else 's'} on average"
    return f"{', '.join(parts)}, and {score}" if parts else score
