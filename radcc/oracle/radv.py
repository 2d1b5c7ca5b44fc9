"""RADV's null device as a reference: what the real ACO makes of SPIR-V shaders.

    res = compile_compute(spirv, wave_size=32, spec_constants={0: 64})
    res.asm            # ACO's disassembly (as RADV's "Assembly" representation)
    res.stats          # VK_KHR_pipeline_executable_properties statistics, by name
    res.instructions, res.code_size, res.sgprs, res.vgprs

    g = compile_graphics(vs_spirv, fs_spirv, wave_size=64, color="rgba8")
    g.stages["vertex"].asm, g.stages["fragment"].stats   # one AcoResult per stage

A graphics pipeline is a vertex + fragment pair as `radcc draw` / the lavapipe draw
oracle set it up (dynamic rendering, one colour attachment per fragment output
location in the `color` format, or rgba32i / rgba32ui for integer outputs, optional
D32 depth, each vertex input in its own binding as R32..A32 of its type): on GFX11 RADV
compiles the vertex shader as an NGG shader ("vertex_ngg"), the fragment shader as
"fragment_fs". Wave32 is RADV_PERFTEST=cswave32,gewave32,pswave32.

Debian's Mesa (22.3) ships RADV with ACO; with ``RADV_FORCE_FAMILY`` it creates a
"null" device without an AMD GPU whose pipelines compile normally (nothing can be
dispatched, and ``vkCreateImage`` crashes: this module only makes buffers-free
pipelines). See /work/shared/TOOL-NOTES.md, "RADV null device".

Every compile runs in a child process (``python -m radcc.oracle.radv --worker``)
because the driver reads its configuration from the environment when the instance
is created (``RADV_FORCE_FAMILY``, ``RADV_PERFTEST=cswave32`` for wave32 compute,
``RADV_DEBUG``), and because a driver crash must not take the caller down. A batch
(`compile_many`) shares one child; a crash fails only the shader being compiled.

The disassembly and statistics come from VK_KHR_pipeline_executable_properties
(pipeline created with CAPTURE_STATISTICS | CAPTURE_INTERNAL_REPRESENTATIONS).
When the driver does not hand out an "Assembly" representation the child falls
back to ``RADV_DEBUG=shaders``, capturing its fd 2 around vkCreateComputePipelines.

Use it to learn what good code looks like (tools/aco_compare.py), never as a test
expectation: ACO 22.3 predates VOPD and s_delay_alu, and RADV's ABI (descriptor
sets, its own user SGPRs) is not radcc's AMDHSA ABI.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from radcc.driver.compare import asm_instructions as _asm_instructions
from radcc.oracle import spirv_reflect, vk
from radcc.oracle.lavapipe import (
    LavapipeError,
    ShaderModuleInfo,
    SpecializationData,
    _cstr,
    _link,
    _make_version,
    _Vk,
)

RADEON_ICD = os.environ.get("RADCC_RADEON_ICD", "/usr/share/vulkan/icd.d/radeon_icd.x86_64.json")
DEFAULT_FAMILY = "gfx1100"
TIMEOUT_S = 300.0

Scalar = int | float | bool


class RadvError(RuntimeError):
    """The radeon ICD is missing, the null device cannot be made, or a compile failed."""


@dataclass
class AcoResult:
    """ACO's compilation of one compute shader on RADV's null device."""

    family: str
    wave_size: int  # the subgroup size the executable reports
    asm: str  # disassembly
    stats: dict[str, int | float] = field(default_factory=dict)  # statistic name -> value
    ir: str = ""  # ACO IR (after register allocation) when the driver provides it
    device_name: str = ""
    representations: list[str] = field(default_factory=list)  # names the driver provides
    printed: str = ""  # what RADV_DEBUG=shaders printed (debug_shaders=True)
    # CPU seconds of one more vkCreateComputePipelines of the shader without capture flags
    # (SPIR-V -> NIR -> ACO -> upload, no cache), when compile_many(time_pipelines=True)
    pipeline_cpu_s: float | None = None

    def stat(self, *names: str, default: int = -1) -> int:
        for n in names:
            if n in self.stats:
                return int(self.stats[n])
        return default

    @property
    def instructions(self) -> int:
        """ACO's "Instructions" statistic, else the count of disassembled instructions."""
        return self.stat("Instructions", default=len(asm_instructions(self.asm)))

    @property
    def code_size(self) -> int:
        return self.stat("Code size")

    @property
    def sgprs(self) -> int:
        return self.stat("SGPRs")

    @property
    def vgprs(self) -> int:
        return self.stat("VGPRs")


# the disassembly helper is radcc.driver.compare's (radcc compare, tools/aco_compare.py)
asm_instructions = _asm_instructions


# -- the child: one instance and null device, pipelines compiled one by one -------------

# VK_KHR_pipeline_executable_properties (not in the generated vk.py, which the lavapipe
# oracle does not need); layouts as in vulkan_core.h, checked by tests/oracle/test_radv.py.
VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR = 1000269000
VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR = 1000269001
VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR = 1000269002
VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR = 1000269003
VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR = 1000269004
VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR = 1000269005
VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR = 0x40
VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR = 0x80
EXT_PIPELINE_EXECUTABLE = "VK_KHR_pipeline_executable_properties"


class VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR(ctypes.Structure):
    _fields_ = [("sType", vk.VkStructureType), ("pNext", ctypes.c_void_p),
                ("pipelineExecutableInfo", vk.VkBool32)]


class VkPipelineInfoKHR(ctypes.Structure):
    _fields_ = [("sType", vk.VkStructureType), ("pNext", ctypes.c_void_p),
                ("pipeline", vk.VkPipeline)]


class VkPipelineExecutablePropertiesKHR(ctypes.Structure):
    _fields_ = [("sType", vk.VkStructureType), ("pNext", ctypes.c_void_p),
                ("stages", vk.VkFlags),
                ("name", ctypes.c_char * vk.VK_MAX_DESCRIPTION_SIZE),
                ("description", ctypes.c_char * vk.VK_MAX_DESCRIPTION_SIZE),
                ("subgroupSize", ctypes.c_uint32)]


