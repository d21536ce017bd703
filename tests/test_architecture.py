"""The fence around the import graph that import-linter cannot draw (its contracts,
in pyproject.toml, run in ``make lint``): the HTTP routes never open a transaction
(``ctx.transaction()`` stays in the service), and nothing in the package loads its
own modules through ``importlib`` (plain imports, so the graph above is the whole
graph). docs/architecture.md draws the layers."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import cardroom

PACKAGE = Path(cardroom.__file__).parent
ROUTES = PACKAGE / "web" / "routes"


def _python_files(root: Path) -> Iterator[Path]:
    yield from sorted(p for p in root.rglob("*.py") if "migrations" not in p.parts)


def _transactions_opened(path: Path) -> list[int]:
    """Lines of ``path`` that call ``<anything>.transaction(...)`` or ``.begin(...)``."""
    tree = ast.parse(path.read_text(), str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("transaction", "begin", "begin_nested")
    ]


def _uses_importlib(path: Path) -> list[int]:
    """Lines of ``path`` that import ``importlib`` or call ``__import__``."""
    tree = ast.parse(path.read_text(), str(path))
    names: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append((node.lineno, node.module or ""))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            names.append((node.lineno, "importlib"))
    return [line for line, name in names if name.partition(".")[0] == "importlib"]


def test_the_routes_never_open_a_transaction() -> None:
    opened = {
        str(path.relative_to(PACKAGE)): lines
        for path in _python_files(ROUTES)
        if (lines := _transactions_opened(path))
    }
    assert opened == {}, "a route opens a transaction: put the use case in cardroom/service"


def test_nothing_loads_the_rooms_own_modules_through_importlib() -> None:
    used = {
        str(path.relative_to(PACKAGE)): lines
        for path in _python_files(PACKAGE)
        if (lines := _uses_importlib(path))
    }
    assert used == {}, "import the module by name instead (plain imports draw the graph)"
