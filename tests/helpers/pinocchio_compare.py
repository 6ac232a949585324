"""Comparison with Pinocchio for the dynamics tests: a tree rebuilt joint by joint in Pinocchio,
and ``compare`` (RNEA, CRBA, nonLinearEffects, gravity, ABA, frame Jacobians and their time
variation, the centre-of-mass Jacobian)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from kinetree.core import RigidBodyTree, import_robot

from helpers.urdf import EXAMPLE_ROBOTS, REAL_URDFS

pin = pytest.importorskip("pinocchio")
G = np.array([0.0, 0.0, -9.81])


def inertia_about_com(b):
    i = np.asarray(b.inertia, dtype=float)
    I = np.array([[i[0], i[5], i[4]], [i[5], i[1], i[3]], [i[4], i[3], i[2]]])
    c = np.asarray(b.center_of_mass, dtype=float)
    return I - b.mass * (c @ c * np.eye(3) - np.outer(c, c))


def pinocchio_model(tree: RigidBodyTree):
    """The tree in Pinocchio joint by joint, true inertias (fixed joints fold into their parent)."""
    model = pin.Model()
    where = {tree.base_name: (0, np.eye(4))}
    for b in tree.bodies:
        jid, P = where[tree.parent_name(b.name)]
        j = b.joint
        if j.type == "fixed":
            where[b.name] = (jid, P @ j.joint_to_parent_transform @ j.child_to_joint_transform)
        else:
            # floating = 3 prismatic joints along the parent-side axes + a spherical joint; planar =
            # prismatic x, y + revolute z: exactly KineTree's velocities (ṗ in the parent-side frame)
            chain = {"floating": [("x", pin.JointModelPrismaticUnaligned(1, 0, 0)),
                                  ("y", pin.JointModelPrismaticUnaligned(0, 1, 0)),
                                  ("z", pin.JointModelPrismaticUnaligned(0, 0, 1)), ("", pin.JointModelSpherical())],
                     "planar": [("x", pin.JointModelPrismaticUnaligned(1, 0, 0)),
                                ("y", pin.JointModelPrismaticUnaligned(0, 1, 0)),
                                ("", pin.JointModelRevoluteUnaligned(0, 0, 1))],
                     "spherical": [("", pin.JointModelSpherical())]}.get(j.type)
            if chain is None:
                make = pin.JointModelRevoluteUnaligned if j.type == "revolute" else pin.JointModelPrismaticUnaligned
                chain = [("", make(*j.axis))]
            placement = P @ j.joint_to_parent_transform
            for suffix, jm in chain:
                jid = model.addJoint(jid, jm, pin.SE3(placement), j.name + suffix)
                placement = np.eye(4)
            where[b.name] = (jid, j.child_to_joint_transform)
        if where[b.name][0]:
            model.appendBodyToJoint(where[b.name][0], pin.Inertia(b.mass, np.asarray(b.center_of_mass, float),
                                                                   inertia_about_com(b)), pin.SE3(where[b.name][1]))
        model.addFrame(pin.Frame(b.name, where[b.name][0], pin.SE3(where[b.name][1]), pin.FrameType.OP_FRAME))
    model.gravity.linear = tree.gravity
    return model


def symmetric(M):
    return np.triu(M) + np.triu(M, 1).T


def compare(tree, model, to_pin, n=4, seed=0, tol=1e-9, order=None, dj_by_difference=False):
    """Our values against Pinocchio's; ``order[k]``: Pinocchio's velocity index of our DoF k.
    ``dj_by_difference``: compare the Jacobians' time variation with the central difference of
    Pinocchio's frame Jacobians along ``qd`` (Pinocchio's own ``getFrameJacobianTimeVariation``
    leaves out the ``Ṡ`` of a JointModelComposite whose motion subspace turns with q)."""
    data = model.createData()
    o = np.arange(model.nv) if order is None else np.asarray(order)
    mimic = any(model.joints[j].shortname() == "JointModelMimic" for j in range(1, model.njoints))

    def spread(v):
        out = np.zeros(model.nv)
        out[o] = v
        return out

    rng = np.random.default_rng(seed)
    for _ in range(n):
        q = tree.random_configuration(rng)
        qp = to_pin(q)
        qd, qdd = rng.normal(size=tree.dof_count), rng.normal(size=tree.dof_count)
        ref = pin.rnea(model, data, qp, spread(qd), spread(qdd))[o]
        np.testing.assert_allclose(tree.inverse_dynamics(q, qd, qdd), ref, atol=tol)
        M, Mp = tree.mass_matrix(q), symmetric(pin.crba(model, data, qp))[np.ix_(o, o)]
        np.testing.assert_allclose(M, Mp, atol=tol)
        np.testing.assert_allclose(M, M.T, atol=0)
        assert np.linalg.eigvalsh(M).min() > 0
        nle = pin.nonLinearEffects(model, data, qp, spread(qd))[o]
        grav = pin.computeGeneralizedGravity(model, data, qp)[o]
        np.testing.assert_allclose(tree.velocity_product(q, qd), nle - grav, atol=tol)
        tau = rng.normal(size=tree.dof_count)
        if mimic:  # Pinocchio's aba has no mimic joints
            ref = np.linalg.solve(Mp, tau - nle)
        else:
            ref = pin.aba(model, data, qp, spread(qd), spread(tau))[o]
        for method in ("aba", "cholesky"):
            fd = tree.forward_dynamics(q, qd, tau, method=method)
            np.testing.assert_allclose(fd, ref, atol=tol * 10, rtol=1e-8)
        if not mimic:  # Pinocchio's frame Jacobians of mimic models are checked by our own means
            compare_jacobians(tree, model, data, q, qp, qd, spread(qd), o, tol, dj_by_difference)


def _frame_jacobian(model, data, qp, fid):
    pin.computeJointJacobians(model, data, qp)
    pin.updateFramePlacements(model, data)
    return pin.getFrameJacobian(model, data, fid, pin.LOCAL_WORLD_ALIGNED).copy()


def compare_jacobians(tree, model, data, q, qp, qd, qdp, o, tol, dj_by_difference=False):
    """Every body's velocity-space Jacobian and its time variation against Pinocchio's frame
    Jacobians (LOCAL_WORLD_ALIGNED: rows [v; ω], ours [ω; v]), and the centre-of-mass Jacobian
    weighted by the mass (Pinocchio's total leaves out what our helper model does not carry)."""
    pin.computeJointJacobians(model, data, qp)
    pin.computeJointJacobiansTimeVariation(model, data, qp, qdp)
    pin.updateFramePlacements(model, data)
    swap = [3, 4, 5, 0, 1, 2]
    for b in tree.bodies:
        kind = next((k for k in (pin.FrameType.BODY, pin.FrameType.OP_FRAME) if model.existFrame(b.name, k)), None)
        if kind is None:
            continue
        fid = model.getFrameId(b.name, kind)
        np.testing.assert_allclose(data.oMf[fid].homogeneous,
                                   tree.forward_kinematics(q)[tree.index_of(b.name)], atol=tol)
        Jp = pin.getFrameJacobian(model, data, fid, pin.LOCAL_WORLD_ALIGNED)[swap][:, o]
        np.testing.assert_allclose(tree.geometric_jacobian(q, b.name, space="velocities"), Jp, atol=tol)
        dJp = pin.getFrameJacobianTimeVariation(model, data, fid, pin.LOCAL_WORLD_ALIGNED)[swap][:, o]
        if dj_by_difference:
            h = 1e-6
            dJp = ((_frame_jacobian(model, data, pin.integrate(model, qp, h * qdp), fid)
                    - _frame_jacobian(model, data, pin.integrate(model, qp, -h * qdp), fid)) / (2 * h))[swap][:, o]
            _frame_jacobian(model, data, qp, fid)  # back at qp for the next body
            np.testing.assert_allclose(tree.jacobian_dot(q, qd, b.name), dJp, atol=1e-6)
            continue
        np.testing.assert_allclose(tree.jacobian_dot(q, qd, b.name), dJp, atol=tol * 10)
    Jc = pin.jacobianCenterOfMass(model, data, qp) * data.mass[0]
    np.testing.assert_allclose(tree.com_jacobian(q) * tree.mass, Jc[:, o], atol=tol * 10)


needs_robots = pytest.mark.skipif(EXAMPLE_ROBOTS is None, reason="example-robot-data is not installed")


def load_urdf(key):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return import_robot(EXAMPLE_ROBOTS / REAL_URDFS[key], package_paths=(str(EXAMPLE_ROBOTS),))


def compare_with_urdf_model(tree, key, mimic, **kw):
    """``compare`` with Pinocchio's own model of the URDF (depth-first, as its CRBA needs)."""
    model = pin.buildModelFromUrdf(str(EXAMPLE_ROBOTS / REAL_URDFS[key]), mimic=mimic)
    model.gravity.linear = G
    assert model.nv == tree.dof_count

    def to_pin(q):
        qp = pin.neutral(model)
        for name, v in tree.config_to_dict(q).items():
            jm = model.joints[model.getJointId(name)]
            v = float(np.atleast_1d(v)[0])
            qp[jm.idx_q : jm.idx_q + jm.nq] = [np.cos(v), np.sin(v)] if jm.nq == 2 else [v]
        return qp

    order = [model.joints[model.getJointId(n)].idx_v for n in tree.dof_names()]
    assert sorted(order) == list(range(model.nv))
    compare(tree, model, to_pin, order=order, **kw)
