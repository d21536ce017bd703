"""The figures of a reliability run, kept for docs/reliability.md: each test writes
``artifacts/reliability/<name>.json`` (artifacts/ is not committed) and prints them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parents[2] / "artifacts" / "reliability"


def keep(name: str, figures: dict[str, Any]) -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    text = json.dumps(figures, indent=2, sort_keys=True, default=str)
    (FOLDER / f"{name}.json").write_text(text + "\n")
    print(f"\n{name}: {text}")
