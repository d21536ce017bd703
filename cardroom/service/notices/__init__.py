"""Notifications: what the room tells a player, on which channels, and when, split
along one seam:

- ``decide``: which notices a saved change calls for (adding a notice is one
  function there);
- ``record``: the outbox, written in the command's own transaction;
- ``deliver``: the worker that sends Web Push and email later, and marks each
  delivery;
- ``choices``: the player's channels, settings row and subscribed browsers;
- ``inbox``: the player's notices, listed and marked read.
"""
