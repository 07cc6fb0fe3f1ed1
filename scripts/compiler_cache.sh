# Sourced by the scripts that compile (scripts/setup.sh, scripts/build_wheels.sh,
# make test-cpp): CMake then compiles through ccache, Debian's compiler cache
# (setup.sh installs it), with the cache in build/ccache, so that a fresh
# clone starts with an empty one and `make clean` empties it.
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
  export CCACHE_DIR="${CCACHE_DIR:-$PWD/build/ccache}" CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
fi
# One line of the cache's figures since the last `ccache -z` (nothing
# without ccache).
compiler_cache_stats() {
  command -v ccache >/dev/null 2>&1 || return 0
  ccache -s | awk '/^ *(Hits|Misses):/ {sub(/^ */, ""); line = line (line ? ", " : "") $0} END {if (line) print "ccache: " line}'
}
