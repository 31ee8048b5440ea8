"""Stammtisch: a self-hostable server for German and Austrian trick-taking card games."""

__version__ = "0.1.0"
