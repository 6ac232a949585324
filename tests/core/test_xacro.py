"""The restricted xacro expander (core/io/xacro/expand.py, core/io/xacro/eval.py): the xacro features,
refusal of code, environment and outside files, bounds, no state between imports, and a
comparison with ROS xacro (through xacrodoc, on trusted files only)."""

from __future__ import annotations

import os
import time
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import numpy as np
import pytest
from helpers.trees import hyp_settings
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core.errors import FileFormatError
from kinetree.core.io import import_robot
from kinetree.core.io.urdf.read import import_urdf, urdf_from_string
from kinetree.core.io.xacro.expand import XacroLimits, expand_xacro
from lxml import etree

NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
PACKAGE_XML = "<package><name>feat</name></package>"


def write(path: Path, body: str, root: str = '<robot name="t" ' + NS + ">") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'<?xml version="1.0"?>\n{root}\n{body}\n</robot>\n')
    return path


def expand(path: Path, **kw) -> etree._Element:
    return etree.fromstring(expand_xacro(path, **kw))


def attrs(root, xpath: str, attr: str) -> list[str]:
    return [e.get(attr) for e in root.iterfind(xpath)]


def err(path: Path, match: str, **kw) -> FileFormatError:
    with pytest.raises(FileFormatError, match=match) as info:
        expand_xacro(path, **kw)
    return info.value


# =============================================================================================
# features
# =============================================================================================

def test_properties_lazy_literal_and_text(tmp_path):
    p = write(tmp_path / "a.xacro", """
  <xacro:property name="L" value="${0.3 * scale}"/>
  <xacro:property name="scale" value="2"/>
  <xacro:property name="word" value="'quoted'"/>
  <xacro:property name="list" value="${[1, 2.5, 'x']}"/>
  <xacro:property name="flag" value="true"/>
  <a v="${L}" w="${word}" x="${list[1] * 2}" y="${flag and not False}" z="pre-${scale}-post"/>
  <b v="${sin(pi/2) + math.cos(0) + radians(180) - pi + degrees(0) + sqrt(4) + pow(2, 3) + atan2(0, 1)}"/>
  <c v="${max(1, 2) + min(3, 4) + abs(-1) + int(2.7) + float('1.5') + len('abc') + round(1.26, 1)}"/>
  <d v="${'a' in 'abc'} ${1 &lt; 2 &lt;= 2} ${3 // 2} ${7 % 3} ${-2 ** 2} ${1 if scale > 1 else 0} ${e > 2}"/>
  <t>${L} and $${L} and $$(arg x)</t>""")
    r = expand(p)
    assert attrs(r, "a", "v") == ["0.6"] and attrs(r, "a", "w") == ["quoted"]
    assert attrs(r, "a", "x") == ["5.0"] and attrs(r, "a", "y") == ["True"] and attrs(r, "a", "z") == ["pre-2-post"]
    assert float(r.find("b").get("v")) == pytest.approx(1 + 1 + 2 + 8)
    assert float(r.find("c").get("v")) == pytest.approx(2 + 3 + 1 + 2 + 1.5 + 3 + 1.3)
    assert r.find("d").get("v") == "True True 1 1 -4 1 True"
    assert r.find("t").text == "0.6 and ${L} and $(arg x)"


def test_property_scopes_defaults_remove(tmp_path):
    p = write(tmp_path / "a.xacro", """
  <xacro:property name="x" value="outer"/>
  <xacro:property name="x" default="ignored"/>
  <xacro:property name="fresh" default="d"/>
  <xacro:macro name="m" params="">
    <xacro:property name="x" value="inner"/>
    <xacro:property name="up" value="${x}-up" scope="parent"/>
    <xacro:property name="glob" value="g" scope="global"/>
    <in v="${x}"/>
  </xacro:macro>
  <xacro:m/>
  <out v="${x}" u="${up}" g="${glob}" f="${fresh}"/>
  <xacro:property name="gone" value="1"/>
  <xacro:property name="gone" remove="true"/>
  <xacro:property name="uses_gone" value="${gone}"/>""")
    r = expand(p)
    assert r.find("in").get("v") == "inner"
    assert [r.find("out").get(k) for k in "vugf"] == ["outer", "inner-up", "g", "d"]
    q = write(tmp_path / "b.xacro", p.read_text().split("\n", 2)[2].replace("</robot>", "<z v='${gone}'/>"))
    err(q, r"b\.xacro:\d+: <z>: attribute 'v': name 'gone' is not defined")


