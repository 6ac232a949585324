"""What test modules share: import it as ``helpers.<module>`` (pytest puts tests/ on the path).

No test module imports another test module; tests/test_architecture.py checks it."""
