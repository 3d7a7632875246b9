"""Game review: each decision a player made, weighed against the expert's choice.

For every decision of the reviewed player (take or draw, lay down now or wait and which
arrangement, each hit, the discard and a Skip's target, the phase declared where phases
are played in any order, to whom the turned-up Wild goes, giving up) :func:`review`
rebuilds the game from that player's view alone, as it stood before the decision, and searches it as the
expert does (:class:`~phase10.search.ExpertPlayer`): the cards the player could not see
are dealt afresh for every play-out, consistently with what the view shows, and every
legal move is played out over the same deals to the hand's end by the greedy policy. The
move played and the expert's choice are then also played out to the game's end, which
estimates the player's (and everyone's) chance to win the game.

A decision is a **mistake** when the expert's choice does better than the move played by
at least :data:`MISTAKE` (in the expert's units: one phase of one's own completed this
hand counts 1; see :class:`~phase10.search.Weights`) and by more than twice the search's
own noise. Nothing the player did not know is read: the same views give the same review,
whatever the hidden cards were.

>>> from phase10.core import Game, Rules
>>> from phase10.bots import play_game
>>> from phase10.bots.greedy import GreedyPlayer
>>> from phase10.core.records import GameRecord
>>> import random
>>> game = Game(["Ann", "Bob"], seed=3, rules=Rules(phases=(1,)))
>>> play_game(game, [GreedyPlayer(random.Random(0)), GreedyPlayer(random.Random(1))])
>>> done = review(GameRecord.from_game(game), "Ann", deals=8, win_deals=4)
>>> done.name, len(done.decisions) > 0, len(done.hands)
('Ann', True, 1)
>>> done.chances[-1].wins == tuple(1.0 if seat in game.winners else 0.0 for seat in range(2))
True
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from phase10.bots.seats import HUMAN
from phase10.core import (
    Action,
    Declare,
    Discard,
    Draw,
    Game,
    GiveUp,
    GiveWild,
    Hit,
    LayDown,
    PlayerView,
    Save,
    Stage,
    TakeDiscard,
    TakeSaved,
)
from phase10.core.codec import RecordError
from phase10.core.errors import IllegalActionError, InvalidActionError, SearchLimitError
from phase10.core.labels import view_action_text
from phase10.core.records import GameRecord
from phase10.kernel import available, bounded_steps, greedy_unsupported, load_error

from .decisions import (
    MAX_CANDIDATES,
    REVIEW_STEPS,
    WHOLE_TURNS,
    DecisionSearch,
    decision_rng,
    weigh_decision,
)
from .expert import CLOSER_LOOK, MISTAKE, Weights

__all__ = [
    "MAX_CANDIDATES",
    "MISTAKE",
    "REVIEW_FORMAT",
    "Decision",
    "HandSummary",
    "Outcome",
    "Point",
    "Review",
    "ReviewError",
    "cache_path",
    "cached_review",
    "find_player",
    "review",
    "review_key",
]

REVIEW_FORMAT = "phase10-review"
REVIEW_VERSION = 1
CACHE_FORMAT = "phase10-review-cache"
#: the most reviews kept beside one record, the latest
CACHE_KEEP = 8

Progress = Callable[[int, int], None]


class ReviewError(ValueError):
    """A record that cannot be reviewed: why, in words."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the play-outs after one move showed, on average over the deals."""

    #: the value of the hand's end for the player (:class:`~phase10.search.Weights`)
    value: float
    #: the share of deals in which the player completes their phase this hand
    phase: float
    #: the player's points this hand
    points: float
    #: the phases the player's opponents complete this hand, between them
    rivals: float
    #: the player's chance to win the game, played out to the end
    win: float
    #: the part of ``value`` that is the game won (or lost to an opponent) this hand
    game: float = 0.0


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed player."""

    #: the actions played before it (the record's position: ``record.replay(step)``)
    step: int
    hand: int
    #: take or draw, lay down, hit, discard, skip
    kind: str
    played: str
    best: str
    #: how many moves were weighed
    choices: int
    after_played: Outcome
    after_best: Outcome
    #: the value the move played gave up against the expert's choice (0 or more)
    loss: float
    #: the standard error of that loss, over the paired deals
    noise: float
    mistake: bool
    #: one line, in words: what the play-outs showed
    reason: str


@dataclass(frozen=True, slots=True)
class Point:
    """Every seat's estimated chance to win the game, seen by the reviewed player."""

    step: int
    hand: int
    wins: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class HandSummary:
    hand: int
    decisions: int
    mistakes: int
    #: the value given up in the hand's mistakes (what the other decisions seem to give
    #: up lies within the search's noise, and summed it would read as a loss that is not)
    lost: float
    #: whether the player completed their phase this hand (None: the hand did not end)
    made_phase: bool | None
    #: the player's points this hand (None: the hand did not end)
    points: int | None
    #: the player's chance to win at the hand's first and last decision (None: the
    #: player had none this hand)
    win_before: float | None
    win_after: float | None


