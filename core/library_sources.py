"""Short citations of the built-in robots, one line each, for listings such as
``kinetree library`` (each robot's full citation is its ``source`` in :mod:`.library`)."""

SHORT_SOURCES = {
    "abb_irb140": "Corke, Robotics Toolbox mdl_irb140 (ABB IRB 140 data sheet)",
    "baxter_left": "Ju, Yang & Ma, Chinese Control Conference 2014, Tables I–II",
    "cylindrical": "Spong, Hutchinson & Vidyasagar 2006, Example 3.2",
    "cylindrical_wrist": "the lecture's cylindrical arm with spherical wrist (Spong et al. 2006, §3.3)",
    "humanoid_upper_body": "KineTree's own model (humanoid_upper_body.urdf)",
    "jaco": "Kinova, DH Parameters of Jaco v1.0.8 (2013)",
    "kuka_kr5": "Corke, Robotics Toolbox mdl_KR5 (ARTE; KUKA KR 5 arc spec)",
    "kuka_lbr_iiwa14": "Safeea & Neto, KUKA Sunrise Toolbox, IEEE RAM 2019",
    "panda": "Franka Emika, Robot and interface specifications",
    "puma560": "Corke & Armstrong-Hélouvry, ICRA 1994 (mdl_puma560)",
    "puma560_mdh": "Craig, Introduction to Robotics 3rd ed., Fig. 3.21",
    "quadruped": "KineTree's own model (quadruped.urdf)",
    "scara": "Spong, Hutchinson & Vidyasagar 2006, Example 3.4",
    "spherical_wrist": "Spong, Hutchinson & Vidyasagar 2006, Example 3.3",
    "stanford": "Corke, Robotics Toolbox mdl_stanford (Paul 1981)",
    "stanford_lecture": "the lecture's table (Spong, Hutchinson & Vidyasagar 2006, Ex. 3.5)",
    "two_link_planar": "the lecture's MATLAB two-link example",
    "ur10": "Universal Robots, DH parameters support article (UR10)",
    "ur3": "Universal Robots, DH parameters support article (UR3)",
    "ur5": "Universal Robots, DH parameters support article (UR5)",
}
