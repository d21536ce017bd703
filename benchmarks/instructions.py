"""Instruction counts of a measured part only, under callgrind.

Timing on this shared machine moves by a fifth from run to run, more than a cut of a
few per cent; callgrind counts the instructions, which do not move with the load. Run
whole, though, a benchmark's set-up (imports, tables, sign-ups) dwarfs the part it
measures and takes minutes under valgrind. ``Marks`` starts valgrind's
instrumentation at the first measured part and collects only inside the parts (the
callgrind client requests, from a few lines of C built here with the machine's gcc
against valgrind's header), so the counts are the measured part's own and the set-up
runs at near native speed. Outside valgrind every call is a no-op.

    $ valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \\
        --callgrind-out-file=/tmp/cg.out .venv/bin/python benchmarks/committer_path.py
    $ callgrind_annotate /tmp/cg.out | head            # the parts' instructions

(``benchmarks/committer_path.py`` marks its batches and views; its output says how
many commands were measured, so instructions per command is the total over those.)
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import tempfile
from pathlib import Path

_SOURCE = """
#include <valgrind/callgrind.h>
int on_valgrind(void) { return RUNNING_ON_VALGRIND; }
void start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }
void toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }
"""
_HEADER = Path("/usr/include/valgrind/callgrind.h")


class Marks:
    """Collect instructions inside ``begin()``/``end()`` pairs only, under callgrind."""

    def __init__(self) -> None:
        self._lib = _load()
        self._started = False

    @property
    def active(self) -> bool:
        return self._lib is not None

    def begin(self) -> None:
        if self._lib is None:
            return
        if not self._started:
            self._lib.start_instrumentation()
            self._started = True
        self._lib.toggle_collect()

    def end(self) -> None:
        if self._lib is not None:
            self._lib.toggle_collect()


def _load() -> ctypes.CDLL | None:
    """The client requests, or None outside valgrind (or without gcc and the header:
    then nothing is marked, and the whole run is counted)."""
    gcc = shutil.which("gcc")
    if gcc is None or not _HEADER.exists():
        return None
    built = Path(tempfile.mkdtemp(prefix="cardroom-marks-"))
    (built / "marks.c").write_text(_SOURCE)
    subprocess.run(
        [gcc, "-shared", "-fPIC", "-O1", "-o", str(built / "marks.so"), str(built / "marks.c")],
        check=True,
    )
    lib = ctypes.CDLL(str(built / "marks.so"))
    shutil.rmtree(built, ignore_errors=True)
    return lib if lib.on_valgrind() else None