@dataclass(frozen=True, slots=True)
class Review:
    player: int
    name: str
    players: tuple[str, ...]
    deals: int
    win_deals: int
    seed: int
    decisions: tuple[Decision, ...]
    hands: tuple[HandSummary, ...]
    chances: tuple[Point, ...]

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        """The mistakes, the costliest first."""
        return tuple(sorted((d for d in self.decisions if d.mistake), key=lambda d: -d.loss))

    @property
    def note(self) -> str:
        """What the review read: the player's view alone, in words."""
        you = self.name.casefold() == "you"
        whose, who = ("your", "you") if you else (f"{self.name}'s", self.name)
        # (a share of win_deals play-outs: its 95% interval at a half, the widest)
        spread = round(196 * math.sqrt(0.25 / self.win_deals))
        return (
            f"Estimated from {whose} view only: at each decision the cards {who} could not "
            f"see were dealt afresh for every play-out ({self.deals} deals to the hand's "
            f"end, {self.win_deals} to the game's end). Each win chance comes from "
            f"{self.win_deals} play-outs, so it can be off by up to {spread} points either "
            "way, and it moves that much from one decision to the next by chance alone."
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": REVIEW_FORMAT,
            "version": REVIEW_VERSION,
            "player": self.player,
            "name": self.name,
            "players": list(self.players),
            "deals": self.deals,
            "win_deals": self.win_deals,
            "seed": self.seed,
            "note": self.note,
            "decisions": [_decision_dict(d) for d in self.decisions],
            "mistakes": [self.decisions.index(d) for d in self.mistakes],
            "hands": [_plain(h) for h in self.hands],
            "chances": [
                {"step": p.step, "hand": p.hand, "wins": list(p.wins)} for p in self.chances
            ],
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Review:
        """A review read back from :meth:`to_dict` (a cache); :class:`ReviewError` if it is
        not one of this version."""
        if (
            not isinstance(data, dict)
            or data.get("format") != REVIEW_FORMAT
            or data.get("version") != REVIEW_VERSION
        ):
            raise ReviewError("not a phase10 review of this version")
        try:
            return Review(
                player=int(data["player"]),
                name=str(data["name"]),
                players=tuple(str(n) for n in data["players"]),
                deals=int(data["deals"]),
                win_deals=int(data["win_deals"]),
                seed=int(data["seed"]),
                decisions=tuple(
                    Decision(
                        **{
                            **d,
                            "after_played": Outcome(**d["after_played"]),
                            "after_best": Outcome(**d["after_best"]),
                        }
                    )
                    for d in data["decisions"]
                ),
                hands=tuple(HandSummary(**h) for h in data["hands"]),
                chances=tuple(
                    Point(int(p["step"]), int(p["hand"]), tuple(map(float, p["wins"])))
                    for p in data["chances"]
                ),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:  # (a list for a dict)
            raise ReviewError(f"the review is unreadable: {error}") from None


def find_player(record: GameRecord, player: str | int | None) -> int:
    """The seat to review: by name (any case) or seat number; None: the one person of the
    record's ``controllers`` tag (the terminal game's and the server's records say who
    played each seat), else the player named "You", else seat 0. :class:`ReviewError`
    names the players otherwise."""
    names = record.players
    if player is None:
        people = [i for i in range(len(names)) if _controller(record, i) == HUMAN]
        if len(people) == 1 and people[0] < len(names):
            return people[0]
        return next((i for i, name in enumerate(names) if name.casefold() == "you"), 0)
    if isinstance(player, int):
        if 0 <= player < len(names):
            return player
    else:
        matches = [i for i, name in enumerate(names) if name.casefold() == player.casefold()]
        if len(matches) > 1:
            seats = " and ".join(str(i) for i in matches)
            raise ReviewError(f"{len(matches)} players are named {player}: give the seat ({seats})")
        if matches:
            return matches[0]
    raise ReviewError(f"no player {player!r} in this game: its players are {', '.join(names)}")


def _controller(record: GameRecord, seat: int) -> str:
    parts = (record.tag("controllers") or "").split(",")
    return parts[seat].strip() if seat < len(parts) else ""


def review(
    record: GameRecord,
    player: str | int | None = None,
    *,
    deals: int = 48,
    win_deals: int = 32,
    seed: int = 0,
    progress: Progress | None = None,
) -> Review:
    """Review ``player``'s decisions in ``record`` (see the module's doc). ``progress`` is
    called with (decisions done, decisions in all) as the review goes.

    Raises :class:`ReviewError` when the kernel is not built, the game's rules are ones its
    play-outs do not play, the record does not replay, or its phases take too long to play
    out (a decision's play-outs are bounded:
    :data:`REVIEW_STEPS` search steps)."""
    if not available():
        raise ReviewError(f"reviews need the compiled kernel, which is not in use: {load_error()}")
    why = greedy_unsupported(record.rules)
    if why is not None:
        raise ReviewError(f"this game cannot be reviewed: {why}")
    if not 1 <= deals <= 512 or not 1 <= win_deals <= 512:
        raise ReviewError("deals and win_deals must be from 1 to 512")
    try:  # (milliseconds: before the search, a record that contradicts itself is refused)
        record.replay()
    except RecordError as error:
        raise ReviewError(f"this record cannot be reviewed: {error}") from None
    seat = find_player(record, player)
    steps = _decision_steps(record, seat)
    decisions: list[Decision] = []
    chances: list[Point] = []
    game = _start(record)
    done = 0
    for step, text in enumerate(record.actions):
        if step in steps:
            view = game.view(seat)
            action = game.parse_action(text)
            try:
                with bounded_steps(REVIEW_STEPS):
                    decision, wins = _weigh(view, action, step, seed, deals, win_deals)
            except SearchLimitError:
                raise ReviewError(
                    f"this game's phases take too long to play out: weighing the decision "
                    f"at step {step} ran past {REVIEW_STEPS:,} search steps"
                ) from None
            if decision is not None:
                decisions.append(decision)
            if wins is not None:
                chances.append(Point(step, view.hand_number, wins))
            done += 1
            if progress is not None:
                progress(done, len(steps))
        _apply(record, game, step, text)
    if game.is_over:
        end = tuple(1.0 if s in game.winners else 0.0 for s in range(game.num_players))
        chances.append(Point(len(record.actions), game.hand_number, end))
    hands = _summaries(game, seat, decisions, chances)
    return Review(
        seat,
        record.players[seat],
        record.players,
        deals,
        win_deals,
        seed,
        tuple(decisions),
        hands,
        tuple(chances),
    )


def _start(record: GameRecord) -> Game:
    game = record.new_game()
    GameRecord._reshuffle(game, 0, record.reshuffles())
    return game


def _apply(record: GameRecord, game: Game, step: int, text: str) -> None:
    try:
        game.apply(text)
    except (IllegalActionError, InvalidActionError) as error:
        raise ReviewError(f"action {step + 1} ({text!r}) does not apply: {error}") from None
    GameRecord._reshuffle(game, step + 1, record.reshuffles())


def _decision_steps(record: GameRecord, seat: int) -> set[int]:
    """The steps at which ``seat`` decided (a first pass, so progress knows the total)."""
    try:
        game = _start(record)
    except RecordError as error:
        raise ReviewError(str(error)) from None
    steps = set()
    for step, text in enumerate(record.actions):
        if game.current == seat and game.stage is not Stage.GAME_OVER:
            steps.add(step)
        _apply(record, game, step, text)
    return steps


def _kind(action: Action) -> str:
    """The decision's kind (taking a saved card back stands for the draw; the Anti-phase
    card naming a player is a discard, not a skip)."""
    match action:
        case Draw() | TakeDiscard() | TakeSaved():
            return "take or draw"
        case LayDown():
            return "lay down"
        case Hit():
            return "hit"
        case Discard(card=card, target=target) if target is not None and card.is_skip:
            return "skip"
        case Discard():
            return "discard"
        case Declare():
            return "declare"
        case GiveWild():
            return "give the Wild"
        case GiveUp():
            return "give up"
        case Save():
            return "save"
    raise AssertionError(f"no kind of decision for {action!r}")


def _weigh(
    view: PlayerView, played: Action, step: int, seed: int, deals: int, win_deals: int
) -> tuple[Decision | None, tuple[float, ...] | None]:
    """The decision at ``view`` (None with a single move) and every seat's chance to win
    after the move played."""
    rng = decision_rng(view, seed)
    weighed = weigh_decision(view, played, rng, deals)
    search, candidates, mine, best = weighed.search, weighed.candidates, weighed.mine, weighed.best
    if weighed.results is None or weighed.values is None:
        wins = search.wins(candidates, win_deals, rng)
        return None, tuple(float(w) for w in wins[0])
    pair = [candidates[mine]] if best == mine else [candidates[mine], candidates[best]]
    wins = search.wins(pair, win_deals, rng)
    outcomes = [
        _outcome(search, weighed.results, weighed.values, j, wins[min(k, len(wins) - 1)][search.me])
        for k, j in enumerate((mine, best))
    ]
    decision = Decision(
        step=step,
        hand=view.hand_number,
        kind=_kind(played),
        played=view_action_text(view, played),
        best=view_action_text(view, weighed.action(best)),
        choices=len(candidates),
        after_played=outcomes[0],
        after_best=outcomes[1],
        loss=weighed.loss,
        noise=weighed.noise,
        mistake=weighed.mistake,
        reason="",
    )
    return _with_reason(decision, view), tuple(float(w) for w in wins[0])


def _outcome(
    search: DecisionSearch,
    results: NDArray[np.int32],
    values: NDArray[np.float64],
    j: int,
    win: float,
) -> Outcome:
    view, me = search.view, search.me
    before = view.seats[me]
    done = sum(len(seat.completed) for seat in view.seats) - len(before.completed)
    phase = float((results[:, j, me, 0] > len(before.completed)).mean())
    points = float(results[:, j, me, 1].mean()) - before.score
    rivals = float((results[:, j, :, 0].sum(axis=-1) - results[:, j, me, 0]).mean()) - done
    won = results[:, j, :, 2].astype(np.float64)
    share = 1.0 / max(len(view.seats) - 1, 1)
    rivals_won = won.sum(axis=-1) - won[:, me]
    game = search.expert.weights.win * float((won[:, me] - share * rivals_won).mean())
    return Outcome(float(values[:, j].mean()), phase, points, rivals, float(win), game)


def _with_reason(decision: Decision, view: PlayerView) -> Decision:
    return replace(decision, reason=reason(decision, view))


def reason(decision: Decision, view: PlayerView) -> str:
    """One line on the decision: what the move played led to, against the expert's."""
    a, b = decision.after_played, decision.after_best
    if decision.played == decision.best:
        return f"the expert agrees: you win {a.win:.0%} of the play-outs to the game's end"
    w = Weights()
    rivals = len(view.seats) - 1
    down = view.viewer is not None and view.seats[view.viewer].laid is not None
    parts = {
        "phase": 0.0 if down else b.phase - a.phase,
        "rivals": (a.rivals - b.rivals) * w.rival / rivals,
        "points": (a.points - b.points) * w.points,
        # where a last phase is in reach, the game won or lost this hand counts most
        "win": b.game - a.game,
    }
    worst = max(parts, key=lambda k: parts[k])
    if parts[worst] <= 0:
        return f"about as good as {decision.best}"
    best = decision.best
    if worst == "win":
        return f"you win the game {a.win:.0%} of the time; after {best}, {b.win:.0%}"
    if worst == "phase":
        return f"you make your phase {a.phase:.0%} of the time; after {best}, {b.phase:.0%}"
    if worst == "rivals" and rivals == 1:
        return (
            f"your opponent makes their phase {a.rivals:.0%} of the time; "
            f"after {best}, {b.rivals:.0%}"
        )
    if worst == "rivals":
        return (
            f"your opponents make {a.rivals:.1f} phases between them; after {best}, {b.rivals:.1f}"
        )
    return f"you are left holding {a.points:.0f} points on average; after {best}, {b.points:.0f}"


def _summaries(
    game: Game, seat: int, decisions: list[Decision], chances: list[Point]
) -> tuple[HandSummary, ...]:
    ended = {result.hand: result for result in game.view(seat).hand_results}
    hands = sorted({d.hand for d in decisions} | {p.hand for p in chances} | set(ended))
    summaries = []
    for hand in hands:
        mine = [d for d in decisions if d.hand == hand]
        points = [p.wins[seat] for p in chances if p.hand == hand]
        result = ended.get(hand)
        summaries.append(
            HandSummary(
                hand=hand,
                decisions=len(mine),
                mistakes=sum(d.mistake for d in mine),
                lost=sum(d.loss for d in mine if d.mistake),
                made_phase=None if result is None else seat in result.advanced,
                points=None if result is None else result.points[seat],
                win_before=points[0] if points else None,
                win_after=points[-1] if points else None,
            )
        )
    return tuple(summaries)


def _decision_dict(decision: Decision) -> dict[str, Any]:
    data = _plain(decision)
    data["after_played"] = _plain(decision.after_played)
    data["after_best"] = _plain(decision.after_best)
    return data


def _plain(obj: Any) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in obj.__slots__}


def review_key(record: GameRecord, seat: int, deals: int, win_deals: int, seed: int) -> str:
    """What a cached review is filed under: the record's content and the review's settings
    (a record that changes, or other settings, are reviewed afresh). Not its date: the
    same game written again a minute later is the same game."""
    content = record.to_dict()
    content.pop("date", None)
    text = json.dumps(content, sort_keys=True)
    # (the closer look at close calls changes what a review finds: reviews made before
    # it are made again)
    # (nor do reviews made before a lay-down was valued with the rest of its turn, or
    # before each decision's deals were seeded by its position, as a hint's are)
    settings = (
        f"{REVIEW_VERSION}:closer {CLOSER_LOOK} both:whole turns {WHOLE_TURNS}:by position:"
        f"{seat}:{deals}:{win_deals}:{seed}"
    )
    return hashlib.sha256(f"{settings}\n{text}".encode()).hexdigest()


def cache_path(record_path: Path) -> Path:
    """Where the reviews of the record at ``record_path`` are kept: beside it, named
    ``NAME.review.json``."""
    return record_path.with_name(f"{record_path.stem}.review.json")


def cached_review(
    record_path: Path,
    record: GameRecord,
    player: str | int | None = None,
    *,
    deals: int = 48,
    win_deals: int = 32,
    seed: int = 0,
    progress: Progress | None = None,
    cache: bool = True,
) -> Review:
    """:func:`review`, kept with the record (:func:`cache_path`): a record reviewed before
    with the same settings is read back, not searched again. An unreadable or outdated
    cache file is replaced; one that cannot be written leaves the review uncached."""
    seat = find_player(record, player)
    key = review_key(record, seat, deals, win_deals, seed)
    path = cache_path(record_path)
    stored = _read_cache(path) if cache else {}
    if key in stored:
        try:
            return Review.from_dict(stored[key])
        except ReviewError:
            pass
    done = review(record, seat, deals=deals, win_deals=win_deals, seed=seed, progress=progress)
    if cache:
        stored.pop(key, None)
        stored[key] = done.to_dict()
        for old in list(stored)[:-CACHE_KEEP]:  # (a record still being played changes)
            del stored[old]
        _write_cache(path, record_path, {"format": CACHE_FORMAT, "reviews": stored})
    return done


def _write_cache(path: Path, record_path: Path, data: dict[str, Any]) -> None:
    """Write the cache in one step, readable by whoever may read the record (its moves
    are in it); a cache that cannot be written is left as it was."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        mode = record_path.stat().st_mode & 0o666
    except OSError:
        mode = 0o600
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(data, file)
        os.chmod(temporary, mode)  # (the umask may have taken bits off)
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)


def _read_cache(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
        return {}
    reviews = data.get("reviews")
    return dict(reviews) if isinstance(reviews, dict) else {}
