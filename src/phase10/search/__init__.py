"""Bots that search with the compiled kernel (:mod:`phase10.kernel`), the hints they give
and the game review they make."""

from .expert import DEFAULT_DEALS, ExpertPlayer, Option, Weighing, Weights
from .hints import searched_hint
from .review import (
    Decision,
    HandSummary,
    Outcome,
    Point,
    Review,
    ReviewError,
    cached_review,
    review,
)

__all__ = [
    "DEFAULT_DEALS",
    "Decision",
    "ExpertPlayer",
    "HandSummary",
    "Option",
    "Outcome",
    "Point",
    "Review",
    "ReviewError",
    "Weighing",
    "Weights",
    "cached_review",
    "review",
    "searched_hint",
]
