"""The exported web page: its size, the export time, load-to-first-frame in headless Chromium
(Debian's chromium + chromedriver, software WebGL) and a joint move to a redrawn frame.

    python tests/benchmarks/bench_web_page.py [--shots DIR]

Load-to-first-frame is ``performance.now()`` when the page's first render returned (from the
start of navigation); a move is setJoint → forward kinematics, readout, render (the page's
``frameTime()``: the move's kinematics and readout plus the drawing), median of 50: "move" until
the frame is submitted, "drawn" until its pixels are (a one-pixel read waits for the GPU, here
SwiftShader on the CPU), "latency" from the move to the drawn frame (``frameLatency()``: the wait
for the display's next frame included; the page draws once per display frame), median and max. A move's
frame is a quick one (half resolution, no MSAA; "quick" counts them: a drag's frames); "still" is the
full-quality frame the page draws once the joints rest, until its pixels are drawn.
``--shots`` saves a 1280×800 screenshot of each page."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from kinetree.core import import_robot, load_robot
from kinetree.core.io.web_page import write_web_page

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for helpers
from helpers.urdf import EXAMPLE_ROBOTS

NEXT_FRAME = "window.kinetree.nextFrame().then(arguments[arguments.length - 1])"
SETTLED = "window.kinetree.settled().then(arguments[arguments.length - 1])"
# a move and its frame's figures, read as it is drawn (a later read may find the still frame drawn since)
MOVE = ("const k = window.kinetree, done = arguments[arguments.length - 1]; k.setJoint(arguments[0], arguments[1]); "
        "k.nextFrame().then(() => done([k.frameTime(), k.frameLatency(), k.frameInfo().kind]))")


def robots():
    yield "puma560", load_robot("puma560")
    yield "panda", load_robot("panda")
    if EXAMPLE_ROBOTS is not None:
        for key, rel in (("talos", "talos_data/robots/talos_full_v2.urdf"),
                         ("panda_urdf", "panda_description/urdf/panda.urdf"),
                         ("allegro", "allegro_hand_description/urdf/allegro_left_hand.urdf")):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                yield key, import_robot(EXAMPLE_ROBOTS / rel, package_paths=(str(EXAMPLE_ROBOTS),))


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader"):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    return d


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shots", help="folder for 1280x800 screenshots")
    args = ap.parse_args()
    d = browser()
    folder = Path(tempfile.mkdtemp())
    warm = folder / "warm.html"  # the browser's first page pays its own start-up: not the page's time
    write_web_page(load_robot("two_link_planar"), warm)
    d.get(warm.as_uri())
    print(f"{'robot':<12}{'MB':>7}{'export s':>10}{'first frame ms':>16}{'move ms':>9}{'drawn ms (max)':>16}"
          f"{'latency ms (max)':>18}{'still ms':>10}{'quick':>7}  notes")
    try:
        for key, tree in robots():
            path = folder / f"{key}.html"
            t = time.perf_counter()
            notes = write_web_page(tree, path)
            export = time.perf_counter() - t
            d.get("about:blank")
            d.get(path.as_uri())
            d.execute_async_script(NEXT_FRAME)
            first = d.execute_script("return window.kinetree.firstFrameAt()")
            name = tree.movable_joint_names[0]
            j = d.execute_script("return window.kinetree.joints()")[0]
            moves, synced, latency, quick = [], [], [], 0
            for sync, out in ((False, moves), (True, synced)):
                d.execute_script("window.kinetree.syncFrames(arguments[0])", sync)
                for v in np.linspace(j["min"], j["max"], 50):
                    took, waited, kind = d.execute_async_script(MOVE, name, float(v))
                    out.append(took)
                    if sync:
                        latency.append(waited)
                        quick += kind == "quick"
            d.execute_async_script(SETTLED)
            still = d.execute_script("return window.kinetree.frameTime()")
            d.execute_script("window.kinetree.setJoint(arguments[0], arguments[1])", name,
                             float(tree.home_configuration()[0]))
            d.execute_async_script(SETTLED)
            if args.shots:
                d.save_screenshot(os.path.join(args.shots, f"web_{key}.png"))
            print(f"{key:<12}{path.stat().st_size / 1e6:>7.2f}{export:>10.2f}{first:>16.0f}"
                  f"{statistics.median(moves):>9.1f}{statistics.median(synced):>9.1f} ({max(synced):>4.0f})"
                  f"{statistics.median(latency):>11.1f} ({max(latency):>4.0f}){still:>10.1f}{quick:>4}/50  "
                  f"{'; '.join(notes)[:200]}")
    finally:
        d.quit()


if __name__ == "__main__":
    main()