def test_macros_params_defaults_forward_blocks(tmp_path):
    p = write(tmp_path / "a.xacro", """
  <xacro:property name="outer" value="fw"/>
  <xacro:property name="f" value="${outer}"/>
  <xacro:macro name="m" params="name n:=1 s:='a b' f:=^ g:=^|dflt *first **rest">
    <el name="${name}" n="${n * 2}" s="${s}" f="${f}" g="${g}">
      <xacro:insert_block name="first"/>
      <inside><xacro:insert_block name="rest"/></inside>
    </el>
  </xacro:macro>
  <xacro:m name="one" n="3">
    <origin xyz="${outer}"/>
    <rest><a/><b/></rest>
  </xacro:m>
  <xacro:call macro="m" name="two"><first/><rest/></xacro:call>""")
    r = expand(p)
    one, two = r.findall("el")
    assert [one.get(k) for k in ("name", "n", "s", "f", "g")] == ["one", "6", "a b", "fw", "dflt"]
    assert [c.tag for c in one] == ["origin", "inside"] and one[0].get("xyz") == "fw"
    assert [c.tag for c in one.find("inside")] == ["a", "b"]
    assert two.get("n") == "2" and [c.tag for c in two] == ["first", "inside"]
    body = p.read_text().split("\n", 2)[2].replace("</robot>", "")
    for call, message in [
        ('<xacro:m name="x" bogus="1"><a/><b/></xacro:m>', "macro 'm' has no parameter 'bogus'"),
        ('<xacro:m><a/><b/></xacro:m>', "macro 'm': missing parameters name"),
        ('<xacro:m name="x"><a/></xacro:m>', r"not enough blocks for parameter '\*\*rest'"),
        ('<xacro:m name="x"><a/><b/><c/></xacro:m>', "unused block <c>"),
        ('<xacro:nope/>', "unknown macro name xacro:nope"),
    ]:
        bad = write(tmp_path / "bad.xacro", body + call)
        err(bad, r"bad\.xacro:\d+: <xacro:\w+>: (macro 'm': )?" + message)


def test_nested_and_recursive_macros_local_definitions(tmp_path):
    p = write(tmp_path / "a.xacro", """
  <xacro:macro name="chain" params="n">
    <xacro:if value="${n > 0}"><link name="l${n}"/><xacro:chain n="${n - 1}"/></xacro:if>
  </xacro:macro>
  <xacro:macro name="outer" params="">
    <xacro:macro name="helper" params="v"><h v="${v}"/></xacro:macro>
    <xacro:helper v="1"/>
  </xacro:macro>
  <xacro:chain n="4"/>
  <xacro:outer/>""")
    r = expand(p)
    assert attrs(r, "link", "name") == ["l4", "l3", "l2", "l1"] and attrs(r, "h", "v") == ["1"]
    q = write(tmp_path / "b.xacro", p.read_text().split("\n", 2)[2].replace("</robot>", "<xacro:helper v='2'/>"))
    err(q, "unknown macro name xacro:helper")  # defined inside a macro: local to it


def test_if_unless_element_attribute_args(tmp_path):
    p = write(tmp_path / "a.xacro", """
  <xacro:arg name="side" default="left"/>
  <xacro:arg name="on" default="1"/>
  <xacro:if value="true"><a/></xacro:if><xacro:if value="0"><b/></xacro:if>
  <xacro:unless value="${1 == 2}"><c/></xacro:unless><xacro:if value="$(arg on)"><d/></xacro:if>
  <xacro:property name="kind" value="link"/>
  <xacro:element xacro:name="${kind}" name="$(arg side)_x"><xacro:attribute name="extra" value="${1 + 1}"/>
  </xacro:element>
  <e v="$(eval 2 * on)"/>""")
    r = expand(p)
    assert [c.tag for c in r] == ["a", "c", "d", "link", "e"]
    assert r.find("link").get("name") == "left_x" and r.find("link").get("extra") == "2"
    assert r.find("e").get("v") == "2"
    assert expand(p, args={"side": "right", "on": "0"}).find("link").get("name") == "right_x"
    bad = write(tmp_path / "bad.xacro", '<xacro:if value="maybe"><a/></xacro:if>')
    err(bad, r"bad\.xacro:3: <xacro:if>: value 'maybe': 'maybe' is not a boolean")
    bad = write(tmp_path / "bad.xacro", '<a v="$(arg nope)"/>')
    err(bad, r"bad\.xacro:3: <a>: attribute 'v': undefined substitution argument \$\(arg nope\)")


