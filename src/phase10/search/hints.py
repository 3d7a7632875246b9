"""Hints checked by the review's search.

:func:`searched_hint` is :func:`phase10.bots.hints.hint` with each step of the turn it
plans weighed as a review weighs the decision (:func:`~phase10.search.decisions.weigh_decision`:
every legal move played out over the same sampled deals to the hand's end, the strong
bot's choice standing unless another beats it beyond the noise). Where the search's move
differs from the plan's, the hint gives the search's and plans the rest of the turn
afresh from there. The deals come from the position itself, as the review's do, so a
player who follows every hint is reviewed with no mistakes. A step the search overrules
says what the search saw; so does the turn's last step (the draw, or the discard).
A plan that lays the phase down, where the search would rather discard and keep it in hand,
says what waiting gives.

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

from phase10.bots.hints import Advice, Hint, hint, replanned
from phase10.core import Hit, LayDown, PlayerView, Stage
from phase10.core.errors import SearchLimitError
from phase10.core.labels import view_action_text
from phase10.core.words import plural
from phase10.kernel import available, bounded_steps, greedy_unsupported
from phase10.kernel.convert import action_key

from .decisions import (
    MARGIN,
    REVIEW_STEPS,
    HandOver,
    Weighed,
    decision_rng,
    view_after,
    weigh_decision,
)
from .expert import DEFAULT_DEALS, Option, Weighing, _keeps_phase, beyond

__all__ = ["searched_hint"]


#: the most deals a hint weighs a step over (as many as a review may)
MAX_DEALS = 512


def searched_hint(view: PlayerView, *, deals: int = DEFAULT_DEALS, seed: int = 0) -> Hint:
    """The hint for ``view``'s player, each step weighed over ``deals`` sampled deals
    (``seed`` and the position seed them, as :func:`~phase10.search.review.review`'s own
    ``seed`` does; 1 to :data:`MAX_DEALS`). Raises ValueError when it is not the viewer's
    turn, as :func:`~phase10.bots.hints.hint` does. Without the compiled kernel, under rules its
    play-outs do not play, or where the phases take too long to play out
    (:data:`~phase10.search.decisions.REVIEW_STEPS`), the hint is the plain one."""
    if not (isinstance(deals, int) and not isinstance(deals, bool) and 1 <= deals <= MAX_DEALS):
        raise ValueError(f"deals is a whole number from 1 to {MAX_DEALS}, not {deals!r}")
    advice = hint(view)
    if not advice.steps or not available() or greedy_unsupported(view.rules) is not None:
        return advice
    try:
        steps = _searched_steps(view, list(advice.steps), deals, seed)
    except SearchLimitError:
        return advice
    return replanned(view, advice, steps)  # (how far the phase is, after these steps)


def _searched_steps(view: PlayerView, plan: list[Advice], deals: int, seed: int) -> list[Advice]:
    """The plan's steps, each weighed in turn on the view the steps before it leave."""
    steps: list[Advice] = []
    while plan:
        step = plan.pop(0)
        with bounded_steps(REVIEW_STEPS):
            weighed = weigh_decision(view, None, decision_rng(view, seed), deals)
        chosen = weighed.action(weighed.best)
        key = action_key(chosen)
        same = key == action_key(step.action)
        # (a lay-down or a hit reveals no card: the turn can be followed on; anything else
        # ends it or turns up a card)
        goes_on = isinstance(chosen, LayDown | Hit) and view.stage is Stage.PLAY
        if weighed.results is None:
            steps.append(step)
        elif same and goes_on:
            steps.append(step)  # (the plan's own reason: the turn's last step tells)
        elif not same and isinstance(step.action, LayDown) and _keeps_phase(view, key):
            steps.append(_waiting(view, step, weighed))
        else:
            steps.append(_searched_step(view, step, weighed))
        if not goes_on:
            break
        try:
            view = view_after(view, chosen)
        except HandOver:  # (out by the move)
            break
        if not view.is_my_turn or view.stage is not Stage.PLAY:
            break
        if not same or not plan:
            plan = list(hint(view).steps)  # (the plan followed the step replaced)
    return steps


def _waiting(view: PlayerView, step: Advice, weighed: Weighed) -> Advice:
    """The search's discard, keeping a phase in hand where the plan would lay it down: what
    waiting gives."""
    weighing = weighed.weighing()
    lay = _option(weighing, step)
    if lay is None:
        return _searched_step(view, step, weighed)
    wait = weighing.options[weighing.chosen]
    told = Weighing((lay, wait), 1, 0, weighing.deals)
    return Advice(wait.action, _waiting_reason(view, told), view_action_text(view, wait.action))


