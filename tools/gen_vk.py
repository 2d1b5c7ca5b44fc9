"""Generate radcc/oracle/vk.py (ctypes Vulkan bindings) from the Khronos registry.

Reads vk.xml (Debian's libvulkan-dev installs it as /usr/share/vulkan/registry/vk.xml)
and writes only what the lavapipe oracle needs: the listed structs (and the structs
they embed), their sType values, the listed enums (with values added by extensions
and promoted features), API constants, handle types and command prototypes.

    python3 tools/gen_vk.py [--xml PATH] [-o radcc/oracle/vk.py]
    python3 tools/gen_vk.py --check   # compile a C program against vulkan_core.h and
                                      # compare every sizeof/offsetof with ctypes

The output is committed; this script is only needed to regenerate or check it.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

DEFAULT_XML = "/usr/share/vulkan/registry/vk.xml"
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "radcc" / "oracle" / "vk.py"

STRUCTS = [
    "VkApplicationInfo",
    "VkInstanceCreateInfo",
    "VkExtensionProperties",
    "VkPhysicalDeviceProperties",
    "VkPhysicalDeviceProperties2",
    "VkPhysicalDeviceSubgroupProperties",
    "VkPhysicalDeviceSubgroupSizeControlProperties",
    "VkPhysicalDeviceVulkan11Properties",
    "VkPhysicalDeviceVulkan12Properties",
    "VkPhysicalDeviceVulkan13Properties",
    "VkPhysicalDeviceFeatures2",
    "VkPhysicalDeviceVulkan11Features",
    "VkPhysicalDeviceVulkan12Features",
    "VkPhysicalDeviceVulkan13Features",
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT",
    "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT",
    "VkPhysicalDeviceMemoryProperties",
    "VkQueueFamilyProperties",
    "VkDeviceQueueCreateInfo",
    "VkDeviceCreateInfo",
    "VkBufferCreateInfo",
    "VkBufferViewCreateInfo",
    "VkMemoryRequirements",
    "VkMemoryAllocateInfo",
    "VkDescriptorSetLayoutBinding",
    "VkDescriptorSetLayoutCreateInfo",
    "VkPushConstantRange",
    "VkPipelineLayoutCreateInfo",
    "VkShaderModuleCreateInfo",
    "VkSpecializationMapEntry",
    "VkSpecializationInfo",
    "VkPipelineShaderStageCreateInfo",
    "VkPipelineShaderStageRequiredSubgroupSizeCreateInfo",
    "VkComputePipelineCreateInfo",
    "VkDescriptorPoolSize",
    "VkDescriptorPoolCreateInfo",
    "VkDescriptorSetAllocateInfo",
    "VkDescriptorBufferInfo",
    "VkWriteDescriptorSet",
    "VkCommandPoolCreateInfo",
    "VkCommandBufferAllocateInfo",
    "VkCommandBufferBeginInfo",
    "VkSubmitInfo",
    "VkFenceCreateInfo",
    "VkMemoryBarrier",
    "VkImageCreateInfo",
    "VkImageViewCreateInfo",
    "VkSamplerCreateInfo",
    "VkDescriptorImageInfo",
    "VkImageMemoryBarrier",
    "VkBufferImageCopy",
    # graphics (the draw oracle, radcc.oracle.lavapipe_draw)
    "VkGraphicsPipelineCreateInfo",
    "VkPipelineVertexInputStateCreateInfo",
    "VkVertexInputBindingDescription",
    "VkVertexInputAttributeDescription",
    "VkPipelineInputAssemblyStateCreateInfo",
    "VkPipelineViewportStateCreateInfo",
    "VkPipelineRasterizationStateCreateInfo",
    "VkPipelineMultisampleStateCreateInfo",
    "VkPipelineDepthStencilStateCreateInfo",
    "VkPipelineColorBlendStateCreateInfo",
    "VkPipelineColorBlendAttachmentState",
    "VkPipelineRenderingCreateInfo",
    "VkRenderingInfo",
    "VkRenderingAttachmentInfo",
    "VkViewport",
    "VkRect2D",
    "VkClearValue",
]

ENUMS = [
    "VkResult",
    "VkPhysicalDeviceType",
    "VkQueueFlagBits",
    "VkMemoryPropertyFlagBits",
    "VkBufferUsageFlagBits",
    "VkSharingMode",
    "VkDescriptorType",
    "VkShaderStageFlagBits",
    "VkPipelineBindPoint",
    "VkPipelineShaderStageCreateFlagBits",
    "VkCommandBufferLevel",
    "VkCommandBufferUsageFlagBits",
    "VkCommandPoolCreateFlagBits",
    "VkAccessFlagBits",
    "VkPipelineStageFlagBits",
    "VkSubgroupFeatureFlagBits",
    "VkDescriptorPoolCreateFlagBits",
    "VkDriverId",
    "VkFormat",
    "VkImageType",
    "VkImageTiling",
    "VkImageUsageFlagBits",
    "VkImageLayout",
    "VkImageViewType",
    "VkImageAspectFlagBits",
    "VkComponentSwizzle",
    "VkFilter",
    "VkSamplerMipmapMode",
    "VkSamplerAddressMode",
    "VkBorderColor",
    "VkSampleCountFlagBits",
    "VkPrimitiveTopology",
    "VkPolygonMode",
    "VkCullModeFlagBits",
    "VkFrontFace",
    "VkCompareOp",
    "VkBlendFactor",
    "VkBlendOp",
    "VkColorComponentFlagBits",
    "VkVertexInputRate",
    "VkIndexType",
    "VkAttachmentLoadOp",
    "VkAttachmentStoreOp",
    "VkResolveModeFlagBits",
]

COMMANDS = [
    "vkEnumerateInstanceVersion",
    "vkEnumerateInstanceExtensionProperties",
    "vkCreateInstance",
    "vkDestroyInstance",
    "vkEnumeratePhysicalDevices",
    "vkGetPhysicalDeviceProperties",
    "vkGetPhysicalDeviceProperties2",
    "vkGetPhysicalDeviceFeatures2",
    "vkGetPhysicalDeviceMemoryProperties",
    "vkGetPhysicalDeviceQueueFamilyProperties",
    "vkEnumerateDeviceExtensionProperties",
    "vkCreateDevice",
    "vkDestroyDevice",
    "vkGetDeviceQueue",
    "vkDeviceWaitIdle",
    "vkCreateBuffer",
    "vkDestroyBuffer",
    "vkCreateBufferView",
    "vkDestroyBufferView",
    "vkGetBufferMemoryRequirements",
    "vkAllocateMemory",
    "vkFreeMemory",
    "vkBindBufferMemory",
    "vkMapMemory",
    "vkUnmapMemory",
    "vkCreateDescriptorSetLayout",
    "vkDestroyDescriptorSetLayout",
    "vkCreatePipelineLayout",
    "vkDestroyPipelineLayout",
    "vkCreateShaderModule",
    "vkDestroyShaderModule",
    "vkCreateComputePipelines",
    "vkDestroyPipeline",
    "vkCreateDescriptorPool",
    "vkDestroyDescriptorPool",
    "vkAllocateDescriptorSets",
    "vkUpdateDescriptorSets",
    "vkCreateCommandPool",
    "vkDestroyCommandPool",
    "vkAllocateCommandBuffers",
    "vkFreeCommandBuffers",
    "vkBeginCommandBuffer",
    "vkEndCommandBuffer",
    "vkCreateImage",
    "vkDestroyImage",
    "vkGetImageMemoryRequirements",
    "vkBindImageMemory",
    "vkCreateImageView",
    "vkDestroyImageView",
    "vkCreateSampler",
    "vkDestroySampler",
    "vkCmdCopyBufferToImage",
    "vkCmdCopyImageToBuffer",
    "vkCmdBindPipeline",
    "vkCmdBindDescriptorSets",
    "vkCmdPushConstants",
    "vkCmdDispatch",
    "vkCmdPipelineBarrier",
    "vkQueueSubmit",
    "vkCreateFence",
    "vkDestroyFence",
    "vkWaitForFences",
    "vkCreateGraphicsPipelines",
    "vkCmdBindVertexBuffers",
    "vkCmdBindIndexBuffer",
    "vkCmdDraw",
    "vkCmdDrawIndexed",
    "vkCmdBeginRendering",
    "vkCmdEndRendering",
]

API_CONSTANTS = [
    "VK_MAX_PHYSICAL_DEVICE_NAME_SIZE",
    "VK_UUID_SIZE",
    "VK_LUID_SIZE",
    "VK_MAX_EXTENSION_NAME_SIZE",
    "VK_MAX_DESCRIPTION_SIZE",
    "VK_MAX_MEMORY_TYPES",
    "VK_MAX_MEMORY_HEAPS",
    "VK_MAX_DRIVER_NAME_SIZE",
    "VK_MAX_DRIVER_INFO_SIZE",
    "VK_WHOLE_SIZE",
    "VK_QUEUE_FAMILY_IGNORED",
]

PRIMITIVES = {
    "void": "None",
    "char": "ctypes.c_char",
    "float": "ctypes.c_float",
    "double": "ctypes.c_double",
    "int8_t": "ctypes.c_int8",
    "uint8_t": "ctypes.c_uint8",
    "int16_t": "ctypes.c_int16",
    "uint16_t": "ctypes.c_uint16",
    "int32_t": "ctypes.c_int32",
    "uint32_t": "ctypes.c_uint32",
    "int64_t": "ctypes.c_int64",
    "uint64_t": "ctypes.c_uint64",
    "size_t": "ctypes.c_size_t",
    "int": "ctypes.c_int",
}


class Registry:
    def __init__(self, path: str) -> None:
        self.root = ET.parse(path).getroot()
        self.types: dict[str, ET.Element] = {}
        for t in self.root.iter("type"):
            name = t.get("name") or (t.findtext("name") or "")
            if t.get("category") and name:
                self.types.setdefault(name, t)
        self.enum_values: dict[str, dict[str, int]] = {}  # enum type -> name -> value
        self.enum_aliases: dict[str, dict[str, str]] = {}
        self.api_constants: dict[str, str] = {}
        self._collect_enums()
        self.commands: dict[str, ET.Element] = {}
        self.command_alias: dict[str, str] = {}
        for c in self.root.find("commands") or []:
            if c.get("alias"):
                self.command_alias[c.get("name", "")] = c.get("alias", "")
            else:
                self.commands[c.findtext("proto/name") or ""] = c

    # -- enums ------------------------------------------------------------------

    def _add(self, enum: str, e: ET.Element, extnumber: int | None) -> None:
        name = e.get("name", "")
        vals = self.enum_values.setdefault(enum, {})
        if e.get("alias"):
            self.enum_aliases.setdefault(enum, {})[name] = e.get("alias", "")
            return
        if e.get("bitpos") is not None:
            vals[name] = 1 << int(e.get("bitpos", "0"))
        elif e.get("value") is not None:
            vals[name] = int(e.get("value", "0"), 0)
        elif e.get("offset") is not None:
            num = int(e.get("extnumber") or extnumber or 0)
            v = 1_000_000_000 + (num - 1) * 1000 + int(e.get("offset", "0"))
            vals[name] = -v if e.get("dir") == "-" else v

    def _collect_enums(self) -> None:
        for enums in self.root.findall("enums"):
            ename = enums.get("name", "")
            if ename == "API Constants":
                for e in enums.findall("enum"):
                    if e.get("value") is not None:
                        self.api_constants[e.get("name", "")] = e.get("value", "")
                    elif e.get("alias"):
                        self.api_constants[e.get("name", "")] = e.get("alias", "")
                continue
            for e in enums.findall("enum"):
                self._add(ename, e, None)
        for feature in self.root.findall("feature"):
            for e in feature.iterfind("require/enum"):
                if e.get("extends"):
                    self._add(e.get("extends", ""), e, None)
        for ext in self.root.iterfind("extensions/extension"):
            if ext.get("supported") == "disabled" or ext.get("provisional") or ext.get("platform"):
                continue  # not in vulkan_core.h
            num = int(ext.get("number", "0"))
            for e in ext.iterfind("require/enum"):
                if e.get("extends"):
                    self._add(e.get("extends", ""), e, num)

    def enum_members(self, enum: str) -> list[tuple[str, int]]:
        vals = dict(self.enum_values.get(enum, {}))
        for name, target in self.enum_aliases.get(enum, {}).items():
            if target in vals:
                vals.setdefault(name, vals[target])
        return sorted(vals.items(), key=lambda kv: (kv[1], kv[0]))

    # -- types ------------------------------------------------------------------

    def resolve_alias(self, name: str) -> str:
        t = self.types.get(name)
        while t is not None and t.get("alias"):
            name = t.get("alias", "")
            t = self.types.get(name)
        return name

    def category(self, name: str) -> str | None:
        t = self.types.get(self.resolve_alias(name))
        return None if t is None else t.get("category")


def c_pointer_depth(text: str) -> int:
    return text.count("*")


def array_dims(tail: str, member: ET.Element, reg: Registry) -> list[str]:
    dims: list[str] = []
    text = (member.text or "") + "".join(
        ET.tostring(c, encoding="unicode") for c in member if c.tag != "comment"
    )
    text = re.sub(r"<[^>]+>", "", re.sub(r"<comment>.*?</comment>", "", text))
    for m in re.finditer(r"\[([^\]]*)\]", text):
        d = m.group(1).strip()
        dims.append(d if d.isdigit() else reg.api_constants.get(d, d))
    return dims


class Generator:
    def __init__(self, reg: Registry) -> None:
        self.reg = reg
        self.struct_order: list[str] = []
        self.handles: dict[str, bool] = {}  # name -> dispatchable
        self.scalars: dict[str, str] = {}  # basetype/bitmask/enum -> ctypes expr
        self.constants_used: set[str] = set(API_CONSTANTS)

    def scalar_type(self, name: str) -> str:
        name = self.reg.resolve_alias(name)
        if name in PRIMITIVES:
            return PRIMITIVES[name]
        cat = self.reg.category(name)
        t = self.reg.types[name]
        if cat == "handle":
            self.handles[name] = "NON_DISPATCHABLE" not in (t.findtext("type") or "")
            return name
        if cat == "basetype":
            under = t.findtext("type") or "uint32_t"
            self.scalars[name] = PRIMITIVES[under]
            return name
        if cat == "bitmask":
            under = t.findtext("type") or "VkFlags"
            self.scalars[name] = self.scalar_type(under)
            return name
        if cat == "enum":
            self.scalars[name] = "ctypes.c_int32"
            return name
        if cat == "funcpointer":
            self.scalars[name] = "ctypes.c_void_p"
            return name
        if cat in ("struct", "union"):
            self.add_struct(name)
            return name
        raise ValueError(f"unhandled type {name} ({cat})")

    def member_ctype(self, m: ET.Element) -> str:
        tname = m.findtext("type") or ""
        tail = m.find("type")
        after = (tail.tail or "") if tail is not None else ""
        depth = c_pointer_depth(after)
        base = self.scalar_type(tname)
        if depth:
            if tname == "void":
                expr = "ctypes.c_void_p"
                depth -= 1
            elif tname == "char":
                expr = "ctypes.c_char_p"
                depth -= 1
            else:
                expr = base
            for _ in range(depth):
                expr = f"ctypes.POINTER({expr})"
        else:
            expr = base
        for d in reversed(array_dims(after, m, self.reg)):
            expr = f"({expr} * {d})"
        return expr

    def add_struct(self, name: str, visiting: frozenset[str] = frozenset()) -> None:
        """Add a struct after every struct it embeds or points to (pointer cycles cut)."""
        name = self.reg.resolve_alias(name)
        if name in self.struct_order or name in visiting:
            return
        t = self.reg.types[name]
        for m in t.findall("member"):
            tn = m.findtext("type") or ""
            if self.reg.category(tn) in ("struct", "union"):
                self.add_struct(tn, visiting | {name})
        if name not in self.struct_order:
            self.struct_order.append(name)

    def emit(self) -> str:
        reg = self.reg
        for s in STRUCTS:
            self.add_struct(s)
        cmd_lines: list[str] = []
        for cname in COMMANDS:
            c = reg.commands[reg.command_alias.get(cname, cname)]
            ret = c.findtext("proto/type") or "void"
            rexpr = self.scalar_type(ret) if ret != "void" else "None"
            if ret == "PFN_vkVoidFunction":
                rexpr = "ctypes.c_void_p"
            args = []
            for p in c.findall("param"):
                args.append(self.member_ctype(p))
            cmd_lines.append(f'    "{cname}": ({rexpr}, [{", ".join(args)}]),')

        bodies: list[str] = []
        stypes: dict[str, str] = {}
        for name in self.struct_order:
            t = reg.types[name]
            fields = []
            for m in t.findall("member"):
                fields.append(f'        ("{m.findtext("name")}", {self.member_ctype(m)}),')
                if m.findtext("name") == "sType" and m.get("values"):
                    stypes[name] = m.get("values", "")
            base = "ctypes.Union" if t.get("category") == "union" else "ctypes.Structure"
            bodies.append(f"class {name}({base}):\n    _fields_ = [\n" + "\n".join(fields) + "\n    ]\n")
        out: list[str] = [
            '"""Vulkan ctypes bindings for the lavapipe oracle (generated, do not edit).',
            "",
            "Generated by tools/gen_vk.py from the Khronos registry (vk.xml, "
            f"header version {self.header_version()}).",
            "Struct layouts are checked against vulkan_core.h by `tools/gen_vk.py --check`.",
            '"""',
            "",
            "# ruff: noqa: E501",
            "from __future__ import annotations",
            "",
            "import ctypes",
            "",
            "# API constants",
        ]
        for cname in API_CONSTANTS:
            out.append(f"{cname} = {self.const_value(reg.api_constants[cname])}")
        out += ["", "# Enums and flag bits"]
        for ename in ENUMS:
            out.append(f"# {ename}")
            for n, v in reg.enum_members(ename):
                out.append(f"{n} = {v}")
        # sType values of the emitted structs
        st = dict(reg.enum_members("VkStructureType"))
        out += ["", "# VkStructureType values of the structs below"]
        for name in self.struct_order:
            if name in stypes:
                out.append(f"{stypes[name]} = {st[stypes[name]]}")
        out += ["", "# Handles (dispatchable: pointers; non-dispatchable: 64-bit integers)"]
        for h, disp in sorted(self.handles.items()):
            out.append(f"{h} = {'ctypes.c_void_p' if disp else 'ctypes.c_uint64'}")
        out += ["", "# Base types, bitmasks, enums, function pointers"]
        pending = dict(sorted(self.scalars.items()))
        done: set[str] = set()
        while pending:
            for n, e in list(pending.items()):
                if e.startswith("ctypes.") or e in done:
                    out.append(f"{n} = {e}")
                    done.add(n)
                    del pending[n]
        out += ["", ""]
        out.append("\n\n".join(bodies))
        out += ["", "STRUCTURE_TYPES: dict[type, int] = {"]
        for name in self.struct_order:
            if name in stypes:
                out.append(f"    {name}: {stypes[name]},")
        out += ["}", "", "", "COMMANDS: dict[str, tuple[object, list[object]]] = {"]
        out += cmd_lines
        out += ["}", "", "", "RESULT_NAMES: dict[int, str] = {"]
        names: dict[int, str] = {}
        for n, v in reg.enum_members("VkResult"):
            if v not in names or re.search(r"_(KHR|EXT)$", names[v]):
                names[v] = n
        for v, n in sorted(names.items()):
            out.append(f'    {v}: "{n}",')
        out += ["}", ""]
        return "\n".join(out)

    def header_version(self) -> str:
        for t in self.reg.root.iter("type"):
            if t.findtext("name") == "VK_HEADER_VERSION":
                m = re.search(r"(\d+)\s*$", "".join(t.itertext()).strip())
                if m:
                    return m.group(1)
        return "?"

    @staticmethod
    def const_value(v: str) -> str:
        v = v.strip()
        if v == "(~0U)":
            return "0xFFFFFFFF"
        if v == "(~0ULL)":
            return "0xFFFFFFFFFFFFFFFF"
        if v == "(~1U)":
            return "0xFFFFFFFE"
        if v == "(~2U)":
            return "0xFFFFFFFD"
        return v.rstrip("FfUuLl") if not v.startswith("0x") else v


