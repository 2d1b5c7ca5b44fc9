"""Test-suite wide settings.

Hypothesis runs derandomized under CI (CI=true) so that a submission's result
does not depend on the draw; locally it explores new examples each run (set
HYPOTHESIS_PROFILE=ci to reproduce CI). A failure found either way is kept as
an explicit regression test.

The `lvp` fixture (lavapipe present) serves every test directory.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

from radcc.oracle import lavapipe
from tests.support.tools import require_lavapipe

settings.register_profile(
    "ci", derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--compiled", action="store_true",
                     help="the run is the compiled build's (tools/build_compiled.py): "
                          "tests/test_compiled.py requires every module of "
                          "radcc.compiled.MODULES to load compiled")


@pytest.fixture(scope="session")
def lvp() -> lavapipe.DeviceInfo:
    """lavapipe's device info: the oracle of every test that takes this fixture (a missing
    lavapipe fails under CI=true and skips locally: tests/support/tools.py)."""
    return require_lavapipe()
