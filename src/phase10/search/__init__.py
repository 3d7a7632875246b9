"""Bots that search with the compiled kernel (:mod:`phase10.kernel`)."""

from .expert import DEFAULT_DEALS, ExpertPlayer, Option, Weighing, Weights
from .hints import searched_hint

__all__ = ["DEFAULT_DEALS", "ExpertPlayer", "Option", "Weighing", "Weights", "searched_hint"]
