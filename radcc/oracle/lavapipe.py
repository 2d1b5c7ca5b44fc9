"""lavapipe as an oracle: run a SPIR-V compute shader on Mesa's CPU Vulkan driver.

    out = run_compute(spirv, groups=(4, 1, 1), buffers={(0, 0): a, (0, 1): 4096})
    out[(0, 1)]  # the bytes of set 0, binding 1 after the dispatch

Talks to libvulkan.so.1 through ctypes (radcc/oracle/vk.py holds the struct
layouts, generated from the Khronos registry). The loader is pointed at
lavapipe's ICD only, with every layer disabled. One instance and device are made
per process on first use (features the shaders may need are enabled when the
driver has them) and reused; everything else (buffers, descriptor sets, the
pipeline) is made and destroyed per call. Descriptor types, push constant size
and specialization constant types come from the SPIR-V itself.

Failures raise LavapipeError naming the Vulkan call and its VkResult; a missing
library or driver raises it too (`available()` tells beforehand).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import ctypes
import os
import struct
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from radcc.oracle import spirv_reflect, vk

LVP_ICD = os.environ.get("RADCC_LAVAPIPE_ICD", "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json")
LIBVULKAN = os.environ.get("RADCC_LIBVULKAN", "libvulkan.so.1")
FENCE_TIMEOUT_S = 300.0
# lavapipe (Mesa 22.3) ends an invocation's loops after this many iterations in total
# (TOOL-NOTES): oracle tests must keep their loops below it.
LOOP_ITERATION_LIMIT = 65535

# Device extensions enabled when lavapipe has them (features come through pNext).
WANTED_EXTENSIONS = (
    "VK_EXT_shader_atomic_float",
    "VK_EXT_shader_atomic_float2",
    "VK_EXT_subgroup_size_control",
    "VK_KHR_shader_non_semantic_info",
    "VK_KHR_shader_clock",
    "VK_KHR_shader_subgroup_uniform_control_flow",
)

BufferSpec = np.ndarray | bytes | bytearray | memoryview | int


class LavapipeError(RuntimeError):
    """lavapipe or the Vulkan loader is missing, or a Vulkan call failed."""


def _result_name(res: int) -> str:
    return vk.RESULT_NAMES.get(res, f"VkResult({res})")


def _api_version(v: int) -> str:
    return f"{(v >> 22) & 0x7F}.{(v >> 12) & 0x3FF}.{v & 0xFFF}"


def _make_version(major: int, minor: int, patch: int = 0) -> int:
    return (major << 22) | (minor << 12) | patch


class _Vk:
    """libvulkan.so.1 with the prototypes of vk.COMMANDS; calls check VkResult."""

    def __init__(self) -> None:
        try:
            self.lib = ctypes.CDLL(LIBVULKAN)
        except OSError as e:
            raise LavapipeError(
                f"cannot load {LIBVULKAN}: {e} (install Debian's libvulkan1 and "
                "mesa-vulkan-drivers)"
            ) from e
        self.fns: dict[str, Any] = {}
        for name, (restype, argtypes) in vk.COMMANDS.items():
            try:
                fn = getattr(self.lib, name)
            except AttributeError:
                continue  # absent from an old loader; used only if present
            fn.restype = restype
            fn.argtypes = argtypes
            self.fns[name] = fn

    def __call__(self, name: str, *args: Any) -> int:
        fn = self.fns.get(name)
        if fn is None:
            raise LavapipeError(f"{name} is not exported by {LIBVULKAN}")
        res = fn(*args)
        if fn.restype is vk.VkResult and res < 0:
            raise LavapipeError(f"{name} failed: {_result_name(res)}")
        return 0 if res is None else int(res)

    def void(self, name: str, *args: Any) -> None:
        self.fns[name](*args)


@contextlib.contextmanager
def _loader_env() -> Iterator[None]:
    """Point the loader at lavapipe only, without layers, for instance/device creation."""
    if not os.path.exists(LVP_ICD):
        raise LavapipeError(f"lavapipe ICD {LVP_ICD} not found (install mesa-vulkan-drivers)")
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    tmp = None
    if not runtime or not os.path.isdir(runtime):
        tmp = tempfile.mkdtemp(prefix="radcc-xdg-")
        os.chmod(tmp, 0o700)
        runtime = tmp
    want = {
        "VK_ICD_FILENAMES": LVP_ICD,
        "VK_DRIVER_FILES": LVP_ICD,
        "VK_LOADER_LAYERS_DISABLE": "~all~",
        "VK_INSTANCE_LAYERS": "",
        "NODEVICE_SELECT": "1",
        "XDG_RUNTIME_DIR": runtime,
    }
    saved = {k: os.environ.get(k) for k in want}
    os.environ.update(want)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@dataclass
class DeviceInfo:
    """What the lavapipe device reports (and what the oracle enabled)."""

    device_name: str
    driver_name: str
    driver_info: str
    api_version: str
    subgroup_size: int
    min_subgroup_size: int
    max_subgroup_size: int
    subgroup_size_control: bool  # VK_EXT_subgroup_size_control / 1.3 feature
    compute_full_subgroups: bool
    required_subgroup_size_stages: int
    subgroup_supported_operations: list[str]
    max_push_constants_size: int
    max_compute_shared_memory_size: int
    max_compute_workgroup_invocations: int
    max_compute_workgroup_size: tuple[int, int, int]
    max_compute_workgroup_count: tuple[int, int, int]
    features: dict[str, bool] = field(default_factory=dict)  # enabled features
    extensions: list[str] = field(default_factory=list)  # enabled device extensions


_SUBGROUP_OPS = {
    vk.VK_SUBGROUP_FEATURE_BASIC_BIT: "basic",
    vk.VK_SUBGROUP_FEATURE_VOTE_BIT: "vote",
    vk.VK_SUBGROUP_FEATURE_ARITHMETIC_BIT: "arithmetic",
    vk.VK_SUBGROUP_FEATURE_BALLOT_BIT: "ballot",
    vk.VK_SUBGROUP_FEATURE_SHUFFLE_BIT: "shuffle",
    vk.VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT: "shuffle_relative",
    vk.VK_SUBGROUP_FEATURE_CLUSTERED_BIT: "clustered",
    vk.VK_SUBGROUP_FEATURE_QUAD_BIT: "quad",
}


def _cstr(arr: Any) -> str:
    return bytes(arr).split(b"\0", 1)[0].decode(errors="replace")


def _bool_fields(s: ctypes.Structure) -> dict[str, bool]:
    return {
        n: bool(getattr(s, n))
        for n, t in s._fields_  # type: ignore[attr-defined]
        if t is vk.VkBool32
    }


class _Context:
    """Instance, lavapipe device, compute queue and command pool of this process."""

    def __init__(self, robust: bool = False) -> None:
        self.pid = os.getpid()
        self.robust = robust
        self.vk = _Vk()
        self.instance = vk.VkInstance()
        self.device = vk.VkDevice()
        self.command_pool = vk.VkCommandPool(0)
        try:
            with _loader_env():
                self._create_instance()
                self._pick_device()
                self._create_device()
        except BaseException:
            self.destroy()
            raise

    # -- creation ---------------------------------------------------------------

    def _create_instance(self) -> None:
        v = self.vk
        version = ctypes.c_uint32(_make_version(1, 0))
        if "vkEnumerateInstanceVersion" in v.fns:
            v("vkEnumerateInstanceVersion", ctypes.byref(version))
        api = min(version.value, _make_version(1, 3))
        self._keep = [b"radcc-lavapipe-oracle"]
        app = vk.VkApplicationInfo(
            sType=vk.VK_STRUCTURE_TYPE_APPLICATION_INFO,
            pApplicationName=self._keep[0],
            applicationVersion=1,
            pEngineName=b"radcc",
            engineVersion=1,
            apiVersion=api,
        )
        ci = vk.VkInstanceCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, pApplicationInfo=ctypes.pointer(app)
        )
        try:
            v("vkCreateInstance", ctypes.byref(ci), None, ctypes.byref(self.instance))
        except LavapipeError as e:
            raise LavapipeError(f"{e} (is lavapipe installed? ICD {LVP_ICD})") from e

    def _pick_device(self) -> None:
        v = self.vk
        n = ctypes.c_uint32(0)
        v("vkEnumeratePhysicalDevices", self.instance, ctypes.byref(n), None)
        devs = (vk.VkPhysicalDevice * n.value)()
        if n.value:
            v("vkEnumeratePhysicalDevices", self.instance, ctypes.byref(n), devs)
        for d in devs[: n.value]:
            props = vk.VkPhysicalDeviceProperties()
            v.void("vkGetPhysicalDeviceProperties", d, ctypes.byref(props))
            if props.vendorID == 0x10005 or b"llvmpipe" in bytes(props.deviceName):
                self.physical_device = vk.VkPhysicalDevice(d)
                self.props = props
                return
        raise LavapipeError(f"no lavapipe (llvmpipe) device among {n.value} Vulkan devices")

    def _create_device(self) -> None:
        v = self.vk
        pd = self.physical_device
        dev_api = self.props.apiVersion
        is12 = dev_api >= _make_version(1, 2)
        is13 = dev_api >= _make_version(1, 3)

        # device extensions
        n = ctypes.c_uint32(0)
        v("vkEnumerateDeviceExtensionProperties", pd, None, ctypes.byref(n), None)
        exts = (vk.VkExtensionProperties * n.value)()
        v("vkEnumerateDeviceExtensionProperties", pd, None, ctypes.byref(n), exts)
        available = {_cstr(e.extensionName) for e in exts[: n.value]}
        self.extensions = [e for e in WANTED_EXTENSIONS if e in available]

        # properties (chained)
        self.sg_props = vk.VkPhysicalDeviceSubgroupProperties(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES
        )
        self.sgsc_props = vk.VkPhysicalDeviceSubgroupSizeControlProperties(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES
        )
        self.v12_props = vk.VkPhysicalDeviceVulkan12Properties(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES
        )
        has_sgsc = is13 or "VK_EXT_subgroup_size_control" in available
        chain: list[ctypes.Structure] = [self.sg_props]
        if has_sgsc:
            chain.append(self.sgsc_props)
        if is12:
            chain.append(self.v12_props)
        props2 = vk.VkPhysicalDeviceProperties2(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, pNext=_link(chain)
        )
        v.void("vkGetPhysicalDeviceProperties2", pd, ctypes.byref(props2))

        # features: query what lavapipe has, enable all of it except robustness
        # (robust buffer access would hide out-of-bounds accesses the compiler makes)
        self.f11 = vk.VkPhysicalDeviceVulkan11Features(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES
        )
        self.f12 = vk.VkPhysicalDeviceVulkan12Features(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES
        )
        self.f13 = vk.VkPhysicalDeviceVulkan13Features(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES
        )
        self.fa = vk.VkPhysicalDeviceShaderAtomicFloatFeaturesEXT(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT
        )
        self.fa2 = vk.VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT
        )
        fchain: list[ctypes.Structure] = []
        if is12:
            fchain += [self.f11, self.f12]
        if is13:
            fchain.append(self.f13)
        if "VK_EXT_shader_atomic_float" in self.extensions:
            fchain.append(self.fa)
        if "VK_EXT_shader_atomic_float2" in self.extensions:
            fchain.append(self.fa2)
        self.f2 = vk.VkPhysicalDeviceFeatures2(
            sType=vk.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, pNext=_link(fchain)
        )
        v.void("vkGetPhysicalDeviceFeatures2", pd, ctypes.byref(self.f2))
        # (robust: the device radcc's --robust is checked against; robustBufferAccess
        # only, lavapipe gives zero for out-of-bounds loads and drops stores)
        self.f2.features.robustBufferAccess = 1 if self.robust else 0
        if is13:
            self.f13.robustImageAccess = 0
        if is13 and "VK_EXT_subgroup_size_control" in self.extensions:
            self.extensions.remove("VK_EXT_subgroup_size_control")  # core in 1.3
        self.feature_chain = [self.f2, *fchain]

        # compute queue family
        n = ctypes.c_uint32(0)
        v.void("vkGetPhysicalDeviceQueueFamilyProperties", pd, ctypes.byref(n), None)
        qf = (vk.VkQueueFamilyProperties * n.value)()
        v.void("vkGetPhysicalDeviceQueueFamilyProperties", pd, ctypes.byref(n), qf)
        fams = [i for i in range(n.value) if qf[i].queueFlags & vk.VK_QUEUE_COMPUTE_BIT]
        if not fams:
            raise LavapipeError("lavapipe reports no compute queue family")
        self.queue_family = fams[0]

        # host-visible, coherent memory
        mp = vk.VkPhysicalDeviceMemoryProperties()
        v.void("vkGetPhysicalDeviceMemoryProperties", pd, ctypes.byref(mp))
        want = vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
        self.memory_types = [
            i for i in range(mp.memoryTypeCount) if mp.memoryTypes[i].propertyFlags & want == want
        ]
        if not self.memory_types:
            raise LavapipeError("lavapipe reports no host-visible coherent memory type")

        prio = ctypes.c_float(1.0)
        qci = vk.VkDeviceQueueCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
            queueFamilyIndex=self.queue_family,
            queueCount=1,
            pQueuePriorities=ctypes.pointer(prio),
        )
        names = (ctypes.c_char_p * max(1, len(self.extensions)))(
            *[e.encode() for e in self.extensions]
        )
        dci = vk.VkDeviceCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
            pNext=ctypes.cast(ctypes.pointer(self.f2), ctypes.c_void_p),
            queueCreateInfoCount=1,
            pQueueCreateInfos=ctypes.pointer(qci),
            enabledExtensionCount=len(self.extensions),
            ppEnabledExtensionNames=names,
        )
        v("vkCreateDevice", pd, ctypes.byref(dci), None, ctypes.byref(self.device))
        self.queue = vk.VkQueue()
        v.void("vkGetDeviceQueue", self.device, self.queue_family, 0, ctypes.byref(self.queue))
        pci = vk.VkCommandPoolCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
            flags=vk.VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT
            | vk.VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
            queueFamilyIndex=self.queue_family,
        )
        v("vkCreateCommandPool", self.device, ctypes.byref(pci), None,
          ctypes.byref(self.command_pool))
        self.info = self._device_info(has_sgsc)

    def _device_info(self, has_sgsc: bool) -> DeviceInfo:
        lim = self.props.limits
        features: dict[str, bool] = {}
        for s in self.feature_chain:
            base = s.features if isinstance(s, vk.VkPhysicalDeviceFeatures2) else s
            features.update({k: val for k, val in _bool_fields(base).items() if val})
        ops = self.sg_props.supportedOperations
        return DeviceInfo(
            device_name=_cstr(self.props.deviceName),
            driver_name=_cstr(self.v12_props.driverName),
            driver_info=_cstr(self.v12_props.driverInfo),
            api_version=_api_version(self.props.apiVersion),
            subgroup_size=self.sg_props.subgroupSize,
            min_subgroup_size=self.sgsc_props.minSubgroupSize if has_sgsc else 0,
            max_subgroup_size=self.sgsc_props.maxSubgroupSize if has_sgsc else 0,
            subgroup_size_control=bool(features.get("subgroupSizeControl")),
            compute_full_subgroups=bool(features.get("computeFullSubgroups")),
            required_subgroup_size_stages=self.sgsc_props.requiredSubgroupSizeStages,
            subgroup_supported_operations=[n for b, n in _SUBGROUP_OPS.items() if ops & b],
            max_push_constants_size=lim.maxPushConstantsSize,
            max_compute_shared_memory_size=lim.maxComputeSharedMemorySize,
            max_compute_workgroup_invocations=lim.maxComputeWorkGroupInvocations,
            max_compute_workgroup_size=tuple(lim.maxComputeWorkGroupSize),  # type: ignore[arg-type]
            max_compute_workgroup_count=tuple(lim.maxComputeWorkGroupCount),  # type: ignore[arg-type]
            features=features,
            extensions=list(self.extensions),
        )

    def destroy(self) -> None:
        if os.getpid() != self.pid:
            return  # a forked child must not tear down its parent's objects
        v = self.vk
        if self.device:
            with contextlib.suppress(Exception):
                v("vkDeviceWaitIdle", self.device)
            if self.command_pool.value:
                v.void("vkDestroyCommandPool", self.device, self.command_pool, None)
                self.command_pool = vk.VkCommandPool(0)
            v.void("vkDestroyDevice", self.device, None)
            self.device = vk.VkDevice()
        if self.instance:
            v.void("vkDestroyInstance", self.instance, None)
            self.instance = vk.VkInstance()


def _link(chain: list[ctypes.Structure]) -> int | None:
    """Link structs through pNext (in order); return the address of the first."""
    for a, b in zip(chain, chain[1:], strict=False):
        a.pNext = ctypes.addressof(b)  # type: ignore[attr-defined]
    return ctypes.addressof(chain[0]) if chain else None


_lock = threading.RLock()
_ctxs: dict[bool, _Context] = {}  # robust buffer access -> the device with that feature


def _context(robust: bool = False) -> _Context:
    with _lock:
        c = _ctxs.get(robust)
        if c is not None and c.pid != os.getpid():
            c = None  # forked: the parent's device is not ours
        if c is None:
            c = _ctxs[robust] = _Context(robust)
        return c


def _shutdown() -> None:
    with _lock:
        for c in _ctxs.values():
            c.destroy()
        _ctxs.clear()


atexit.register(_shutdown)


def available() -> bool:
    """True when lavapipe can be used (library, ICD and device all work)."""
    try:
        _context()
    except LavapipeError:
        return False
    return True


def require() -> None:
    """Raise LavapipeError (with the reason) when lavapipe cannot be used."""
    _context()


def device_info() -> DeviceInfo:
    return _context().info


class MissingFeatureError(LavapipeError):
    """The shader needs a device feature this lavapipe lacks: Vulkan leaves its results
    undefined there, so the oracle refuses it by the feature's name."""


