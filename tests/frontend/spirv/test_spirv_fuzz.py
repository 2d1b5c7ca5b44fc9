"""Fuzzing the reader: random words, truncations, bit flips and word swaps of real
modules give a SpirvModule or a SpirvError, never another exception.

Inputs the fuzzer once broke the reader with are kept in ``REGRESSIONS``.
"""

from __future__ import annotations

import struct

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from radcc.frontend.spirv import SpirvError, disassemble, read_spirv

from .conftest import compiled

CORPUS_SHADERS = [
    ("control_flow.comp", "vulkan1.3"),
    ("spec_constants.comp", "vulkan1.0"),
    ("subgroup_arith_shuffle.comp", "vulkan1.1"),
    ("float16.comp", "vulkan1.2"),
    ("glsl_std450.comp", "vulkan1.3"),
]
MAGIC = 0x07230203
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _words(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def _pack(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def survive(data: bytes | list[int]) -> None:
    """Reading either works (then disassembly works too) or raises SpirvError."""
    try:
        m = read_spirv(data)
    except SpirvError as e:
        assert e.word_offset >= 0
        assert e.render("f.spv").startswith("f.spv: word ")
        return
    disassemble(m)


corpus = st.sampled_from(CORPUS_SHADERS).map(lambda c: _words(compiled(*c)))


@FUZZ
@given(st.lists(st.integers(0, 0xFFFFFFFF), max_size=64))
def test_random_words(words: list[int]) -> None:
    survive(words)


@FUZZ
@given(
    st.lists(st.integers(0, 0xFFFFFFFF), max_size=40),
    st.integers(1, 64),
)
def test_random_instructions_after_valid_header(body: list[int], bound: int) -> None:
    survive([MAGIC, 0x00010300, 0, bound, 0, *body])


@FUZZ
@given(st.binary(max_size=64))
def test_random_bytes(data: bytes) -> None:
    survive(data)


@FUZZ
@given(corpus, st.data())
def test_truncation(words: list[int], data: st.DataObject) -> None:
    n = data.draw(st.integers(0, len(words)))
    survive(_pack(words[:n]))
    survive(_pack(words)[: data.draw(st.integers(0, 4 * len(words)))])


@FUZZ
@given(corpus, st.data())
def test_bit_flips(words: list[int], data: st.DataObject) -> None:
    w = list(words)
    for _ in range(data.draw(st.integers(1, 4))):
        k = data.draw(st.integers(5, len(w) - 1))
        w[k] ^= 1 << data.draw(st.integers(0, 31))
    survive(w)


@FUZZ
@given(corpus, st.data())
def test_word_replacement(words: list[int], data: st.DataObject) -> None:
    w = list(words)
    for _ in range(data.draw(st.integers(1, 3))):
        k = data.draw(st.integers(0, len(w) - 1))
        w[k] = data.draw(st.sampled_from([0, 1, 0xFFFFFFFF, 0xFFFF, 0x10000, w[k] + 1, w[-1]]))
    survive(w)


@FUZZ
@given(corpus, st.data())
def test_instruction_shuffles(words: list[int], data: st.DataObject) -> None:
    """Swap, drop or duplicate whole instructions (keeps the stream parseable)."""
    insts: list[list[int]] = []
    pos = 5
    while pos < len(words):
        n = words[pos] >> 16
        insts.append(words[pos : pos + n])
        pos += n
    i = data.draw(st.integers(0, len(insts) - 1))
    j = data.draw(st.integers(0, len(insts) - 1))
    action = data.draw(st.sampled_from(["swap", "drop", "dup"]))
    if action == "swap":
        insts[i], insts[j] = insts[j], insts[i]
    elif action == "drop":
        del insts[i]
    else:
        insts.insert(j, insts[i])
    survive(words[:5] + [x for ins in insts for x in ins])


# Inputs that once raised something other than SpirvError (hex words, little-endian).
REGRESSIONS: list[str] = []


def test_regressions() -> None:
    for text in REGRESSIONS:
        survive([int(w, 16) for w in text.split()])
