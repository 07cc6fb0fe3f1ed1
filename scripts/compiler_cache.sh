# Sourced by the scripts that compile (scripts/setup.sh, scripts/build_wheels.sh,
# make test-cpp): CMake then compiles through ccache, Debian's compiler cache
# (setup.sh installs it), with the cache outside the clone, in
# /var/cache/envpool_lite/ccache (CCACHE_DIR chooses another; build/ccache
# where that folder cannot be made), so that every clone on the machine
# shares it: CI's fresh clone compiles only what changed since the last
# build of any clone. ccache keys each object on the compiler, its flags
# and the preprocessed source, so a shared cache never hands out an object
# of other sources.
#
# The editable build and the three wheels of make wheels compile the same
# C++: the envs (nine tenths of the compile) do not depend on the Python, and
# their include paths are the same relative to each build folder
# (third_party/build_tree_headers.cmake; the wheels' build folders
# build/wheel-<tag> sit as deep as the editable build's build/<tag>). With
# CCACHE_BASEDIR at the checkout, ccache hashes those paths relative to the
# build folder, so each build takes the objects an earlier one compiled from
# the same sources and header contents, and compiles only what differs: the
# bindings (each Python's headers) and whatever numpy's headers of another
# version change. Without ccache everything still builds, only slower.
if command -v ccache >/dev/null 2>&1; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
  if [ -z "${CCACHE_DIR:-}" ]; then
    CCACHE_DIR=/var/cache/envpool_lite/ccache
    mkdir -p "$CCACHE_DIR" 2>/dev/null && [ -w "$CCACHE_DIR" ] || CCACHE_DIR=$PWD/build/ccache
  fi
  export CCACHE_DIR CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
fi
# One line of the cache's figures since the last `ccache -z` (nothing
# without ccache).
compiler_cache_stats() {
  command -v ccache >/dev/null 2>&1 || return 0
  ccache -s | awk '/^ *(Hits|Misses):/ {sub(/^ */, ""); line = line (line ? ", " : "") $0} END {if (line) print "ccache: " line}'
}
