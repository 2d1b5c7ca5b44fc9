"""radcc.driver.dataclass_code: radcc's dataclasses get the methods `dataclasses` would compile,
from the cache of compiled texts (start-up, issue 14)."""

from __future__ import annotations

import dataclasses
import sys
import types
from pathlib import Path

import pytest

from radcc.driver import dataclass_code

SRC = '''
import dataclasses
from typing import ClassVar

@dataclasses.dataclass(frozen=True, order=True)
class Frozen:
    a: int
    b: str = "x"
    c: tuple[int, ...] = dataclasses.field(default=(), compare=False)
    K: ClassVar[int] = 3

@dataclasses.dataclass
class Plain:
    xs: list[int] = dataclasses.field(default_factory=list)
    n: int = 0

    def __post_init__(self) -> None:
        self.n = len(self.xs)

@dataclasses.dataclass(slots=True, eq=False)
class Slotted:
    v: float
'''


def _module(name: str, source: Path | None = None) -> types.ModuleType:
    m = types.ModuleType(name)
    if source is not None:
        m.__file__ = str(source)
    sys.modules[name] = m
    try:
        exec(compile(SRC, f"<{name}>", "exec"), m.__dict__)
    finally:
        del sys.modules[name]
    return m


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the cache wraps CPython 3.11's "
                    "dataclasses._create_fn only")
def test_cached_methods_are_the_compiled_ones(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert dataclasses._create_fn is dataclass_code._create_fn  # type: ignore[attr-defined]
    src = tmp_path / "dc_mod.py"
    src.write_text(SRC)
    ours = _module("radcc._dataclass_code_test", src)
    cache = dataclass_code._caches.pop(str(src))
    assert cache.new and cache.codes  # every text compiled once
    cache.save()
    again = _module("radcc._dataclass_code_test", src)  # from the file written
    assert not dataclass_code._caches.pop(str(src)).new  # every text found
    theirs = _module("not_radcc_dataclass_code_test")  # dataclasses' own path
    for cls in ("Frozen", "Plain", "Slotted"):
        for meth in ("__init__", "__repr__", "__eq__", "__lt__", "__hash__", "__setattr__",
                     "__delattr__"):
            fs = [getattr(getattr(m, cls), meth, None) for m in (ours, again, theirs)]
            if not isinstance(fs[2], types.FunctionType):
                assert not any(isinstance(f, types.FunctionType) for f in fs[:2]), (cls, meth)
                continue
            codes = [f.__code__ for f in fs]
            assert codes[0].co_code == codes[1].co_code == codes[2].co_code, (cls, meth)
            assert codes[0].co_consts == codes[2].co_consts and \
                codes[0].co_names == codes[2].co_names, (cls, meth)
            assert codes[0] == codes[1]
            # annotations as dataclasses gives them (the texts compile without this
            # module's `from __future__ import annotations`)
            assert fs[0].__annotations__ == fs[1].__annotations__ == fs[2].__annotations__
        # the generated docstring (name and signature), cached in the second module
        docs = [getattr(m, cls).__doc__ for m in (ours, again, theirs)]
        assert docs[0] == docs[1] == docs[2], (cls, docs)
    # SRC compiles under this file's `from __future__ import annotations`: string types
    assert ours.Plain.__doc__ == "Plain(xs: 'list[int]' = <factory>, n: 'int' = 0)"
    f = ours.Frozen(1, "y", (2,))
    assert repr(f) == "Frozen(a=1, b='y', c=(2,))"
    assert f == ours.Frozen(1, "y", (3,)) and f < ours.Frozen(2) and hash(f) == hash(ours.Frozen(1, "y"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.a = 2  # type: ignore[misc]
    assert ours.Plain([1, 2]).n == 2 and ours.Plain() == ours.Plain()
    assert ours.Slotted(1.0) != ours.Slotted(1.0) and not hasattr(ours.Slotted(1.0), "__dict__")
    src.write_text(SRC + "\n")  # an edited module's file is not used
    _module("radcc._dataclass_code_test", src)
    assert dataclass_code._caches.pop(str(src)).new


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the cache wraps CPython 3.11's "
                    "dataclasses._create_fn only")
def test_no_cache_file_without_bytecode_writing(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Like .pyc files, nothing is written under PYTHONDONTWRITEBYTECODE (or -B)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    src = tmp_path / "dc_mod.py"
    src.write_text(SRC)
    _module("radcc._dataclass_code_test", src)
    cache = dataclass_code._caches.pop(str(src))
    assert cache.new
    cache.save()
    assert not Path(cache.path).exists() and not (tmp_path / "__pycache__").exists()
