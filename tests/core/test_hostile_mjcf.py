"""Hostile MJCF files: every file MuJoCo would read is vetted by KineTree first (inside the model's
folder tree, a regular file, bounded), and sizes that make MuJoCo's compiler allocate gigabytes are
refused before it runs."""

from __future__ import annotations

import os

import pytest
from helpers.trees import finishes
from kinetree.core.errors import FileFormatError
from kinetree.core.io.mjcf import MjcfWarning, import_mjcf

posix = pytest.mark.skipif(os.name != "posix", reason="FIFOs are POSIX")
BOX_OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"


def write(folder, text: str, name: str = "model.xml"):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path




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


@posix
@pytest.mark.parametrize("element", ['<include file="part.xml"/>', '<asset><mesh name="m" file="part.xml"/></asset>'])
def test_include_or_mesh_that_is_a_fifo_is_refused_saying_so(tmp_path, element):
    os.mkfifo(tmp_path / "part.xml")
    path = write(tmp_path, f"<mujoco>\n{element}</mujoco>")
    exc = finishes(lambda: import_mjcf(path))
    assert isinstance(exc, FileFormatError), exc
    assert "model.xml:2: <" in str(exc) and "part.xml: is a FIFO (named pipe), not a regular file" in str(exc)


@pytest.mark.parametrize("attr", ["meshdir", "texturedir", "assetdir"])
@pytest.mark.parametrize("value", ["/etc", "../.."])
def test_compiler_folders_outside_the_tree_are_refused_even_unused(tmp_path, attr, value):
    path = write(tmp_path, f'<mujoco>\n<compiler {attr}="{value}"/><worldbody><body><joint/><geom size="1"/>'
                           '</body></worldbody></mujoco>')
    with pytest.raises(FileFormatError, match=rf"model\.xml:2: <compiler {attr}=.*{attr} .*(absolute|outside)"):
        import_mjcf(path)


# --- finding 4: a few bytes that make MuJoCo's compiler allocate gigabytes --------------------------

BOMBS = {
    "texture": ('<asset><texture name="t" type="2d" builtin="checker" width="40000" height="40000"/></asset>',
                r"<texture name='t' .*: width 40000 is more than 4096"),
    "skybox": ('<asset><texture type="skybox" builtin="gradient" width="20000" height="20000"/></asset>',
               r"<texture type='skybox' .*: width 20000 is more than 4096"),
    "cube maps together": ("<asset>" + '<texture type="cube" builtin="flat" width="4096"/>' * 3 + "</asset>",
                           r"<texture type=.cube.* texels of the builtin textures together \d+ is more than 201326592"),
    "hfield": ('<asset><hfield name="h" nrow="30000" ncol="30000" size="1 1 1 1"/></asset>',
               r"<hfield name='h' .*: nrow 30000 is more than 4096"),
    "hfields together": ("<asset>" + "".join(f'<hfield name="h{k}" nrow="4096" ncol="4096" size="1 1 1 1"/>'
                                             for k in range(5)) + "</asset>",
                         r"<hfield name='h4' .*samples of the height fields together \d+ is more than 67108864"),
    "nuser_body": ('<size nuser_body="100000000"/>', r"<size nuser_body='100000000'>: nuser_body 100000000 is more "
                   "than 256"),
    "nuser_geom": ('<size nuser_geom="5000"/>', r"<size .*nuser_geom 5000 is more than 256"),
    "nkey": ('<size nkey="10000000"/>', r"<size nkey='10000000'>: nkey 10000000 is more than 10000"),
    "nested replicate": ('<worldbody><replicate count="300"><replicate count="300"><body><geom size=".1"/></body>'
                         "</replicate></replicate></worldbody>",
                         r"<body>: the model makes more than 50000 bodies \(<replicate> counts"),
    "replicate elements": ('<worldbody><replicate count="2000"><replicate count="2000"><geom size=".1"/>'
                           "</replicate></replicate></worldbody>",
                           r"<replicate count='2000'>: the model makes more than 2000000 elements"),
    "flexcomp grid": ('<worldbody><flexcomp name="f" type="grid" count="400 400 400" spacing="1 1 1" dim="3"/>'
                      "</worldbody>", r"<flexcomp name='f' .*makes more than 50000 bodies"),
    "replicated flexcomp": ('<worldbody><replicate count="100"><flexcomp name="f" type="grid" count="30 30 1" '
                            'spacing="1 1 1" dim="2"/></replicate></worldbody>',
                            r"<flexcomp name='f' .*more than 50000"),
    "builtin supersphere": ('<asset><mesh name="m" builtin="supersphere" params="1000 1 1"/></asset>',
                            r"<mesh name='m' .*builtin mesh resolution 1000 is more than 300"),
    "builtin cone": ('<asset><mesh name="m" builtin="cone" params="100000 1"/></asset>',
                     r"<mesh name='m' .*builtin mesh resolution 100000 is more than 300"),
    "builtin grid": ('<asset><mesh name="m" builtin="grid" params="300 300 300 0.1 0.1 0.1"/></asset>',
                     r"<mesh name='m' .*grid mesh points 27000000 is more than 90000"),
    "not a number": ('<size nkey="many"/>', r"<size nkey='many'>: nkey 'many' is not a number"),
}


