"""The project's build is setuptools' (pyproject.toml holds its metadata) with one step more,
named there as its `build_py`: every message catalog's source,
controller/locale/LANG/LC_MESSAGES/DOMAIN.po, compiled with Babel into the .mo file the table
reads at run time (git keeps only the sources). The build loads this file by its path; nothing
imports it at run time (the wheel carries it beside the catalogs, in no package of the table)."""

import os
from pathlib import Path

from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parents[2]  # the project
LOCALE = Path("controller", "locale")


class BuildWithCatalogs(build_py):
    """build_py, then the catalogs compiled: into the build for a wheel, beside their sources
    for an editable install (`./dev`'s `pip install -e`), which reads the checkout."""

    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        target = HERE if self.editable_mode else Path(self.build_lib)
        for source in sorted((HERE / LOCALE).glob("*/LC_MESSAGES/*.po")):
            with source.open("rb") as po:
                catalog = read_po(po)
            compiled = target / source.relative_to(HERE).with_suffix(".mo")
            compiled.parent.mkdir(parents=True, exist_ok=True)
            # Whole or not at all: ./dev installs into each Python's environment at once,
            # and every editable install writes the same files in the checkout.
            partial = compiled.with_name(f".{compiled.name}.{os.getpid()}")
            with partial.open("wb") as mo:
                write_mo(mo, catalog)
            os.replace(partial, compiled)