def check_features(refl: spirv_reflect.Reflection, what: str = "the shader") -> None:
    """Refuse a module that needs a feature `device_info()` does not report: dynamic or
    non-uniform indices into arrays of descriptors, runtime-sized arrays
    (`spirv_reflect.Binding.features_needed`; docs/oracle-lavapipe.md)."""
    have = device_info().features
    for key, b in sorted(refl.bindings.items()):
        for feature, why in b.features_needed():
            if not have.get(feature):
                raise MissingFeatureError(
                    f"{what}: binding {key[0]}:{key[1]} ({b.kind} array): {why} needs "
                    f"{feature}, which this lavapipe does not have (its results would be "
                    "undefined)")


# -- one dispatch -------------------------------------------------------------


def _as_bytes(spec: BufferSpec) -> bytes:
    if isinstance(spec, bool):
        raise TypeError("a buffer is an array, bytes, or an int size")
    if isinstance(spec, int):
        if spec < 0:
            raise ValueError(f"negative buffer size {spec}")
        return bytes(spec)
    if isinstance(spec, np.ndarray):
        return np.ascontiguousarray(spec).tobytes()
    return bytes(spec)


def _pack_spec(value: int | float | bool, sc: spirv_reflect.SpecConstant | None) -> bytes:
    if sc is None:  # not in the shader: the driver ignores it; pack by Python type
        if isinstance(value, bool) or isinstance(value, int):
            return struct.pack("<I", int(value) & 0xFFFFFFFF)
        return struct.pack("<f", value)
    if sc.kind == "bool":
        return struct.pack("<I", 1 if value else 0)
    if sc.kind == "float":
        return struct.pack({16: "<e", 32: "<f", 64: "<d"}[sc.width], float(value))
    if isinstance(value, float):
        raise LavapipeError(f"spec constant {sc.spec_id} is an integer, got {value!r}")
    return (int(value) & ((1 << sc.width) - 1)).to_bytes(sc.width // 8, "little")


class ShaderModuleInfo:
    """VkShaderModuleCreateInfo of SPIR-V words (`info`), keeping the code array it
    points to alive (shared by this oracle and radcc.oracle.radv)."""

    def __init__(self, spirv: bytes) -> None:
        self.code = (ctypes.c_uint32 * (len(spirv) // 4)).from_buffer_copy(spirv)
        self.info = vk.VkShaderModuleCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, codeSize=len(spirv),
            pCode=self.code)


class SpecializationData:
    """VkSpecializationInfo of specialization constants, each packed as the shader
    declares it (`_pack_spec`), in ascending id order, keeping the map entries and
    data it points to alive; `pointer()` is None without constants (shared by this
    oracle and radcc.oracle.radv)."""

    def __init__(self, spec: Mapping[int, Any],
                 refl: spirv_reflect.Reflection) -> None:
        data = b""
        self.count = len(spec)
        self.entries = (vk.VkSpecializationMapEntry * max(1, len(spec)))()
        for i, (sid, val) in enumerate(sorted(spec.items())):
            packed = _pack_spec(val, refl.spec_constants.get(sid))
            self.entries[i] = vk.VkSpecializationMapEntry(constantID=sid, offset=len(data),
                                                          size=len(packed))
            data += packed
        self.data = data
        self.buf = ctypes.create_string_buffer(data, max(1, len(data)))
        self.info = vk.VkSpecializationInfo(mapEntryCount=len(spec), pMapEntries=self.entries,
                                            dataSize=len(data),
                                            pData=ctypes.cast(self.buf, ctypes.c_void_p))

    def pointer(self) -> Any:
        return ctypes.pointer(self.info) if self.count else None


class _Dispatch:
    """The objects of one run_compute call, destroyed in reverse order of creation."""

    def __init__(self, ctx: _Context) -> None:
        self.ctx = ctx
        self.v = ctx.vk
        self.dev = ctx.device
        self.undo: list[tuple[str, Any]] = []

    def create(self, fn: str, info: Any, handle: Any, destroy: str) -> Any:
        self.v(fn, self.dev, ctypes.byref(info), None, ctypes.byref(handle))
        self.undo.append((destroy, handle))
        return handle

    def close(self) -> None:
        for destroy, handle in reversed(self.undo):
            if destroy == "vkFreeCommandBuffers":
                self.v.void(destroy, self.dev, self.ctx.command_pool, 1, ctypes.byref(handle))
            elif destroy == "vkUnmapMemory":
                self.v.void(destroy, self.dev, handle)
            else:
                self.v.void(destroy, self.dev, handle, None)
        self.undo.clear()


# -- images ----------------------------------------------------------------------
DIM_BUFFER = 5  # SPIR-V Dim Buffer: a texel buffer

# format name (lvp_run's) -> (VkFormat, dtype, channels, numeric type of the shader's texels)
IMAGE_FORMATS: dict[str, tuple[int, str, int, str]] = {
    "rgba8": (vk.VK_FORMAT_R8G8B8A8_UNORM, "uint8", 4, "float"),
    "rgba8_srgb": (vk.VK_FORMAT_R8G8B8A8_SRGB, "uint8", 4, "float"),
    "rgba8ui": (vk.VK_FORMAT_R8G8B8A8_UINT, "uint8", 4, "uint"),
    "r8": (vk.VK_FORMAT_R8_UNORM, "uint8", 1, "float"),
    "r8ui": (vk.VK_FORMAT_R8_UINT, "uint8", 1, "uint"),
    "rg8": (vk.VK_FORMAT_R8G8_UNORM, "uint8", 2, "float"),
    "rg8ui": (vk.VK_FORMAT_R8G8_UINT, "uint8", 2, "uint"),
    "r32f": (vk.VK_FORMAT_R32_SFLOAT, "float32", 1, "float"),
    "rg32f": (vk.VK_FORMAT_R32G32_SFLOAT, "float32", 2, "float"),
    "rgba32f": (vk.VK_FORMAT_R32G32B32A32_SFLOAT, "float32", 4, "float"),
    "rgba16f": (vk.VK_FORMAT_R16G16B16A16_SFLOAT, "float16", 4, "float"),
    "r16f": (vk.VK_FORMAT_R16_SFLOAT, "float16", 1, "float"),
    "r32ui": (vk.VK_FORMAT_R32_UINT, "uint32", 1, "uint"),
    "rgba32ui": (vk.VK_FORMAT_R32G32B32A32_UINT, "uint32", 4, "uint"),
    "r32i": (vk.VK_FORMAT_R32_SINT, "int32", 1, "int"),
    "rgba32i": (vk.VK_FORMAT_R32G32B32A32_SINT, "int32", 4, "int"),
}
# formats lvp_run does not list, taken (as radcc's `radcc.driver.images.DECLARED_ONLY`)
# only for a storage image declared with them (SPIR-V Image Format R8ui 39, Rg8 13, Rg8ui
# 37), then also as the default for their dtype and C
_DECLARED_ONLY = {"r8ui": 39, "rg8": 13, "rg8ui": 37}
_DEFAULT_FORMAT = {(dt, c): name for name, (_, dt, c, _n) in IMAGE_FORMATS.items()
                   if name not in ("rgba8_srgb", "rgba8ui", *_DECLARED_ONLY)}


@dataclass
class _ImageInput:
    array: np.ndarray
    format: int  # VkFormat
    extent: tuple[int, int, int]  # width, height, depth
    three_d: bool
    texel_buffer: bool = False  # a texel buffer's (N[, C]) elements, bound through a view


def _image_input(key: tuple[int, int], arr: np.ndarray, fmt: str | None,
                 b: spirv_reflect.Binding | None) -> _ImageInput:
    arr = np.ascontiguousarray(arr)
    three_d = b is not None and b.image_dim == 2
    texel = b is not None and b.image_dim == DIM_BUFFER
    if b is not None and (b.image_dim not in (1, 2, DIM_BUFFER) or b.image_arrayed):
        raise LavapipeError(f"image binding {key}: only 2-D and 3-D images and texel "
                            "buffers are supported")
    rank = 3 if three_d else 1 if texel else 2
    if arr.ndim not in (rank, rank + 1) or arr.size == 0:
        raise LavapipeError(f"image {key}: shape {arr.shape} is not a {rank}-D image")
    c = arr.shape[rank] if arr.ndim == rank + 1 else 1
    own = next((n for n, v in _DECLARED_ONLY.items() if b is not None and
                b.kind == "storage_image" and b.image_format == v), None)
    if fmt is None and own is not None and IMAGE_FORMATS[own][1:3] == (arr.dtype.name, c):
        fmt = own
    name = fmt if fmt is not None else _DEFAULT_FORMAT.get((arr.dtype.name, c))
    if name in _DECLARED_ONLY and name != own:
        name = None
    if name is None or name not in IMAGE_FORMATS:
        raise LavapipeError(f"image {key}: no format {fmt or ''} for {arr.dtype} x{c}")
    vkf, dt, ch, _ = IMAGE_FORMATS[name]
    if dt != arr.dtype.name or ch != c:
        raise LavapipeError(f"image {key}: format {name} needs {dt} x{ch}, got {arr.dtype} x{c}")
    shape = arr.shape[:rank]
    extent = (shape[-1], shape[-2] if rank > 1 else 1, shape[0] if three_d else 1)
    return _ImageInput(arr, vkf, extent, three_d, texel)


@dataclass
class _ImageObj:
    input: _ImageInput
    image: Any
    view: int
    layout: int  # the layout the shader sees it in
    staging: Any
    staging_ptr: int


def _sampler_info(key: tuple[int, int], text: str) -> Any:
    """VkSamplerCreateInfo of lvp_run's FILTER[,ADDRESS[,NORMALIZED]]."""
    parts = text.split(",")
    filters = {"nearest": vk.VK_FILTER_NEAREST, "linear": vk.VK_FILTER_LINEAR}
    modes = {"repeat": vk.VK_SAMPLER_ADDRESS_MODE_REPEAT,
             "clamp": vk.VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
             "mirror": vk.VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
             "border": vk.VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER}
    address = parts[1] if len(parts) > 1 else "clamp"
    norm = parts[2] if len(parts) > 2 else "normalized"
    if len(parts) > 3 or parts[0] not in filters or address not in modes or norm not in (
            "normalized", "unnormalized"):
        raise LavapipeError(f"sampler {key}: bad FILTER[,ADDRESS[,NORMALIZED]] {text!r}")
    return vk.VkSamplerCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, magFilter=filters[parts[0]],
        minFilter=filters[parts[0]], mipmapMode=vk.VK_SAMPLER_MIPMAP_MODE_NEAREST,
        addressModeU=modes[address], addressModeV=modes[address], addressModeW=modes[address],
        minLod=0.0, maxLod=0.0, borderColor=vk.VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
        unnormalizedCoordinates=1 if norm == "unnormalized" else 0)


def _image_and_view(d: _Dispatch, vk_format: int, extent: tuple[int, int, int],
                    three_d: bool, usage: int, aspect: int, what: str) -> tuple[Any, Any]:
    """An optimal-tiling 2-D or 3-D image with one level and layer, bound to memory of the
    first type that can hold it, and its view: (image, view) (freed by the undo list)."""
    v, dev, ctx = d.v, d.dev, d.ctx
    ici = vk.VkImageCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        imageType=vk.VK_IMAGE_TYPE_3D if three_d else vk.VK_IMAGE_TYPE_2D,
        format=vk_format, extent=vk.VkExtent3D(*extent), mipLevels=1, arrayLayers=1,
        samples=vk.VK_SAMPLE_COUNT_1_BIT, tiling=vk.VK_IMAGE_TILING_OPTIMAL, usage=usage,
        sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE, initialLayout=vk.VK_IMAGE_LAYOUT_UNDEFINED)
    image = d.create("vkCreateImage", ici, vk.VkImage(), "vkDestroyImage")
    req = vk.VkMemoryRequirements()
    v.void("vkGetImageMemoryRequirements", dev, image, ctypes.byref(req))
    types = [t for t in ctx.memory_types if req.memoryTypeBits & (1 << t)]
    if not types:
        raise LavapipeError(f"no memory type for {what}")
    mai = vk.VkMemoryAllocateInfo(sType=vk.VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  allocationSize=req.size, memoryTypeIndex=types[0])
    mem = d.create("vkAllocateMemory", mai, vk.VkDeviceMemory(), "vkFreeMemory")
    v("vkBindImageMemory", dev, image, mem, 0)
    vci = vk.VkImageViewCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, image=image.value,
        viewType=vk.VK_IMAGE_VIEW_TYPE_3D if three_d else vk.VK_IMAGE_VIEW_TYPE_2D,
        format=vk_format, subresourceRange=vk.VkImageSubresourceRange(aspect, 0, 1, 0, 1))
    view = d.create("vkCreateImageView", vci, vk.VkImageView(), "vkDestroyImageView")
    return image, view