@pytest.mark.parametrize("bomb", BOMBS)
def test_size_bombs_are_refused_before_mujoco_allocates(tmp_path, bomb, monkeypatch):
    body, message = BOMBS[bomb]
    path = write(tmp_path, f"<mujoco>\n{body}</mujoco>")
    from kinetree.core.io.mjcf import read as mjcf_read

    def never(*args, **kwargs):
        raise AssertionError("MuJoCo was handed the model")

    monkeypatch.setattr(mjcf_read, "_compile", never)
    with pytest.raises(FileFormatError, match=r"model\.xml:2: " + message):
        import_mjcf(path)


def test_sizes_within_the_limits_still_load(tmp_path):
    path = write(tmp_path, """<mujoco><size nuser_body="3" nkey="2"/>
      <asset><texture name="sky" type="skybox" builtin="gradient" width="64" height="64"/>
        <texture name="grid" type="2d" builtin="checker" width="64" height="32"/>
        <hfield name="h" nrow="16" ncol="16" size="1 1 1 1"/>
        <mesh name="ball" builtin="supersphere" params="24 1 1"/>
        <mesh name="g" builtin="grid" params="10 10 10 .1 .1 .1"/></asset>
      <worldbody><geom type="mesh" mesh="ball"/><geom type="mesh" mesh="g"/>
        <replicate count="3" offset="1 0 0"><replicate count="2" offset="0 1 0">
        <body name="b"><joint/><geom size=".1"/></body></replicate></replicate></worldbody></mujoco>""")
    with pytest.warns(MjcfWarning, match="2 meshes without a file"):  # builtin meshes are not drawn
        tree = import_mjcf(path)
    assert tree.num_bodies == 6


def test_png_texture_too_large_for_its_header_is_refused(tmp_path):
    """A PNG of 100000 × 100000 pixels can be a few kB; its header says what it inflates to."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    (tmp_path / "big.png").write_bytes(png)
    path = write(tmp_path, '<mujoco><asset>\n<texture name="t" type="2d" file="big.png"/></asset></mujoco>')
    with pytest.raises(FileFormatError, match=r"model\.xml:2: <texture name='t' .*PNG image of 100000 × 100000"):
        import_mjcf(path)


# --- finding 5: one file included many times, expanded each time ------------------------------------

def test_mjcf_includes_share_one_byte_budget_checked_before_each_expansion(tmp_path, monkeypatch):
    from kinetree.core.disk import safe_io

    monkeypatch.setattr(safe_io, "MAX_INCLUDED_BYTES", 10_000, raising=False)
    write(tmp_path, '<mujoco><custom><text name="t" data="' + "A" * 2000 + '"/></custom></mujoco>', "big.xml")
    path = write(tmp_path, "<mujoco>\n" + '<include file="big.xml"/>\n' * 10 + "</mujoco>")
    expanded = []
    from kinetree.core.io.mjcf import files as mjcf_files

    parse = mjcf_files._Vetter.parse
    monkeypatch.setattr(mjcf_files._Vetter, "parse", lambda self, *a: expanded.append(1) or parse(self, *a))
    # the fifth inclusion (line 6) would pass 10 000 bytes: refused before it is parsed
    with pytest.raises(FileFormatError, match=r"model\.xml:6: <include file='big.xml'>: including .*big\.xml' "
                                              r"\(2\d\d\d bytes\) takes the model's includes past 10000 bytes "
                                              r"together \(every inclusion counted\)"):
        import_mjcf(path)
    assert len(expanded) == 4


def test_sdf_includes_share_the_same_byte_budget(tmp_path, monkeypatch):
    from kinetree.core.disk import safe_io
    from kinetree.core.io.sdf import import_sdf

    monkeypatch.setattr(safe_io, "MAX_INCLUDED_BYTES", 10_000, raising=False)
    write(tmp_path, '<sdf version="1.9"><model name="m"><link name="l"><sensor name="s" type="custom"><x>'
                    + "A" * 2000 + "</x></sensor></link></model></sdf>", "robot/big.sdf")
    path = write(tmp_path, '<sdf version="1.9"><model name="top"><link name="base"/>\n'
                 + "".join(f"<include><uri>big.sdf</uri><name>m{k}</name></include>\n" for k in range(10))
                 + "</model></sdf>", "robot/top.sdf")
    with pytest.raises(FileFormatError, match=r"top\.sdf:6: <include>: including .*big\.sdf' .*takes the model's "
                                              "includes past"):
        import_sdf(path, on_warning=lambda m: None)


def test_includes_within_the_budget_still_read(tmp_path):
    write(tmp_path, '<mujoco><worldbody><body name="b"><joint/><geom size=".1"/></body></worldbody></mujoco>',
          "part.xml")
    path = write(tmp_path, '<mujoco><include file="part.xml"/></mujoco>')
    assert import_mjcf(path).num_bodies == 1


# --- finding 2: export copied files named in kept <mjcf> fragments that no import vetted -------------

URDF_KEPT = """<robot name="r">
  <mjcf><asset>{assets}</asset></mjcf>
  <link name="a"/><link name="b"/>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