YAML = "upper:\n  length: 0.45\n  radius: !millimeters 40\n  angle: !degrees 90\nlist: [1, 2, 3]\n"


def test_load_yaml_inside_folder_subscript_and_dotted(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "dims.yaml").write_text(YAML)
    p = write(tmp_path / "a.xacro", """
  <xacro:property name="d" value="${xacro.load_yaml('config/dims.yaml')}"/>
  <a l="${d['upper']['length']}" r="${d.upper.radius}" t="${d.upper.angle}" x="${d['list'][2]}"
     n="${load_yaml('config/dims.yaml')['list'][0]}"/>""")
    a = expand(p).find("a")
    assert [float(a.get(k)) for k in "lrtxn"] == [0.45, 0.04, pytest.approx(np.pi / 2), 3, 1]


def test_include_relative_to_including_file_from_any_cwd(tmp_path, monkeypatch):
    write(tmp_path / "robot" / "parts" / "leaf.xacro", '<xacro:macro name="leaf" params="n"><link name="${n}"/>'
          "</xacro:macro>", root=f"<robot {NS}>")
    write(tmp_path / "robot" / "parts" / "arm.xacro", '<xacro:include filename="leaf.xacro"/>'
          '<xacro:property name="from_arm" value="7"/>', root=f"<robot {NS}>")
    top = write(tmp_path / "robot" / "top" / "r.urdf.xacro", """
  <xacro:include filename="../parts/arm.xacro"/>
  <link name="base"/><xacro:leaf n="tip${from_arm}"/>
  <joint name="j" type="fixed"><parent link="base"/><child link="tip7"/></joint>""")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with pytest.raises(FileFormatError, match="'../parts/arm.xacro' is outside the xacro's folder"):
        import_urdf(top)  # above the xacro's folder: only inside its ROS package
    (tmp_path / "robot" / "package.xml").write_text("<package><name>robot</name></package>")
    for cwd in (elsewhere, top.parent, Path("/")):
        monkeypatch.chdir(cwd)
        assert import_urdf(top).body_names == ["tip7"]


def test_failed_include_does_not_change_next_import(tmp_path, monkeypatch):
    write(tmp_path / "ok" / "inc.xacro", '<link name="inc"/>', root=f"<robot {NS}>")
    good = write(tmp_path / "ok" / "good.xacro", '<link name="base"/><xacro:include filename="inc.xacro"/>'
                 '<joint name="j" type="fixed"><parent link="base"/><child link="inc"/></joint>')
    bad = write(tmp_path / "bad" / "bad.xacro", '<xacro:include filename="missing.xacro"/>')
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileFormatError, match=r"bad\.xacro:3: <xacro:include>: included file 'missing\.xacro' "
                                              r"not found \(.*bad/missing\.xacro\)"):
        import_urdf(bad)
    assert import_urdf(good).body_names == ["inc"]
    assert import_urdf(good).body_names == ["inc"]


def test_include_glob_optional(tmp_path):
    for n in ("b", "a", "c"):
        write(tmp_path / "parts" / f"p_{n}.xacro", f'<link name="{n}"/>', root=f"<robot {NS}>")
    p = write(tmp_path / "top.xacro", '<xacro:include filename="parts/p_*.xacro"/><xacro:include filename="none*.x"/>'
              '<xacro:include filename="missing.xacro" optional="true"/>')
    assert attrs(expand(p), "link", "name") == ["a", "b", "c"]


def test_include_namespace(tmp_path):
    write(tmp_path / "lib.xacro", """<xacro:property name="inner" value="int"/><xacro:property name="var" value="2"/>
  <xacro:macro name="bar" params="arg"><a arg="${arg}" var="${var}" ext="${ext}"/></xacro:macro>
  <xacro:property name="up" value="from_lib" scope="parent"/>""", root=f"<robot {NS}>")
    p = write(tmp_path / "top.xacro", """<xacro:include filename="lib.xacro" ns="B"/>
  <xacro:property name="ext" value="main"/><xacro:property name="var" value="main"/>
  <xacro:B.bar arg="${ext}"/><xacro:B.bar arg="${inner}"/>
  <v i="${B.inner}" u="${up}"/>""")
    r = expand(p)
    calls = [(a.get("arg"), a.get("var"), a.get("ext")) for a in r.iter("a")]
    assert calls == [("main", "2", "main"), ("int", "2", "main")]  # arguments evaluated in B, as ROS xacro
    assert r.find("v").get("i") == "int" and r.find("v").get("u") == "from_lib"
    bad = write(tmp_path / "bad.xacro", '<xacro:include filename="lib.xacro" ns="B"/><v v="${B.nope}"/><xacro:B.nope/>')
    err(bad, r"bad\.xacro:3: <v>: attribute 'v': namespace 'B' has no property 'nope'")
    bad = write(tmp_path / "bad.xacro", '<xacro:include filename="lib.xacro" ns="B"/><xacro:C.bar arg="1"/>')
    err(bad, r"bad\.xacro:3: <xacro:C\.bar>: unknown macro name xacro:C\.bar \('C' is not a namespace\)")


