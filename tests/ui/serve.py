"""``cardroom serve`` for the browser tests, with the UI's router included when
``create_app`` does not include it yet (until ``cardroom.web.app`` does, this is the
only difference from the real command; afterwards it changes nothing)."""

from __future__ import annotations

import sys
from typing import Any

from fastapi import FastAPI

import cardroom.web.app as app_module
from cardroom.cli import main
from cardroom.web.routes import pages

_create_app = app_module.create_app


def create_app(*args: Any, **kwargs: Any) -> FastAPI:
    app = _create_app(*args, **kwargs)
    if not any(getattr(route, "path", None) == "/sign-in" for route in app.routes):
        app.include_router(pages.router)
    return app


if __name__ == "__main__":
    app_module.create_app = create_app
    raise SystemExit(main(sys.argv[1:]))
