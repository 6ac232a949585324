"""MJCF (MuJoCo XML) import and export.

Import (:func:`import_mjcf`)
    MuJoCo's own compiler (the ``mujoco`` package) reads the model, so defaults and
    ``childclass``, ``eulerseq``, ``xyaxes``/``zaxis``/``axisangle``, ``fromto``, angle units,
    ``autolimits`` and ``inertiafromgeom`` mean exactly what they mean to MuJoCo. Before it sees
    anything, :mod:`~kinetree.core.io.mjcf.files` vets the file, its ``<include>``\\ s and asset
    files (bounded reads; no path outside the model's folder tree) and hands MuJoCo their bytes.

    - The tree's base is MuJoCo's world body. A KineTree body frame is the MuJoCo body frame, so
      poses compare directly with MuJoCo's ``xpos``/``xmat``; body and joint names are kept (an
      unnamed one gets ``body<id>``/``joint<id>``).
    - A body without joints is fixed. A body with several joints becomes a chain: each joint but
      the last gets a massless body named after the joint; the last body keeps the MJCF name,
      frame, mass and geometry. ``hinge``/``slide`` → revolute/prismatic with the axis and anchor
      of the file (``child_to_joint`` takes the anchor back), offset ``−ref`` so that KineTree's
      position equals MuJoCo's ``qpos``; ``ball`` → spherical; ``free`` → floating (positions
      ``[quat, xyz]``; MuJoCo's ``qpos`` is ``[xyz, quat]``). Limits as compiled (an unlimited
      joint has (−∞, ∞)); the home position is ``ref`` (clipped into the range, with a warning).
      ``damping``, ``frictionloss`` and ``armature`` become viscous and Coulomb friction and motor
      inertia (gear ratio 1). An active ``<equality joint>`` whose ``polycoef`` is linear is a mimic.
    - Geoms of groups 0–2 (the ones MuJoCo shows) are visuals, geoms that collide
      (``contype``/``conaffinity``) collision shapes; in a body that also has visual-only geoms
      (``contype = conaffinity = 0``, groups 0–2) its colliding geoms are collision shapes only,
      drawn with View ▸ Collision geometry (MuJoCo's convention). Shapes: sphere, box, cylinder, capsule (a cylinder and
      two spheres), mesh (the file, its scale and pose before MuJoCo re-centres it), plane (a thin
      box, visual only); an ellipsoid is drawn as its bounding box; height fields, SDFs and meshes
      given by vertices in the XML are not drawn (a warning says how many).
    - Masses, centres of mass and inertias are MuJoCo's compiled ones (from ``<inertial>`` or from
      the geoms, as the file's compiler says).
    - Kept verbatim for export, each wrapped in ``<mjcf>``: the sections ``option``, ``size``,
      ``visual``, ``statistic``, ``default``, ``custom``, ``extension``, ``asset`` (without meshes;
      texture and height-field files as absolute paths), ``contact``, ``deformable``, ``equality``
      (without those that became mimics), ``tendon``, ``actuator``, ``sensor``, ``keyframe``; and
      each body's ``site``, ``camera`` and ``light`` (with the ``<frame>``\\ s around them) and its
      ``mocap``/``gravcomp``/``user`` attributes (as an empty ``<body>``); each hinge's and slide's
      attributes KineTree does not model (``stiffness``, ``springref``, ``solref`` …, and its class:
      the body's childclass when it names none) as an empty ``<joint>`` in the joint's extensions.
      With ``<replicate>``/``<attach>`` (bodies that are not ``<body>`` elements) the body-level
      items are not kept, with a warning.
    - A mesh, texture or height field whose file is missing: a warning, what uses it is dropped,
      the kinematics load. MuJoCo's compile errors are :class:`FileFormatError` naming the file.

Export (:func:`export_mjcf`, :func:`mjcf_string`)
    See :mod:`kinetree.core.io.mjcf.write`.
"""

from __future__ import annotations

from .read import KEPT_TAG, MjcfWarning, import_mjcf
from .write import export_mjcf, mjcf_string

__all__ = ["KEPT_TAG", "MjcfWarning", "export_mjcf", "import_mjcf", "mjcf_string"]