def _option(weighing: Weighing, step: Advice) -> Option | None:
    """The option of the search that is ``step``'s move, if it was weighed."""
    key = action_key(step.action)
    return next((o for o in weighing.options if action_key(o.action) == key), None)


def _searched_step(view: PlayerView, step: Advice, weighed: Weighed) -> Advice:
    """The search's move, with what it gives over the deals (and the plan's step, where
    the search's differs: what that one gives where the figures differ, or that it does
    about as well, where the two are too close to call)."""
    weighing = weighed.weighing()
    down = view.viewer is not None and view.seats[view.viewer].laid is not None
    others = [seat for i, seat in enumerate(view.seats) if i != view.viewer]
    rivals = (len(others), sum(seat.laid is not None for seat in others))
    chosen = weighing.options[weighing.chosen]
    own = _option(weighing, step)
    # the game can end this hand: who wins it is said first, as it counts most
    ends = any(option.won or option.lost for option in (chosen, own) if option is not None)
    told = _outcome(chosen, down, rivals, ends)
    summary = f"played out over {weighing.deals} sampled deals, {told}"
    if own is not None and action_key(own.action) == action_key(chosen.action):
        return Advice(step.action, f"{step.reason}; {summary}", step.text)
    if own is not None:  # (what the plan's move would give, where it differs)
        named = view_action_text(view, own.action)
        if isinstance(own.action, LayDown | Hit) and not isinstance(chosen.action, LayDown | Hit):
            named = f"first {named}"  # (then the turn goes on: it is not instead of this)
        assert weighed.values is not None
        lead = weighed.values[:, weighing.chosen] - weighed.values[:, weighing.options.index(own)]
        if beyond(lead, MARGIN):
            summary += f" (if you {named} instead: {_differing(own, chosen, down, rivals, ends)})"
        else:  # (within the noise: its figures, better or worse, say nothing sure)
            summary += f" (or {named}: about as good)"
    return Advice(chosen.action, summary, view_action_text(view, chosen.action))


def _waiting_reason(view: PlayerView, waiting: Weighing) -> str:
    """Why to keep the phase in hand: what waiting gives that laying down now does not,
    each part that differs, over the deals searched.

    >>> from phase10.core import Card, Discard, Game, LayDown
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
    compare("you make your phase this hand", f"{lay.phase:.0%}", f"{wait.phase:.0%}")
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

    >>> from phase10.core import Card, Discard
    >>> option = Option(Discard(Card.parse("R7")), 0.0, 0.5, 1.0, 0.25)
    >>> _outcome(option, False, (1, 0)).split(", ")
    ['you make your phase this hand 50% of the time', 'your opponent makes theirs 25% of the time', 'and you are left holding 1 point on average']
    >>> _outcome(option, True, (1, 1))
    'you are left holding 1 point on average'
    >>> _outcome(option, True, (3, 2)).split(", ")
    ['your opponents make 0.2 phases between them (2 of them down already)', 'and you are left holding 1 point on average']
    >>> last = Option(Discard(Card.parse("R7")), 0.0, 0.5, 1.0, 0.25, won=0.1, lost=0.3)
    >>> _outcome(last, True, (1, 0), ends=True).split(", ")[0]
    'you win the game this hand 10% of the time and an opponent does 30%'
    """
    return _joined(_parts(option, down, rivals, ends))


def _differing(
    option: Option, other: Option, down: bool, rivals: tuple[int, int], ends: bool
) -> str:
    """What ``option`` gives where it differs from ``other``, as said (rounded).

    >>> from phase10.core import Card, Discard
    >>> seven = Option(Discard(Card.parse("R7")), 0.0, 0.5, 7.2, 0.25)
    >>> eight = Option(Discard(Card.parse("R8")), 0.0, 0.5, 6.1, 0.31)
    >>> _differing(seven, eight, False, (1, 0), False)
    'your opponent makes theirs 25% of the time, and you are left holding 7 points on average'
    >>> _differing(seven, seven, False, (1, 0), False)
    'about as good'
    """
    mine, theirs = _parts(option, down, rivals, ends), _parts(other, down, rivals, ends)
    differ = [part for part, twin in zip(mine, theirs, strict=True) if part != twin]
    return _joined(differ) if differ else "about as good"


def _parts(option: Option, down: bool, rivals: tuple[int, int], ends: bool) -> list[str]:
    parts = [] if down else [f"you make your phase this hand {option.phase:.0%} of the time"]
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
    # (points count against the player: "left holding" says so)
    parts.append(f"you are left holding {plural(points, 'point')} on average")
    return parts


def _joined(parts: list[str]) -> str:
    """``a``, ``a, and b``, ``a, b, and c``."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])}, and {parts[-1]}"