def test_find_and_package_include(tmp_path):
    pkg = tmp_path / "ws" / "my_pkg"
    write(pkg / "urdf" / "parts.xacro", '<xacro:macro name="p" params=""><link name="p"/></xacro:macro>',
          root=f"<robot {NS}>")
    (pkg / "config").mkdir()
    (pkg / "config" / "c.yaml").write_text("v: 5\n")
    (pkg / "package.xml").write_text("<package><name>my_pkg</name></package>")
    body = """<xacro:include filename="$(find my_pkg)/urdf/parts.xacro"/>
  <xacro:include filename="package://my_pkg/urdf/parts.xacro"/><xacro:p/>
  <v v="${load_yaml('$(find my_pkg)/config/c.yaml')['v']}"/>"""
    inside = write(pkg / "robots" / "r.xacro", body)  # found among the ancestors
    assert attrs(expand(inside), "v", "v") == ["5"]
    outside = write(tmp_path / "other" / "r.xacro", body)
    err(outside, r"r\.xacro:3: <xacro:include>: filename: package 'my_pkg' not found")
    assert attrs(expand(outside, package_paths=[tmp_path / "ws"]), "link", "name") == ["p"]


def test_included_file_errors_name_it_and_doctype_refused(tmp_path):
    write(tmp_path / "inc.xacro", '<xacro:macro name="m" params=""><a v="${nope}"/></xacro:macro>',
          root=f"<robot {NS}>")
    top = write(tmp_path / "top.xacro", '<xacro:include filename="inc.xacro"/>\n<xacro:m/>')
    e = err(top, r"top\.xacro: xacro expansion failed: .*inc\.xacro:3: <a>: attribute 'v': name 'nope'")
    assert str(e).count("\n") == 0
    (tmp_path / "dtd.xacro").write_text('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x "y">]>\n<robot/>')
    top = write(tmp_path / "top2.xacro", '<xacro:include filename="dtd.xacro"/>')
    err(top, r"dtd\.xacro:2: doctype: DTD and entity declarations are not allowed .*included from .*top2\.xacro:3")


def test_env_needs_opt_in(tmp_path, monkeypatch):
    monkeypatch.setenv("KT_XACRO_TEST", "from_env")
    p = write(tmp_path / "e.urdf.xacro", '<link name="$(env KT_XACRO_TEST)"/>'
              '<link name="$(optenv KT_XACRO_UNSET fallback)"/>'
              '<joint name="j" type="fixed"><parent link="from_env"/><child link="fallback"/></joint>')
    with pytest.raises(FileFormatError, match=r"e\.urdf\.xacro:3: <link>: attribute 'name': \$\(env KT_XACRO_TEST\): "
                                              r"reading environment variables is disabled; enable it with allow_env"):
        import_urdf(p)
    assert import_urdf(p, allow_env=True).base_name == "from_env"
    assert import_robot(p, allow_env=True).body_names == ["fallback"]


# =============================================================================================
# code, environment and outside files are refused
# =============================================================================================

