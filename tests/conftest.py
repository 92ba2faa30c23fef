"""Shared test settings: the Hypothesis profile, chosen by ``HOOLA_HYPOTHESIS``.

``ci`` (the default) is what the checks run; ``dev`` is a quick pass while editing; ``long`` is a
soak run (``HOOLA_HYPOTHESIS=long .venv/bin/python -m pytest -q tests/test_properties.py``).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

PROFILES = {"dev": 40, "ci": 300, "long": 5000}  # examples per property test

for _name, _examples in PROFILES.items():
    settings.register_profile(_name, max_examples=_examples, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])


def pytest_configure(config: pytest.Config) -> None:
    """Load the profile ``HOOLA_HYPOTHESIS`` names (refusing an unknown one in one line)."""
    profile = os.environ.get("HOOLA_HYPOTHESIS", "").strip() or "ci"
    if profile not in PROFILES:
        raise pytest.UsageError(f"HOOLA_HYPOTHESIS={profile!r} is not a profile; use one of "
                                f"{', '.join(PROFILES)}")
    settings.load_profile(profile)

