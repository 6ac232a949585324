"""Teaching aids: symbolic poses and their printing, checks of a student's matrix."""
