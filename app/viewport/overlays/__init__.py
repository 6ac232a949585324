"""What the viewport draws over the robot: the DH overlay, the traced path,
markers, clouds."""
