"""GLSL shaders compiled by radcc (isel + back end), run in radcc.emu (strict mode,
wave32 and wave64), must leave the buffers lavapipe leaves (radcc.oracle.lavapipe)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from radcc.oracle import spirv_tools
from tests.isel.shaders import SHADERS

pytestmark = pytest.mark.skipif(shutil.which("glslangValidator") is None,
                                reason="needs glslangValidator")

_SPV: dict[str, bytes] = {}


def spirv(name: str, src: str, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    if name not in _SPV:
        d = tmp_path_factory.mktemp("glsl")
        p = d / f"{name}.comp"
        p.write_text(src)
        r = spirv_tools.compile_glsl(p, "vulkan1.1")
        assert r.ok, r.text
        _SPV[name] = r.data
    return _SPV[name]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize(("name", "src", "groups", "buffers", "push"), SHADERS,
                         ids=[s[0] for s in SHADERS])
def test_shader_matches_lavapipe(name: str, src: str, groups: tuple[int, int, int],
                                 buffers: dict, push: bytes, wave: int,
                                 tmp_path_factory: pytest.TempPathFactory) -> None:
    from radcc.driver.run import run_compute
    from radcc.oracle.lavapipe import run_compute as lvp

    spv = spirv(name, src, tmp_path_factory)
    want = lvp(spv, groups=groups, buffers={k: (v.copy() if isinstance(v, np.ndarray) else v)
                                            for k, v in buffers.items()},
               push_constants=push)
    got = run_compute(spv, groups=groups, buffers=dict(buffers), push_constants=push,
                      wave_size=wave)
    for key in buffers:
        a = np.frombuffer(got[key], np.uint8)
        b = np.frombuffer(want[key], np.uint8)
        if name == "int64_f64" and key == (0, 1):  # doubles: sqrt/div within 1 ulp
            qa, qb = a[:2048].view(np.uint64), b[:2048].view(np.uint64)
            assert (qa == qb).all()
            np.testing.assert_allclose(a[2048:].view(np.float64), b[2048:].view(np.float64),
                                       rtol=1e-14)
            continue
        bad = np.flatnonzero(a != b)
        assert not len(bad), f"{name} {key}: {len(bad)} bytes differ, first at {bad[:8]}"
