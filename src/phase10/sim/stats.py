"""Statistics for bot-against-bot games: win-rate intervals, finishing places and ratings.

A win rate comes with its Wilson score interval:

>>> low, high = wilson_interval(8, 10)
>>> round(low, 4), round(high, 4)
(0.4902, 0.9433)

A game's finishing places follow the official order: the winners first, then the
others by phases completed (more is better), then by total score (lower is better):

>>> places(winners=(2,), phases=(3, 5, 5), scores=(90, 150, 120))
(2, 1, 0)

A mean, such as the paired difference between two bots over the same games, comes with
the half-width of its 95% interval (normal approximation):

>>> mean, half = mean_interval([1, 0, 1, 1, 0, 1])
>>> round(mean, 3), round(half, 3)
(0.667, 0.413)

Ratings are a Bradley–Terry fit to every pair of players' finishes, on the Elo scale:

>>> ratings = fit_ratings([[0, 3], [1, 0]])
>>> [round(r, 1) for r in ratings]
[1573.6, 1426.4]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "ELO_SCALE",
    "RATING_ANCHOR",
    "Z95",
    "expected_score",
    "fit_ratings",
    "mean_interval",
    "pairwise_wins",
    "places",
    "wilson_interval",
]

#: The normal quantile of a two-sided 95% interval.
Z95: Final = 1.959963984540054
#: Rating points for a tenfold difference in the odds of finishing ahead (as in Elo).
ELO_SCALE: Final = 400.0
#: The mean rating of the players rated together.
RATING_ANCHOR: Final = 1500.0


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a success rate of ``successes`` in ``trials``.

    ``successes`` may be fractional (a shared win counts 1/k). Unlike the normal
    approximation the interval stays inside [0, 1] and is sensible near 0 and 1:

    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, not {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    rate = successes / trials
    z2 = z * z
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    spread = z / (1 + z2 / trials) * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials**2))
    low = 0.0 if successes == 0 else max(0.0, centre - spread)
    high = 1.0 if successes == trials else min(1.0, centre + spread)
    return low, high


def mean_interval(values: Iterable[float], z: float = Z95) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its interval, ``z`` standard errors.

    The standard error uses the sample standard deviation (n - 1). For paired
    comparisons, pass the differences game by game (1 - 0 where only the first bot won):

    >>> mean, half = mean_interval([1, 0, 0, -1, 1, 0, 1, 0])
    >>> mean, round(half, 3)
    (0.25, 0.49)
    >>> mean_interval([0.5])
    (0.5, inf)
    >>> mean_interval([])
    Traceback (most recent call last):
    ...
    ValueError: need at least one value for a mean
    """
    data = [float(value) for value in values]
    if not data:
        raise ValueError("need at least one value for a mean")
    mean = math.fsum(data) / len(data)
    if len(data) == 1:
        return mean, math.inf
    variance = math.fsum((value - mean) ** 2 for value in data) / (len(data) - 1)
    return mean, z * math.sqrt(variance / len(data))


def places(winners: Sequence[int], phases: Sequence[int], scores: Sequence[int]) -> tuple[int, ...]:
    """Each player's finishing place (0 is first; equal places are ties).

    Winners share first place; the others follow by phases completed, then by the
    lower total score. Players equal on both tie:

    >>> places(winners=(0, 1), phases=(10, 10, 9), scores=(80, 80, 60))
    (0, 0, 2)
    >>> places(winners=(0,), phases=(10, 4, 4), scores=(80, 60, 60))
    (0, 1, 1)
    """
    keys = [(seat not in winners, -phases[seat], scores[seat]) for seat in range(len(scores))]
    return tuple(sum(other < key for other in keys) for key in keys)


def pairwise_wins(size: int, games: Iterable[Sequence[tuple[int, int]]]) -> NDArray[np.float64]:
    """A ``size`` x ``size`` matrix: entry [i, j] counts how often i finished ahead of j.

    Each game is a list of (player, place) pairs; a tie counts half to each side. Two
    seats held by the same player are not compared with each other.

    >>> pairwise_wins(3, [[(0, 0), (1, 1), (2, 1)], [(2, 0), (0, 1), (0, 2)]]).tolist()
    [[0.0, 1.0, 1.0], [0.0, 0.0, 0.5], [2.0, 0.5, 0.0]]
    """
    wins = np.zeros((size, size))
    for game in games:
        for a, (i, place_i) in enumerate(game):
            for j, place_j in game[a + 1 :]:
                if i == j:
                    continue
                if place_i < place_j:
                    wins[i, j] += 1
                elif place_j < place_i:
                    wins[j, i] += 1
                else:
                    wins[i, j] += 0.5
                    wins[j, i] += 0.5
    return wins


def expected_score(rating: float, other: float) -> float:
    """How often a player rated ``rating`` finishes ahead of one rated ``other``.

    >>> round(expected_score(1900, 1500), 4)
    0.9091
    """
    return 1 / (1 + 10 ** ((other - rating) / ELO_SCALE))


def fit_ratings(
    wins: Sequence[Sequence[float]] | NDArray[np.float64],
    *,
    prior: float = 1.0,
    anchor: float = RATING_ANCHOR,
) -> list[float]:
    """Bradley–Terry ratings, on the Elo scale, from a matrix of pairwise wins.

    ``wins[i][j]`` counts how often i finished ahead of j. The fit maximises the
    likelihood of every comparison under P(i ahead of j) = 1 / (1 + 10^((Rj - Ri) / 400))
    after adding ``prior`` virtual drawn comparisons between every pair (this keeps a
    player who always wins at a finite rating). The ratings average ``anchor``.

    >>> ratings = fit_ratings([[0, 40, 40], [0, 0, 20], [0, 20, 0]])
    >>> ratings[0] > ratings[1] == ratings[2]
    True
    >>> fit_ratings([[0.0]])
    [1500.0]
    """
    matrix = np.array(wins, dtype=float)
    size = matrix.shape[0]
    if matrix.shape != (size, size) or (matrix < 0).any():
        raise ValueError("wins must be a square matrix of counts")
    if size == 0:
        return []
    matrix = matrix + (1 - np.eye(size)) * prior / 2
    np.fill_diagonal(matrix, 0.0)
    total = matrix + matrix.T
    if size > 1 and not _connected(total > 0):
        raise ValueError("every player must be compared with the others, directly or not")
    theta = np.zeros(size)  # natural-log strengths

    def likelihood(t: NDArray[np.float64]) -> float:
        diff = t[:, None] - t[None, :]
        return float(-(matrix * np.logaddexp(0.0, -diff)).sum())

    current = likelihood(theta)
    for _ in range(100):
        ahead = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # P(i ahead of j)
        gradient = matrix.sum(axis=1) - (total * ahead).sum(axis=1)
        weights = total * ahead * ahead.T
        hessian = weights - np.diag(weights.sum(axis=1))
        step = np.linalg.solve(hessian - 1.0, -gradient)  # -1: pins the mean, Σ step = 0
        scale = 1.0
        while scale > 1e-6:
            trial = theta + scale * step
            value = likelihood(trial)
            if value >= current - 1e-12:
                break
            scale /= 2
        theta, current = trial, value
        if np.abs(scale * step).max() < 1e-10:
            break
    ratings = theta * ELO_SCALE / math.log(10)
    ratings += anchor - ratings.mean()
    return [float(r) for r in ratings]


def _connected(adjacent: NDArray[np.bool_]) -> bool:
    seen = {0}
    frontier = [0]
    while frontier:
        node = frontier.pop()
        for other in np.flatnonzero(adjacent[node]).tolist():
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    return len(seen) == int(adjacent.shape[0])
