"""Instruction.fields: one typed class per format family (radcc.ir.fields)."""

import copy

import pytest

from radcc.ir.fields import FieldError, MemFields, PseudoFields, SaluFields, ValuFields
from radcc.ir.program import Instruction


def test_dict_is_converted_by_format():
    i = Instruction("global_load_b32", "GLOBAL", fields={"offset": 16, "glc": True})
    assert type(i.fields) is MemFields
    assert i.fields.offset == 16 and i.fields.glc is True and i.fields.slc is None
    assert list(i.fields.items()) == [("offset", 16), ("glc", True)]  # set order kept
    assert type(Instruction("s_nop", "SOPP").fields) is SaluFields
    assert type(Instruction("v_add_f32", "VOP3").fields) is ValuFields
    assert type(Instruction("p_branch", "PSEUDO").fields) is PseudoFields


def test_wrong_names_fail():
    f = MemFields({"offset": 4})
    with pytest.raises(AttributeError):
        _ = f.glcc  # misspelt
    with pytest.raises(AttributeError):
        _ = f.neg  # a VALU field: not one of a memory instruction
    with pytest.raises(FieldError):
        f["glcc"] = True
    with pytest.raises(FieldError):
        _ = f["glcc"]
    with pytest.raises(FieldError):
        f.pop("glcc", None)
    with pytest.raises(FieldError):
        f.neg = [1, 0]
    with pytest.raises(FieldError):
        Instruction("v_add_f32", "VOP3", fields={"glc": True})
    # a name another family has reads as absent through get/in (generic code)
    assert f.get("neg") is None and "clamp" not in f


def test_mapping_protocol_and_copies():
    f = ValuFields({"neg": [1, 0], "clamp": True})
    assert dict(f) == {"neg": [1, 0], "clamp": True} and f == {"neg": [1, 0], "clamp": True}
    assert len(f) == 2 and f and not ValuFields()
    f.clamp = None  # unsetting
    assert "clamp" not in f and f.pop("neg") == [1, 0] and not f
    g = copy.deepcopy(ValuFields({"op_sel": [1, 0]}))
    assert g == ValuFields({"op_sel": [1, 0]}) and type(g) is ValuFields
    i = Instruction("v_add_f32", "VOP3", fields=g)
    assert i.fields is g  # same class: kept


def test_field_names_written_in_radcc_exist():
    """Every field name radcc spells as a string literal (``fields.get("glc")``,
    ``"neg" in fields``) and every name list the passes keep is some format's field:
    a misspelt one fails here, before any program reaches it."""
    import re
    from pathlib import Path

    from radcc.ir import effects
    from radcc.ir import fields as F
    from radcc.passes import asm_text, sched_info

    known = F._ALL_NAMES
    pat = re.compile(r'\.fields(?:\.get\(|\[|\.pop\(|\.setdefault\()\s*"(\w+)"'
                     r'|"(\w+)" (?:not )?in (?:\w+\.)+fields\b')
    root = Path(F.__file__).resolve().parents[1]
    bad = []
    for p in root.rglob("*.py"):
        if p.name == "fields.py" or p.relative_to(root).parts[0] in ("codeobj", "oracle", "isa",
                                                                     "emu"):
            continue
        for n, line in enumerate(p.read_text().splitlines(), 1):
            for m in pat.finditer(line):
                if (m.group(1) or m.group(2)) not in known:
                    bad.append(f"{p.relative_to(root)}:{n}: {m.group(0)}")
    lists = (asm_text.INTERNAL_FIELDS, F.DPP_CONTROLS, F.DPP_FIELDS, effects._CACHE_BITS,
             sched_info._POLICY_BITS)
    bad += [k for names in lists for k in names if k not in known]
    assert not bad, bad