class VkPipelineExecutableInfoKHR(ctypes.Structure):
    _fields_ = [("sType", vk.VkStructureType), ("pNext", ctypes.c_void_p),
                ("pipeline", vk.VkPipeline), ("executableIndex", ctypes.c_uint32)]


class VkPipelineExecutableStatisticValueKHR(ctypes.Union):
    _fields_ = [("b32", vk.VkBool32), ("i64", ctypes.c_int64), ("u64", ctypes.c_uint64),
                ("f64", ctypes.c_double)]


class VkPipelineExecutableStatisticKHR(ctypes.Structure):
    _fields_ = [("sType", vk.VkStructureType), ("pNext", ctypes.c_void_p),
                ("name", ctypes.c_char * vk.VK_MAX_DESCRIPTION_SIZE),
                ("description", ctypes.c_char * vk.VK_MAX_DESCRIPTION_SIZE),
                ("format", ctypes.c_int32),
                ("value", VkPipelineExecutableStatisticValueKHR)]


class VkPipelineExecutableInternalRepresentationKHR(ctypes.Structure):
    _fields_ = [("sType", vk.VkStructureType), ("pNext", ctypes.c_void_p),
                ("name", ctypes.c_char * vk.VK_MAX_DESCRIPTION_SIZE),
                ("description", ctypes.c_char * vk.VK_MAX_DESCRIPTION_SIZE),
                ("isText", vk.VkBool32), ("dataSize", ctypes.c_size_t),
                ("pData", ctypes.c_void_p)]


_ExecFn = ctypes.CFUNCTYPE(vk.VkResult, vk.VkDevice, ctypes.c_void_p,
                           ctypes.POINTER(ctypes.c_uint32), ctypes.c_void_p)


@contextlib.contextmanager
def _capture_fd2() -> Iterator[list[str]]:
    """Redirect the process's fd 2 (where Mesa prints RADV_DEBUG output) into a list."""
    out: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield out
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            out.append(tmp.read().decode(errors="replace"))


_KIND_FORMATS = {
    "float": (vk.VK_FORMAT_R32_SFLOAT, vk.VK_FORMAT_R32G32_SFLOAT, vk.VK_FORMAT_R32G32B32_SFLOAT,
              vk.VK_FORMAT_R32G32B32A32_SFLOAT),
    "int": (vk.VK_FORMAT_R32_SINT, vk.VK_FORMAT_R32G32_SINT, vk.VK_FORMAT_R32G32B32_SINT,
            vk.VK_FORMAT_R32G32B32A32_SINT),
    "uint": (vk.VK_FORMAT_R32_UINT, vk.VK_FORMAT_R32G32_UINT, vk.VK_FORMAT_R32G32B32_UINT,
             vk.VK_FORMAT_R32G32B32A32_UINT),
}
# colour attachment formats by name (the draw oracle's --color names and a few more
# export formats: 16-bit unorm/snorm/integer): name -> (VkFormat, output kind)
COLOR_FORMATS: dict[str, tuple[int, str]] = {
    "rgba8": (vk.VK_FORMAT_R8G8B8A8_UNORM, "float"),
    "rgba16f": (vk.VK_FORMAT_R16G16B16A16_SFLOAT, "float"),
    "rgba32f": (vk.VK_FORMAT_R32G32B32A32_SFLOAT, "float"),
    "r32f": (vk.VK_FORMAT_R32_SFLOAT, "float"),
    "rg32f": (vk.VK_FORMAT_R32G32_SFLOAT, "float"),
    "rgba16": (vk.VK_FORMAT_R16G16B16A16_UNORM, "float"),
    "rgba16_snorm": (vk.VK_FORMAT_R16G16B16A16_SNORM, "float"),
    "rgba32ui": (vk.VK_FORMAT_R32G32B32A32_UINT, "uint"),
    "r32ui": (vk.VK_FORMAT_R32_UINT, "uint"),
    "rgba16ui": (vk.VK_FORMAT_R16G16B16A16_UINT, "uint"),
    "rgba32i": (vk.VK_FORMAT_R32G32B32A32_SINT, "int"),
    "r32i": (vk.VK_FORMAT_R32_SINT, "int"),
    "rgba16i": (vk.VK_FORMAT_R16G16B16A16_SINT, "int"),
}


