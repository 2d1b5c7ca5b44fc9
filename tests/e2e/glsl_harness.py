"""The GLSL compute-shader suite's machinery: cases, inputs, references, comparison.

A `Case` (tests/e2e/glsl/cases.py) names a shader (tests/e2e/glsl/NAME.comp), the
dispatch size, its buffers per (set, binding) (seeded random inputs or zeros),
push-constant bytes, specialization constants and a NumPy reference. The reference
gets a `Run` (the inputs, and the output bytes: only for values the shader
records about its own execution, e.g. gl_SubgroupSize / gl_SubgroupInvocationID,
which the reference validates before using) and returns an `Expect` per output
buffer: integers exact, floats within the stated tolerances.

Two executors share the cases:

- `run_lavapipe(case)`: the SPIR-V (glslangValidator) on lavapipe, Mesa's CPU
  Vulkan driver (radcc.oracle.lavapipe). This validates the suite: shader and
  reference agree on an independent implementation.
- `run_radcc(case, wave_size)`: the same SPIR-V compiled by radcc and run in
  radcc.emu. It uses the first of these that exists:
    1. a Python API `run_compute(spirv, *, groups, buffers, push_constants,
       spec_constants, wave_size) -> dict[(set, binding), bytes]` in
       `radcc.driver.run` or `radcc.api` (the signature of the lavapipe oracle's
       run_compute plus `wave_size` and `mcpu`; strict mode, raising on a violation);
    2. the CLI `radcc run SHADER.spv --groups X,Y,Z --buffer SET:BINDING=FILE ...
       [--push FILE] [--spec ID=VALUE] [--wave32|--wave64] --mcpu=CHIP --out DIR`, recognised
       by its `--buffer` option, outputs in DIR/SET_BINDING.bin;
  and raises `RadccUnavailable` while neither exists.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import struct
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from radcc.oracle import spirv_tools

GLSL_DIR = Path(__file__).parent / "glsl"
Key = tuple[int, int]
Scalar = int | float | bool


# -- inputs -----------------------------------------------------------------------


@dataclass(frozen=True)
class Buf:
    """A binding's initial contents: `gen(rng)` (an array), or `nbytes` zero bytes."""

    gen: Callable[[np.random.Generator], np.ndarray] | None = None
    nbytes: int = 0

    def make(self, rng: np.random.Generator) -> np.ndarray:
        if self.gen is None:
            return np.zeros(self.nbytes, np.uint8)
        return np.ascontiguousarray(self.gen(rng))


def zeros(nbytes: int) -> Buf:
    return Buf(nbytes=nbytes)


def ints(dtype: Any, n: int | tuple[int, ...], lo: int | None = None,
         hi: int | None = None) -> Buf:
    """Uniform integers in [lo, hi] (the dtype's full range by default)."""
    info = np.iinfo(dtype)
    lo_ = info.min if lo is None else lo
    hi_ = info.max if hi is None else hi

    def gen(rng: np.random.Generator) -> np.ndarray:
        if info.bits == 64 and (lo_ < 0 or hi_ > np.iinfo(np.int64).max):
            raw = rng.integers(0, 1 << 64, n, dtype=np.uint64, endpoint=False)
            if lo_ == info.min and hi_ == info.max:
                return raw.view(dtype)
            span = hi_ - lo_ + 1
            return np.array([lo_ + int(v) % span for v in raw.ravel()],
                            dtype=dtype).reshape(raw.shape)
        return rng.integers(lo_, hi_, n, dtype=np.int64, endpoint=True).astype(dtype)

    return Buf(gen)


def floats(dtype: Any, n: int | tuple[int, ...], lo: float = -10.0, hi: float = 10.0,
           step: float | None = None) -> Buf:
    """Uniform floats in [lo, hi); with `step`, multiples of it (exact in the type)."""

    def gen(rng: np.random.Generator) -> np.ndarray:
        v = rng.uniform(lo, hi, n)
        if step is not None:
            v = np.round(v / step) * step
        return v.astype(dtype)

    return Buf(gen)


def data(arr: np.ndarray | Callable[[], np.ndarray]) -> Buf:
    """Fixed contents."""
    return Buf(lambda _rng: arr() if callable(arr) else arr)


