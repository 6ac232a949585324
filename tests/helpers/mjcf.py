"""MuJoCo as the reference for KineTree's MJCF reading and writing: every body's pose from
``mj_kinematics`` (``data.xpos``/``xmat``) against KineTree's at random configurations."""

from __future__ import annotations

import os

import numpy as np

mujoco = __import__("pytest").importorskip("mujoco")


def load_model(path):
    """MuJoCo's model of ``path`` (MuJoCo's warnings, e.g. dm_control's deprecated ``settotalmass``,
    are dropped: MuJoCo would append them to a MUJOCO_LOG.TXT in the working folder)."""
    previous = mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(lambda msg: None)
    try:
        return mujoco.MjModel.from_xml_path(str(path))
    finally:
        mujoco.set_mju_user_warning(previous)


def random_qpos(m, rng) -> np.ndarray:
    """A MuJoCo ``qpos`` with every hinge/slide in its range (±3 when unlimited), random unit
    quaternions for ball and free joints."""
    qpos = m.qpos0.copy()
    for j in range(m.njnt):
        a, t = int(m.jnt_qposadr[j]), int(m.jnt_type[j])
        if t in (2, 3):
            lo, hi = m.jnt_range[j] if m.jnt_limited[j] else (-3.0, 3.0)
            qpos[a] = rng.uniform(lo, hi)
        else:
            quat = rng.normal(size=4)
            quat /= np.linalg.norm(quat)
            if t == 1:
                qpos[a:a + 4] = quat
            else:
                qpos[a:a + 3] = rng.normal(size=3)
                qpos[a + 3:a + 7] = quat
    return qpos


def kinetree_q(tree, m, qpos) -> np.ndarray:
    """KineTree's configuration for MuJoCo's ``qpos`` (same joint names; a floating joint's
    positions are [quat, xyz] where MuJoCo's are [xyz, quat]); mimic followers are set in ``qpos``."""
    q = []
    for b in tree.bodies:
        j = b.joint
        jid = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, j.name)
        if j.type == "fixed":
            continue
        a = int(m.jnt_qposadr[jid])
        if j.mimic is not None:
            lead = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, j.mimic.joint)
            qpos[a] = j.mimic.multiplier * qpos[m.jnt_qposadr[lead]] + j.mimic.offset
        elif j.type == "floating":
            q += [*qpos[a + 3:a + 7], *qpos[a:a + 3]]
        elif j.type == "spherical":
            q += list(qpos[a:a + 4])
        else:
            q.append(qpos[a])
    return np.array(q)


def worst_pose_error(tree, path: str | os.PathLike, n: int = 20, seed: int = 0, model=None) -> float:
    """The largest difference of any body's position or rotation matrix entry between KineTree's
    ``tree`` and MuJoCo's model of ``path`` over ``n`` random configurations (bodies matched by
    name; an unnamed MuJoCo body is ``body<id>``)."""
    m = model if model is not None else load_model(path)
    d = mujoco.MjData(m)
    rng = np.random.default_rng(seed)
    index = {}
    for b in range(1, m.nbody):
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b) or f"body{b}"
        index[b] = -1 if name == tree.base_name else tree.index_of(name)  # the base: welded at the origin
    worst = 0.0
    for _ in range(n):
        qpos = random_qpos(m, rng)
        q = kinetree_q(tree, m, qpos)
        d.qpos[:] = qpos
        mujoco.mj_kinematics(m, d)
        T = np.concatenate([tree.forward_kinematics(q), np.eye(4)[None]])  # index -1: the base
        for b, i in index.items():
            worst = max(worst, float(np.abs(T[i][:3, 3] - d.xpos[b]).max()),
                        float(np.abs(T[i][:3, :3] - d.xmat[b].reshape(3, 3)).max()))
    return worst


def same_poses(a, b, n: int = 5, seed: int = 1) -> float:
    """The largest pose difference of ``a``'s bodies between trees ``a`` and ``b`` (``b`` may have
    more bodies) at random configurations of ``a``."""
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(n):
        q = a.random_configuration(rng)
        qb = b.config_to_vector({k: v for k, v in a.config_to_dict(q).items() if k in b.movable_joint_names})
        for body in a.bodies:
            worst = max(worst, float(np.abs(b.get_transform(qb, body.name) - a.get_transform(q, body.name)).max()))
    return worst
