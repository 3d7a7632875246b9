"""The solver: exact phase checks (one hand or many), best lay-downs and hits, outs and odds.

>>> from phase10.core import Phase, parse_cards
>>> can_lay(Phase.parse("1 set of 3 + 1 run of 4"), parse_cards("R7 B7 W G2 G3 Y4 B5"))
True
"""

from phase10.core.feasibility import can_lay, compile_phase, hand_counts, missing, wilds_needed

from .batch import BatchChecker, counts_matrix, deal_counts

__all__ = [
    "BatchChecker",
    "can_lay",
    "compile_phase",
    "counts_matrix",
    "deal_counts",
    "hand_counts",
    "missing",
    "wilds_needed",
]
