"""Start-up (issue 14): the methods `dataclasses` generates for radcc's classes are
compiled once and kept, not compiled again in every process.

`dataclasses` writes each generated method (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, a frozen class's ``__setattr__`` ...) as source text and compiles it when
the class is created; for the ~150 dataclasses a ``radcc compile`` imports, that
compilation was about half of the import time (0.10-0.14 s of CPU). `install` wraps
CPython's ``dataclasses._create_fn`` so that for classes of radcc's own modules the code
object compiled from a text is looked up in a cache (one marshal file per module in its
``__pycache__`` beside the bytecode, valid for the Python version and the source's size
and mtime, keyed by the exact text) and the text is compiled only on a miss; a module's
file is written back when the process exits if it missed. The
function built from a cached code object is the one ``exec`` of the same text builds:
same code, globals and closure, so the classes behave identically. The docstring
`dataclasses` gives a class without one (its name and ``inspect.signature``, about 0.2 ms
a class, 70 of them in a compile) is kept in the same file, by the class's qualified
name, and set before the class is processed, so the signature is not computed again
(same source, same text). The texts compile without this module's ``from __future__
import annotations`` (``dont_inherit``), as ``dataclasses`` compiles them: ``__init__``'s
annotations are the field types, not their names.

Nothing changes for other packages' dataclasses, nor on a Python other than 3.11 (whose
``_create_fn`` this module's copy of the text building matches; 3.13 builds the methods
another way): the wrapper is then not installed. A corrupt or stale cache file is
ignored and rewritten; a read-only install, or Python told not to write bytecode
(``PYTHONDONTWRITEBYTECODE``, ``-B``), compiles the texts every time.
"""

from __future__ import annotations

import atexit
import dataclasses
import marshal
import os
import sys
from types import CodeType
from typing import Any

_VERSION = 2
_EXPECTED_PARAMS = ["name", "args", "body", "globals", "locals", "return_type"]
_TAG = sys.implementation.cache_tag


class _ModuleCache:
    """One module's compiled texts: ``__pycache__/<module>.dataclasses.<tag>.marshal``
    beside its bytecode, valid while the source's size and mtime are those recorded
    (as a .pyc is), so texts of an edited module do not accumulate."""

    __slots__ = ("path", "key", "codes", "new")

    def __init__(self, source: str) -> None:
        # os.path and open, not pathlib: ~3 ms less over a compile's ~60 modules
        head, name = os.path.split(source)
        self.path = os.path.join(head, "__pycache__",
                                 f"{name.rpartition('.')[0]}.dataclasses.{_TAG}.marshal")
        try:
            st = os.stat(source)
            self.key: tuple[object, ...] | None = (_VERSION, sys.version, st.st_size,
                                                   st.st_mtime_ns)
        except OSError:
            self.key = None
        self.codes: dict[str, CodeType | str] = {}
        self.new = False
        try:
            with open(self.path, "rb") as f:
                key, codes = marshal.loads(f.read())
            if key == self.key and isinstance(codes, dict):
                self.codes = codes
        except (OSError, ValueError, EOFError, TypeError):
            pass

    def save(self) -> None:
        if not self.new or self.key is None or sys.dont_write_bytecode:
            return  # as .pyc files: nothing is written under PYTHONDONTWRITEBYTECODE / -B
        try:
            blob = marshal.dumps((self.key, self.codes))
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            tmp = f"{self.path}.{os.getpid()}.tmp"
            with open(tmp, "wb") as f:
                f.write(blob)
            os.replace(tmp, self.path)
        except (OSError, ValueError):
            pass  # read-only install: the texts are compiled every time, as without the cache


_caches: dict[str, _ModuleCache] = {}


def _save() -> None:
    for c in _caches.values():
        c.save()


def _create_fn(name: str, args: list[str], body: list[str], *, globals: dict[str, Any],
               locals: dict[str, Any] | None = None, return_type: Any = dataclasses.MISSING,
               _original: Any = dataclasses._create_fn) -> Any:  # type: ignore[attr-defined]
    """``dataclasses._create_fn`` with the compiled text looked up first (radcc's
    modules only); the text is built exactly as CPython 3.11 builds it."""
    source = globals.get("__file__") if globals is not None else None
    if not (isinstance(source, str) and source.endswith(".py")
            and str(globals.get("__name__", "")).startswith("radcc.")):
        return _original(name, args, body, globals=globals, locals=locals,
                         return_type=return_type)
    if locals is None:
        locals = {}
    return_annotation = ""
    if return_type is not dataclasses.MISSING:
        locals["_return_type"] = return_type
        return_annotation = "->_return_type"
    params = ",".join(args)
    lines = "\n".join(f"  {b}" for b in body)
    txt = f" def {name}({params}){return_annotation}:\n{lines}"
    txt = f"def __create_fn__({', '.join(locals.keys())}):\n{txt}\n return {name}"
    cache = _caches.get(source)
    if cache is None:
        cache = _caches[source] = _ModuleCache(source)
    code = cache.codes.get(txt)
    if not isinstance(code, CodeType):
        code = cache.codes[txt] = compile(txt, "<string>", "exec", dont_inherit=True)
        cache.new = True
    ns: dict[str, Any] = {}
    exec(code, globals, ns)
    return ns["__create_fn__"](**locals)


def _module_cache(cls: type) -> _ModuleCache | None:
    """The cache of the radcc module defining ``cls``, if it has a source file."""
    name = cls.__module__
    if not name.startswith("radcc."):
        return None
    source = getattr(sys.modules.get(name), "__file__", None)
    if not (isinstance(source, str) and source.endswith(".py")):
        return None
    cache = _caches.get(source)
    if cache is None:
        cache = _caches[source] = _ModuleCache(source)
    return cache


_DOC = "__doc__ of "  # a key no generated text starts with (they start with 'def ')


def _process_class(cls: type, *args: Any,
                   _original: Any = dataclasses._process_class) -> Any:  # type: ignore[attr-defined]
    """``dataclasses._process_class`` with a radcc class's generated docstring cached."""
    cache = None if cls.__doc__ else _module_cache(cls)
    if cache is None:
        return _original(cls, *args)
    key = _DOC + cls.__qualname__
    doc = cache.codes.get(key)
    if isinstance(doc, str):
        cls.__doc__ = doc
        return _original(cls, *args)
    result = _original(cls, *args)
    if isinstance(result.__doc__, str):
        cache.codes[key] = result.__doc__
        cache.new = True
    return result


def install() -> None:
    """Wrap ``dataclasses._create_fn`` (once) if it has the form this module expects."""
    original = getattr(dataclasses, "_create_fn", None)
    if original is None or original is _create_fn:
        return
    code = getattr(original, "__code__", None)
    params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount] if code else ()
    if list(params) != _EXPECTED_PARAMS or sys.version_info[:2] != (3, 11):
        return
    dataclasses._create_fn = _create_fn  # type: ignore[attr-defined]
    if getattr(dataclasses, "_process_class", None) is not None:
        dataclasses._process_class = _process_class  # type: ignore[attr-defined]
    atexit.register(_save)