def _create_image(d: _Dispatch, img: _ImageInput, kind: str) -> _ImageObj:
    image, view = _image_and_view(
        d, img.format, img.extent, img.three_d,
        vk.VK_IMAGE_USAGE_STORAGE_BIT | vk.VK_IMAGE_USAGE_SAMPLED_BIT
        | vk.VK_IMAGE_USAGE_TRANSFER_SRC_BIT | vk.VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        vk.VK_IMAGE_ASPECT_COLOR_BIT, "an image")
    # the staging buffer (texels in and out)
    n = max(16, img.array.nbytes)
    buf, ptr = _mapped_buffer(
        d, n, vk.VK_BUFFER_USAGE_TRANSFER_SRC_BIT | vk.VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        "an image's staging buffer")
    ctypes.memmove(ptr, img.array.tobytes(), img.array.nbytes)
    layout = (vk.VK_IMAGE_LAYOUT_GENERAL if kind == "storage_image"
              else vk.VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)
    return _ImageObj(img, image, view.value, layout, buf, ptr)


def _create_texel_buffer(d: _Dispatch, img: _ImageInput) -> tuple[int, int]:
    """A host-visible buffer holding the elements and a view of them in the input's
    format (usable as a uniform and a storage texel buffer): (mapping address, view)."""
    raw = img.array.tobytes()
    size = max(16, (len(raw) + 15) & ~15)
    buf, ptr = _mapped_buffer(d, size, vk.VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT
                              | vk.VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, "a texel buffer")
    ctypes.memset(ptr, 0, size)
    ctypes.memmove(ptr, raw, len(raw))
    bvci = vk.VkBufferViewCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO, buffer=buf.value,
        format=img.format, offset=0, range=len(raw))
    view = d.create("vkCreateBufferView", bvci, vk.VkBufferView(), "vkDestroyBufferView")
    return ptr, view.value


