"""Reinforcement-learning environments for Phase 10 (``pip install 'phase10[rl]'``)."""
