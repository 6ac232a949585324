"""Mass properties, inverse/forward dynamics (RNEA, ABA, CRBA), Jacobians, joint space and torque
profiles."""
