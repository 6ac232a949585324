"""The robot model: bodies, joints, configurations, limits, named poses (no algorithms)."""
