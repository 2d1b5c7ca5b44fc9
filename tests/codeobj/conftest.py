"""Fixtures of the code-object tests."""

from __future__ import annotations

import pytest

from radcc.target import get_target


@pytest.fixture(params=["gfx1100"])
def target(request):
    return get_target(request.param)
