"""Cardroom: a self-hosted, asynchronous No-Limit Texas Hold'em room."""

__version__ = "0.1.0"