class _GraphicsState:
    """The fixed-function state of a VS + FS pipeline as the draw oracle sets it up
    (the structs stay alive with this object)."""

    def __init__(self, inputs: list[spirv_reflect.IOVar], outputs: list[spirv_reflect.IOVar],
                 color: str, depth: bool) -> None:
        colors = color.split(",")  # by location; the last applies to higher ones
        for c in colors:
            if c not in COLOR_FORMATS:
                raise RadvError(f"colour format {c!r}: want one of {', '.join(COLOR_FORMATS)}")
        n = len(inputs)
        self.vbind = (vk.VkVertexInputBindingDescription * max(1, n))()
        self.vattr = (vk.VkVertexInputAttributeDescription * max(1, n))()
        for i, var in enumerate(inputs):
            if var.kind not in _KIND_FORMATS or var.width != 32 or var.array or var.matrix:
                raise RadvError(f"vertex input at location {var.location} ({var.type_name}): "
                                "only 32-bit scalars and vectors")
            self.vbind[i] = vk.VkVertexInputBindingDescription(
                binding=i, stride=4 * var.components,
                inputRate=vk.VK_VERTEX_INPUT_RATE_VERTEX)
            self.vattr[i] = vk.VkVertexInputAttributeDescription(
                location=var.location, binding=i,
                format=_KIND_FORMATS[var.kind][var.components - 1], offset=0)
        self.vis = vk.VkPipelineVertexInputStateCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
            vertexBindingDescriptionCount=n, pVertexBindingDescriptions=self.vbind,
            vertexAttributeDescriptionCount=n, pVertexAttributeDescriptions=self.vattr)
        self.ias = vk.VkPipelineInputAssemblyStateCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
            topology=vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST)
        self.viewport = vk.VkViewport(0.0, 0.0, 64.0, 64.0, 0.0, 1.0)
        self.scissor = vk.VkRect2D(vk.VkOffset2D(0, 0), vk.VkExtent2D(64, 64))
        self.vps = vk.VkPipelineViewportStateCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, viewportCount=1,
            pViewports=ctypes.pointer(self.viewport), scissorCount=1,
            pScissors=ctypes.pointer(self.scissor))
        self.rs = vk.VkPipelineRasterizationStateCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
            polygonMode=vk.VK_POLYGON_MODE_FILL, cullMode=vk.VK_CULL_MODE_NONE,
            frontFace=vk.VK_FRONT_FACE_COUNTER_CLOCKWISE, lineWidth=1.0)
        self.ms = vk.VkPipelineMultisampleStateCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
            rasterizationSamples=vk.VK_SAMPLE_COUNT_1_BIT)
        self.ds = vk.VkPipelineDepthStencilStateCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
            depthTestEnable=int(depth), depthWriteEnable=int(depth),
            depthCompareOp=vk.VK_COMPARE_OP_LESS, maxDepthBounds=1.0)
        na = max((o.location + 1 for o in outputs), default=0)
        self.blends = (vk.VkPipelineColorBlendAttachmentState * max(1, na))()
        self.formats = (vk.VkFormat * max(1, na))(
            *[COLOR_FORMATS[colors[min(i, len(colors) - 1)]][0] for i in range(na)])
        masks = (vk.VK_COLOR_COMPONENT_R_BIT, vk.VK_COLOR_COMPONENT_G_BIT,
                 vk.VK_COLOR_COMPONENT_B_BIT, vk.VK_COLOR_COMPONENT_A_BIT)
        for o in outputs:
            if o.location >= 8 or o.array or o.matrix or o.kind not in _KIND_FORMATS:
                raise RadvError(f"fragment output at location {o.location} ({o.type_name}): "
                                "only 32-bit scalars and vectors at locations < 8")
            fmt = colors[min(o.location, len(colors) - 1)]
            if COLOR_FORMATS[fmt][1] != o.kind:  # e.g. the default rgba8 for an ivec4
                self.formats[o.location] = _KIND_FORMATS[o.kind][3]
            mask = 0
            for c in range(o.component, min(4, o.component + o.components)):
                mask |= masks[c]
            self.blends[o.location] = vk.VkPipelineColorBlendAttachmentState(colorWriteMask=mask)
        self.cbs = vk.VkPipelineColorBlendStateCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
            attachmentCount=na, pAttachments=self.blends)
        self.rci = vk.VkPipelineRenderingCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, colorAttachmentCount=na,
            pColorAttachmentFormats=self.formats,
            depthAttachmentFormat=vk.VK_FORMAT_D32_SFLOAT if depth else vk.VK_FORMAT_UNDEFINED)

    def create_info(self, stages: Any, playout: Any, flags: int) -> Any:
        return vk.VkGraphicsPipelineCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
            pNext=ctypes.addressof(self.rci), flags=flags, stageCount=2, pStages=stages,
            pVertexInputState=ctypes.pointer(self.vis),
            pInputAssemblyState=ctypes.pointer(self.ias),
            pViewportState=ctypes.pointer(self.vps), pRasterizationState=ctypes.pointer(self.rs),
            pMultisampleState=ctypes.pointer(self.ms), pDepthStencilState=ctypes.pointer(self.ds),
            pColorBlendState=ctypes.pointer(self.cbs), layout=playout.value,
            basePipelineIndex=-1)