# -- expectations ----------------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    """Expected values in an output buffer.

    The buffer is read as `value.dtype` from byte `offset`, with `stride` bytes
    between rows (the first axis; default: packed). `mask` (bool, like `value`)
    limits the comparison. Floats: `atol`/`rtol` (NaN equals NaN, infinities
    must match); both 0 means exact. Integers are always exact.
    """

    value: np.ndarray
    mask: np.ndarray | None = None
    atol: float = 0.0
    rtol: float = 0.0
    offset: int = 0
    stride: int | None = None
    what: str = ""


@dataclass
class Run:
    """What a reference sees: the case's inputs and (for recorded ids) the outputs."""

    case: Case
    inputs: dict[Key, np.ndarray]
    push: bytes
    spec: dict[int, Scalar]
    out: Mapping[Key, bytes]
    subgroup_size: int | None  # the executor's, when known (radcc: the wave size)

    def i(self, key: Key, dtype: Any = None) -> np.ndarray:
        a = self.inputs[key]
        return a if dtype is None else a.view(dtype)

    def o(self, key: Key, dtype: Any, count: int = -1, offset: int = 0) -> np.ndarray:
        return np.frombuffer(self.out[key], dtype, count=count, offset=offset)

    def pushed(self, fmt: str) -> tuple[Any, ...]:
        return struct.unpack_from(fmt, self.push)

    @property
    def wg_size(self) -> int:
        return self.case.local_size[0] * self.case.local_size[1] * self.case.local_size[2]

    @property
    def invocations(self) -> int:
        g = self.case.groups
        return g[0] * g[1] * g[2] * self.wg_size


RefResult = Mapping[Key, "Expect | np.ndarray | Sequence[Expect | np.ndarray]"]
Reference = Callable[[Run], RefResult]


@dataclass(frozen=True)
class Case:
    """One shader of the suite and how to run and check it."""

    name: str
    groups: tuple[int, int, int]
    local_size: tuple[int, int, int]  # as the shader declares it (after spec constants)
    buffers: dict[Key, Buf]
    ref: Reference
    shader: str = ""  # file stem in GLSL_DIR (default: name)
    push: bytes | Callable[[np.random.Generator], bytes] = b""
    spec: dict[int, Scalar] = field(default_factory=dict)
    target_env: str = "vulkan1.1"
    seed: int = 0
    category: str = ""
    # lavapipe only: a reference modelling a known lavapipe defect (documented in
    # cases.py); radcc is always checked against `ref`.
    lavapipe_ref: Reference | None = None
    notes: str = ""
    val_flags: tuple[str, ...] = ()  # extra spirv-val options (e.g. --scalar-block-layout)

    @property
    def path(self) -> Path:
        return GLSL_DIR / f"{self.shader or self.name}.comp"


@dataclass
class Prepared:
    spirv: bytes
    inputs: dict[Key, np.ndarray]
    push: bytes


_spirv_cache: dict[tuple[Path, str, float], bytes] = {}


def compile_case(case: Case) -> bytes:
    """glslangValidator -V --target-env ENV (cached per process and file mtime)."""
    key = (case.path, case.target_env, case.path.stat().st_mtime)
    if key not in _spirv_cache:
        r = spirv_tools.compile_glsl(case.path, case.target_env)
        if not r.ok:
            raise AssertionError(f"glslangValidator failed on {case.path.name}:\n{r.text}")
        _spirv_cache[key] = r.data
    return _spirv_cache[key]


def validate(case: Case, spirv: bytes) -> str | None:
    """spirv-val's complaint about the case's SPIR-V (None: valid)."""
    p = subprocess.run(["spirv-val", "--target-env", case.target_env, *case.val_flags, "-"],
                       input=spirv, capture_output=True)
    return None if p.returncode == 0 else (p.stdout + p.stderr).decode(errors="replace")


def prepare(case: Case) -> Prepared:
    rng = np.random.default_rng(case.seed)
    inputs = {k: case.buffers[k].make(rng) for k in sorted(case.buffers)}
    push = case.push(rng) if callable(case.push) else case.push
    return Prepared(compile_case(case), inputs, push)


# -- comparison ------------------------------------------------------------------


