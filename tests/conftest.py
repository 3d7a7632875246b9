"""Shared pytest configuration for the phase10 test suite."""

from __future__ import annotations

import os

from hypothesis import settings

# Property-based tests are derandomized so that every run, locally and in CI,
# explores the same examples; deadlines are disabled because timing on shared
# machines is too noisy to be a meaningful failure signal.
settings.register_profile("default", deadline=None, derandomize=True)
settings.register_profile("ci", deadline=None, derandomize=True)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
