#!/usr/bin/env bash
# Runs `python -m pytest "$@"` with core dumps on; if pytest dies of a signal
# (a crash in C++ or a driver, where faulthandler shows only Python frames),
# or fails after one of its pytest-xdist workers did (the controller goes on
# and reports "node down"), prints every thread's native backtrace from the
# core file (gdb), then removes it. Used by `make test`; the exit status is
# pytest's.
set -uo pipefail
py=${PY:-.venv/bin/python}
ulimit -c unlimited 2>/dev/null || true
rm -f core core.[0-9]*
"$py" -m pytest "$@"
status=$?
core=$(ls -t core core.[0-9]* 2>/dev/null | head -1)
if [ "$status" -ge 128 ] || { [ "$status" -ne 0 ] && [ -n "$core" ]; }; then
  if [ -n "$core" ] && command -v gdb >/dev/null 2>&1; then
    echo "=== pytest or a worker died (status $status); native backtraces from $core ==="
    gdb -batch -ex "info threads" -ex "thread apply all bt 40" "$(readlink -f "$py")" "$core" 2>&1 | grep -v "^\[New LWP" | tail -400
  else
    echo "=== pytest or a worker died (status $status); no core file or no gdb for a native backtrace ==="
  fi
  rm -f "$core"
fi
exit "$status"
