"""Read and check a SPIR-V module: ``read_spirv(data) -> SpirvModule``.

Two passes over the decoded instructions (``binary.py``):

1. definitions: every result id is defined once and below the bound;
2. layout and semantics, in order: the logical layout of sections (SPIR-V
   spec 2.4), capabilities (declared and supported, instruction and enumerant
   requirements), versions, uses of ids (defined, defined before use except where
   the spec allows forward references), types, constants, variables, entry points,
   execution modes, names, decorations; functions and their blocks are built and
   checked by ``functions.py``.

Every failure is a ``SpirvError`` at the offending instruction's word offset.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import capabilities as caps
from . import grammar
from .binary import Header, Instruction, Operand, decode
from .errors import SpirvError
from .functions import FunctionBuilder
from .layout import ANYWHERE, GLOBALS, SECTIONS, opcode_section
from .module import SpirvModule
from .types import (
    Constant,
    Decoration,
    EntryPoint,
    ExecutionMode,
    SpecConstant,
    Type,
    TypeArray,
    TypeBool,
    TypeCooperativeMatrix,
    TypeFloat,
    TypeFunction,
    TypeInt,
    TypeMatrix,
    TypeOther,
    TypePointer,
    TypeRuntimeArray,
    TypeStruct,
    TypeVector,
    TypeVoid,
    Variable,
)

ACCEPTED_MODELS = frozenset({"GLCompute", "Vertex", "Fragment"})
# what an error calls the accepted models
# execution modes of one kind of shader (the SPIR-V spec's Execution Mode table; spirv-val
# ValidateExecutionMode): mode -> the execution models it applies to
_FRAGMENT_MODES = ("OriginUpperLeft", "OriginLowerLeft", "EarlyFragmentTests", "DepthReplacing",
                   "DepthGreater", "DepthLess", "DepthUnchanged", "PixelCenterInteger")
_MODE_MODELS: dict[str, tuple[str, ...]] = {
    **{m: ("GLCompute", "Kernel") for m in ("LocalSize", "LocalSizeId", "LocalSizeHint",
                                            "LocalSizeHintId")},
    **{m: ("Fragment",) for m in _FRAGMENT_MODES},
    # SPV_KHR_compute_shader_derivatives (also Mesh and Task, which radcc does not compile)
    **{m: ("GLCompute",) for m in ("DerivativeGroupQuadsKHR", "DerivativeGroupLinearKHR",
                                   "DerivativeGroupQuadsNV", "DerivativeGroupLinearNV")},
}
_MODEL_NAMES = {"GLCompute": "compute", "Vertex": "vertex", "Fragment": "fragment"}


def read_spirv(data: bytes | bytearray | Sequence[int]) -> SpirvModule:
    """Decode and check a SPIR-V module (bytes in either endianness, or words)."""
    header, instructions = decode(data)
    return _Reader(header, instructions).run()


class _Reader:
    def __init__(self, header: Header, instructions: list[Instruction]) -> None:
        self.m = SpirvModule(header=header, instructions=instructions)
        self.ins = instructions
        self.pos: dict[int, int] = {}  # result id -> index of its definition
        self.declared: set[str] = set()
        self.forward_pointers: dict[int, str] = {}  # id -> its storage class
        self.passed: set[int] = set()  # opcodes whose own requirements were met
        # the enumerants (kind, value, on OpDecorate) `_check_enum_caps` passed: the
        # declared capabilities are fixed when it first runs and the extensions only grow
        self.enums_passed: set[tuple[str, int | float | str, bool]] = set()
        # the ids that are types, labels or functions: their `_OpFacts.role` (values have none)
        self.roles: dict[int, int] = {}
        self.cur: Instruction | None = instructions[0] if instructions else None

    def fail(self, msg: str, ins: Instruction | None = None) -> SpirvError:
        ins = ins or self.cur
        if ins is None:  # a module of a header only: the word after the header
            return SpirvError(msg, 5)
        return SpirvError(msg, ins.offset, ins.opname)

    # ----- pass 1 -----
    def _definitions(self) -> None:
        pos, defs, roles = self.pos, self.m.defs, self.roles
        for k, ins in enumerate(self.ins):
            rid = ins.result_id
            if rid is None:
                continue
            if rid in pos:
                first = self.ins[pos[rid]]
                raise self.fail(f"id %{rid} is already defined at word {first.offset}", ins)
            pos[rid] = k
            defs[rid] = ins
            facts = _FACTS.get(ins.opcode)
            if facts is None:
                facts = _facts(ins.opcode)
            role = facts.role
            if role:
                roles[rid] = role

    # ----- pass 2 -----
    def run(self) -> SpirvModule:
        if not self.ins:
            raise SpirvError("module has no instructions", 5)
        self._definitions()
        section = 0
        func: FunctionBuilder | None = None
        passed, roles, pos = self.passed, self.roles, self.pos
        enums_from = _ENUMS_FROM
        for k, ins in enumerate(self.ins):
            self.cur = ins
            if not self.declared and ins.opname != "OpCapability":
                self.declared = caps.implied(self.m.capabilities) or {"(none)"}
            opcode = ins.opcode
            if opcode not in passed:
                self._check_requirements(ins)
            elif opcode in enums_from and len(ins.operands) > enums_from[opcode]:
                # (the opcode's own requirements met: its enumerants', when it has any)
                self._check_enum_caps(ins.operands, builtin=ins.opname == "OpDecorate")
            facts = _FACTS.get(opcode)
            if facts is None:
                facts = _facts(opcode)
            # `_check_uses`, which says what is wrong, unless the common case holds: the
            # result type is a type defined before, no operand has a role (a type, a label
            # or a function) and every operand is defined before
            ids = ins.id_list
            if ids is None:
                ids = ins.id_tuple()
            rt = ins.result_type
            if facts.forward_ok or not roles.keys().isdisjoint(ids) or (
                    rt is not None and (not roles.get(rt, 0) & _TYPE or pos[rt] >= k)):
                self._check_uses(k, ins, facts, in_function=func is not None)
            else:
                for i in ids:
                    p = pos.get(i)
                    if p is None or p >= k:
                        self._check_uses(k, ins, facts, in_function=func is not None)
                        break
            if func is not None:
                if ins.opname == "OpFunctionEnd":
                    self.m.functions.append(func.finish(ins))
                    func = None
                else:
                    func.add(ins)
                continue
            if ins.opname == "OpNop":
                raise self.fail("OpNop must appear in a block (spirv-val's layout rule)")
            if ins.opname in ANYWHERE:
                if section < GLOBALS - 1:
                    raise self.fail(f"{ins.opname} is not allowed among {SECTIONS[section]}")
                continue
            s = facts.section
            if s is None:
                raise self.fail("instruction must be inside a function")
            if s < section:
                raise self.fail(f"out of order: {SECTIONS[s]} must come before {SECTIONS[section]}")
            if section <= 3 < s and not self.m.memory_model:
                raise self.fail("OpMemoryModel is missing")
            if section <= 1 < s:
                self._check_capability_requirements()
            section = s
            if ins.opname == "OpFunction":
                func = FunctionBuilder(self.m, ins)
            else:
                self._global(ins)
        if func is not None:
            raise SpirvError(
                "function is not ended by OpFunctionEnd", func.start.offset, "OpFunction"
            )
        if not self.m.memory_model:
            raise SpirvError("OpMemoryModel is missing", self.ins[-1].offset, self.ins[-1].opname)
        self._check_entry_points()
        return self.m

    # ----- requirements: capabilities and versions -----
    def _check_requirements(self, ins: Instruction) -> None:
        """The requirements of an instruction whose opcode is not in `passed` yet (`run`
        checks only the operands of the others)."""
        info = grammar.instruction(ins.opcode)
        assert info is not None
        if ins.opname == "OpCapability":
            return
        if info.capabilities and not self.declared.intersection(info.capabilities):
            raise self.fail(f"requires capability {' or '.join(info.capabilities)}")
        # version None with no extension listed (e.g. OpAtomicFMinEXT): the
        # capabilities checked above are the only requirement
        if (info.version is None and info.extensions) or (
                info.version is not None and info.version > self.m.version):
            if not set(info.extensions) & set(self.m.extensions):
                need = f"SPIR-V {info.version[0]}.{info.version[1]}" if info.version else ""
                alt = " or ".join(info.extensions)
                raise self.fail("requires " + " or extension ".join(x for x in (need, alt) if x))
        # the declared capabilities are fixed from the first instruction checked here on
        # (those before it are OpCapability) and the extensions only grow: what passed
        # for this opcode passes for the next instruction of it
        self.passed.add(ins.opcode)
        if ins.opcode not in _ENUMS_FROM:
            n = _enums_from(info)
            if n is None:
                return
            _ENUMS_FROM[ins.opcode] = n
        if len(ins.operands) > _ENUMS_FROM[ins.opcode]:
            self._check_enum_caps(ins.operands, builtin=ins.opname == "OpDecorate")

    def _check_capability_requirements(self) -> None:
        """Every declared capability is in the module's SPIR-V version or provided by a
        declared extension (the SPIR-V spec's 2.4 "Logical Layout": the capabilities an
        extension adds need its OpExtension; spirv-val's "Capability ... is not allowed
        ... (or requires extension)")."""
        for ins in self.ins:
            if ins.opname != "OpCapability":
                if ins.opname != "OpExtension":
                    return
                continue
            value = ins.operands[0].value
            assert isinstance(value, int)
            version, extensions = grammar.capability_requirement(value)
            if version is not None and version <= self.m.version:
                continue
            if set(extensions) & set(self.m.extensions):
                continue
            need = [f"SPIR-V {version[0]}.{version[1]}"] if version else []
            need += [f"extension {x}" for x in extensions]
            raise SpirvError(f"capability {ins.operands[0].name} requires "
                             f"{' or '.join(need) or 'an extension'}", ins.offset, ins.opname)

    def _check_enum_caps(self, operands: Sequence[Operand], builtin: bool = False) -> None:
        """Every enumerant's capabilities are declared and its SPIR-V version or an
        extension that provides it (`_check_enum_version`). BuiltIn's capabilities only on
        OpDecorate and not for ClipDistance/CullDistance (as spirv-val, which checks those
        where the built-in is used: glslang's gl_PerVertex members name them without the
        capability)."""
        passed = self.enums_passed
        for op in operands:
            cat = grammar.CATEGORIES[op.kind]
            if cat in ("ValueEnum", "BitEnum") and (op.kind, op.value, builtin) not in passed:
                assert isinstance(op.value, int)
                values = (
                    [op.value]
                    if cat == "ValueEnum"
                    else [1 << b for b in range(32) if op.value >> b & 1]
                )
                for v in values:
                    e = grammar.enumerant(op.kind, v)
                    checked = op.kind != "BuiltIn" or (
                        builtin and e is not None
                        and e.name not in ("ClipDistance", "CullDistance"))
                    if e and e.capabilities and op.kind != "Capability" and checked:
                        if not self.declared.intersection(e.capabilities):
                            need = " or ".join(e.capabilities)
                            raise self.fail(f"{op.kind} {e.name} requires capability {need}")
                    if e and op.kind != "Capability":
                        self._check_enum_version(op.kind, e.name, v)
                    # a shader rounds conversions explicitly only where
                    # SPV_KHR_16bit_storage allows it (spirv-val's operand capabilities)
                    if (op.kind == "FPRoundingMode" and "Shader" in self.declared
                            and not self.declared.intersection(caps.STORAGE16)):
                        need = " or ".join(caps.STORAGE16)
                        raise self.fail(f"FPRoundingMode in a shader requires capability {need}")
                passed.add((op.kind, op.value, builtin))
            if op.params:
                self._check_enum_caps(op.params, builtin)

    def _check_enum_version(self, kind: str, name: str, value: int) -> None:
        """An enumerant newer than the module's SPIR-V version is used only with one of the
        extensions that provide it (the grammar's version and extensions, as spirv-val's
        operand version/extension check; an enumerant with no core version and no
        extension listed has its capabilities as its only requirement)."""
        version, extensions = grammar.requirement(kind, value)
        if version is not None and version <= self.m.version:
            return
        if version is None and not extensions:
            return
        if set(extensions) & set(self.m.extensions):
            return
        need = [f"SPIR-V {version[0]}.{version[1]}"] if version else []
        need += [f"extension {x}" for x in extensions]
        raise self.fail(f"{kind} {name} requires {' or '.join(need)}")

    # ----- uses of ids -----
    def _check_uses(self, k: int, ins: Instruction, facts: _OpFacts, in_function: bool) -> None:
        """The result type is a type; no operand is a type, label or function where the
        instruction does not take one; every id is defined, and before this use except
        where the spec allows forward references."""
        ids = ins.id_list
        if ids is None:
            ids = ins.id_tuple()
        rt = ins.result_type
        roles = self.roles
        if rt is not None and not roles.get(rt, 0) & _TYPE:  # (a type is a global)
            raise self.fail(f"result type %{rt} is not a type")
        forward_ok = facts.forward_ok
        # types, labels and functions are operands only where they can be (most operands
        # are values, which have no role: one set operation for the whole instruction)
        if not forward_ok and not roles.keys().isdisjoint(ids):
            bad = facts.bad_roles
            for i in ids:
                role = roles.get(i, 0) & bad
                if role & _TYPE:
                    raise self.fail(f"%{i} is a type, not a value")
                if role & _LABEL:
                    raise self.fail(f"%{i} is a label, not a value")
                if role & _FUNCTION:
                    raise self.fail(f"%{i} is a function, not a value")
        pos = self.pos
        if rt is not None:
            p = pos.get(rt)
            if p is None or (p >= k and not forward_ok):
                self._check_use(k, ins, rt, p, in_function)
        for i in ids:
            p = pos.get(i)
            if p is None or (p >= k and not forward_ok):
                self._check_use(k, ins, i, p, in_function)

    def _check_use(self, k: int, ins: Instruction, i: int, p: int | None,
                   in_function: bool) -> None:
        """`_check_uses` of an id `i` defined at index `p` (None: nowhere) not before the
        instruction `ins` at index `k`: an error unless a forward reference is allowed."""
        if p is None:
            raise self.fail(f"id %{i} is used but never defined")
        d = self.ins[p]
        if d.opname in ("OpLabel", "OpFunction") or ins.opname in (
            "OpPhi",
            "OpTypeForwardPointer",
        ):
            return
        if i in self.forward_pointers and ins.opname in ("OpTypePointer", "OpTypeStruct"):
            return
        if in_function and d.opname == "OpFunctionParameter":
            return
        raise self.fail(f"id %{i} is used before its definition")

    # ----- global section -----
    def _global(self, ins: Instruction) -> None:
        m, op = self.m, ins.opname
        if op == "OpCapability":
            name = ins.operands[0].name
            reason = caps.unsupported_reason(name)
            if reason:
                raise self.fail(f"unsupported capability {name}: {reason}")
            m.capabilities.append(name)
        elif op == "OpExtension":
            m.extensions.append(str(ins.literal(0)))
        elif op == "OpExtInstImport":
            assert ins.result_id is not None
            name = str(ins.literal(0))
            # spirv-val: a set SPIR-V defines, or any non-semantic one
            if not (grammar.known_ext_set(name) or name.startswith("NonSemantic.")
                    or name in ("DebugInfo", "OpenCL.DebugInfo.100")):
                raise self.fail(f"unknown extended instruction set '{name}'")
            m.ext_imports[ins.result_id] = name
        elif op == "OpMemoryModel":
            if m.memory_model:
                raise self.fail("more than one OpMemoryModel")
            m.addressing_model, m.memory_model = ins.operands[0].name, ins.operands[1].name
            if m.addressing_model not in ("Logical", "PhysicalStorageBuffer64"):
                raise self.fail(f"unsupported addressing model {m.addressing_model}")
        elif op == "OpEntryPoint":
            self._entry_point(ins)
        elif op in ("OpExecutionMode", "OpExecutionModeId"):
            self._execution_mode(ins)
        elif op == "OpName":
            m.names[ins.id(0)] = str(ins.literal(1))
        elif op == "OpMemberName":
            self._member_index(ins.id(0), int(ins.literal(1)))
            m.member_names[(ins.id(0), int(ins.literal(1)))] = str(ins.literal(2))
        elif op in ("OpDecorate", "OpDecorateId", "OpDecorateString"):
            dec = _decoration(ins.operands[1])
            m.id_decorations.setdefault(ins.id(0), []).append(dec)
        elif op in ("OpDecorationGroup", "OpGroupDecorate", "OpGroupMemberDecorate"):
            # (deprecated by the SPIR-V spec; no front end radcc is fed emits them, and
            # the checks of validate.py read each decoration where it is written)
            raise self.fail(f"decoration groups ({op}) are not supported: decorate each "
                            "id with OpDecorate")
        elif op in ("OpMemberDecorate", "OpMemberDecorateString"):
            idx = int(ins.literal(1))
            self._member_index(ins.id(0), idx)
            key = (ins.id(0), idx)
            m.member_decorations.setdefault(key, []).append(_decoration(ins.operands[2]))
        elif op == "OpTypeForwardPointer":
            if ins.id(0) in self.forward_pointers:  # spirv-val: a duplicated type declaration
                raise self.fail(f"a second OpTypeForwardPointer of %{ins.id(0)}")
            self.forward_pointers[ins.id(0)] = ins.operands[1].name
        elif op == "OpVariable":
            self._variable(ins)
        elif op == "OpUndef":
            assert ins.result_id is not None and ins.result_type is not None
            m.undefs[ins.result_id] = ins.result_type
        elif op.startswith("OpType"):
            self._type(ins)
        elif op.startswith(("OpConstant", "OpSpecConstant")):
            self._constant(ins)

    def _member_index(self, struct_id: int, idx: int) -> None:
        t = self.m.defs[struct_id]
        if t.opname != "OpTypeStruct":
            raise self.fail(f"%{struct_id} is not a struct type")
        if idx >= len(t.operands):
            raise self.fail(f"member {idx} is out of range: %{struct_id} has {len(t.operands)}")

    def _entry_point(self, ins: Instruction) -> None:
        model = ins.operands[0].name
        if model not in ACCEPTED_MODELS:
            kinds = ", ".join(_MODEL_NAMES[x] for x in sorted(ACCEPTED_MODELS))
            raise self.fail(f"unsupported execution model {model}: radcc compiles {kinds} "
                            "shaders")
        fn = ins.id(1)
        if self.m.defs[fn].opname != "OpFunction":
            raise self.fail(f"entry point %{fn} is not an OpFunction")
        name = str(ins.literal(2))
        if any(e.name == name and e.execution_model == model for e in self.m.entry_points):
            raise self.fail(f"duplicate entry point {name!r}")
        interface = tuple(int(o.value) for o in ins.operands[3:])
        if len(set(interface)) != len(interface) and self.m.version >= (1, 4):
            raise self.fail("an id is listed twice in the entry point's interface (SPIR-V 1.4)")
        self.m.entry_points.append(EntryPoint(model, fn, name, interface))

    def _execution_mode(self, ins: Instruction) -> None:
        target = ins.id(0)
        eps = [e for e in self.m.entry_points if e.function == target]
        if not eps:
            raise self.fail(f"%{target} is not an entry point")
        mode = ins.operands[1]
        args = tuple(int(p.value) for p in mode.params)
        by_id = ins.opname == "OpExecutionModeId"
        if by_id != any(p.is_id for p in mode.params) and mode.params:
            raise self.fail(
                f"execution mode {mode.name} must use {'OpExecutionMode' if by_id else 'OpExecutionModeId'}"
            )
        only = _MODE_MODELS.get(mode.name)
        for e in eps:
            if only is not None and e.execution_model not in only:
                raise self.fail(f"execution mode {mode.name} does not apply to a "
                                f"{_MODEL_NAMES.get(e.execution_model, e.execution_model)} "
                                "entry point")
        for e in eps:
            if e.mode(mode.name) is not None:
                raise self.fail(f"execution mode {mode.name} is given twice for entry point "
                                f"{e.name!r}")
        if mode.name == "LocalSize" and 0 in args:
            raise self.fail("LocalSize must be at least 1 in each dimension")
        if mode.name == "LocalSizeId" and self.m.version < (1, 6):
            # Vulkan allows it from 1.3 (or with VK_KHR_maintenance4), which consumes
            # SPIR-V 1.6; an older module is for an older environment (spirv_val.TARGET_ENV)
            raise self.fail(f"LocalSizeId needs Vulkan 1.3 (a SPIR-V 1.6 module) or "
                            f"VK_KHR_maintenance4; this module is SPIR-V "
                            f"{self.m.version[0]}.{self.m.version[1]}")
        for e in eps:
            e.execution_modes.append(ExecutionMode(mode.name, args, by_id))

    # ----- types -----
    def _type_at(self, i: int, what: str) -> Type:
        t = self.m.types.get(i)
        if t is None:
            raise self.fail(f"{what} %{i} is not a type")
        return t

    def _type(self, ins: Instruction) -> None:
        op, rid = ins.opname, ins.result_id
        assert rid is not None
        t: Type
        if op == "OpTypeVoid":
            t = TypeVoid(rid)
        elif op == "OpTypeBool":
            t = TypeBool(rid)
        elif op == "OpTypeInt":
            width, signed = int(ins.literal(0)), int(ins.literal(1))
            if width not in (8, 16, 32, 64) or signed not in (0, 1):
                raise self.fail(f"unsupported integer type: width {width}, signedness {signed}")
            t = TypeInt(rid, width, bool(signed))
        elif op == "OpTypeFloat":
            width = int(ins.literal(0))
            enc = ins.operands[1].value if len(ins.operands) > 1 else None
            if width not in (16, 32, 64) or enc not in (None, 0, "BFloat16KHR") or \
                    enc is not None and width != 16:
                raise self.fail(f"unsupported float type: width {width}"
                                + (f", encoding {enc}" if enc is not None else ""))
            t = TypeFloat(rid, width, enc is not None)
        elif op == "OpTypeVector":
            comp = self._type_at(ins.id(0), "component type")
            n = int(ins.literal(1))
            if not isinstance(comp, TypeInt | TypeFloat | TypeBool):
                raise self.fail("vector component type must be a scalar")
            if n not in (2, 3, 4):
                raise self.fail(f"vector component count {n} is not 2, 3 or 4")
            t = TypeVector(rid, ins.id(0), n)
        elif op == "OpTypeMatrix":
            col = self._type_at(ins.id(0), "column type")
            n = int(ins.literal(1))
            if not (
                isinstance(col, TypeVector) and isinstance(self.m.types[col.component], TypeFloat)
            ):
                raise self.fail("matrix column type must be a float vector")
            if n not in (2, 3, 4):
                raise self.fail(f"matrix column count {n} is not 2, 3 or 4")
            t = TypeMatrix(rid, ins.id(0), n)
        elif op == "OpTypeArray":
            self._storable(ins.id(0), "array element type")
            length = ins.id(1)
            c = self.m.constants.get(length)
            s = self.m.spec_constants.get(length)
            cs = c if c is not None else s
            if cs is None or not isinstance(self.m.types.get(cs.type), TypeInt):
                raise self.fail(f"array length %{length} is not an integer constant")
            if c is not None and not c.null and isinstance(c.value, int) and c.value < 1:
                raise self.fail(f"array length must be at least 1, not {c.value}")
            t = TypeArray(rid, ins.id(0), length)
        elif op == "OpTypeRuntimeArray":
            self._storable(ins.id(0), "array element type")
            t = TypeRuntimeArray(rid, ins.id(0))
        elif op == "OpTypeStruct":
            for mem in ins.ids():
                if mem not in self.forward_pointers:
                    self._storable(mem, "member type")
            t = TypeStruct(rid, tuple(ins.ids()))
        elif op == "OpTypePointer":
            pointee = ins.id(1)
            if pointee not in self.forward_pointers:
                self._type_at(pointee, "pointee type")
            sc = ins.operands[0].name
            if self.forward_pointers.get(rid, sc) != sc:
                raise self.fail(f"storage class {sc} is not the {self.forward_pointers[rid]} "
                                f"of its OpTypeForwardPointer")
            t = TypePointer(rid, sc, pointee)
        elif op == "OpTypeFunction":
            ret = self._type_at(ins.id(0), "return type")
            params = ins.ids()[1:]
            for p in params:
                self._type_at(p, "parameter type")
            if isinstance(ret, TypeFunction):
                raise self.fail("a function cannot return a function")
            t = TypeFunction(rid, ins.id(0), tuple(params))
        elif op == "OpTypeCooperativeMatrixKHR":
            comp = self._type_at(ins.id(0), "component type")
            if not isinstance(comp, TypeInt | TypeFloat):
                raise self.fail("cooperative matrix component type must be a numeric scalar")
            for k, what in ((1, "scope"), (2, "rows"), (3, "columns"), (4, "use")):
                cid = ins.id(k)
                if cid not in self.m.constants and cid not in self.m.spec_constants:
                    raise self.fail(f"cooperative matrix {what} %{cid} is not a constant")
            t = TypeCooperativeMatrix(rid, ins.id(0), ins.id(1), ins.id(2), ins.id(3), ins.id(4))
        else:
            t = TypeOther(rid, op, ins.operands)
        self.m.types[rid] = t

    def _storable(self, type_id: int, what: str) -> None:
        t = self._type_at(type_id, what)
        if isinstance(t, TypeVoid | TypeFunction):
            raise self.fail(f"{what} %{type_id} cannot be {type(t).__name__}")

    # ----- constants -----
    def _constant(self, ins: Instruction) -> None:
        op, rid, tid = ins.opname, ins.result_id, ins.result_type
        assert rid is not None and tid is not None
        t = self.m.types[tid]
        spec = op.startswith("OpSpec")
        if op in ("OpConstantTrue", "OpConstantFalse", "OpSpecConstantTrue", "OpSpecConstantFalse"):
            if not isinstance(t, TypeBool):
                raise self.fail(f"type %{tid} is not bool")
            value: int | float | bool = op.endswith("True")
            bits = int(value)
        elif op in ("OpConstant", "OpSpecConstant"):
            if not isinstance(t, TypeInt | TypeFloat):
                raise self.fail(f"type %{tid} is not an integer or float type")
            v = ins.literal(0)
            assert isinstance(v, int | float)
            value = v
            bits = _raw_bits(ins)
        elif op in ("OpConstantComposite", "OpSpecConstantComposite"):
            parts = tuple(ins.ids())
            self._check_composite(t, parts)
            if spec:
                self.m.spec_constants[rid] = SpecConstant(
                    rid, tid, op, self.m.spec_id(rid), constituents=parts
                )
            else:
                self.m.constants[rid] = Constant(rid, tid, constituents=parts, opname=op)
            return
        elif op == "OpConstantNull":
            if isinstance(t, TypeVoid | TypeFunction | TypeRuntimeArray):
                raise self.fail(f"type %{tid} has no null value")
            self.m.constants[rid] = Constant(rid, tid, null=True, opname=op)
            return
        elif op == "OpSpecConstantOp":
            inner = grammar.opname(int(ins.literal(0)))
            self.m.spec_constants[rid] = SpecConstant(
                rid, tid, op, None, op=inner, op_operands=ins.operands[1:]
            )
            return
        else:
            self.m.constants[rid] = Constant(rid, tid, opname=op)  # e.g. OpConstantSampler
            return
        if spec:
            self.m.spec_constants[rid] = SpecConstant(
                rid, tid, op, self.m.spec_id(rid), value, bits
            )
        else:
            self.m.constants[rid] = Constant(rid, tid, value, bits, opname=op)

    def _check_composite(self, t: Type, parts: tuple[int, ...]) -> None:
        if isinstance(t, TypeVector):
            want: int | None = t.count
        elif isinstance(t, TypeMatrix):
            want = t.columns
        elif isinstance(t, TypeStruct):
            want = len(t.members)
        elif isinstance(t, TypeArray):
            c = self.m.constants.get(t.length)
            want = c.value if c is not None and isinstance(c.value, int) else None
        elif isinstance(t, TypeCooperativeMatrix):
            want = 1  # every element of the invocation's part (SPV_KHR_cooperative_matrix)
        else:
            raise self.fail(f"type %{t.id} is not a composite type")
        if want is not None and len(parts) != want:
            raise self.fail(f"{len(parts)} constituents for a composite of {want}")
        for p in parts:
            if not self.m.is_constant(p) and self.m.defs[p].opname != "OpUndef":
                raise self.fail(f"constituent %{p} is not a constant")

    # ----- variables -----
    def _variable(self, ins: Instruction) -> None:
        rid, tid = ins.result_id, ins.result_type
        assert rid is not None and tid is not None
        sc = ins.operands[0].name
        ptr = self.m.types[tid]
        if not isinstance(ptr, TypePointer):
            raise self.fail(f"type %{tid} of a variable is not a pointer")
        if ptr.storage_class != sc:
            raise self.fail(f"storage class {sc} differs from the pointer's {ptr.storage_class}")
        if sc == "Function":
            raise self.fail("Function variables must be inside a function")
        init = ins.id(1) if len(ins.operands) > 1 else None
        if init is not None and not (self.m.is_constant(init) or init in self.m.global_variables):
            raise self.fail(f"initializer %{init} is not a constant or global variable")
        if init is not None and self.m.defs[init].result_type != ptr.pointee:
            raise self.fail(f"initializer %{init} is not of the variable's type %{ptr.pointee}")
        self.m.global_variables[rid] = Variable(rid, tid, sc, init)

    def _check_entry_points(self) -> None:
        for ins in self.ins:
            if ins.opname != "OpEntryPoint":
                continue
            self.cur = ins
            for v in ins.ids()[1:]:
                if v not in self.m.global_variables:
                    raise self.fail(f"interface id %{v} is not a global variable")
            fn = self.m.function(ins.id(1))
            ft = self.m.types[fn.type]
            assert isinstance(ft, TypeFunction)
            if ft.params or not isinstance(self.m.types[ft.return_type], TypeVoid):
                raise self.fail("an entry point must be a void function without parameters")
            if fn.is_declaration:
                raise self.fail("an entry point must have a body")
        for ins in self.ins:
            if ins.opname == "OpExecutionModeId":
                self.cur = ins
                for i in ins.ids()[1:]:
                    if not self.m.is_constant(i):
                        raise self.fail(f"%{i} is not a constant")


# Instructions with an operand that names a type rather than a value.
def _enums_from(info: grammar.InstructionInfo) -> int | None:
    """How many operands (after the result type and id) an instruction of `info` has at
    least before one that may be an enumerant (the only operands with capabilities of
    their own, parameters included): one of an enum kind, or where its operands follow
    another grammar (OpExtInst's set, OpSpecConstantOp's operation); its required
    operands before that one: an instruction of no more operands than this names no
    enumerant (most OpLoads and OpStores: their memory operands absent). None when
    none may be."""
    n = 0
    for o in info.operands:
        if o.kind in ("IdResultType", "IdResult"):
            continue
        if grammar.category(o.kind) in ("ValueEnum", "BitEnum") or o.kind in (
                "LiteralExtInstInteger", "LiteralSpecConstantOpInteger"):
            return n
        if not o.quantifier:
            n += 1
    return None


# opcode -> its `_enums_from`, for the opcodes that may name an enumerant (filled as
# they are met; the grammar is constant)
_ENUMS_FROM: dict[int, int] = {}

_TAKES_TYPES = frozenset(
    {"OpFunction", "OpExtInst", "OpCooperativeMatrixLengthNV", "OpCooperativeMatrixLengthKHR"}
)

# Instructions before the globals whose id operands may be defined further on.
_FORWARD_REFS = frozenset(
    {"OpEntryPoint", "OpExecutionMode", "OpExecutionModeId", "OpName", "OpMemberName",
     "OpDecorate", "OpMemberDecorate", "OpDecorateId", "OpDecorateString",
     "OpMemberDecorateString", "OpGroupDecorate", "OpGroupMemberDecorate"}
)


# `_OpFacts.role`: what an id defined by an instruction of the opcode is, as an operand
_TYPE, _LABEL, _FUNCTION = 1, 2, 4


class _OpFacts:
    """What `_Reader.run` and `_check_uses` need of an opcode, from the grammar (constant):
    computed once per opcode (`_facts`), not per instruction."""

    __slots__ = ("section", "forward_ok", "role", "bad_roles")

    def __init__(self, opcode: int) -> None:
        info = grammar.instruction(opcode)
        assert info is not None
        name, klass = info.opname, info.klass
        # the layout section outside functions (`layout.section_of`; None: only inside)
        self.section = opcode_section(opcode)
        # an instruction before the globals whose id operands may be defined further on
        self.forward_ok = name in _FORWARD_REFS and self.section is not None \
            and self.section < GLOBALS
        # the id it defines is a type (always a global), a label or a function (else 0)
        self.role = (_TYPE if klass == "Type-Declaration" and name != "OpTypeForwardPointer"
                     else _LABEL if name == "OpLabel"
                     else _FUNCTION if name == "OpFunction" else 0)
        # the roles its operands may not have
        self.bad_roles = (
            (0 if klass == "Type-Declaration" or name in _TAKES_TYPES else _TYPE)
            | (0 if klass == "Control-Flow" else _LABEL)
            | (0 if name in ("OpFunctionCall", "OpExtInst") else _FUNCTION))


_FACTS: dict[int, _OpFacts] = {}


def _facts(opcode: int) -> _OpFacts:
    f = _FACTS.get(opcode)
    if f is None:
        f = _FACTS[opcode] = _OpFacts(opcode)
    return f


def _raw_bits(ins: Instruction) -> int:
    return ins.operands[0].bits


def _decoration(op: Operand) -> Decoration:
    args: list[int | float | str] = []
    for p in op.params:
        cat = grammar.category(p.kind)
        args.append(p.name if cat in ("ValueEnum", "BitEnum") else p.value)
    return Decoration(op.name, tuple(args))
