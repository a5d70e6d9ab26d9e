"""Showing results: ``format`` computes rows (pure), ``console`` prints them with rich."""