ESCAPES = {
    "__class__": "${''.__class__.__mro__[1].__subclasses__()}",
    "__subclasses__": "${[].__class__.__base__.__subclasses__()[0]}",
    "__globals__": "${load_yaml.__globals__['os'].system('touch SENTINEL')}",
    "__builtins__": "${__builtins__['open']('SENTINEL', 'w')}",
    "vars": "${vars()['__builtins__']['open']('SENTINEL', 'w')}",
    "type": "${type('x', (), {})}",
    "getattr": "${getattr(getattr(sin, '__glob' + 'als__')['os'], 'system')('touch SENTINEL')}",
    "__import__": "${__import__('os').system('touch SENTINEL')}",
    "open": "${open('SENTINEL', 'w')}",
    "eval": "${eval('op' + 'en')('SENTINEL', 'w')}",
    "exec": "${exec('import os; os.system(\"touch SENTINEL\")')}",
    "lambda": "${(lambda: open('SENTINEL', 'w'))()}",
    "list comprehension": "${[open('SENTINEL', 'w') for x in [1]]}",
    "set comprehension": "${{open('SENTINEL', 'w') for x in [1]}}",
    "dict comprehension": "${{x: open('SENTINEL', 'w') for x in [1]}}",
    "generator expression": "${list(open('SENTINEL', 'w') for x in [1])}",
    "python.vars": "${python.vars(python.vars)['open']('SENTINEL', 'w')}",
    "python.type": "${python.type(python.vars)}",
    "python string keys": "${python['vars'](xacro)['load_yaml']}",
    "(1).__class__": "${(1).__class__}",
    "(1).real": "${(1).real}",
    "str.format": "${'touch SENTINEL'.format(open)}",
    "list method": "${[1].append(open('SENTINEL', 'w'))}",
    "str method on a non-string": "${(1).split()}",
    "f-string": "${f'x'}",
    "f-string with code": "${f'{open(\"SENTINEL\", \"w\")}'}",
    "xacro.abs_filename": "${xacro.abs_filename('/etc/passwd')}",
    "math module dict": "${math.__dict__}",
    "walrus": "${(x := 1)}",
    "keyword args": "${round(1.5, ndigits=1)}",
    "star args": "${max(*[1, 2])}",
}


@pytest.mark.parametrize("payload", list(ESCAPES.values()), ids=list(ESCAPES))
def test_code_payload_refused(tmp_path, payload):
    sentinel = tmp_path / "sentinel"
    text = payload.replace("SENTINEL", str(sentinel)).replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    p = write(tmp_path / "evil.xacro", f'<link name="{text}"/>')
    refused = "not allowed|not defined|invalid expression|only allowed on strings"
    with pytest.raises(FileFormatError, match=r"evil\.xacro: xacro expansion failed: .*evil\.xacro:3: <link>: "
                                              rf"attribute 'name': .*({refused})") as e:
        import_urdf(p)
    assert "\n" not in str(e.value)
    assert not sentinel.exists()


def test_env_home_refused_without_opt_in(tmp_path):
    p = write(tmp_path / "env.xacro", '<link name="$(env HOME)"/><link name="$(optenv HOME x)"/>')
    e = err(p, r"env\.xacro:3: <link>: attribute 'name': \$\(env HOME\): reading environment variables is disabled")
    assert f"'{os.environ.get('HOME')}'" not in str(e)


def test_load_yaml_hostile_content_refused(tmp_path):
    sentinel = tmp_path / "sentinel"
    laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
    evil = f'v: !!python/object/apply:os.system ["touch {sentinel}"]'
    for text, message in [(evil, "could not determine a constructor"),
                          (laughs, "more than 1000000 items"), ("a: &a [*a]", "a recursive alias"),
                          ("x" * (2**18 + 1), "file larger than 256 KB"), ("a: [", "expected")]:
        (tmp_path / "c.yaml").write_text(text)
        p = write(tmp_path / "y.xacro", '<a v="${load_yaml(\'c.yaml\')}"/>')
        t = time.perf_counter()
        err(p, r"y\.xacro:3: <a>: attribute 'v': load_yaml\('c\.yaml'\): .*" + message)
        assert time.perf_counter() - t < 3 and not sentinel.exists()


@pytest.mark.parametrize("name", ["/etc/passwd", "../../../../../../../etc/passwd", "package://etc/passwd"])
def test_load_yaml_outside_refused(tmp_path, name):
    p = write(tmp_path / "sub" / "y.xacro", f'<link name="${{load_yaml(\'{name}\')}}"/>')
    e = err(p, r"y\.xacro:3: <link>: attribute 'name': load_yaml\(.*\): .*(outside the xacro's folder|not found)")
    assert "root:" not in str(e)


def test_bounded_expressions(tmp_path):
    for expr, message in [("10 ** 10 ** 10", "exponent 10000000000 is larger than 10000"),
                          ("'x' * 10 ** 9", "longer than 10000000"),
                          ("[1] * 10 ** 8", "longer than 10000000"),
                          ("9 ** 9999 * 9 ** 9999 * 9 ** 9999 * 9 ** 9999", "larger than the 100000 allowed"),
                          ("'%999999999d' % 1", "string formatting with % is not allowed"),
                          ("1 / 0", "ZeroDivisionError"), ("(" * 300 + "1" + ")" * 300, "too deeply|invalid")]:
        p = write(tmp_path / "b.xacro", f'<a v="${{{expr}}}"/>')
        err(p, r"b\.xacro:3: <a>: attribute 'v': .*(" + message + ")")


