"""DH tables as the FK lecture prints them — a header row naming the columns (in the lecture's
order, with θ and α), ``pi/2`` or degrees in α, the joint variable as a symbol (θ1, d3) — read
into the same robots as the library's, and refused with row (line), column and text."""

from __future__ import annotations

import math

import numpy as np
import pytest
from kinetree.core import load_robot
from kinetree.core.errors import FileFormatError
from kinetree.core.io.dh_csv import read_dh_csv

# the lecture's tables, its symbolic constants given the library's values (a1 = 1, d1 = 0.5, …)
LECTURE_TABLES = {
    "two_link_planar": """Link\ta_i\tα_i\td_i\tθ_i
1\t1\t0\t0\tθ1
2\t0.5\t0\t0\tθ2
""",
    "cylindrical": """Link a α d θ
1 0 0 0.5 θ1
2 0 -pi/2 d2 0
3 0 0 d3 0
""",
    "spherical_wrist": """Link,a,alpha,d,theta
4,0,-pi/2,0,θ4
5,0,pi/2,0,θ5
6,0,0,0.1,θ6
""",
    "cylindrical_wrist": """Link\ta\tα\td\tθ
1\t0\t0\t0.5\tθ1
2\t0\t-90\td2\t0
3\t0\t0\td3\t0
4\t0\t-90°\t0\tθ4
5\t0\t90deg\t0\tθ5
6\t0\t0\t0.1\tθ6
""",
    # the lecture's Stanford table has its columns in another order: Link d a α θ
    "stanford_lecture": """Link\td_i\ta_i\tα_i\tθ_i
1\t0\t0\t-90\tθ1
2\t0.154\t0\t+90\tθ2
3\td3\t0\t0\t0
4\t0\t0\t-90\tθ4
5\t0\t0\t+90\tθ5
6\t0.263\t0\t0\tθ6
""",
    "scara": """Link a α d θ
1 0.4 0 0 θ1
2 0.3 pi 0 θ2
3 0 0 d3* 0
4 0 0 0.1 θ4
""",
}


def same_kinematics(a, b, seed: int = 3) -> None:
    assert [bd.joint.type for bd in a.bodies] == [bd.joint.type for bd in b.bodies]
    rng = np.random.default_rng(seed)
    for q in rng.uniform(-1.0, 1.0, size=(6, a.position_count)):
        np.testing.assert_allclose(a.forward_kinematics(q), b.forward_kinematics(q), atol=1e-12)


@pytest.mark.parametrize("name", sorted(LECTURE_TABLES))
def test_the_lectures_tables_read_as_the_library_robots(name):
    table = read_dh_csv(LECTURE_TABLES[name])
    same_kinematics(table.to_tree(), load_robot(name))


def test_latex_header_cells_and_angle_expressions():
    text = "$a_i$,$\\alpha_i$,$d_i$,$\\theta_i$,type,offset,name\n0,2*pi/3,0,$\\theta_1$,R,-pi/4,shoulder\n" \
           "0.2,-45deg,q2,0,P,0.1,slide\n"
    links = read_dh_csv(text).links
    assert [lk.joint for lk in links] == ["R", "P"]
    assert links[0].alpha == 2 * math.pi / 3 and links[0].offset == -math.pi / 4 and links[0].name == "shoulder"
    assert links[1].alpha == pytest.approx(-math.pi / 4, abs=1e-15) and links[1].offset == 0.1
    assert links[1].d == 0.0 and links[1].a == 0.2


@pytest.mark.parametrize("text, message", [
    ("a α d θ\n0 pi/ 0 θ1\n", "<text>:2: column 'α': 'pi/' is not a number (it ends too early)"),
    ("a α d θ\n0 0 0 θ1\n0 90m 0 θ2\n", "<text>:3: column 'α': '90m' is a length; this field takes an angle"),
    ("a α d θ\n0 0 0.5 0\n", "<text>:2: no joint variable in 'θ' ('0') or 'd' ('0.5')"),
    ("a α d θ\n0 0 d1 θ1\n", "<text>:2: columns 'θ' and 'd': both 'θ1' and 'd1' are symbols"),
    ("a α d θ\n0 0 d1 θ1*\n", "<text>:2: column 'd': 'd1' is not a number (a symbol; only the joint variable"),
    ("a α d θ\na1 0 0 θ1\n", "<text>:2: column 'a': 'a1' is not a number (a symbol"),
    ("a α d θ\n0 __import__('os') 0 θ1\n", "<text>:2: column 'α': \"__import__('os')\" is not a number"),
    ("a α d θ\n0 0 0 θ1\n0 1e999 0 θ2\n", "<text>:3: column 'α': '1e999' is not finite"),
    ("a α d φ\n0 0 0 θ1\n", "<text>:1: unknown column 'φ'"),
])
def test_refusals_name_the_line_the_column_and_the_text(text, message):
    with pytest.raises(FileFormatError) as exc:
        read_dh_csv(text)
    assert str(exc.value).startswith(message), str(exc.value)


def test_a_file_with_the_lecture_header_imports(tmp_path):
    from kinetree.core.io import import_robot

    path = tmp_path / "scara.csv"
    path.write_text(LECTURE_TABLES["scara"].replace(" ", ","), encoding="utf-8")
    same_kinematics(import_robot(path), load_robot("scara"))
