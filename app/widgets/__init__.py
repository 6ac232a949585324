"""Small widgets and Qt helpers that panels, the viewport and the window share."""