def test_long_texts_and_pathological_params_refused_fast(tmp_path):
    p = write(tmp_path / "t.xacro", '<xacro:property name="s" value="${\'x\' * 10 ** 7}"/>\n<a v="${s}${s}"/>')
    err(p, r"t\.xacro:4: <a>: attribute 'v': text longer than 10000000 characters")
    # ROS xacro's parameter pattern backtracks exponentially on this (4 s for 24 characters)
    p = write(tmp_path / "r.xacro", '<xacro:macro name="m" params="a:=' + "x" * 5000 + '\'"/><xacro:m a="1"/>')
    t = time.perf_counter()
    err(p, r"r\.xacro:3: <xacro:m>: macro 'm' has no parameter 'a'")
    assert time.perf_counter() - t < 1


def test_property_doubling_and_cycles_refused(tmp_path):
    props = ['<xacro:property name="p0" value="xxxxxxxxxxxxxxxx"/>'] + [
        f'<xacro:property name="p{i}" value="${{p{i - 1} + p{i - 1}}}"/>' for i in range(1, 40)]
    p = write(tmp_path / "s.xacro", "\n".join(props) + '\n<a v="${p39}"/>')
    t = time.perf_counter()
    e = err(p, r"s\.xacro:43: <a>: attribute 'v': str of 16777216 items is longer than the 10000000 allowed "
               r"\(in '\$\{p19 \+ p19\}'\)$")
    assert time.perf_counter() - t < 5 and str(e).count("(in") == 1
    p = write(tmp_path / "c.xacro", '<xacro:property name="a" value="${b}"/><xacro:property name="b" value="${a}"/>'
              '<x v="${a}"/>')
    err(p, "circular property definition")


def macro_bomb(path: Path, leaf: str = '<link name="x"/>') -> Path:
    lines = [f'<xacro:macro name="m0">{leaf}</xacro:macro>']
    lines += [f'<xacro:macro name="m{i}"><xacro:m{i - 1}/><xacro:m{i - 1}/></xacro:macro>' for i in range(1, 31)]
    return write(path, "\n".join(lines) + "\n<xacro:m30/>")


@pytest.mark.parametrize("leaf", ['<link name="x"/>', ""], ids=["elements", "empty"])
def test_macro_doubling_bomb_refused_in_time(tmp_path, leaf):
    p = macro_bomb(tmp_path / "bomb.xacro", leaf)
    assert p.stat().st_size < 2200
    t = time.perf_counter()
    with pytest.raises(FileFormatError, match=r"bomb\.xacro: xacro expansion failed: .*bomb\.xacro:\d+: "
                                              r"<[\w:]+>: (expansion takes longer than 5 s|output exceeds)"):
        import_urdf(p)
    assert time.perf_counter() - t < 6.5


def test_limits_elements_bytes_depth(tmp_path):
    p = macro_bomb(tmp_path / "bomb.xacro")
    err(p, "output exceeds 1000 elements", limits=XacroLimits(max_elements=1000))
    err(p, "output exceeds 0 MB", limits=XacroLimits(max_bytes=1000))
    deep = write(tmp_path / "deep.xacro", '<xacro:macro name="r" params="n"><xacro:r n="${n+1}"/></xacro:macro>'
                 '<xacro:r n="0"/>')
    err(deep, r"deep\.xacro:3: <xacro:r>: macros nested deeper than 100")
    loop = write(tmp_path / "loop.xacro", '<xacro:include filename="loop.xacro"/>')
    err(loop, r"loop\.xacro:3: <xacro:include>: includes nested deeper than 20")
    block = write(tmp_path / "blk.xacro", '<xacro:property name="b"><xacro:insert_block name="b"/></xacro:property>'
                  '<xacro:insert_block name="b"/>')
    err(block, "nested deeper than 100")


FUZZ_TOKENS = ["${", "}", "$(", ")", "$$", "'", '"', "<", ">", "/>", "xacro:", "*", "**", "^|", ":=", "__", ".", "[",
               "]", "(", "0", "1e308", "-", "pi", "L", "scale", "\x00", "&amp;", " ", "insert_block", "macro", "if",
               "property", 'name="x"', 'value="${L}"', "params=", "include", "load_yaml('x')", "10**", "'a'*", "python",
               "lambda", "[x for x in 'ab']", "$(env HOME)", "$(arg prefix)", "split()"]


