"""Typed per-format instruction fields (`Instruction.fields`).

The fields of an instruction are what is neither an operand nor a definition: the
table's immediate slots (``simm16`` of SOPP/SOPK, ``k`` of ``v_fmaak``, ``simm32`` of
VOPD ...), the encoding's modifiers (memory offsets and cache-policy bits, VALU
source modifiers, DPP controls, export bits) and, on pseudo instructions, the
compiler's notes (branch ``targets``, a reduction's ``op`` ...). Each encoding family
has one class listing the fields it can carry, with their types:

=====================  ==================================================================
class                  formats
=====================  ==================================================================
`SaluFields`           SOP1, SOP2, SOPC, SOPK, SOPP
`SmemFields`           SMEM
`ValuFields`           VOP1, VOP2, VOPC, VOP3, VOP3SD, VOP3P, VINTERP, VINTRP (DPP
                       controls included: DPP is a VALU modifier in the IR)
`VopdFields`           VOPD, VOPDY
`MemFields`            DS, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH, MIMG
`ExpFields`            EXP
`LdsdirFields`         LDSDIR
`PseudoFields`         PSEUDO
=====================  ==================================================================

A field name is the LLVM assembler's modifier spelling (``offset:16``, ``glc``,
``op_sel:[1,0]``, ``row_shr:1``), which is how the IR text and the assembly print it.
A name a class does not list is an error where it is used: ``fields.glcc`` and
``fields.neg`` on SMEM fields raise AttributeError, and so do ``fields["glcc"] = 1``,
``fields["glcc"]``, ``fields.pop("glcc")`` and a constructor given ``glcc``
(`FieldError`, an AttributeError). An unset field reads as None through its attribute.
``get`` and ``in`` are the dict's own, for speed (the passes call them in their inner
loops; a name another family has, such as ``glc`` on a VALU instruction, reads as
absent, so code asking every load for its cache bits needs no format test): every
field name radcc writes as a literal in them, and the name lists the passes keep, is
checked against these classes by tests/ir/test_fields.py.

The classes are dicts underneath (values in the order they were set, which is the
order the IR text and the assembly print them; ``items``, ``dict(fields)``, ``**fields``
and equality with a dict work as before), with every name checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

__all__ = ["ExpFields", "FieldError", "Fields", "LdsdirFields", "MemFields", "PseudoFields",
           "SaluFields", "SmemFields", "ValuFields", "VopdFields", "fields_class", "make_fields"]


class FieldError(AttributeError, KeyError):  # noqa: N818
    """A field name the instruction's format does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Fields(dict):  # type: ignore[type-arg]
    """Base of the per-format field classes (module docstring): a dict (the values in
    the order they were set) whose keys are checked against the class's names."""

    __slots__ = ()
    NAMES: ClassVar[frozenset[str]] = frozenset()
    FORMATS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        names: set[str] = set()
        for k in reversed(cls.__mro__):
            for name, ann in vars(k).get("__annotations__", {}).items():
                if not str(ann).startswith("ClassVar"):
                    names.add(name)
        cls.NAMES = frozenset(names)
        _ALL_NAMES.update(names)

    def __init__(self, values: Mapping[str, object] | None = None) -> None:
        if values:
            if not self.NAMES.issuperset(values.keys()):
                raise self._bad(min(set(values.keys()) - self.NAMES))
            dict.__init__(self, values)

    @classmethod
    def _bad(cls, name: str) -> FieldError:
        return FieldError(f"{cls.__name__} has no field '{name}' "
                          f"(fields of {'/'.join(cls.FORMATS)}: {', '.join(sorted(cls.NAMES))})")

    # -- attribute access (typed) ----------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        # only reached for names that are not methods: the declared fields
        if name in type(self).NAMES:
            return dict.get(self, name)
        raise self._bad(name)

    def __setattr__(self, name: str, value: object) -> None:
        if name not in self.NAMES:
            raise self._bad(name)
        if value is None:
            dict.pop(self, name, None)
        else:
            dict.__setitem__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name not in self.NAMES:
            raise self._bad(name)
        dict.pop(self, name, None)

    # -- mapping protocol: writes and failed reads are checked; ``get`` and ``in`` are the
    # dict's own (the hot paths of the passes), their literal names are checked by
    # tests/ir/test_fields.py ------------------------------------------------------------
    def __missing__(self, name: str) -> Any:
        if name in _ALL_NAMES:
            raise KeyError(name)
        raise self._bad(name)

    def __setitem__(self, name: str, value: object) -> None:
        if name not in self.NAMES:
            raise self._bad(name)
        dict.__setitem__(self, name, value)

    def pop(self, name: str, *default: Any) -> Any:  # type: ignore[override]
        if name not in _ALL_NAMES:
            raise self._bad(name)
        return dict.pop(self, name, *default)

    def setdefault(self, name: str, value: object = None) -> Any:  # type: ignore[override]
        if name not in self.NAMES:
            raise self._bad(name)
        return dict.setdefault(self, name, value)

    def update(self, *values: Any, **kw: Any) -> None:  # type: ignore[override]
        for k, v in dict(*values, **kw).items():
            self[k] = v

    def copy(self) -> Fields:  # type: ignore[override]
        return type(self)(self)

    def __copy__(self) -> Fields:
        return type(self)(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict.__repr__(self)})"


