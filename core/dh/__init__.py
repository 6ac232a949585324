"""Denavit–Hartenberg: chains from DH rows, DH tables extracted from geometry, their explanation and
a student's own frame assignment."""