def _view(raw: bytes, e: Expect) -> np.ndarray:
    v = e.value
    dt = v.dtype
    if e.stride is None:
        n = v.size
        need = e.offset + n * dt.itemsize
        if need > len(raw):
            raise AssertionError(f"buffer has {len(raw)} bytes, expectation needs {need}")
        return np.frombuffer(raw, dt, count=n, offset=e.offset).reshape(v.shape)
    rows = v.shape[0]
    inner = v.shape[1:]
    need = e.offset + (rows - 1) * e.stride + int(np.prod(inner, dtype=np.int64)) * dt.itemsize
    if need > len(raw):
        raise AssertionError(f"buffer has {len(raw)} bytes, expectation needs {need}")
    inner_strides: list[int] = []
    acc = dt.itemsize
    for d in reversed(inner):
        inner_strides.insert(0, acc)
        acc *= d
    buf = np.frombuffer(raw, np.uint8)
    return np.ndarray(v.shape, dt, buf, e.offset, (e.stride, *inner_strides))


def _fmt(x: Any) -> str:
    return repr(x.item()) if isinstance(x, np.generic) else repr(x)


def compare(case: Case, key: Key, raw: bytes, e: Expect) -> list[str]:
    """Mismatch descriptions (empty: equal)."""
    got = _view(raw, e)
    exp = e.value
    mask = np.ones(exp.shape, bool) if e.mask is None else np.asarray(e.mask, bool)
    if np.issubdtype(exp.dtype, np.floating):
        g = got.astype(np.float64)
        x = exp.astype(np.float64)
        both_nan = np.isnan(g) & np.isnan(x)
        if e.atol == 0 and e.rtol == 0:
            ok = (g == x) | both_nan
        else:
            ok = (np.abs(g - x) <= e.atol + e.rtol * np.abs(x)) | both_nan
            ok |= np.isinf(x) & (g == x)
    else:
        ok = got == exp
    bad = np.argwhere(mask & ~ok)
    if not len(bad):
        return []
    tol = f" (atol {e.atol}, rtol {e.rtol})" if e.atol or e.rtol else ""
    lines = [f"{case.name} {key[0]}:{key[1]}{' ' + e.what if e.what else ''}: "
             f"{len(bad)} of {int(mask.sum())} differ{tol}"]
    for idx in bad[:8]:
        t = tuple(int(i) for i in idx)
        lines.append(f"  [{', '.join(map(str, t))}] got {_fmt(got[t])} expected {_fmt(exp[t])}")
    return lines


def check(case: Case, prep: Prepared, out: Mapping[Key, bytes], subgroup_size: int | None,
          ref: Reference | None = None) -> None:
    """Compare `out` with the reference's expectations; AssertionError lists mismatches."""
    __tracebackhide__ = True
    run = Run(case, prep.inputs, prep.push, dict(case.spec), out, subgroup_size)
    result = (ref or case.ref)(run)
    errors: list[str] = []
    for key, exp in result.items():
        if key not in out:
            errors.append(f"{case.name}: no output buffer {key}")
            continue
        items = [exp] if isinstance(exp, np.ndarray | Expect) else list(exp)
        for item in items:
            e = item if isinstance(item, Expect) else Expect(np.asarray(item))
            errors += compare(case, key, out[key], e)
    if errors:
        raise AssertionError("\n".join(errors))


# -- subgroups -------------------------------------------------------------------