def _secret_and_model(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("private key")
    model = tmp_path / "model"
    model.mkdir()
    (model / "in.png").write_bytes(b"not read by the import")
    (model / "link.png").symlink_to(secret)
    return secret, model


def _export_and_copied(tree, out):
    import warnings

    from kinetree.core.io import export_robot

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        export_robot(tree, out)
    folder = out.parent / f"{out.stem}_assets"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else [], out.read_text()


@pytest.mark.parametrize("reader", ["urdf", "project"])
def test_export_copies_no_file_the_import_did_not_vet(tmp_path, reader):
    from kinetree.core.io import import_robot, load_project, save_project
    from kinetree.core.io.urdf import read as urdf

    secret, model = _secret_and_model(tmp_path)
    assets = (f'<texture name="abs" type="2d" file="{secret}"/><hfield name="h" file="/etc/passwd" size="1 1 1 1"/>'
              '<texture name="up" type="2d" file="../secret.txt"/><texture name="sym" type="2d" file="'
              f'{model / "link.png"}"/><texture name="ok" type="2d" file="{model / "in.png"}"/>')
    path = model / "r.urdf"
    path.write_text(URDF_KEPT.format(assets=assets))
    if reader == "project":  # a project holding the same fragment (written by hand: no import vetted it)
        tree = urdf.urdf_from_string(URDF_KEPT.format(assets=""))
        tree.extensions = [f"<mjcf><asset>{assets}</asset></mjcf>"]
        path = model / "r.kinetree.json"
        save_project(tree, path)
    notes: list[str] = []
    tree = (import_robot(path, on_warning=notes.append) if reader == "urdf"
            else load_project(path, on_warning=notes.append)[0])
    left_out = [n for n in notes if "left out (an MJCF export would copy it)" in n]
    assert len(left_out) == 4, notes
    for name in (str(secret), "/etc/passwd", "../secret.txt", str(model / "link.png")):
        assert any(f"file {name!r}" in n and str(path) in n for n in left_out), (name, left_out)
    assert "<hfield name='h' file='/etc/passwd'" in " ".join(left_out)
    out = tmp_path / "out" / "robot.xml"
    out.parent.mkdir()
    copied, text = _export_and_copied(tree, out)
    assert copied == ["in.png"]
    assert "secret" not in text and "passwd" not in text and 'name="ok"' in text


def test_sdf_kept_fragments_are_vetted_too(tmp_path):
    from kinetree.core.io.sdf import import_sdf

    secret, _ = _secret_and_model(tmp_path)
    # the SDFormat folder tree is the folder holding the model folder: models/, not tmp_path
    path = write(tmp_path, f"""<sdf version="1.9"><model name="m"><mjcf><asset>
      <texture name="t" type="2d" file="{secret}"/></asset></mjcf><link name="a"/></model></sdf>""",
                 "models/robot/m.sdf")
    notes: list[str] = []
    tree = import_sdf(path, on_warning=notes.append)
    assert any(f"{path}: robot: kept MJCF <texture name='t'" in n and "left out" in n for n in notes), notes
    copied, _ = _export_and_copied(tree, tmp_path / "models" / "robot" / "out.xml")
    assert copied == []


def test_fragments_from_a_string_keep_no_absolute_file(tmp_path):
    from kinetree.core.io.urdf import read as urdf

    secret, _ = _secret_and_model(tmp_path)
    with pytest.warns(UserWarning, match=r"<texture name='t' .*absolute path and the model has no folder"):
        tree = urdf.urdf_from_string(URDF_KEPT.format(assets=f'<texture name="t" type="2d" file="{secret}"/>'))
    copied, _ = _export_and_copied(tree, tmp_path / "robot.xml")
    assert copied == []


def test_mjcf_textures_still_travel_through_a_project_in_the_same_folder(tmp_path):
    """What the MJCF import vetted (absolute paths in its folder tree) is kept by a project saved
    beside it and copied by the export."""
    from kinetree.core.io import load_project, save_project

    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8"
                        "cfc000000301010018dd8db00000000049454e44ae426082")
    (tmp_path / "grid.png").write_bytes(png)
    path = write(tmp_path, """<mujoco><asset><texture name="g" type="2d" file="grid.png"/>
      <material name="m" texture="g"/></asset><worldbody><body name="b"><joint/>
      <geom size=".1" material="m"/></body></worldbody></mujoco>""")
    save_project(import_mjcf(path), tmp_path / "p.kinetree.json")
    notes: list[str] = []
    tree, _ = load_project(tmp_path / "p.kinetree.json", on_warning=notes.append)
    assert notes == []
    out = tmp_path / "out" / "again.xml"
    out.parent.mkdir()
    copied, _ = _export_and_copied(tree, out)
    assert copied == ["grid.png"]
    import_mjcf(out)
