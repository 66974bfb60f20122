"""Tests of the rules engine (games/engine), one module per section of docs/RULES.md."""