def _begin_commands(d: _Dispatch) -> Any:
    """A primary command buffer from the context's pool (freed by the undo list), begun for
    one submission."""
    cbai = vk.VkCommandBufferAllocateInfo(
        sType=vk.VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        commandPool=d.ctx.command_pool.value, level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        commandBufferCount=1)
    cmd = vk.VkCommandBuffer()
    d.v("vkAllocateCommandBuffers", d.dev, ctypes.byref(cbai), ctypes.byref(cmd))
    d.undo.append(("vkFreeCommandBuffers", cmd))
    cbbi = vk.VkCommandBufferBeginInfo(sType=vk.VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                       flags=vk.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)
    d.v("vkBeginCommandBuffer", cmd, ctypes.byref(cbbi))
    return cmd


def _mapped_buffer(d: _Dispatch, size: int, usage: int, what: str) -> tuple[Any, int]:
    """A buffer of `size` bytes in the first host-visible memory type that can hold it,
    mapped for the dispatch's lifetime (unmapped and freed by its undo list): the buffer
    and the mapping's address."""
    v, dev, ctx = d.v, d.dev, d.ctx
    bci = vk.VkBufferCreateInfo(sType=vk.VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, size=size,
                                usage=usage, sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE)
    buf = d.create("vkCreateBuffer", bci, vk.VkBuffer(), "vkDestroyBuffer")
    req = vk.VkMemoryRequirements()
    v.void("vkGetBufferMemoryRequirements", dev, buf, ctypes.byref(req))
    types = [t for t in ctx.memory_types if req.memoryTypeBits & (1 << t)]
    if not types:
        raise LavapipeError(f"no host-visible memory type for {what}")
    mai = vk.VkMemoryAllocateInfo(sType=vk.VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  allocationSize=req.size, memoryTypeIndex=types[0])
    mem = d.create("vkAllocateMemory", mai, vk.VkDeviceMemory(), "vkFreeMemory")
    v("vkBindBufferMemory", dev, buf, mem, 0)
    ptr = ctypes.c_void_p()
    v("vkMapMemory", dev, mem, 0, vk.VK_WHOLE_SIZE, 0, ctypes.byref(ptr))
    d.undo.append(("vkUnmapMemory", mem))
    assert ptr.value is not None
    return buf, ptr.value


