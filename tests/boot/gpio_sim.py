"""The kernel GPIO chip of the booted tests' machine: gpio-sim, built out of tree for the
guest's own stock kernel from Debian's packages alone.

Bookworm's kernel is built without gpio-sim and without the IRQ simulator it needs
(`# CONFIG_GPIO_SIM is not set`, `CONFIG_IRQ_SIM` off), but both are in the kernel's source:
in a copy of the image's tree, the headers of the guest's kernel and a compiler are installed,
three files are taken from `linux-source-6.1` (`drivers/gpio/gpio-sim.c`,
`drivers/gpio/gpiolib.h`, `kernel/irq/irq_sim.c`), and one module is made of them: the IRQ
simulator bundled in, its exports dropped, and the one call it makes to a symbol the kernel
no longer exports (`irq_to_desc`) replaced by the exported one that does the same
(`generic_handle_irq`). One change makes the chip behave as a Pi's where the tests need it:
a line that its process releases keeps the level it was driven to (gpio-sim lets it fall
back to its simulated pull), so a daemon killed with the motor running leaves the motor's
line high until `outputs-off` drives it low, as on a Pi. The module is cached by the
kernel's version and these changes in ~/.cache/flashtable/gpio-sim/VERSION-HASH/, so an
image made again for the same kernel builds nothing; the image keeps it in
/lib/modules/VERSION/extra/.
"""

from __future__ import annotations

import hashlib
import inspect
import re
import shutil
import subprocess
import tarfile
from collections.abc import Callable
from pathlib import Path

MODULE = "gpio-sim.ko"
SOURCES = ("drivers/gpio/gpio-sim.c", "drivers/gpio/gpiolib.h", "kernel/irq/irq_sim.c")
KBUILD = "obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-core.o irq-sim.o\nccflags-y := -I$(src)\n"


def cache_dir(root: Path, kernel: str) -> Path:
    """The module's cache: by the kernel's version and what the build does to the source."""
    recipe = KBUILD + "".join(SOURCES) + inspect.getsource(bundled_irq_sim)
    recipe += inspect.getsource(level_kept_on_release)
    return root.parent / "gpio-sim" / f"{kernel}-{hashlib.sha256(recipe.encode()).hexdigest()[:12]}"


def bundled_irq_sim(text: str) -> str:
    """irq_sim.c made part of the module: no exports (the module is their only user), and
    the interrupt handed to the exported `generic_handle_irq`, not to `handle_simple_irq` of
    a descriptor the module cannot look up."""
    text = re.sub(r"^EXPORT_SYMBOL_GPL\(\w+\);\n", "", text, flags=re.M)
    old = "handle_simple_irq(irq_to_desc(irqnum))"
    if old not in text:
        raise RuntimeError("irq_sim.c has changed: its interrupt hand-over is not there")
    return text.replace(old, "generic_handle_irq(irqnum)")


def level_kept_on_release(text: str) -> str:
    """gpio-sim.c with a released line keeping its value: its free callback does nothing."""
    free = re.compile(
        r"(static void gpio_sim_free\(struct gpio_chip \*gc, unsigned int offset\)\n\{\n)"
        r".*?(\n\}\n)",
        re.S,
    )
    if not free.search(text):
        raise RuntimeError("gpio-sim.c has changed: its line release is not there")
    return free.sub(r"\1\t/* The line keeps the level it was driven to, as a Pi's does. */\2", text)


def chroot(tree: Path, script: str) -> None:
    done = subprocess.run(
        ["chroot", str(tree), "/bin/sh", "-c", script],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive"},
    )
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-20:])
        raise RuntimeError(f"building gpio-sim: {script!r} failed:\n{tail}")


def source_version(kernel: str) -> str:
    """The linux-source package's version for a kernel: "6.1" for "6.1.0-50-amd64"."""
    return ".".join(kernel.split(".")[:2])


def build_module(tree: Path, kernel: str, mirror: str, suite: str, work: Path) -> Path:
    """gpio-sim.ko for `kernel`, built in a copy of the image's `tree` (left as it was)."""
    builder = work / "gpio-sim-builder"
    shutil.rmtree(builder, ignore_errors=True)
    subprocess.run(["cp", "-a", str(tree), str(builder)], check=True)
    try:
        (builder / "etc/apt/sources.list").write_text(f"deb {mirror} {suite} main\n")
        chroot(
            builder,
            "apt-get update -qq && apt-get install -y -qq --no-install-recommends "
            f"linux-headers-{kernel} make gcc >/dev/null && "
            f"cd /root && apt-get download -qq linux-source-{source_version(kernel)}",
        )
        package = next((builder / "root").glob("linux-source-*.deb"))
        source = builder / "root" / "source"
        source.mkdir()
        subprocess.run(["dpkg-deb", "-x", str(package), str(source)], check=True)
        archive = next((source / "usr/src").glob("linux-source-*.tar.*"))
        top = archive.name.split(".tar")[0]
        module = builder / "root" / "module"
        module.mkdir()
        with tarfile.open(archive) as tar:
            for name in SOURCES:
                member = tar.extractfile(f"{top}/{name}")
                assert member is not None
                data = member.read().decode()
                target = {
                    "gpio-sim.c": "gpio-sim-core.c",
                    "irq_sim.c": "irq-sim.c",
                }.get(Path(name).name, Path(name).name)
                if target == "irq-sim.c":
                    data = bundled_irq_sim(data)
                elif target == "gpio-sim-core.c":
                    data = level_kept_on_release(data)
                (module / target).write_text(data)
        (module / "Makefile").write_text(KBUILD)
        chroot(builder, f"make -s -C /usr/src/linux-headers-{kernel} M=/root/module modules")
        built = module / MODULE
        out = work / MODULE
        shutil.copy(built, out)
        return out
    finally:
        shutil.rmtree(builder, ignore_errors=True)


def install_module(
    tree: Path,
    kernel: str,
    cache: Path,
    build: Callable[[], Path],
    say: Callable[[str], None] = print,
) -> None:
    """gpio-sim.ko for `kernel` into the image's `tree`, from the cache or built first."""
    cached = cache / MODULE
    if not cached.exists():
        say(f"building gpio-sim for the guest's kernel {kernel} (once per kernel)")
        built = build()
        cache.mkdir(parents=True, exist_ok=True)
        shutil.copy(built, cache / f"{MODULE}.new")
        (cache / f"{MODULE}.new").rename(cached)
    extra = tree / "lib/modules" / kernel / "extra"
    extra.mkdir(parents=True, exist_ok=True)
    shutil.copy(cached, extra / MODULE)
    chroot(tree, f"depmod -a {kernel}")