class _Worker:
    """Instance, null device and the pipeline compiles of one child process."""

    def __init__(self) -> None:
        self.vk = _Vk()
        self.instance = vk.VkInstance()
        self.device = vk.VkDevice()
        v = self.vk
        version = ctypes.c_uint32(_make_version(1, 0))
        if "vkEnumerateInstanceVersion" in v.fns:
            v("vkEnumerateInstanceVersion", ctypes.byref(version))
        app = vk.VkApplicationInfo(sType=vk.VK_STRUCTURE_TYPE_APPLICATION_INFO,
                                   pApplicationName=b"radcc-radv-oracle", applicationVersion=1,
                                   pEngineName=b"radcc", engineVersion=1,
                                   apiVersion=min(version.value, _make_version(1, 3)))
        ci = vk.VkInstanceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                     pApplicationInfo=ctypes.pointer(app))
        v("vkCreateInstance", ctypes.byref(ci), None, ctypes.byref(self.instance))
        n = ctypes.c_uint32(0)
        v("vkEnumeratePhysicalDevices", self.instance, ctypes.byref(n), None)
        devs = (vk.VkPhysicalDevice * max(1, n.value))()
        if n.value:
            v("vkEnumeratePhysicalDevices", self.instance, ctypes.byref(n), devs)
        pd = None
        for d in devs[: n.value]:
            props = vk.VkPhysicalDeviceProperties()
            v.void("vkGetPhysicalDeviceProperties", d, ctypes.byref(props))
            if props.vendorID == 0x1002:
                pd, self.props = vk.VkPhysicalDevice(d), props
                break
        if pd is None:
            raise RadvError(f"no RADV device among {n.value} Vulkan devices "
                            f"(RADV_FORCE_FAMILY={os.environ.get('RADV_FORCE_FAMILY')})")
        self.device_name = _cstr(self.props.deviceName)
        is12 = self.props.apiVersion >= _make_version(1, 2)
        is13 = self.props.apiVersion >= _make_version(1, 3)

        v("vkEnumerateDeviceExtensionProperties", pd, None, ctypes.byref(n), None)
        exts = (vk.VkExtensionProperties * max(1, n.value))()
        v("vkEnumerateDeviceExtensionProperties", pd, None, ctypes.byref(n), exts)
        available = {_cstr(e.extensionName) for e in exts[: n.value]}
        wanted = [EXT_PIPELINE_EXECUTABLE, "VK_EXT_shader_atomic_float",
                  "VK_EXT_shader_atomic_float2", "VK_KHR_shader_clock",
                  "VK_KHR_shader_subgroup_uniform_control_flow"]
        if not is13:
            wanted.append("VK_EXT_subgroup_size_control")
        self.extensions = [e for e in wanted if e in available]
        self.has_exec = EXT_PIPELINE_EXECUTABLE in self.extensions

        # features: everything the device has, except robustness (it changes the code)
        fchain: list[ctypes.Structure] = []
        if is12:
            fchain += [vk.VkPhysicalDeviceVulkan11Features(
                           sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES),
                       vk.VkPhysicalDeviceVulkan12Features(
                           sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)]
        f13 = vk.VkPhysicalDeviceVulkan13Features(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES)
        if is13:
            fchain.append(f13)
        if "VK_EXT_shader_atomic_float" in self.extensions:
            fchain.append(vk.VkPhysicalDeviceShaderAtomicFloatFeaturesEXT(
                sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT))
        if "VK_EXT_shader_atomic_float2" in self.extensions:
            fchain.append(vk.VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT(
                sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT))
        if self.has_exec:
            fchain.append(VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR(
                sType=VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR))
        f2 = vk.VkPhysicalDeviceFeatures2(sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                          pNext=_link(fchain))
        v.void("vkGetPhysicalDeviceFeatures2", pd, ctypes.byref(f2))
        f2.features.robustBufferAccess = 0
        if is13:
            f13.robustImageAccess = 0
        self._features = (f2, fchain)

        v.void("vkGetPhysicalDeviceQueueFamilyProperties", pd, ctypes.byref(n), None)
        qf = (vk.VkQueueFamilyProperties * max(1, n.value))()
        v.void("vkGetPhysicalDeviceQueueFamilyProperties", pd, ctypes.byref(n), qf)
        fams = [i for i in range(n.value) if qf[i].queueFlags & vk.VK_QUEUE_COMPUTE_BIT]
        prio = ctypes.c_float(1.0)
        qci = vk.VkDeviceQueueCreateInfo(sType=vk.VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                         queueFamilyIndex=fams[0] if fams else 0, queueCount=1,
                                         pQueuePriorities=ctypes.pointer(prio))
        names = (ctypes.c_char_p * max(1, len(self.extensions)))(
            *[e.encode() for e in self.extensions])
        dci = vk.VkDeviceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                    pNext=ctypes.addressof(f2), queueCreateInfoCount=1,
                                    pQueueCreateInfos=ctypes.pointer(qci),
                                    enabledExtensionCount=len(self.extensions),
                                    ppEnabledExtensionNames=names)
        v("vkCreateDevice", pd, ctypes.byref(dci), None, ctypes.byref(self.device))
        self.exec_fns: dict[str, Any] = {}
        if self.has_exec:
            gdpa = self.vk.lib.vkGetDeviceProcAddr
            gdpa.restype = ctypes.c_void_p
            gdpa.argtypes = [vk.VkDevice, ctypes.c_char_p]
            for name in ("vkGetPipelineExecutablePropertiesKHR",
                         "vkGetPipelineExecutableStatisticsKHR",
                         "vkGetPipelineExecutableInternalRepresentationsKHR"):
                addr = gdpa(self.device, name.encode())
                if not addr:
                    raise RadvError(f"vkGetDeviceProcAddr({name}) returned NULL")
                self.exec_fns[name] = _ExecFn(addr)

    def _exec_call(self, name: str, *args: Any) -> None:
        res = self.exec_fns[name](*args)
        if res < 0:
            raise RadvError(f"{name} failed: {vk.RESULT_NAMES.get(res, res)}")

    def _layout(self, refls: Sequence[spirv_reflect.Reflection], stages: int,
                undo: list[tuple[str, Any]]) -> Any:
        """The pipeline layout of the shaders' merged bindings and push constants (one set
        layout per set number, empty ones filling the gaps), visible to `stages`."""
        v, dev = self.vk, self.device
        bindings: dict[tuple[int, int], spirv_reflect.Binding] = {}
        for refl in refls:
            for key, b in refl.bindings.items():
                bindings.setdefault(key, b)
        nsets = max((s for s, _ in bindings), default=-1) + 1
        layouts = (vk.VkDescriptorSetLayout * max(1, nsets))()
        dtype = {"storage": vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                 "uniform": vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                 "storage_image": vk.VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                 "sampled_image": vk.VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                 "sampler": vk.VK_DESCRIPTOR_TYPE_SAMPLER,
                 "combined": vk.VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER}
        for s in range(nsets):
            bs = [b for (bs_, _), b in sorted(bindings.items()) if bs_ == s]
            arr = (vk.VkDescriptorSetLayoutBinding * max(1, len(bs)))()
            for i, b in enumerate(bs):
                if b.kind not in dtype:
                    raise RadvError(f"binding {s}:{b.binding} is {b.kind!r}: not supported")
                arr[i] = vk.VkDescriptorSetLayoutBinding(
                    binding=b.binding, descriptorType=dtype[b.kind],
                    descriptorCount=max(1, b.count), stageFlags=stages)
            lci = vk.VkDescriptorSetLayoutCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                bindingCount=len(bs), pBindings=arr)
            h = vk.VkDescriptorSetLayout()
            v("vkCreateDescriptorSetLayout", dev, ctypes.byref(lci), None, ctypes.byref(h))
            undo.append(("vkDestroyDescriptorSetLayout", h))
            layouts[s] = h.value
        push = (max(r.push_constant_size for r in refls) + 3) & ~3
        rng = vk.VkPushConstantRange(stageFlags=stages, offset=0, size=push)
        plci = vk.VkPipelineLayoutCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, setLayoutCount=nsets,
            pSetLayouts=layouts, pushConstantRangeCount=1 if push else 0,
            pPushConstantRanges=ctypes.pointer(rng))
        playout = vk.VkPipelineLayout()
        v("vkCreatePipelineLayout", dev, ctypes.byref(plci), None, ctypes.byref(playout))
        undo.append(("vkDestroyPipelineLayout", playout))
        return playout

    def _module(self, spirv: bytes, undo: list[tuple[str, Any]]) -> Any:
        smci = ShaderModuleInfo(spirv)
        module = vk.VkShaderModule()
        self.vk("vkCreateShaderModule", self.device, ctypes.byref(smci.info), None,
                ctypes.byref(module))
        undo.append(("vkDestroyShaderModule", module))
        return module

    def _flags(self) -> int:
        return (VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR
                | VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR
                if self.has_exec else 0)

    def compile(self, spirv: bytes, spec: Mapping[int, Scalar], entry: str,
                timed: int = 0) -> dict[str, Any]:
        """The pipeline's statistics and representations; with `timed` > 0, also the CPU
        seconds of a creation without capture flags (``pipeline_cpu_s``: the least of
        `timed` creations)."""
        v, dev = self.vk, self.device
        refl = spirv_reflect.reflect(spirv)
        model = refl.entry_points.get(entry)
        if model != spirv_reflect.EXEC_MODEL_GL_COMPUTE:  # RADV would crash on it
            what = ("no entry point" if model is None else
                    f"a {spirv_reflect.STAGE_NAMES.get(model, model)} entry point")
            raise RadvError(f"{entry!r} is {what}, not a compute shader (graphics stages: "
                            "compile_graphics)")
        undo: list[tuple[str, Any]] = []
        try:
            playout = self._layout([refl], vk.VK_SHADER_STAGE_COMPUTE_BIT, undo)
            module = self._module(spirv, undo)
            sinfo = SpecializationData(spec, refl)
            stage = vk.VkPipelineShaderStageCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                stage=vk.VK_SHADER_STAGE_COMPUTE_BIT, module=module.value,
                pName=entry.encode(), pSpecializationInfo=sinfo.pointer())
            cpci = vk.VkComputePipelineCreateInfo(
                sType=vk.VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, flags=self._flags(),
                stage=stage, layout=playout.value, basePipelineIndex=-1)
            pipeline = vk.VkPipeline()
            debug = "shaders" in os.environ.get("RADV_DEBUG", "")
            with _capture_fd2() if debug else contextlib.nullcontext([]) as printed:
                v("vkCreateComputePipelines", dev, 0, 1, ctypes.byref(cpci), None,
                  ctypes.byref(pipeline))
            undo.append(("vkDestroyPipeline", pipeline))
            out: dict[str, Any] = {"device_name": self.device_name, "stats": {},
                                   "reprs": {}, "wave_size": 0,
                                   "printed": "".join(printed)}
            if timed:
                cpci.flags = 0
            for _ in range(timed):
                again = vk.VkPipeline()
                t0 = time.process_time()
                v("vkCreateComputePipelines", dev, 0, 1, ctypes.byref(cpci), None,
                  ctypes.byref(again))
                cpu = time.process_time() - t0
                v.void("vkDestroyPipeline", dev, again, None)
                out["pipeline_cpu_s"] = min(cpu, out.get("pipeline_cpu_s", cpu))
            if self.has_exec:
                for ex in self._executables(pipeline):
                    if ex["stages"] & vk.VK_SHADER_STAGE_COMPUTE_BIT:
                        out.update(stats=ex["stats"], reprs=ex["reprs"],
                                   wave_size=ex["wave_size"])
                        break
            return out
        finally:
            for destroy, h in reversed(undo):
                v.void(destroy, dev, h, None)

    def compile_graphics(self, vert: bytes, frag: bytes, entry_vert: str, entry_frag: str,
                         color: str, depth: bool) -> dict[str, Any]:
        """A VS + FS pipeline as the draw oracle sets it up; every executable's
        statistics and representations."""
        v, dev = self.vk, self.device
        vrefl, frefl = spirv_reflect.reflect(vert), spirv_reflect.reflect(frag)
        for refl, entry, want in ((vrefl, entry_vert, spirv_reflect.EXEC_MODEL_VERTEX),
                                  (frefl, entry_frag, spirv_reflect.EXEC_MODEL_FRAGMENT)):
            if refl.entry_points.get(entry) != want:
                raise RadvError(f"no {spirv_reflect.STAGE_NAMES[want]} entry point {entry!r} "
                                f"(the module has: {sorted(refl.entry_points)})")
        undo: list[tuple[str, Any]] = []
        try:
            playout = self._layout([vrefl, frefl], vk.VK_SHADER_STAGE_ALL_GRAPHICS, undo)
            vmod, fmod = self._module(vert, undo), self._module(frag, undo)
            names = [entry_vert.encode(), entry_frag.encode()]
            stages = (vk.VkPipelineShaderStageCreateInfo * 2)(
                vk.VkPipelineShaderStageCreateInfo(
                    sType=vk.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                    stage=vk.VK_SHADER_STAGE_VERTEX_BIT, module=vmod.value, pName=names[0]),
                vk.VkPipelineShaderStageCreateInfo(
                    sType=vk.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                    stage=vk.VK_SHADER_STAGE_FRAGMENT_BIT, module=fmod.value, pName=names[1]))
            state = _GraphicsState(vrefl.inputs[entry_vert], frefl.outputs[entry_frag], color,
                                   depth)
            gpci = state.create_info(stages, playout, self._flags())
            pipeline = vk.VkPipeline()
            debug = "shaders" in os.environ.get("RADV_DEBUG", "")
            with _capture_fd2() if debug else contextlib.nullcontext([]) as printed:
                v("vkCreateGraphicsPipelines", dev, 0, 1, ctypes.byref(gpci), None,
                  ctypes.byref(pipeline))
            undo.append(("vkDestroyPipeline", pipeline))
            out: dict[str, Any] = {"device_name": self.device_name, "executables": [],
                                   "printed": "".join(printed)}
            if self.has_exec:
                out["executables"] = self._executables(pipeline)
            return out
        finally:
            for destroy, h in reversed(undo):
                v.void(destroy, dev, h, None)

    def _executables(self, pipeline: Any) -> list[dict[str, Any]]:
        """Every executable of the pipeline: its stage bits, name, subgroup size,
        statistics and text representations."""
        dev = self.device
        pinfo = VkPipelineInfoKHR(sType=VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, pipeline=pipeline)
        n = ctypes.c_uint32(0)
        self._exec_call("vkGetPipelineExecutablePropertiesKHR", dev, ctypes.addressof(pinfo),
                        ctypes.byref(n), None)
        props = (VkPipelineExecutablePropertiesKHR * max(1, n.value))(
            *[VkPipelineExecutablePropertiesKHR(
                sType=VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR)] * max(1, n.value))
        self._exec_call("vkGetPipelineExecutablePropertiesKHR", dev, ctypes.addressof(pinfo),
                        ctypes.byref(n), props)
        out = []
        for idx in range(n.value):
            ex: dict[str, Any] = {"stages": props[idx].stages, "name": _cstr(props[idx].name),
                                  "wave_size": props[idx].subgroupSize, "stats": {},
                                  "reprs": {}}
            einfo = VkPipelineExecutableInfoKHR(sType=VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
                                                pipeline=pipeline, executableIndex=idx)
            m = ctypes.c_uint32(0)
            fn = "vkGetPipelineExecutableStatisticsKHR"
            self._exec_call(fn, dev, ctypes.addressof(einfo), ctypes.byref(m), None)
            st = (VkPipelineExecutableStatisticKHR * max(1, m.value))(
                *[VkPipelineExecutableStatisticKHR(
                    sType=VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR)] * max(1, m.value))
            self._exec_call(fn, dev, ctypes.addressof(einfo), ctypes.byref(m), st)
            for s in st[: m.value]:
                val = (bool(s.value.b32), s.value.i64, s.value.u64, s.value.f64)[s.format]
                ex["stats"][_cstr(s.name)] = val
            fn = "vkGetPipelineExecutableInternalRepresentationsKHR"
            self._exec_call(fn, dev, ctypes.addressof(einfo), ctypes.byref(m), None)
            reps = (VkPipelineExecutableInternalRepresentationKHR * max(1, m.value))(
                *[VkPipelineExecutableInternalRepresentationKHR(
                    sType=VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR)]
                * max(1, m.value))
            self._exec_call(fn, dev, ctypes.addressof(einfo), ctypes.byref(m), reps)
            bufs = []
            for r in reps[: m.value]:
                b = ctypes.create_string_buffer(r.dataSize)
                bufs.append(b)
                r.pData = ctypes.cast(b, ctypes.c_void_p)
            self._exec_call(fn, dev, ctypes.addressof(einfo), ctypes.byref(m), reps)
            for r, b in zip(reps[: m.value], bufs, strict=True):
                if r.isText:
                    ex["reprs"][_cstr(r.name)] = b.raw.split(b"\0", 1)[0].decode(
                        errors="replace")
            out.append(ex)
        return out

    def close(self) -> None:
        if self.device:
            self.vk.void("vkDestroyDevice", self.device, None)
        if self.instance:
            self.vk.void("vkDestroyInstance", self.instance, None)


