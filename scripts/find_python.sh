#!/usr/bin/env bash
# Prints the path of a CPython interpreter of version X.Y (the argument; a
# path or command name of an interpreter is resolved as it is): pyenv's newest X.Y.* where
# pyenv is installed (this project's machines carry 3.11, 3.12 and 3.13
# there), else pythonX.Y on PATH. Fails, saying so, when there is none.
set -euo pipefail
want=${1:?usage: find_python.sh X.Y}
if ! [[ "$want" =~ ^[0-9]+\.[0-9]+$ ]]; then  # a path or a command
  path=$(command -v "$want" 2>/dev/null) || { echo "find_python.sh: no interpreter $want" >&2; exit 1; }
  echo "$path"; exit 0
fi
if command -v pyenv >/dev/null 2>&1; then
  prefix=$(pyenv prefix "$want" 2>/dev/null || true)
  if [ -z "$prefix" ]; then  # older pyenv: no prefix resolution, pick the newest X.Y.N
    v=$(pyenv versions --bare 2>/dev/null | grep -E "^${want//./\\.}\.[0-9]+$" | sort -t. -k3 -n | tail -1 || true)
    [ -n "$v" ] && prefix=$(pyenv prefix "$v")
  fi
  if [ -n "$prefix" ] && [ -x "$prefix/bin/python$want" ]; then
    echo "$prefix/bin/python$want"; exit 0
  fi
fi
for candidate in "python$want" "/usr/bin/python$want"; do
  if path=$(command -v "$candidate" 2>/dev/null) && "$path" -c "import sys; assert sys.version_info[:2] == tuple(map(int, '$want'.split('.')))" 2>/dev/null; then
    echo "$path"; exit 0
  fi
done
echo "find_python.sh: no Python $want here (pyenv install $want, or Debian's python$want)" >&2
exit 1
