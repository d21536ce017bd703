"""The signed-in pages share one header (static/partials/header.html), put in where a
page says ``{{header}}``: every such page is served with the whole header, its
assets' addresses filled in, and no placeholder left."""

from __future__ import annotations

from cardroom.web.routes.pages import HEADER, STATIC_DIR, load_bundle

SHARED = ("account", "admin", "history", "ledger", "lobby", "notifications", "stats", "table")


def test_every_signed_in_page_is_served_with_the_one_header() -> None:
    bundle = load_bundle()
    header = (STATIC_DIR / HEADER).read_text().rstrip("\n")
    filled = header.replace("{{static}}", f"/static/{bundle.version}")
    for name in SHARED:
        source = (STATIC_DIR / f"{name}.html").read_text()
        assert "{{header}}" in source, f"{name}.html writes its own header again"
        served = bundle.pages[f"{name}.html"].body.decode()
        assert filled in served, name
        assert served.count('<nav aria-label="Main">') == 1, name
        assert "{{" not in served, name
