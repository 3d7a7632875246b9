"""Build the compiled simulation kernel (src/phase10/kernel/_kernel.c) with the system's
C compiler, for wheels and editable installs alike (docs/kernel.md).

The kernel is optional: when there is no compiler, or it fails, the build goes on with a
warning and phase10.kernel falls back to the Python engine. ``CC`` names the compiler
(``CC=false`` builds without the kernel); ``PHASE10_KERNEL=off`` skips the compile. On
Windows, setuptools finds and drives the compiler (Microsoft's, from Visual Studio or its
Build Tools): the C is plain C99 that needs no GCC extension.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # imported outside a build (the tests call compile_kernel)
    BuildHookInterface = object

SOURCE = Path("src/phase10/kernel/_kernel.c")
TARGET = "phase10/kernel/_kernel"


def _warn(message: str) -> None:
    print(f"WARNING: phase10 kernel: {message}; the Python engine will be used", file=sys.stderr)


def compile_kernel(source: Path, output: Path, defines: tuple[str, ...] = ()) -> str | None:
    """Compile ``source`` into the extension module ``output`` (``defines``: macros to
    define, say ``PHASE10_PLAIN_C``); None, or why it failed."""
    if sys.platform == "win32":
        return compile_with_setuptools(source, output, defines)
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    include = sysconfig.get_paths()["include"]
    flags = ["-O2", "-std=c99", "-fPIC", f"-I{include}", *(f"-D{name}" for name in defines)]
    if sys.platform == "darwin":
        link = ["-bundle", "-undefined", "dynamic_lookup"]
    else:
        link = ["-shared"]
    command = [*compiler, *flags, str(source), *link, "-o", str(output)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    except (OSError, subprocess.SubprocessError) as error:
        return f"{shlex.join(command)} could not run: {error}"
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        said = ": " + " / ".join(detail) if detail else ""
        return f"{shlex.join(command)} failed (exit status {done.returncode}){said}"
    return None


def compile_with_setuptools(
    source: Path, output: Path, defines: tuple[str, ...] = ()
) -> str | None:
    """:func:`compile_kernel` through setuptools' ``build_ext``, which knows each
    platform's compiler and flags (on Windows, Microsoft's C compiler); None, or why it
    failed."""
    try:
        from setuptools import Distribution, Extension
    except ImportError as error:  # (a build requirement on Windows; elsewhere optional)
        return f"setuptools, which builds the kernel here, is missing: {error}"
    name = output.name.split(".")[0]
    extension = Extension(name, [str(source)], define_macros=[(d, None) for d in defines])
    with tempfile.TemporaryDirectory() as tmp:
        distribution = Distribution({"name": "phase10-kernel", "ext_modules": [extension]})
        command: Any = distribution.get_command_obj("build_ext")
        command.build_lib = str(Path(tmp) / "lib")
        command.build_temp = str(Path(tmp) / "temp")
        try:
            command.ensure_finalized()
            command.run()
        except Exception as error:  # setuptools' compile and link errors share no base
            return f"setuptools could not build {source}: {type(error).__name__}: {error}"
        shutil.copyfile(command.get_ext_fullpath(name), output)
    return None


class KernelBuildHook(BuildHookInterface):
    """Compiles the kernel in place (editable installs) or into the wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        if os.environ.get("PHASE10_KERNEL", "").strip().lower() in ("0", "off", "no", "false"):
            _warn("PHASE10_KERNEL is off: not compiled")
            return
        root = Path(self.root)
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        source = root / SOURCE
        if version == "editable":
            # the editable install imports from src/: the module is built there
            error = compile_kernel(source, root / "src" / f"{TARGET}{suffix}")
            if error:
                _warn(error)
            return
        self._tmp = tempfile.TemporaryDirectory()
        built = Path(self._tmp.name) / f"_kernel{suffix}"
        error = compile_kernel(source, built)
        if error:
            _warn(error)
            return
        build_data["force_include"][str(built)] = f"{TARGET}{suffix}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            tmp.cleanup()
