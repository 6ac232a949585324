"""The command line: ``kinetree COMMAND …`` (app/main.py dispatches here)."""
