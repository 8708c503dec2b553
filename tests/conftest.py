"""Shared test settings: hypothesis runs derandomized (fixed seeds) with no deadline.

``HYPOTHESIS_PROFILE=fuzz`` runs the fuzz tests (tests/cli/test_fuzz.py) long and with
fresh random seeds: ``HYPOTHESIS_PROFILE=fuzz pytest tests/cli/test_fuzz.py``.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "fuzz",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