def subgroups(ids: np.ndarray, wg_size: int, expect_size: int | None = None) -> list[np.ndarray]:
    """The subgroups of a dispatch from ids recorded per invocation.

    `ids[i] = (gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID,
    gl_NumSubgroups)` for the invocation at global linear index i (workgroups of
    `wg_size` invocations laid out consecutively). Checks that the ids are
    consistent (a power-of-two size, distinct invocation ids below it, subgroup
    ids below the count) and returns each subgroup's global indices ordered by
    invocation id.
    """
    ids = ids.reshape(-1, 4).astype(np.int64)
    n = ids.shape[0]
    size = int(ids[0, 0])
    assert size > 0 and size & (size - 1) == 0, f"gl_SubgroupSize {size} is no power of 2"
    assert (ids[:, 0] == size).all(), "gl_SubgroupSize differs between invocations"
    if expect_size is not None:
        assert size == expect_size, f"gl_SubgroupSize {size}, expected {expect_size}"
    nsub = -(-wg_size // size)
    assert (ids[:, 3] == nsub).all(), f"gl_NumSubgroups is not ceil({wg_size}/{size})"
    assert (ids[:, 2] < nsub).all() and (ids[:, 1] < size).all()
    out: list[np.ndarray] = []
    wg = np.arange(n) // wg_size
    key = wg * nsub + ids[:, 2]
    order = np.lexsort((ids[:, 1], key))
    ks = key[order]
    cuts = np.flatnonzero(np.diff(ks)) + 1
    for grp in np.split(order, cuts):
        inv = ids[grp, 1]
        assert len(np.unique(inv)) == len(inv), "duplicate gl_SubgroupInvocationID"
        out.append(grp)
    assert sum(len(g) for g in out) == n
    return out


# -- executors -------------------------------------------------------------------


def lavapipe_buffers(prep: Prepared) -> dict[Key, np.ndarray]:
    return prep.inputs


def run_lavapipe(case: Case) -> tuple[Prepared, dict[Key, bytes]]:
    from radcc.oracle.lavapipe import run_compute

    prep = prepare(case)
    out = run_compute(prep.spirv, groups=case.groups, buffers=dict(prep.inputs),
                      push_constants=prep.push, spec_constants=dict(case.spec))
    return prep, out


class RadccUnavailable(RuntimeError):
    """radcc cannot compile SPIR-V compute shaders yet."""


RADCC_UNAVAILABLE = "radcc compile not yet available"
_API_MODULES = ("radcc.driver.run", "radcc.api")


def _radcc_api() -> Callable[..., Mapping[Key, bytes]] | None:
    for name in _API_MODULES:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        fn = getattr(mod, "run_compute", None)
        if callable(fn):
            return fn  # type: ignore[no-any-return]
    return None


def _radcc_cli() -> Callable[[list[str]], int] | None:
    """radcc's CLI main when its `run` takes a shader with --buffer SET:BINDING=..."""
    try:
        run_mod = importlib.import_module("radcc.cli.run")
        cli = importlib.import_module("radcc.cli")
    except ImportError:
        return None
    parser = getattr(run_mod, "build_parser", None)
    if parser is None:
        return None
    try:
        opts = parser()._option_string_actions
    except Exception:
        return None
    if "--buffer" not in opts:
        return None
    return cli.main  # type: ignore[no-any-return]


def radcc_available() -> bool:
    return _radcc_api() is not None or _radcc_cli() is not None


def _run_cli(main: Callable[[list[str]], int], case: Case, prep: Prepared,
             wave_size: int, mcpu: str) -> dict[Key, bytes]:
    with tempfile.TemporaryDirectory(prefix="radcc-e2e-") as d:
        tmp = Path(d)
        spv = tmp / f"{case.name}.spv"
        spv.write_bytes(prep.spirv)
        argv = ["run", str(spv), "--groups", ",".join(map(str, case.groups)),
                f"--wave{wave_size}", f"--mcpu={mcpu}", "--out", str(tmp / "out")]
        for (s, b), arr in prep.inputs.items():
            f = tmp / f"in_{s}_{b}.bin"
            f.write_bytes(arr.tobytes())
            argv += ["--buffer", f"{s}:{b}={f}"]
        if prep.push:
            (tmp / "push.bin").write_bytes(prep.push)
            argv += ["--push", str(tmp / "push.bin")]
        for sid, val in sorted(case.spec.items()):
            v = str(val).lower() if isinstance(val, bool) else repr(val)
            argv += ["--spec", f"{sid}={v}"]
        log = io.StringIO()
        with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            rc = main(argv)
        if rc != 0:
            raise AssertionError(f"radcc {' '.join(argv)} exited {rc}:\n{log.getvalue()}")
        return {(s, b): (tmp / "out" / f"{s}_{b}.bin").read_bytes() for (s, b) in prep.inputs}


def run_radcc(case: Case, wave_size: int,
              mcpu: str = "gfx1100") -> tuple[Prepared, dict[Key, bytes]]:
    """Compile `case` with radcc for `mcpu` in wave32/wave64 and run it in radcc.emu
    (strict)."""
    api = _radcc_api()
    cli = None if api is not None else _radcc_cli()
    if api is None and cli is None:
        raise RadccUnavailable(RADCC_UNAVAILABLE)
    prep = prepare(case)
    if api is not None:
        out = dict(api(prep.spirv, groups=case.groups, buffers=dict(prep.inputs),
                       push_constants=prep.push, spec_constants=dict(case.spec),
                       wave_size=wave_size, mcpu=mcpu))
    else:
        assert cli is not None
        out = _run_cli(cli, case, prep, wave_size, mcpu)
    return prep, out