def check(out: Path) -> int:
    """Compare ctypes sizeof/offsetof of every struct with the C compiler's."""
    spec = importlib.util.spec_from_file_location("vkgen_check", out)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    structs = [v for v in vars(mod).values()
               if isinstance(v, type) and issubclass(v, ctypes.Structure | ctypes.Union)
               and v.__name__.startswith("Vk")]
    lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <vulkan/vulkan_core.h>",
             "int main(void) {"]
    expect: list[str] = []
    for s in structs:
        lines.append(f'printf("{s.__name__} %zu\\n", sizeof({s.__name__}));')
        expect.append(f"{s.__name__} {ctypes.sizeof(s)}")
        for fname, _ in s._fields_:
            lines.append(f'printf("{s.__name__}.{fname} %zu\\n", offsetof({s.__name__}, {fname}));')
            expect.append(f"{s.__name__}.{fname} {getattr(s, fname).offset}")
    for sname, value in mod.STRUCTURE_TYPES.items():
        lines.append(f'printf("stype {sname.__name__} %d\\n", (int){_stype_name(mod, value)});')
        expect.append(f"stype {sname.__name__} {value}")
    for name in [n for n in vars(mod) if n.startswith("VK_") and not n.startswith("VK_MAX_")
                 and isinstance(getattr(mod, n), int) and n not in ("VK_WHOLE_SIZE",)]:
        lines.append(f'printf("{name} %lld\\n", (long long){name});')
        expect.append(f"{name} {getattr(mod, name)}")
    lines.append("return 0; }")
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "c.c"
        src.write_text("\n".join(lines))
        subprocess.run(["cc", "-w", "-o", str(Path(d) / "c"), str(src)], check=True)
        got = subprocess.run([str(Path(d) / "c")], capture_output=True, text=True,
                             check=True).stdout.split("\n")
    bad = [(e, g) for e, g in zip(expect, got, strict=False) if e != g]
    for e, g in bad[:20]:
        print(f"MISMATCH ctypes={e!r} C={g!r}")
    print(f"checked {len(expect)} facts ({len(structs)} structs): {len(bad)} mismatches")
    return 1 if bad else 0


def _stype_name(mod: object, value: int) -> str:
    for n, v in vars(mod).items():
        if n.startswith("VK_STRUCTURE_TYPE_") and v == value:
            return n
    raise KeyError(value)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--xml", default=DEFAULT_XML)
    ap.add_argument("-o", "--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="check the output against the C header")
    a = ap.parse_args()
    if a.check:
        return check(a.out)
    gen = Generator(Registry(a.xml))
    a.out.write_text(gen.emit())
    print(f"wrote {a.out} ({len(gen.struct_order)} structs, {len(COMMANDS)} commands)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