_ALL_NAMES: set[str] = set()


class SaluFields(Fields):
    """Scalar ALU: the table's immediate slots and branch targets."""

    __slots__ = ()
    FORMATS = ("SOP1", "SOP2", "SOPC", "SOPK", "SOPP")
    simm16: int | None  # SOPP/SOPK SIMM16 (waitcnt, delay, depctr, hwreg, sendmsg, imm)
    imm32: int | None  # SOPK literal (s_setreg_imm32_b32)
    ssrc0: int | None  # SOP1 s_sendmsg_rtn message id
    targets: list[int] | None  # branch targets (block indices; the first is the taken one)
    # s_getpc_b64 / s_add_u32 lowered from p_constaddr: the constant data byte the pair
    # addresses; emit_program writes the s_add_u32 literal (the distance from the pc)
    constaddr: int | None


class SmemFields(Fields):
    """Scalar memory: immediate offset and cache policy."""

    __slots__ = ()
    FORMATS = ("SMEM",)
    offset: int | None  # byte offset (signed 21 bits on GFX10+)
    glc: bool | None
    dlc: bool | None
    sdata: int | None  # the table's immediate data slot (s_atc_probe and the like)


class ValuFields(Fields):
    """Vector ALU: the table's immediates, VOP3/VOP3P source and output modifiers,
    DPP controls and the interpolation fields."""

    __slots__ = ()
    FORMATS = ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3SD", "VOP3P", "VINTERP", "VINTRP")
    k: int | None  # the literal of v_fmaak/v_fmamk (VOP2)
    # source modifiers: one flag per source
    neg: list[int] | None
    abs: list[int] | None
    neg_lo: list[int] | None  # VOP3P
    neg_hi: list[int] | None  # VOP3P
    op_sel: list[int] | None
    op_sel_hi: list[int] | None  # VOP3P
    # output modifiers
    clamp: bool | None
    omod: int | None  # 1: mul:2, 2: mul:4, 3: div:2
    # DPP (the presence of a control selects the _dpp encoding)
    quad_perm: list[int] | None
    row_shl: int | None
    row_shr: int | None
    row_ror: int | None
    row_mirror: bool | None
    row_half_mirror: bool | None
    row_bcast15: bool | None
    row_bcast31: bool | None
    row_share: int | None
    row_xmask: int | None
    wave_shl: bool | None
    wave_shr: bool | None
    wave_rol: bool | None
    wave_ror: bool | None
    dpp8: list[int] | None
    row_mask: int | None
    bank_mask: int | None
    bound_ctrl: int | None
    fi: int | None
    # interpolation (VINTERP/VINTRP, GFX10's VOP3 v_interp_*)
    wait_exp: int | None
    attr: int | None
    src0: int | None  # VINTRP interp_param slot
    src1: int | None  # VOP3 v_interp interp_param slot
    high: bool | None


# The DPP controls (one of them among an instruction's fields selects the `_dpp` /
# `_e64_dpp` encoding) and every DPP field (the controls plus the masks, bound_ctrl and fi):
# the one list the emitter, the optimizer and value numbering read.
DPP_CONTROLS = frozenset({"quad_perm", "row_shl", "row_shr", "row_ror", "row_mirror",
                          "row_half_mirror", "row_bcast15", "row_bcast31", "row_share",
                          "row_xmask", "wave_shl", "wave_shr", "wave_rol", "wave_ror", "dpp8"})
