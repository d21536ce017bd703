"""The HTTP routes, one module per part of the room. Each route translates: it reads
the request, calls one use case, and shapes the answer; the rules live in
``cardroom.service``."""