def _image_barrier(v: _Vk, cmd: Any, obj: _ImageObj, old: int, new: int, src_access: int,
                   dst_access: int, src_stage: int, dst_stage: int) -> None:
    b = vk.VkImageMemoryBarrier(
        sType=vk.VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, srcAccessMask=src_access,
        dstAccessMask=dst_access, oldLayout=old, newLayout=new,
        srcQueueFamilyIndex=vk.VK_QUEUE_FAMILY_IGNORED,
        dstQueueFamilyIndex=vk.VK_QUEUE_FAMILY_IGNORED, image=obj.image.value,
        subresourceRange=vk.VkImageSubresourceRange(vk.VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1))
    v.void("vkCmdPipelineBarrier", cmd, src_stage, dst_stage, 0, 0, None, 0, None, 1,
           ctypes.byref(b))


def _copy_region(obj: _ImageObj) -> vk.VkBufferImageCopy:
    w, h, depth = obj.input.extent
    return vk.VkBufferImageCopy(
        bufferOffset=0, bufferRowLength=0, bufferImageHeight=0,
        imageSubresource=vk.VkImageSubresourceLayers(vk.VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1),
        imageOffset=vk.VkOffset3D(0, 0, 0), imageExtent=vk.VkExtent3D(w, h, depth))


def _record_upload(v: _Vk, cmd: Any, obj: _ImageObj,
                   shader_stages: int = vk.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) -> None:
    """Staging buffer -> image, then the image in its shader layout for `shader_stages`."""
    _image_barrier(v, cmd, obj, vk.VK_IMAGE_LAYOUT_UNDEFINED,
                   vk.VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, vk.VK_ACCESS_TRANSFER_WRITE_BIT,
                   vk.VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, vk.VK_PIPELINE_STAGE_TRANSFER_BIT)
    region = _copy_region(obj)
    v.void("vkCmdCopyBufferToImage", cmd, obj.staging, obj.image,
           vk.VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, ctypes.byref(region))
    _image_barrier(v, cmd, obj, vk.VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, obj.layout,
                   vk.VK_ACCESS_TRANSFER_WRITE_BIT,
                   vk.VK_ACCESS_SHADER_READ_BIT | vk.VK_ACCESS_SHADER_WRITE_BIT,
                   vk.VK_PIPELINE_STAGE_TRANSFER_BIT, shader_stages)


def _record_download(v: _Vk, cmd: Any, obj: _ImageObj,
                     shader_stages: int = vk.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) -> None:
    """After the work of `shader_stages`: image -> staging buffer, visible to the host."""
    _image_barrier(v, cmd, obj, obj.layout, vk.VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                   vk.VK_ACCESS_SHADER_WRITE_BIT, vk.VK_ACCESS_TRANSFER_READ_BIT,
                   shader_stages, vk.VK_PIPELINE_STAGE_TRANSFER_BIT)
    region = _copy_region(obj)
    v.void("vkCmdCopyImageToBuffer", cmd, obj.image, vk.VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
           obj.staging, 1, ctypes.byref(region))
    barrier = vk.VkMemoryBarrier(sType=vk.VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                 srcAccessMask=vk.VK_ACCESS_TRANSFER_WRITE_BIT,
                                 dstAccessMask=vk.VK_ACCESS_HOST_READ_BIT)
    v.void("vkCmdPipelineBarrier", cmd, vk.VK_PIPELINE_STAGE_TRANSFER_BIT,
           vk.VK_PIPELINE_STAGE_HOST_BIT, 0, 1, ctypes.byref(barrier), 0, None, 0, None)



