"""The load test: bot clients drive a running room over HTTP and WebSocket, the way
people's browsers do, and measure what the server sustains.

``cardroom loadtest --url URL --tables N --duration S`` (``cardroom.cli.loadtest_cmd``)
signs up users, creates real cash games, seats two or more players at each, and
plays: every player holds its own WebSocket to its table and acts over HTTP when a
snapshot says it is its turn. It reports durable actions per second (commands the
server committed), the time from an action's request until its events have reached
every client at the table (p50, p95, p99), errors, and the server's memory (RSS from
``/proc``); then, on the same database, the storage's own limit (small durable
transactions per second through SQLAlchemy). JSON and a PNG plot go to a folder.

Modules: ``plan`` (the options and their bounds), ``clients`` (the players and the
per-table latency bookkeeping), ``metrics`` (counters and percentiles),
``server`` (finding the server's process, reading its memory and CPU), ``storage``
(the storage limit), ``report`` (JSON and the plot), ``runner`` (a whole run).
"""

from cardroom.loadtest.plan import LoadPlan, PlanError
from cardroom.loadtest.runner import run_load_test

__all__ = ["LoadPlan", "PlanError", "run_load_test"]
