"""The documentation stays honest: README, the user guide (``resources/guide/*.md``, which the app
shows under Help ▸ User guide) and CONTRIBUTING link only to files and headings that exist,
README's command table lists exactly the CLI's commands, README stays short, and the guide's
Python examples run (one marked ``<!-- docs-test: skip (why) -->`` just above it is not run:
it needs a display, a file of the reader's or an optional package)."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "resources" / "guide"
DOCS = [ROOT / "README.md", *sorted(GUIDE.glob("*.md")), ROOT / ".github" / "CONTRIBUTING.md"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
SKIP = re.compile(r"<!-- docs-test: skip \((.+)\) -->")
README_MAX_LINES = 150


def prose(text: str) -> str:
    """``text`` without its fenced code blocks and inline code (no links are read there)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    headings = re.findall(r"^#{1,6} (.+)$", re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"),
                                                      flags=re.M | re.S), flags=re.M)
    return {slug(h) for h in headings}


def links(path: Path) -> list[str]:
    return LINK.findall(prose(path.read_text(encoding="utf-8")))


def broken_links(path: Path) -> list[str]:
    """The relative links of ``path`` whose file or ``#anchor`` does not exist."""
    bad = []
    for target in links(path):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        if not resolved.exists():
            bad.append(f"{target} (no file {resolved})")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            bad.append(f"{target} (no heading #{anchor} in {resolved.name})")
    return bad


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path):
    assert path.exists()
    assert not broken_links(path), f"{path.relative_to(ROOT)}: broken links {broken_links(path)}"


@pytest.mark.parametrize("path", sorted(GUIDE.glob("*.md")), ids=lambda p: p.name)
def test_the_guide_links_only_to_what_ships_with_it(path):
    """The app shows the installed guide: a link out of ``resources/`` (to tests/, .github/) would
    be dead there."""
    outside = [t for t in links(path) if not re.match(r"[a-z]+:", t) and t.partition("#")[0]
               and not (path.parent / t.partition("#")[0]).resolve().is_relative_to(ROOT / "resources")]
    assert not outside, f"{path.name} links out of resources/: {outside}"


def test_the_link_check_sees_a_broken_file_and_a_broken_anchor(tmp_path):
    (tmp_path / "b.md").write_text("# Real heading: `x.y`\n", encoding="utf-8")
    page = tmp_path / "a.md"
    page.write_text("[ok](b.md#real-heading-xy) [gone](c.md) [nohead](b.md#other) ![img](p.png) "
                    "`[code](ignored.md)`\n```\n[fenced](ignored.md)\n```\n", encoding="utf-8")
    assert [b.split()[0] for b in broken_links(page)] == ["c.md", "b.md#other", "p.png"]


def test_the_guide_index_lists_every_guide_page():
    listed = {t for t in links(GUIDE / "index.md") if t.endswith(".md")}
    assert listed == {p.name for p in GUIDE.glob("*.md")} - {"index.md"}


def commands_in_table(text: str, section: str) -> list[str]:
    """The command names (``kinetree NAME …``) of the first column of the table in ``section``."""
    body = re.split(rf"^#+ {re.escape(section)}$", text, maxsplit=1, flags=re.M)[1]
    body = re.split(r"^#+ ", body, maxsplit=1, flags=re.M)[0]
    return re.findall(r"^\| `kinetree ([a-z]+)\b", body, flags=re.M)


def cli_commands() -> set[str]:
    """The commands ``kinetree --help`` lists, from the parser the CLI builds."""
    from kinetree.app.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def test_readmes_command_table_is_the_clis_command_list():
    readme = commands_in_table((ROOT / "README.md").read_text(encoding="utf-8"), "Command line")
    assert len(readme) == len(set(readme)), f"a command listed twice: {readme}"
    commands = cli_commands()
    assert set(readme) == commands, f"missing {commands - set(readme)}, not a command {set(readme) - commands}"
    guide = commands_in_table((GUIDE / "cli.md").read_text(encoding="utf-8"), "Command line (no window)")
    assert set(guide) == commands, "resources/guide/cli.md's table"


def test_readme_stays_a_two_minute_read():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README has {len(lines)} lines: move the detail into resources/guide/"


def python_examples() -> list:
    """Every ```python block of README and the guide, as a pytest param (skipped when marked)."""
    params = []
    for path in [ROOT / "README.md", *sorted(GUIDE.glob("*.md"))]:
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if line.strip() != "```python":
                continue
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            skip = SKIP.search(before)
            marks = [pytest.mark.skip(reason=f"marked in the guide: {skip.group(1)}")] if skip else []
            params.append(pytest.param("\n".join(lines[i + 1:end]), marks=marks,
                                       id=f"{path.relative_to(ROOT).as_posix()}:{i + 1}"))
    return params


@pytest.mark.parametrize("code", python_examples())
def test_the_guides_python_examples_run(code, tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "MPLBACKEND": "Agg"}
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]


def test_the_guide_ships_in_the_wheel():
    """Help ▸ User guide reads the installed resources: the wheel must carry the guide's pages."""
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "kinetree.resources.guide" in setuptools["packages"]
    assert setuptools["package-data"]["kinetree.resources.guide"] == ["*"]