def _worker_main() -> int:
    """Child: JSON job per stdin line ({spirv: base64, spec: [[id, value]], entry}, or
    {kind: graphics, vert, frag: base64, entry_vert, entry_frag, color, depth}), one JSON
    result line per job on stdout ({ok, ...} or {error})."""
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing else may write on the result channel
    try:
        w = _Worker()
    except (LavapipeError, RadvError) as e:
        out.write(json.dumps({"fatal": str(e)}) + "\n")
        out.flush()
        return 1
    out.write(json.dumps({"ready": w.device_name}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        job = json.loads(line)
        try:
            if job.get("kind") == "graphics":
                res = w.compile_graphics(
                    base64.b64decode(job["vert"]), base64.b64decode(job["frag"]),
                    job["entry_vert"], job["entry_frag"], job["color"], job["depth"])
            else:
                spec = {int(k): val for k, val in job.get("spec", [])}
                res = w.compile(base64.b64decode(job["spirv"]), spec, job.get("entry", "main"),
                                int(job.get("time") or 0))
            res["ok"] = True
        except (LavapipeError, RadvError, spirv_reflect.SpirvError) as e:
            res = {"error": str(e)}
        out.write(json.dumps(res) + "\n")
        out.flush()
    w.close()
    return 0


# -- the parent side ------------------------------------------------------------------


def null_device_env(family: str = DEFAULT_FAMILY, wave_size: int = 64,
                    debug_shaders: bool = False) -> dict[str, str]:
    """The environment of a child compiling on RADV's null device."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("RADV_", "ACO_", "VK_", "MESA_"))}
    env.update({
        "VK_ICD_FILENAMES": RADEON_ICD,
        "VK_DRIVER_FILES": RADEON_ICD,
        "VK_LOADER_LAYERS_DISABLE": "~all~",
        "NODEVICE_SELECT": "1",
        "RADV_FORCE_FAMILY": family,
        "RADV_DEBUG": "nocache,shaders" if debug_shaders else "nocache",
        "MESA_SHADER_CACHE_DISABLE": "true",
    })
    if wave_size == 32:
        env["RADV_PERFTEST"] = "cswave32,gewave32,pswave32"
    elif wave_size != 64:
        raise ValueError(f"wave size {wave_size}: 32 or 64")
    if not env.get("XDG_RUNTIME_DIR") or not os.path.isdir(env["XDG_RUNTIME_DIR"]):
        env["XDG_RUNTIME_DIR"] = tempfile.gettempdir()
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def available() -> bool:
    return os.path.exists(RADEON_ICD)


def _spec_json(spec: Mapping[int, Scalar] | None) -> list[list[Any]]:
    return [[int(k), v] for k, v in sorted((spec or {}).items())]


_ASM_HEADERS = ("Assembly", "Disassembly")


def _result(r: dict[str, Any], family: str, wave_size: int) -> AcoResult:
    reprs: dict[str, str] = r.get("reprs", {})
    asm = next((reprs[k] for k in reprs if k in _ASM_HEADERS), "")
    ir = next((reprs[k] for k in reprs if "ACO" in k and "IR" in k), "")
    if not asm and r.get("printed"):
        asm = _printed_disassembly(r["printed"])
    return AcoResult(family=family, wave_size=r.get("wave_size") or wave_size, asm=asm,
                     stats=r.get("stats", {}), ir=ir, device_name=r.get("device_name", ""),
                     representations=list(reprs), printed=r.get("printed", ""),
                     pipeline_cpu_s=r.get("pipeline_cpu_s"))


def _printed_disassembly(text: str) -> str:
    """The disassembly section of RADV_DEBUG=shaders output (the last one printed)."""
    parts = re.split(r"^.*disasm:\s*$", text, flags=re.M | re.I)
    if len(parts) < 2:
        return ""
    body = parts[-1].split("\n\n", 1)[0]
    return body


def _run_jobs(jobs: Sequence[dict[str, Any]], env: dict[str, str], family: str,
              timeout_s: float) -> list[dict[str, Any] | RadvError]:
    """The worker's answers to JSON jobs; one child serves the batch, and when the driver
    crashes the job in hand fails and a new child continues with the next."""
    results: list[dict[str, Any] | RadvError] = []
    pending = list(jobs)
    while pending:
        proc = subprocess.Popen([sys.executable, "-m", "radcc.oracle.radv", "--worker"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, text=True)
        assert proc.stdin and proc.stdout
        try:
            hello = json.loads(proc.stdout.readline() or "{}")
            if "ready" not in hello:
                proc.kill()
                err = proc.communicate(timeout=timeout_s)[1]
                raise RadvError(f"RADV null device ({family}): "
                                f"{hello.get('fatal') or err.strip()[-2000:] or 'no answer'}")
            while pending:
                proc.stdin.write(json.dumps(pending[0]) + "\n")
                proc.stdin.flush()
                line = proc.stdout.readline()
                pending.pop(0)
                if not line:  # the child died on this job
                    proc.kill()
                    err = proc.communicate(timeout=timeout_s)[1]
                    tail = err.strip().splitlines()[-3:]
                    results.append(RadvError(f"RADV crashed (exit {proc.returncode}): "
                                             + " | ".join(" ".join(x.split()) for x in tail)))
                    break
                r = json.loads(line)
                results.append(RadvError(r["error"]) if "error" in r else r)
        finally:
            if proc.poll() is None:
                proc.stdin.close()
                try:
                    proc.wait(timeout=timeout_s)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            for f in (proc.stdout, proc.stderr):
                if f:
                    f.close()
    return results


def compile_many(
    jobs: Sequence[tuple[bytes, Mapping[int, Scalar] | None]],
    *,
    wave_size: int = 64,
    family: str = DEFAULT_FAMILY,
    entry: str = "main",
    debug_shaders: bool = False,
    timeout_s: float = TIMEOUT_S,
    time_pipelines: bool = False,
    time_repeat: int = 1,
) -> list[AcoResult | RadvError]:
    """Compile (spirv, spec_constants) jobs with ACO; one RadvError per failed job.
    `time_pipelines`: each pipeline is created `time_repeat` times more without capture
    flags and the least of those creations' CPU times kept (`AcoResult.pipeline_cpu_s`;
    bench/bench_aco.py).

    One child process serves the batch; when the driver crashes the job in hand
    fails and a new child continues with the next. A missing ICD or a device that
    cannot be created raises RadvError."""
    if not available():
        raise RadvError(f"radeon ICD {RADEON_ICD} not found (install mesa-vulkan-drivers)")
    env = null_device_env(family, wave_size, debug_shaders)
    answers = _run_jobs([{"spirv": base64.b64encode(bytes(spirv)).decode(),
                          "spec": _spec_json(spec), "entry": entry,
                          "time": max(1, time_repeat) if time_pipelines else 0}
                         for spirv, spec in jobs],
                        env, family, timeout_s)
    return [r if isinstance(r, RadvError) else _result(r, family, wave_size) for r in answers]


@dataclass
class GraphicsAcoResult:
    """ACO's compilation of a vertex + fragment pipeline: one AcoResult per executable,
    by stage ("vertex", "fragment"; RADV's executable name in `names`)."""

    family: str
    stages: dict[str, AcoResult] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    device_name: str = ""
    printed: str = ""  # what RADV_DEBUG=shaders printed for the pipeline (debug_shaders)


def _stage_name(bits: int) -> str:
    for bit, name in ((vk.VK_SHADER_STAGE_VERTEX_BIT, "vertex"),
                      (vk.VK_SHADER_STAGE_FRAGMENT_BIT, "fragment"),
                      (vk.VK_SHADER_STAGE_GEOMETRY_BIT, "geometry"),
                      (vk.VK_SHADER_STAGE_COMPUTE_BIT, "compute")):
        if bits & bit:
            return name
    return f"stages {bits:#x}"


@dataclass
class GraphicsJob:
    """One VS + FS pipeline to compile (`compile_graphics_many`)."""

    vert: bytes
    frag: bytes
    entry_vert: str = "main"
    entry_frag: str = "main"
    color: str = "rgba8"
    depth: bool = False


def compile_graphics_many(jobs: Sequence[GraphicsJob], *, wave_size: int = 64,
                          family: str = DEFAULT_FAMILY, debug_shaders: bool = False,
                          timeout_s: float = TIMEOUT_S) -> list[GraphicsAcoResult | RadvError]:
    """`compile_graphics` of every job in one child; one RadvError per failed job."""
    if not available():
        raise RadvError(f"radeon ICD {RADEON_ICD} not found (install mesa-vulkan-drivers)")
    env = null_device_env(family, wave_size, debug_shaders)
    answers = _run_jobs([{"kind": "graphics", "vert": base64.b64encode(bytes(j.vert)).decode(),
                          "frag": base64.b64encode(bytes(j.frag)).decode(),
                          "entry_vert": j.entry_vert, "entry_frag": j.entry_frag,
                          "color": j.color, "depth": j.depth} for j in jobs],
                        env, family, timeout_s)
    out: list[GraphicsAcoResult | RadvError] = []
    for r in answers:
        if isinstance(r, RadvError):
            out.append(r)
            continue
        g = GraphicsAcoResult(family, device_name=r.get("device_name", ""),
                              printed=r.get("printed", ""))
        for ex in r.get("executables", []):
            stage = _stage_name(ex["stages"])
            g.stages[stage] = _result({**ex, "device_name": g.device_name}, family, wave_size)
            g.names[stage] = ex["name"]
        out.append(g)
    return out


def compile_graphics(vert: bytes, frag: bytes, *, wave_size: int = 64,
                     family: str = DEFAULT_FAMILY, entry_vert: str = "main",
                     entry_frag: str = "main", color: str = "rgba8", depth: bool = False,
                     debug_shaders: bool = False, timeout_s: float = TIMEOUT_S,
                     ) -> GraphicsAcoResult:
    """ACO's compilation of a VS + FS pipeline (raises RadvError on failure): `color` is
    the attachments' format (`COLOR_FORMATS`), or formats by location separated by commas
    (the last applies to higher locations); an output whose type the format does not
    take (an ivec4 with rgba8) gets rgba32i/rgba32ui. `depth` adds a D32 attachment with
    the depth test on. `debug_shaders`: RADV_DEBUG=shaders, its output (NIR, ACO IR and
    disassembly of both stages) in `printed`."""
    (r,) = compile_graphics_many([GraphicsJob(vert, frag, entry_vert, entry_frag, color,
                                              depth)], wave_size=wave_size, family=family,
                                 debug_shaders=debug_shaders, timeout_s=timeout_s)
    if isinstance(r, RadvError):
        raise r
    return r


def compile_compute(spirv: bytes, *, spec_constants: Mapping[int, Scalar] | None = None,
                    wave_size: int = 64, family: str = DEFAULT_FAMILY, entry: str = "main",
                    debug_shaders: bool = False) -> AcoResult:
    """ACO's compilation of one compute shader (raises RadvError on failure)."""
    (r,) = compile_many([(spirv, spec_constants)], wave_size=wave_size, family=family,
                        entry=entry, debug_shaders=debug_shaders)
    if isinstance(r, RadvError):
        raise r
    return r


def _parse_spec(arg: str) -> tuple[int, Scalar]:
    sid, val = arg.split("=", 1)
    if val.lower() in ("true", "false"):
        return int(sid), val.lower() == "true"
    try:
        return int(sid), int(val, 0)
    except ValueError:
        return int(sid), float(val)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--worker"]:
        return _worker_main()
    ap = argparse.ArgumentParser(
        prog="python -m radcc.oracle.radv",
        description="Compile a SPIR-V compute shader with ACO on RADV's null device.")
    ap.add_argument("shader", help="SPIR-V file (.spv): the compute shader, or the vertex "
                    "shader with --frag")
    ap.add_argument("--frag", metavar="FS.spv",
                    help="a fragment shader: compile SHADER + FS as a graphics pipeline")
    ap.add_argument("--entry-frag", default="main", help="the fragment entry point")
    ap.add_argument("--color", default="rgba8", metavar="FORMAT[,FORMAT...]",
                    help="graphics: the attachments' format(s) by location: "
                         f"{', '.join(COLOR_FORMATS)}")
    ap.add_argument("--depth", action="store_true", help="a depth attachment (graphics)")
    ap.add_argument("--wave", type=int, choices=(32, 64), default=64)
    ap.add_argument("--family", default=DEFAULT_FAMILY, help="RADV_FORCE_FAMILY (gfx1100)")
    ap.add_argument("--spec", action="append", default=[], metavar="ID=VALUE")
    ap.add_argument("--entry", default="main")
    ap.add_argument("--ir", action="store_true", help="print ACO's IR too")
    ap.add_argument("--json", action="store_true",
                    help="print one JSON object (asm, stats, device, wave_size; what radcc "
                         "compare reads)")
    a = ap.parse_args(argv)
    if a.frag:
        return _graphics_main(a)
    try:
        r = compile_compute(Path(a.shader).read_bytes(), wave_size=a.wave, family=a.family,
                            entry=a.entry, spec_constants=dict(_parse_spec(s) for s in a.spec))
    except (RadvError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps({"asm": r.asm, "stats": r.stats, "device": r.device_name,
                          "wave_size": r.wave_size}))
        return 0
    if a.ir and r.ir:
        print(r.ir)
    print(r.asm)
    print(f"; {r.device_name}, wave{r.wave_size}")
    for k, val in r.stats.items():
        print(f"; {k}: {val}")
    return 0


def _graphics_main(a: argparse.Namespace) -> int:
    try:
        g = compile_graphics(Path(a.shader).read_bytes(), Path(a.frag).read_bytes(),
                             wave_size=a.wave, family=a.family, entry_vert=a.entry,
                             entry_frag=a.entry_frag, color=a.color, depth=a.depth)
    except (RadvError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if a.json:
        print(json.dumps({"device": g.device_name, "stages": {
            k: {"asm": r.asm, "stats": r.stats, "wave_size": r.wave_size, "name": g.names[k]}
            for k, r in g.stages.items()}}))
        return 0
    for stage, r in g.stages.items():
        print(f"; {stage} ({g.names[stage]}), {g.device_name}, wave{r.wave_size}")
        if a.ir and r.ir:
            print(r.ir)
        print(r.asm)
        for k, val in r.stats.items():
            print(f"; {k}: {val}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
