"""SDFormat (``.sdf``) import and export.

Import (:func:`import_sdf`, :func:`sdf_from_string`)
    One ``<model>`` of an ``<sdf version>`` 1.5–1.11 file (newer versions are read as 1.11 with
    a warning, older ones refused). A ``<world>`` holding exactly one ``<model>`` is read as that
    model (its other content, with a warning, is not kept); a file or world with several models
    is refused, naming them: KineTree opens one robot. The file is parsed without DTDs,
    entities or network, bounded in size (:data:`MAX_BYTES`), elements (:data:`MAX_ELEMENTS`,
    shared with the includes), model nesting (:data:`MAX_NESTING`) and includes
    (:data:`MAX_INCLUDES`); every refusal names the file, line and element. No element runs code.

    - Frames: every link, joint, ``<frame attached_to>`` and nested model frame is posed
      relative to another (SDFormat 1.7+ ``relative_to``; defaults: a link's pose is in its model
      frame, a joint's in its child link, a frame's in what it is attached to). A cycle of
      ``relative_to`` or ``attached_to`` names is refused naming the frames, an unknown name
      naming it. SDFormat 1.5/1.6 files have no ``relative_to`` and ``<frame>`` (ignored with a
      warning); their axes are in the joint frame unless ``use_parent_model_frame``.
    - Nested ``<model>`` and ``<include>`` (``model://NAME`` or a relative path; its
      ``model.config`` or ``model.sdf``) are flattened with ``::`` names. Includes and mesh URIs
      must stay inside the model's folder tree — the folder holding the opened file's folder (a
      Gazebo models folder: the model and its siblings); anything leading outside (``../..``,
      an absolute path, a symlink out) is refused. ``model://NAME/x`` is looked for in the
      opened file's folder when it is named NAME, else in ``<tree>/NAME``. A missing mesh is a
      :class:`MeshNotFoundWarning`; the kinematics load.
    - The base: when a joint has the parent ``world``, or several links have no parent joint,
      the base is a body ``world`` (the model's ``<pose>`` places the model in it) and each link
      without a joint hangs from it by a floating joint (as Drake and Gazebo leave it free),
      with a warning. Otherwise the base is the one link without a parent joint (its pose in the
      world is kept for export).
    - Joints: ``revolute``, ``continuous``, ``prismatic``, ``fixed``, ``ball`` (spherical) and
      ``universal`` (two revolutes: the joint, about ``<axis>``, to a massless body
      ``<joint>_cross``, then ``<joint>_axis2`` about ``<axis2>``); other types are refused
      naming the joint. ``<axis><xyz expressed_in>`` is turned into the joint frame.
      ``<limit lower upper>`` (±1e16 or none: unbounded), ``effort``/``velocity`` kept (as a
      ``<limit>`` extension, also written to a URDF), ``<dynamics damping friction>`` become the
      joint's viscous and Coulomb friction.
    - Links: ``<inertial>`` (pose, mass, inertia, moved to the link origin; a link without one
      has SDFormat's default mass 1 and unit moments, as libsdformat and Drake give it), ``<visual>`` and
      ``<collision>`` (box, cylinder, sphere, mesh with ``scale``; the visual's
      ``<material><diffuse>`` colour); other geometry is kept verbatim, not drawn.
    - Kept verbatim for export (:mod:`kinetree.core.model.xml_fragment`): the model's other children
      (``<plugin>``, ``<static>`` …), a link's (``<sensor>``, ``<gravity>`` …) and a joint's
      (``<sensor>``, ``<physics>`` …). ``<frame>`` elements are resolved into the poses and not
      kept; unknown children of a nested model are not kept (a warning).

Export (:func:`export_sdf`, :func:`sdf_string`)
    SDFormat 1.9: each joint posed relative to its parent link, each child link relative to its
    joint (exact: no world poses are summed up; a link whose joint is in an enclosing model is posed
    in its model frame at q = 0), nested ``::`` names back into nested ``<model>``s, every link with
    its ``<inertial>`` (a massless body writes mass 0). A ``world`` base is not written: its joints
    get the parent ``world``, its floating joints become free links. ``spherical`` is written as
    ``ball``, a universal joint read from SDFormat (still a massless cross) as ``universal``,
    revolute limits (−∞, ∞) as ``continuous``, joint offsets folded into the joint pose. Planar
    joints and floating joints below the base are refused naming the joint. Meshes are referenced
    relative to the output folder (or its parent: the folder tree the reader looks in); others are
    copied into ``<output name>_assets/`` beside the file, as the MJCF export does, so that it
    reopens whole (a ``file://`` URI the import kept unread is written as it was). Kept
    elements that SDFormat can hold are written back; others (a URDF's ``<transmission>``,
    ``<gazebo>`` …) are dropped with one :class:`SdfWarning` naming them, as are gear ratios, motor
    inertias and mimics (SDFormat 1.9 has none).
"""

from __future__ import annotations

from .model import MeshNotFoundWarning, SdfWarning
from .read import MAX_BYTES, MAX_ELEMENTS, MAX_INCLUDES, MAX_NESTING, import_sdf, sdf_from_string
from .write import export_sdf, sdf_string

__all__ = ["MAX_BYTES", "MAX_ELEMENTS", "MAX_INCLUDES", "MAX_NESTING", "MeshNotFoundWarning", "SdfWarning",
           "export_sdf", "import_sdf", "sdf_from_string", "sdf_string"]