def binding_kinds(bindings: Mapping[tuple[int, int], spirv_reflect.Binding],
                  data: Mapping[tuple[int, int], bytes],
                  imgs: Mapping[tuple[int, int], _ImageInput],
                  smps: dict[tuple[int, int], Any],
                  uniform_bindings: set[tuple[int, int]] | frozenset[tuple[int, int]]
                  = frozenset()) -> dict[tuple[int, int], str]:
    """The descriptor kind of every binding (the shader's, then the caller's extra ones);
    a sampler binding without a sampler gets nearest/clamp in `smps`. LavapipeError when
    a binding the shader uses has no resource, or not one of its kind."""
    kinds: dict[tuple[int, int], str] = {}
    counts = array_counts(bindings, data, imgs, smps)
    for key, b in bindings.items():
        # an array of descriptors: its elements at (set, binding, index)
        n = counts.get(key, 0)
        elems = [(*key, i) for i in range(n)] if b.count != 1 else [key]
        if b.count != 1:
            if key in imgs or key in data:
                raise LavapipeError(f"binding {key} is an array of {b.count or 'runtime'} "
                                    "descriptors: give its elements at (set, binding, index)")
            if not n:
                raise LavapipeError(f"binding {key} is a runtime-sized array of descriptors: "
                                    "no element given")
        if b.image_dim == DIM_BUFFER and b.kind in ("storage_image", "sampled_image",
                                                    "combined"):
            if any(e not in imgs for e in elems):
                raise LavapipeError(f"the shader uses texel buffer binding {key}; no "
                                    "elements given")
            kinds[key] = "storage_texel" if b.kind == "storage_image" else "uniform_texel"
            continue
        if b.kind in ("sampler", "combined"):
            for e in elems:
                smps.setdefault(e, _sampler_info(key, "nearest,clamp"))
        if b.kind == "sampler":
            kinds[key] = b.kind
            continue
        if b.kind in ("storage_image", "sampled_image", "combined"):
            missing = [e for e in elems if e not in imgs]
            if missing:
                raise LavapipeError(f"the shader uses image binding {missing[0]}; no image "
                                    "given")
            kinds[key] = b.kind
            continue
        if any(e in imgs for e in elems):
            raise LavapipeError(f"binding {key} is not an image in the shader")
        if b.kind != "storage" and b.kind != "uniform":
            raise LavapipeError(f"binding {key} is a {b.kind} binding: not supported")
        for e in elems:
            if e not in data:
                raise LavapipeError(f"the shader uses binding (set, binding) = {e}; no "
                                    "buffer given")
            if len(data[e]) < b.min_size:
                raise LavapipeError(f"buffer {e} has {len(data[e])} bytes; the shader's "
                                    f"block needs at least {b.min_size}")
        if key in uniform_bindings and b.kind != "uniform":
            raise LavapipeError(f"binding {key} is a storage buffer in the shader, "
                                "but listed in uniform_bindings")
        kinds[key] = b.kind
    for key in data:
        kinds.setdefault((key[0], key[1]), "uniform" if key in uniform_bindings else "storage")
    for key in imgs:
        kinds.setdefault((key[0], key[1]), "storage_image")
    return kinds


def array_counts(bindings: Mapping[tuple[int, int], spirv_reflect.Binding],
                 *given: Mapping[tuple[int, ...], Any]) -> dict[tuple[int, int], int]:
    """The descriptorCount of every binding the shader declares as an array of
    descriptors: its size, or for a runtime-sized one (descriptor indexing) the highest
    element index given (keys (set, binding, index) of `given`) + 1, 0 if none."""
    out: dict[tuple[int, int], int] = {}
    for key, b in bindings.items():
        if b.count == 1:
            continue
        n = b.count
        if not n:
            n = 1 + max((k[2] for g in given for k in g if len(k) == 3 and k[:2] == key),
                        default=-1)
        out[key] = n
    return out


def run_compute(
    spirv: bytes,
    *,
    entry: str = "main",
    groups: tuple[int, int, int],
    buffers: Mapping[tuple[int, ...], BufferSpec],
    push_constants: bytes = b"",
    spec_constants: Mapping[int, int | float | bool] | None = None,
    uniform_bindings: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
    subgroup_size: int | None = None,
    full_subgroups: bool = False,
    timeout_s: float = FENCE_TIMEOUT_S,
    robust: bool = False,
    images: Mapping[tuple[int, int], tuple[np.ndarray, str | None]] | None = None,
    samplers: Mapping[tuple[int, int], str] | None = None,
) -> dict[tuple[int, int], Any]:
    """Dispatch `entry` of `spirv` as groups[0]×groups[1]×groups[2] workgroups on lavapipe.

    buffers: (set, binding) -> initial contents (array, bytes) or a size in bytes
    (zero-filled); an element of an array of buffer descriptors at (set, binding, index)
    (docs/oracle-lavapipe.md). Whether a binding is a uniform or a storage buffer is read from
    the SPIR-V; `uniform_bindings` only types bindings the shader does not declare.
    push_constants is zero-padded to the shader's push constant block size.
    spec_constants: SpecId -> value, packed as the shader's constant type.
    subgroup_size: require this subgroup size (VK_EXT_subgroup_size_control); see
    device_info() for the range lavapipe supports.
    robust: on a device with robustBufferAccess enabled (out-of-bounds loads give zero,
    stores are dropped), as `radcc run --robust` emulates.
    images: (set, binding) -> (array, format name or None) for storage and sampled image
    bindings (an element of an array of descriptors at (set, binding, index): every
    element given; samplers likewise): `(H, W[, C])` 2-D, `(D, H, W[, C])` for a 3-D image binding; the formats of
    `IMAGE_FORMATS` (the array's dtype and channels give the default); one mip level,
    optimal tiling, copied in and out through a staging buffer.
    samplers: (set, binding) -> "FILTER[,ADDRESS[,NORMALIZED]]" (lvp_run's --sampler)
    for sampler and combined image sampler bindings (default: nearest,clamp).
    Returns the bytes of every buffer after the dispatch, and every image as an array of
    the shape and dtype it was given.
    """
    spirv = bytes(spirv)
    try:
        refl = spirv_reflect.reflect(spirv)
    except Exception as e:  # malformed input: any parse failure is the module's fault
        raise LavapipeError(f"cannot reflect the SPIR-V module: {e!r}") from e
    if entry not in refl.entry_points:
        raise LavapipeError(f"no entry point {entry!r} (have {sorted(refl.entry_points)})")
    if refl.entry_points[entry] != spirv_reflect.EXEC_MODEL_GL_COMPUTE:
        raise LavapipeError(f"entry point {entry!r} is not a GLCompute shader")
    check_features(refl)
    data = {key: _as_bytes(spec) for key, spec in buffers.items()}
    imgs = {key: _image_input(key, arr, fmt, refl.bindings.get((key[0], key[1])))
            for key, (arr, fmt) in (images or {}).items()}

    smps = {key: _sampler_info(key, text) for key, text in (samplers or {}).items()}
    kinds = binding_kinds(refl.bindings, data, imgs, smps, uniform_bindings)
    if any(g < 1 for g in groups) or len(groups) != 3:
        raise LavapipeError(f"groups must be three positive counts, got {groups}")

    with _lock:
        ctx = _context(robust)
        info = ctx.info
        if any(g > m for g, m in zip(groups, info.max_compute_workgroup_count, strict=True)):
            raise LavapipeError(f"groups {groups} exceed maxComputeWorkGroupCount "
                                f"{info.max_compute_workgroup_count}")
        push = bytes(push_constants)
        push_size = max(len(push), refl.push_constant_size)
        push_size = (push_size + 3) & ~3
        if push_size > info.max_push_constants_size:
            raise LavapipeError(f"push constants of {push_size} bytes exceed "
                                f"maxPushConstantsSize {info.max_push_constants_size}")
        push = push.ljust(push_size, b"\0")
        if subgroup_size is not None:
            if not info.subgroup_size_control:
                raise LavapipeError("lavapipe does not support subgroupSizeControl")
            if not (info.min_subgroup_size <= subgroup_size <= info.max_subgroup_size) or (
                subgroup_size & (subgroup_size - 1)
            ):
                raise LavapipeError(
                    f"subgroup size {subgroup_size} unsupported: lavapipe has "
                    f"{info.min_subgroup_size}..{info.max_subgroup_size}"
                )
            if not info.required_subgroup_size_stages & vk.VK_SHADER_STAGE_COMPUTE_BIT:
                raise LavapipeError("lavapipe cannot require a subgroup size for compute")
        if full_subgroups and not info.compute_full_subgroups:
            raise LavapipeError("lavapipe does not support computeFullSubgroups")
        d = _Dispatch(ctx)
        try:
            return _dispatch(d, spirv, entry, groups, data, kinds, push, spec_constants or {},
                             refl, subgroup_size, full_subgroups, timeout_s, imgs, smps)
        finally:
            d.close()