@given(st.data())
@hyp_settings(max_examples=150, shrink=False)
def test_mutated_xacros_give_a_tree_or_one_file_format_error(tmp_path_factory, data):
    root = tmp_path_factory.mktemp("fuzz")
    for name, body in FEATURES.items():
        write(root / name, body, root=f'<robot name="feat" {NS}>' if name.startswith("robots/arm") else
              f"<robot {NS}>")
    (root / "package.xml").write_text(PACKAGE_XML)  # robots/ includes ../urdf/: inside the package
    target = root / data.draw(st.sampled_from(sorted(FEATURES)))
    text = target.read_text()
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(text) - 1))
        cut = data.draw(st.integers(0, 8))
        text = text[:pos] + data.draw(st.sampled_from(FUZZ_TOKENS)) + text[pos + cut:]
    target.write_text(text)
    t = time.perf_counter()
    try:
        etree.fromstring(expand_xacro(root / "robots" / "arm.urdf.xacro", limits=XacroLimits(timeout=2)))
    except FileFormatError as e:
        assert "\n" not in str(e) and "xacro" in str(e)
    assert time.perf_counter() - t < 4


def test_cli_refuses_payload_with_one_line(tmp_path, capsys):
    from kinetree.app.main import main

    sentinel = tmp_path / "sentinel"
    p = write(tmp_path / "evil.urdf.xacro", f'<link name="${{__import__(\'os\').system(\'touch {sentinel}\')}}"/>')
    assert main(["details", str(p)]) == 1
    out = capsys.readouterr()
    assert out.out == "" and out.err.count("\n") == 1
    assert out.err.startswith("kinetree details: ") and "call of '(__import__('os')).system' is not allowed" in out.err
    assert not sentinel.exists()
    env = write(tmp_path / "env.urdf.xacro", '<link name="$(env HOME)"/>')
    assert main(["details", str(env)]) == 1
    assert "--allow-env" in capsys.readouterr().err
    assert main(["details", "--allow-env", str(env)]) == 0


# =============================================================================================
# against ROS xacro (trusted files only) and the xacro shipped by example-robot-data
# =============================================================================================

def body_poses(tree, q) -> dict[str, np.ndarray]:
    return {b: tree.get_transform(q, b) for b in [tree.base_name, *tree.body_names]}


FEATURES = {
    "robots/arm.urdf.xacro": """
  <xacro:arg name="prefix" default="r_"/>
  <xacro:property name="L" value="${0.3 * scale}"/>
  <xacro:property name="scale" value="2"/>
  <xacro:property name="origin_blk"><origin xyz="0 0 ${L}" rpy="0 ${radians(30)} 0"/></xacro:property>
  <xacro:include filename="../urdf/common.xacro"/>
  <xacro:include filename="sub/legs.xacro"/>
  <link name="$(arg prefix)base"/>
  <xacro:seg name="$(arg prefix)a" parent="$(arg prefix)base" length="${L}">
    <origin xyz="0 0 0.1" rpy="0 0 ${pi/4}"/><geom><box size="0.1 0.1 ${L}"/></geom>
  </xacro:seg>
  <xacro:seg name="$(arg prefix)b" parent="$(arg prefix)a" length="0.45" axis="1 0 0">
    <xacro:insert_block name="origin_blk"/><geom><cylinder radius="0.04" length="0.45"/></geom>
  </xacro:seg>
  <xacro:leg side="left" reflect="1" parent="$(arg prefix)b"/>
  <xacro:leg side="right" reflect="-1" parent="$(arg prefix)b"/>
  <xacro:unless value="${scale == 2}"><link name="never"/></xacro:unless>
  <xacro:property name="jt" value="fixed"/>
  <xacro:element xacro:name="link" name="extra_${jt}"><xacro:attribute name="dummy" value="v${1+1}"/></xacro:element>
  <joint name="extra_j" type="${jt}"><parent link="$(arg prefix)base"/><child link="extra_${jt}"/>
    <origin xyz="${'1 2 3' if True else '0 0 0'}" rpy="0 0 ${-math.pi/2}"/></joint>""",
    "urdf/common.xacro": """
  <xacro:macro name="seg" params="name parent length:=0.2 axis:='0 0 1' *origin **geom">
    <link name="${name}"><visual><geometry><xacro:insert_block name="geom"/></geometry></visual>
      <inertial><mass value="${length*2}"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/>
      </inertial></link>
    <joint name="${name}_joint" type="revolute"><parent link="${parent}"/><child link="${name}"/>
      <xacro:insert_block name="origin"/><axis xyz="${axis}"/>
      <limit lower="${-pi}" upper="${pi}" effort="1" velocity="1"/></joint>
  </xacro:macro>""",
    "robots/sub/legs.xacro": """
  <xacro:include filename="foot.xacro"/>
  <xacro:macro name="leg" params="side reflect parent">
    <xacro:property name="hip" value="${0.1*reflect}"/>
    <link name="${side}_thigh"/>
    <joint name="${side}_hip" type="revolute"><parent link="${parent}"/><child link="${side}_thigh"/>
      <origin xyz="0 ${hip} 0" rpy="${reflect*pi/2} 0 0"/><axis xyz="0 1 0"/>
      <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
    <xacro:foot side="${side}"/>
  </xacro:macro>""",
    "robots/sub/foot.xacro": """
  <xacro:property name="foot_len" value="0.07"/>
  <xacro:macro name="foot" params="side foot_len:=^|0.05">
    <link name="${side}_foot"/>
    <joint name="${side}_ankle" type="prismatic"><parent link="${side}_thigh"/><child link="${side}_foot"/>
      <origin xyz="${foot_len} 0 ${-hip}"/><axis xyz="0 0 1"/>
      <limit lower="0" upper="${foot_len}" effort="1" velocity="1"/></joint>
  </xacro:macro>""",
}


