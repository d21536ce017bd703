#!/usr/bin/env bash
# usage: benchmarks/loop_instructions.sh [TREE] [ROUNDS] [SERVER]
# The event loop's instructions per socket command (benchmarks/socket_loop.py under
# callgrind, one file a thread; the main thread, -01, is the loop's).
set -euo pipefail
TREE=$(cd "${1:-.}" && pwd); ROUNDS=${2:-30}; SERVER=${3:-gathered}
PYTHON=${PYTHON:-/work/main/.venv/bin/python}
OUT=$(mktemp -d /tmp/loopcg.XXXXXX)
cd "$TREE"
CARDROOM_PASSWORD_HASHING=cheap PYTHONPATH=$TREE valgrind --tool=callgrind \
  --instr-atstart=no --collect-atstart=no --separate-threads=yes \
  --callgrind-out-file=$OUT/cg "$PYTHON" benchmarks/socket_loop.py --rounds "$ROUNDS" \
  --server "$SERVER" > $OUT/result.json 2> $OUT/err
CMDS=$(python3 -c "import json; print(json.load(open('$OUT/result.json'))['commands'])")
# Marks toggle the collection of the thread that calls them: the loop's alone.
LOOP=$(awk '/^totals:/ {print $2}' $OUT/cg-01)
echo "loop $TREE ($SERVER): $((LOOP / CMDS)) instructions/command ($CMDS commands) [$OUT]"
