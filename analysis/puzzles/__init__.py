"""Puzzle positions with unique solutions: generation and verification, rendering."""