DPP_FIELDS = DPP_CONTROLS | {"row_mask", "bank_mask", "bound_ctrl", "fi"}


class VopdFields(Fields):
    """VOPD dual issue: the Y half's opcode and the shared literal."""

    __slots__ = ()
    FORMATS = ("VOPD", "VOPDY")
    opy: str | None  # the VOPDY opcode
    simm32: int | None  # the literal K of fmaak/fmamk halves


class MemFields(Fields):
    """Vector memory, LDS/GDS and images: offsets, cache policy, addressing bits."""

    __slots__ = ()
    FORMATS = ("DS", "MUBUF", "MTBUF", "FLAT", "GLOBAL", "SCRATCH", "MIMG")
    offset: int | None  # byte offset
    offset0: int | None  # DS two-address forms (in units of the data size)
    offset1: int | None
    gds: bool | None
    # cache policy (GFX10/11: glc, slc, dlc; GFX940-style sc0/sc1/nt)
    glc: bool | None  # also "return the old value" of an atomic
    slc: bool | None
    dlc: bool | None
    sc0: bool | None
    sc1: bool | None
    nt: bool | None
    # buffer and image addressing
    offen: bool | None
    idxen: bool | None
    format: int | None
    lds: bool | None
    tfe: bool | None
    lwe: bool | None
    d16: bool | None
    dmask: int | None
    dim: str | None
    unorm: bool | None
    r128: bool | None
    a16: bool | None
    nsa: bool | None  # MIMG non-sequential address


class ExpFields(Fields):
    """Exports."""

    __slots__ = ()
    FORMATS = ("EXP",)
    target: int | None  # the table's exp_target slot
    en: int | None
    done: bool | None
    vm: bool | None
    compr: bool | None
    row_en: bool | None


class LdsdirFields(Fields):
    """LDS parameter loads (GFX11 lds_param_load/lds_direct_load)."""

    __slots__ = ()
    FORMATS = ("LDSDIR",)
    attr: int | None
    attr_chan: int | None  # the channel of attr (0-3: x, y, z, w)
    wait_vdst: int | None
    wait_va_vdst: int | None
    wait_vm_vsrc: int | None


class PseudoFields(Fields):
    """Pseudo instructions (radcc.ir.pseudo): the compiler's notes."""

    __slots__ = ()
    FORMATS = ("PSEUDO",)
    targets: list[int] | None  # p_branch/p_cbranch_*: block indices
    boolean: bool | None  # p_phi of a 1-bit value (lower_phis)
    workitem_id: int | None  # p_startpgm: 0 x, 1 x and y, 2 x, y and z (docs/abi.md)
    op: str | None  # p_reduce/p_*_scan: ACO's ReduceOp (iadd32 ...)
    cluster_size: int | None  # p_reduce
    scope: str | None  # p_barrier: invocation/subgroup/workgroup/device
    sem: str | None  # p_barrier: none/acquire/release/acq_rel
    wg_one_wave: bool | None  # p_barrier: the workgroup is one wave
    id: int | None  # p_unit_test
    tmp_in_scc: bool | None  # parallel copy: SCC is live (ssa_elimination)
    scratch_sgpr: int | None  # parallel copy: a free SGPR (ssa_elimination/RA)


BY_FORMAT: dict[str, type[Fields]] = {
    f: c for c in (SaluFields, SmemFields, ValuFields, VopdFields, MemFields, ExpFields,
                   LdsdirFields, PseudoFields) for f in c.FORMATS}


def fields_class(fmt: str) -> type[Fields]:
    """The field class of an encoding (`Instruction.format`)."""
    try:
        return BY_FORMAT[fmt]
    except KeyError:
        raise ValueError(f"unknown instruction format '{fmt}'") from None


def make_fields(fmt: str, values: Mapping[str, object] | None = None) -> Fields:
    """Fields of format `fmt` holding `values` (a name the format lacks: FieldError)."""
    cls = BY_FORMAT.get(fmt) or fields_class(fmt)
    # (no values, the common case: an empty object of the class, as `Instruction` makes)
    return cls(values) if values else dict.__new__(cls)
