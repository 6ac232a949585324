"""Forward kinematics (the plan and its compiled kernel), IK, workspace, collision, trajectories and
the loop constraints."""
