"""Hostile MJCF files: every file MuJoCo would read is vetted by KineTree first (inside the model's
folder tree, a regular file, bounded), and sizes that make MuJoCo's compiler allocate gigabytes are
refused before it runs."""

from __future__ import annotations

import os
import threading

import pytest
from kinetree.core.errors import FileFormatError
from kinetree.core.io.mjcf import import_mjcf

posix = pytest.mark.skipif(os.name != "posix", reason="FIFOs are POSIX")
BOX_OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"


def write(folder, text: str, name: str = "model.xml"):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def finishes(fn, timeout: float = 10.0):
    """``fn()``'s exception (or None); fails the test if it does not finish in time."""
    box: dict = {}

    def call():
        try:
            fn()
            box["exc"] = None
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["exc"] = exc

    t = threading.Thread(target=call, daemon=True)
    t.start()
    t.join(timeout)
    assert "exc" in box, f"still running after {timeout} s"
    return box["exc"]


FLEX = """<mujoco><compiler meshdir="sub"/><worldbody>
<flexcomp name="f" type="mesh" file="g.obj" dim="2"><edge equality="true"/></flexcomp>
<body name="b"><joint/><geom size="0.1"/></body></worldbody></mujoco>"""


# --- finding 3: files MuJoCo would open itself -----------------------------------------------------

def test_flexcomp_file_is_read_from_the_model_folder_under_meshdir(tmp_path, monkeypatch):
    write(tmp_path, BOX_OBJ, "model/sub/g.obj")
    monkeypatch.chdir(tmp_path)  # nothing of that name here
    tree = import_mjcf(write(tmp_path, FLEX, "model/m.xml"))
    assert "b" in [b.name for b in tree.bodies]


def test_flexcomp_file_missing_in_the_model_folder_is_not_read_from_the_working_folder(tmp_path, monkeypatch):
    cwd = tmp_path / "elsewhere"
    write(cwd, BOX_OBJ, "sub/g.obj")
    monkeypatch.chdir(cwd)
    path = write(tmp_path, FLEX, "model/m.xml")
    with pytest.raises(FileFormatError, match=r"m\.xml:2: <flexcomp name='f' .*file 'sub/g\.obj' not found"):
        import_mjcf(path)


@posix
def test_flexcomp_file_that_is_a_fifo_is_refused_without_blocking(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    os.mkfifo(tmp_path / "sub" / "g.obj")
    monkeypatch.chdir(tmp_path)  # where MuJoCo itself would look
    path = write(tmp_path, FLEX)
    exc = finishes(lambda: import_mjcf(path))
    assert isinstance(exc, FileFormatError), exc
    assert "model.xml:2: <flexcomp" in str(exc) and "FIFO" in str(exc)


@pytest.mark.parametrize("attr", ["meshdir", "texturedir", "assetdir"])
@pytest.mark.parametrize("value", ["/etc", "../.."])
def test_compiler_folders_outside_the_tree_are_refused_even_unused(tmp_path, attr, value):
    path = write(tmp_path, f'<mujoco>\n<compiler {attr}="{value}"/><worldbody><body><joint/><geom size="1"/>'
                           '</body></worldbody></mujoco>')
    with pytest.raises(FileFormatError, match=rf"model\.xml:2: <compiler {attr}=.*{attr} .*(absolute|outside)"):
        import_mjcf(path)
