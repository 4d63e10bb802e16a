"""Installed versions read from the import path agree with importlib.metadata."""

from importlib import metadata

from packaging.version import Version

from deckforge.versions import version


def test_versions_are_those_importlib_metadata_reads():
    for name in ("deckforge", "reportlab", "rl-accel", "python_bidi", "PyYAML", "fonttools",
                 "fontpkg-noto-sans-arabic", "pillow", "pypdfium2"):  # fmt: skip
        assert Version(version(name)) == Version(metadata.version(name)), name


def test_a_package_not_installed_has_no_version():
    assert version("no-such-package-deckforge") is None