def sorted_xml(data: bytes) -> bytes:
    root = etree.fromstring(data, etree.XMLParser(remove_blank_text=True, remove_comments=True))
    for el in root.iter():
        items = sorted(el.attrib.items())
        el.attrib.clear()
        el.attrib.update(items)
        el.text = el.text.strip() or None if el.text else None
        el.tail = None
    return etree.tostring(root)


def test_same_as_ros_xacro(tmp_path, monkeypatch, rng):
    xacrodoc = pytest.importorskip("xacrodoc")
    for name, body in FEATURES.items():
        write(tmp_path / name, body, root=f'<robot name="feat" {NS}>' if name.startswith("robots/arm") else
              f"<robot {NS}>")
    (tmp_path / "package.xml").write_text(PACKAGE_XML)
    top = tmp_path / "robots" / "arm.urdf.xacro"
    mine = expand_xacro(top)
    monkeypatch.chdir(top.parent)  # ROS xacro resolves relative includes against the current folder
    ros = xacrodoc.XacroDoc.from_file(str(top)).to_urdf_string().encode()
    assert sorted_xml(mine) == sorted_xml(ros)
    a, b = urdf_from_string(mine), urdf_from_string(ros)
    assert a.body_names == b.body_names and len(a.body_names) == 7
    for _ in range(5):
        q = rng.uniform(-1, 1, a.position_count)
        pa, pb = body_poses(a, q), body_poses(b, q)
        assert all(np.abs(pa[k] - pb[k]).max() <= 1e-12 for k in pa)


try:
    ROBOTS = Path(distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots"))
except PackageNotFoundError:
    ROBOTS = None
needs_erd = pytest.mark.skipif(ROBOTS is None or not ROBOTS.is_dir(), reason="example-robot-data is not installed")


@needs_erd
def test_example_robot_data_hector_macro_matches_shipped_urdf(tmp_path):
    hector = ROBOTS / "hector_description" / "robots"
    include = f'<xacro:include filename="{hector / "quadrotor_base.urdf.xacro"}"/>'
    wrapper = write(tmp_path / "hector.urdf.xacro", include + "<xacro:quadrotor_base_macro/>",
                    root=f'<robot name="hector" {NS}>')
    mine = import_urdf(wrapper, package_paths=[ROBOTS.parent.parent])
    shipped = import_urdf(hector / "quadrotor_base.urdf", package_paths=[ROBOTS.parent.parent])
    assert mine.base_name == shipped.base_name == "base_link" and mine.base.mass == shipped.base.mass
    assert [v.filename for v in mine.base.visuals] == [v.filename for v in shipped.base.visuals]
    assert mine.base.visuals[0].filename.endswith("quadrotor_base.dae")


@needs_erd
def test_example_robot_data_xacro_with_broken_include(tmp_path):
    # the shipped quadrotor_base.xacro includes .../hector_description/urdf/…, a folder the package does not have
    path = ROBOTS / "hector_description" / "robots" / "quadrotor_base.xacro"
    with pytest.raises(FileFormatError, match=r"quadrotor_base\.xacro:3: <xacro:include>: included file "
                                              r"'package://example-robot-data/robots/hector_description/urdf/"
                                              r"quadrotor_base\.urdf\.xacro' not found"):
        import_urdf(path)