def descriptor_sets(d: _Dispatch, kinds: Mapping[tuple[int, int], str],
                    data: Mapping[tuple[int, int], bytes],
                    handles: Mapping[tuple[int, int], tuple[Any, int, int]],
                    image_objs: Mapping[tuple[int, int], _ImageObj],
                    sampler_objs: Mapping[tuple[int, int], Any], stages: int,
                    push_size: int,
                    texel_views: Mapping[tuple[int, ...], int] | None = None,
                    descriptor_counts: Mapping[tuple[int, int], int] | None = None
                    ) -> tuple[Any, Any, int]:
    """The pipeline layout (one set layout per set number 0..max, empty ones filling the
    gaps; every binding and the push-constant range visible to `stages`), the descriptor
    sets written with the dispatch's buffers, images, texel buffer views and samplers
    (an array binding's, `descriptor_counts`, keyed (set, binding, index)), and their
    count."""
    texel_views = texel_views or {}
    v, dev = d.v, d.dev
    # one descriptor set layout per set number 0..max (empty ones fill the gaps)
    sets = sorted({s for s, _ in kinds})
    nsets = sets[-1] + 1 if sets else 0
    layouts = (vk.VkDescriptorSetLayout * max(1, nsets))()
    counts = {"storage": 0, "uniform": 0, "storage_image": 0, "sampled_image": 0,
              "sampler": 0, "combined": 0, "uniform_texel": 0, "storage_texel": 0}
    dtype = {"storage": vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
             "uniform": vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
             "storage_image": vk.VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
             "sampled_image": vk.VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
             "sampler": vk.VK_DESCRIPTOR_TYPE_SAMPLER,
             "combined": vk.VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
             "uniform_texel": vk.VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
             "storage_texel": vk.VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER}
    counts_of = descriptor_counts or {}
    for s in range(nsets):
        keys = sorted(k for k in kinds if k[0] == s)
        binds = (vk.VkDescriptorSetLayoutBinding * max(1, len(keys)))()
        for i, (_, b) in enumerate(keys):
            binds[i] = vk.VkDescriptorSetLayoutBinding(
                binding=b, descriptorType=dtype[kinds[(s, b)]],
                descriptorCount=counts_of.get((s, b), 1), stageFlags=stages)
            counts[kinds[(s, b)]] += counts_of.get((s, b), 1)
        lci = vk.VkDescriptorSetLayoutCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
            bindingCount=len(keys), pBindings=binds)
        layouts[s] = d.create("vkCreateDescriptorSetLayout", lci, vk.VkDescriptorSetLayout(),
                              "vkDestroyDescriptorSetLayout").value

    ranges = vk.VkPushConstantRange(stageFlags=stages, offset=0,
                                    size=push_size)
    plci = vk.VkPipelineLayoutCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        setLayoutCount=nsets, pSetLayouts=layouts,
        pushConstantRangeCount=1 if push_size else 0, pPushConstantRanges=ctypes.pointer(ranges))
    playout = d.create("vkCreatePipelineLayout", plci, vk.VkPipelineLayout(),
                       "vkDestroyPipelineLayout")

    # descriptor pool, sets, writes
    dsets = (vk.VkDescriptorSet * max(1, nsets))()
    if nsets:
        sizes = (vk.VkDescriptorPoolSize * len(dtype))(*[
            vk.VkDescriptorPoolSize(type=t, descriptorCount=max(1, counts[k]))
            for k, t in dtype.items()])
        dpci = vk.VkDescriptorPoolCreateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, maxSets=nsets,
            poolSizeCount=len(dtype), pPoolSizes=sizes)
        pool = d.create("vkCreateDescriptorPool", dpci, vk.VkDescriptorPool(),
                        "vkDestroyDescriptorPool")
        dsai = vk.VkDescriptorSetAllocateInfo(
            sType=vk.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, descriptorPool=pool.value,
            descriptorSetCount=nsets, pSetLayouts=layouts)
        v("vkAllocateDescriptorSets", dev, ctypes.byref(dsai), dsets)
        # one write per descriptor: an array's elements at (set, binding, index)
        elems: list[tuple[int, ...]] = []
        for key in sorted(kinds):
            n = counts_of.get(key, 0)
            # an array element given nothing (a gap in a runtime-sized array) is not written
            elems += [key] if key not in counts_of else [
                (*key, k) for k in range(n) if (*key, k) in texel_views or (*key, k) in
                image_objs or (*key, k) in sampler_objs or (*key, k) in handles]
        infos = (vk.VkDescriptorBufferInfo * len(elems))()
        img_infos = (vk.VkDescriptorImageInfo * len(elems))()
        writes = (vk.VkWriteDescriptorSet * len(elems))()
        views = (vk.VkBufferView * len(elems))()
        for i, key in enumerate(elems):
            elem = key[2] if len(key) == 3 else 0
            kind = kinds[(key[0], key[1])]
            if key in texel_views:
                views[i] = texel_views[key]
                writes[i] = vk.VkWriteDescriptorSet(
                    sType=vk.VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, dstSet=dsets[key[0]],
                    dstBinding=key[1], dstArrayElement=elem, descriptorCount=1,
                    descriptorType=dtype[kind],
                    pTexelBufferView=ctypes.cast(
                        ctypes.addressof(views) + 8 * i, ctypes.POINTER(vk.VkBufferView)))
                continue
            if key in image_objs or key in sampler_objs:
                img_infos[i] = vk.VkDescriptorImageInfo(
                    sampler=sampler_objs[key].value if key in sampler_objs else 0,
                    imageView=image_objs[key].view if key in image_objs else 0,
                    imageLayout=image_objs[key].layout if key in image_objs else 0)
                writes[i] = vk.VkWriteDescriptorSet(
                    sType=vk.VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, dstSet=dsets[key[0]],
                    dstBinding=key[1], dstArrayElement=elem, descriptorCount=1,
                    descriptorType=dtype[kind], pImageInfo=ctypes.pointer(img_infos[i]))
                continue
            # bind exactly the caller's bytes (the allocation is padded to 16),
            # so OpArrayLength / .length() sees the size the caller gave
            infos[i] = vk.VkDescriptorBufferInfo(buffer=handles[key][0].value, offset=0,
                                                 range=len(data[key]) or vk.VK_WHOLE_SIZE)
            writes[i] = vk.VkWriteDescriptorSet(
                sType=vk.VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, dstSet=dsets[key[0]],
                dstBinding=key[1], dstArrayElement=elem, descriptorCount=1,
                descriptorType=dtype[kind], pBufferInfo=ctypes.pointer(infos[i]))
        v.void("vkUpdateDescriptorSets", dev, len(elems), writes, 0, None)
    return playout, dsets, nsets


