"""Test-suite wide settings.

Hypothesis runs derandomized under CI (CI=true) so that a submission's result
does not depend on the draw; locally it explores new examples each run (set
HYPOTHESIS_PROFILE=ci to reproduce CI). A failure found either way is kept as
an explicit regression test.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
