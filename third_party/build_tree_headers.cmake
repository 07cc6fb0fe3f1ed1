# envpool_lite_build_tree_headers(<name> <include_dir> <out_var>)
#
# Copies the headers of <include_dir>, found in the environment of the Python
# that builds (the venv's site-packages, or pip's isolated build
# environment, a temporary folder of a new name each time), into the build
# folder, <build>/python-headers/<name>, and sets <out_var> to the copy.
# Every build then compiles the envs with the same include paths relative to
# its build folder, whichever Python and environment build it, so that the
# compiler cache (scripts/compiler_cache.sh: ccache) hands one build the
# objects another compiled from the same sources and header contents: the
# editable build and the wheels of make wheels compile the envs once.
# file(COPY) keeps the headers' timestamps and skips unchanged files, so a
# rebuild recompiles nothing for them.
function(envpool_lite_build_tree_headers name include_dir out_var)
  set(_copy "${CMAKE_BINARY_DIR}/python-headers/${name}")
  file(COPY "${include_dir}/" DESTINATION "${_copy}")
  set(${out_var} "${_copy}" PARENT_SCOPE)
endfunction()