def _dispatch(
    d: _Dispatch,
    spirv: bytes,
    entry: str,
    groups: tuple[int, int, int],
    data: dict[tuple[int, int], bytes],
    kinds: dict[tuple[int, int], str],
    push: bytes,
    spec_constants: Mapping[int, int | float | bool],
    refl: spirv_reflect.Reflection,
    subgroup_size: int | None,
    full_subgroups: bool,
    timeout_s: float,
    imgs: dict[tuple[int, int], _ImageInput],
    smps: dict[tuple[int, int], Any],
) -> dict[tuple[int, int], Any]:
    v, dev, ctx = d.v, d.dev, d.ctx
    usage = (vk.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | vk.VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
             | vk.VK_BUFFER_USAGE_TRANSFER_SRC_BIT | vk.VK_BUFFER_USAGE_TRANSFER_DST_BIT)

    # buffers and their memory, filled through a persistent mapping
    handles: dict[tuple[int, int], tuple[vk.VkBuffer, int, int]] = {}
    for key, raw in data.items():
        size = max(16, (len(raw) + 15) & ~15)
        buf, ptr = _mapped_buffer(d, size, usage, f"buffer {key}")
        ctypes.memset(ptr, 0, size)
        ctypes.memmove(ptr, raw, len(raw))
        handles[key] = (buf, ptr, size)

    image_objs = {key: _create_image(d, im, kinds[(key[0], key[1])])
                  for key, im in imgs.items() if not im.texel_buffer}
    texels = {key: _create_texel_buffer(d, im) for key, im in imgs.items() if im.texel_buffer}
    sampler_objs = {key: d.create("vkCreateSampler", info, vk.VkSampler(), "vkDestroySampler")
                    for key, info in smps.items()
                    if kinds.get((key[0], key[1])) in ("sampler", "combined")}
    counts = array_counts(refl.bindings, data, imgs, smps)

    playout, dsets, nsets = descriptor_sets(d, kinds, data, handles, image_objs, sampler_objs,
                                            vk.VK_SHADER_STAGE_COMPUTE_BIT, len(push),
                                            {key: t[1] for key, t in texels.items()}, counts)

    # shader module, specialization, pipeline
    smci = ShaderModuleInfo(spirv)
    module = d.create("vkCreateShaderModule", smci.info, vk.VkShaderModule(),
                      "vkDestroyShaderModule")
    spec = SpecializationData(spec_constants, refl)
    req_sg = vk.VkPipelineShaderStageRequiredSubgroupSizeCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
        requiredSubgroupSize=subgroup_size or 0)
    entry_name = entry.encode()
    stage = vk.VkPipelineShaderStageCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        pNext=ctypes.addressof(req_sg) if subgroup_size else None,
        flags=vk.VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT if full_subgroups
        else 0,
        stage=vk.VK_SHADER_STAGE_COMPUTE_BIT, module=module.value, pName=entry_name,
        pSpecializationInfo=spec.pointer())
    cpci = vk.VkComputePipelineCreateInfo(
        sType=vk.VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, stage=stage, layout=playout.value,
        basePipelineIndex=-1)
    pipeline = vk.VkPipeline()
    v("vkCreateComputePipelines", dev, 0, 1, ctypes.byref(cpci), None, ctypes.byref(pipeline))
    d.undo.append(("vkDestroyPipeline", pipeline))

    # record, submit, wait
    cmd = _begin_commands(d)
    for obj in image_objs.values():
        _record_upload(v, cmd, obj)
    v.void("vkCmdBindPipeline", cmd, vk.VK_PIPELINE_BIND_POINT_COMPUTE, pipeline)
    if nsets:
        v.void("vkCmdBindDescriptorSets", cmd, vk.VK_PIPELINE_BIND_POINT_COMPUTE, playout, 0,
               nsets, dsets, 0, None)
    if push:
        v.void("vkCmdPushConstants", cmd, playout, vk.VK_SHADER_STAGE_COMPUTE_BIT, 0, len(push),
               push)
    v.void("vkCmdDispatch", cmd, *groups)
    barrier = vk.VkMemoryBarrier(sType=vk.VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                 srcAccessMask=vk.VK_ACCESS_SHADER_WRITE_BIT,
                                 dstAccessMask=vk.VK_ACCESS_HOST_READ_BIT)
    v.void("vkCmdPipelineBarrier", cmd, vk.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
           vk.VK_PIPELINE_STAGE_HOST_BIT, 0, 1, ctypes.byref(barrier), 0, None, 0, None)
    for obj in image_objs.values():
        _record_download(v, cmd, obj)
    v("vkEndCommandBuffer", cmd)
    fci = vk.VkFenceCreateInfo(sType=vk.VK_STRUCTURE_TYPE_FENCE_CREATE_INFO)
    fence = d.create("vkCreateFence", fci, vk.VkFence(), "vkDestroyFence")
    submit = vk.VkSubmitInfo(sType=vk.VK_STRUCTURE_TYPE_SUBMIT_INFO, commandBufferCount=1,
                             pCommandBuffers=ctypes.pointer(cmd))
    v("vkQueueSubmit", ctx.queue, 1, ctypes.byref(submit), fence)
    res = v("vkWaitForFences", dev, 1, ctypes.byref(fence), 1, int(timeout_s * 1e9))
    if res != vk.VK_SUCCESS:
        # the dispatch still runs: its objects cannot be freed; drop the device too
        d.undo.clear()
        _ctxs.pop(ctx.robust, None)
        raise LavapipeError(f"vkWaitForFences: {_result_name(res)} after {timeout_s} s")
    out: dict[tuple[int, int], Any] = {
        key: ctypes.string_at(handles[key][1], len(data[key])) for key in data}
    for key, (ptr, _view) in texels.items():
        arr = imgs[key].array
        out[key] = np.frombuffer(ctypes.string_at(ptr, arr.nbytes), dtype=arr.dtype).reshape(
            arr.shape).copy()
    for key, obj in image_objs.items():
        raw = ctypes.string_at(obj.staging_ptr, obj.input.array.nbytes)
        out[key] = np.frombuffer(raw, dtype=obj.input.array.dtype).reshape(
            obj.input.array.shape).copy()
    return out


# -- CLI ------------------------------------------------------------------------


def _parse_buffer(arg: str) -> tuple[tuple[int, int], BufferSpec]:
    try:
        where, what = arg.split("=", 1)
        s, b = where.split(":")
        key = (int(s), int(b))
    except ValueError:
        raise SystemExit(
            f"bad --buffer {arg!r}: want SET:BINDING=FILE or SET:BINDING=zeros:N"
        ) from None
    if what.startswith("zeros:"):
        return key, int(what[6:], 0)
    return key, Path(what).read_bytes()


def _parse_spec(arg: str) -> tuple[int, int | float | bool]:
    sid, val = arg.split("=", 1)
    if val.lower() in ("true", "false"):
        return int(sid), val.lower() == "true"
    try:
        return int(sid), int(val, 0)
    except ValueError:
        return int(sid), float(val)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m radcc.oracle.lavapipe",
        description="Run a SPIR-V compute shader on lavapipe and dump its buffers.")
    ap.add_argument("shader", nargs="?", help="SPIR-V file (.spv)")
    ap.add_argument("--groups", default="1,1,1", help="X,Y,Z workgroup counts")
    ap.add_argument("--buffer", action="append", default=[], metavar="SET:BINDING=FILE|zeros:N")
    ap.add_argument("--push", help="file with the push constant bytes")
    ap.add_argument("--spec", action="append", default=[], metavar="ID=VALUE")
    ap.add_argument("--entry", default="main")
    ap.add_argument("--subgroup-size", type=int)
    ap.add_argument("--out", help="directory for set<S>_binding<B>.bin (default: hex to stdout)")
    ap.add_argument("--info", action="store_true", help="print what the lavapipe device reports")
    a = ap.parse_args(argv)
    try:
        if a.info:
            for k, val in vars(device_info()).items():
                print(f"{k}: {val}")
            if not a.shader:
                return 0
        if not a.shader:
            ap.error("a SPIR-V file is required")
        groups = tuple(int(x) for x in a.groups.split(","))
        if len(groups) != 3:
            ap.error("--groups wants X,Y,Z")
        t0 = time.perf_counter()
        out = run_compute(
            Path(a.shader).read_bytes(), entry=a.entry, groups=groups,  # type: ignore[arg-type]
            buffers=dict(_parse_buffer(b) for b in a.buffer),
            push_constants=Path(a.push).read_bytes() if a.push else b"",
            spec_constants=dict(_parse_spec(s) for s in a.spec),
            subgroup_size=a.subgroup_size)
        dt = time.perf_counter() - t0
    except (LavapipeError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if a.out:
        Path(a.out).mkdir(parents=True, exist_ok=True)
    for (s, b), raw in sorted(out.items()):
        if a.out:
            path = Path(a.out) / f"set{s}_binding{b}.bin"
            path.write_bytes(raw)
            print(f"{s}:{b} {len(raw)} bytes -> {path}")
        else:
            print(f"{s}:{b} {len(raw)} bytes: {raw[:256].hex()}{'…' if len(raw) > 256 else ''}")
    print(f"dispatch: {dt * 1e3:.1f} ms", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
