"""The compiled kernels are compiled (or loaded) ahead of their first use."""

import numpy as np
import pytest
from kinetree.core import Simulator, load_robot
from kinetree.core.compiled_warmup import warm_up
from kinetree.core.kinematics.plan import compiled_backend


def test_warm_up_compiles_the_simulator_step_and_the_dynamics_kernels():
    if compiled_backend() is None:
        assert warm_up() == 0.0
        return
    from kinetree.core.dynamics import compiled as dynamics_numba
    from kinetree.core.simulation import compiled as simulation_numba

    assert warm_up() > 0.0
    assert simulation_numba.simulate.signatures
    assert dynamics_numba.cholesky_solve.signatures
    from kinetree.core.kinematics import loops_compiled as loops_numba

    assert loops_numba._solve.signatures  # the closed-loop solver: the Delta uses what the four-bar compiled
    delta = load_robot("delta_robot")
    delta.solve_loops(delta.home_configuration())
    assert len(loops_numba._solve.signatures) == 1
    # what the warm-up compiled is what another robot (mimic joints, no motors) uses too
    tree = load_robot("humanoid_upper_body")
    before = len(simulation_numba.simulate.signatures)
    Simulator(tree, np.zeros(tree.position_count)).step(3)
    assert len(simulation_numba.simulate.signatures) == before
    # a looped robot's step (its stages, loop terms and KKT solve): compiled by the four-bar's, used by the Delta's
    kernels = (dynamics_numba.loop_stage, loops_numba._complex_terms, loops_numba.kkt)
    assert all(len(k.signatures) == 1 for k in kernels)
    delta.gravity = (0.0, 0.0, -9.81)
    Simulator(delta, delta.home_configuration()).step(3)
    assert all(len(k.signatures) == 1 for k in kernels)


def test_the_gui_warms_up_on_a_thread():
    pytest.importorskip("PySide6")
    from kinetree.app.main import warm_up_in_background

    thread = warm_up_in_background()
    assert thread.daemon
    thread.join(timeout=600)
    assert not thread.is_alive()


def test_while_the_background_warm_up_runs_an_uncompiled_kernel_is_not_compiled_on_the_callers_thread(monkeypatch):
    """The app's first loop solve on a fresh install takes the numpy path instead of freezing the
    window for the kernel's compilation; the warm-up's own thread, and everyone once it is done,
    use the kernel."""
    import threading

    from kinetree.core import compiled_warmup as cw

    class Kernel:
        signatures: list = []

    release = threading.Event()
    seen = {}
    worker = threading.Thread(target=lambda: (seen.setdefault("on_warm_up", cw.may_compile(Kernel)), release.wait(5)))
    monkeypatch.setattr(cw, "_thread", [worker])
    monkeypatch.setattr(cw, "_done", threading.Event())
    worker.start()
    try:
        assert not cw.may_compile(Kernel)  # the caller (the GUI thread): numpy meanwhile
        Kernel.signatures = ["(float64[:],)"]
        assert cw.may_compile(Kernel)  # compiled (or loaded from the cache) meanwhile
        Kernel.signatures = []
        cw._done.set()
        assert cw.may_compile(Kernel)  # the warm-up is over
    finally:
        release.set()
        worker.join()
    assert seen["on_warm_up"] is True
    monkeypatch.setattr(cw, "_thread", [])
    monkeypatch.setattr(cw, "_done", threading.Event())
    assert cw.may_compile(Kernel)  # no background warm-up (a script): compile at first use
