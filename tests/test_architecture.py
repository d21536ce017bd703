"""The fence around the import graph that import-linter cannot draw (its contracts,
in pyproject.toml, run in ``make lint``): the HTTP routes never open a transaction
(``ctx.transaction()`` stays in the service), nothing in the package loads its own
modules through ``importlib`` (plain imports, so the graph is the whole graph), and
there is no import circle anywhere in the package, counting the imports inside
functions and under ``TYPE_CHECKING``. docs/architecture.md draws the layers."""

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


def _module_name(path: Path) -> str:
    parts = ("cardroom", *path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports_of(path: Path, modules: set[str]) -> set[str]:
    """The room's modules that ``path`` imports, wherever the import stands: at the
    top, inside a function (a lazy import), or under ``if TYPE_CHECKING`` (a type
    that needs the other module is a dependency, if not at run time). ``from p
    import m`` names the module ``p.m`` when there is one, else ``p`` itself."""
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in modules else node.module)
    return {name for name in found if name in modules}


def import_circles(root: Path) -> list[list[str]]:
    """Every circle among the modules under ``root``: the strongly connected parts of
    the import graph with more than one module, or a module that imports itself."""
    paths = {_module_name(path): path for path in _python_files(root)}
    graph = {name: _imports_of(path, set(paths)) for name, path in paths.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(name: str) -> None:  # Tarjan's strongly connected components
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for other in sorted(graph[name]):
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in on_stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            part: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.append(member)
                if member == name:
                    break
            if len(part) > 1 or name in graph[name]:
                circles.append(sorted(part))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return circles


def test_there_is_no_import_circle_anywhere_in_the_package() -> None:
    assert import_circles(PACKAGE) == [], "a module imports one that imports it back"
