# MuJoCo, for the MuJoCo envs (Ant, Hopper, Humanoid, ...).
#
# The physics is MuJoCo's C library as the `mujoco` wheel ships it
# (libmujoco.so.X and include/mujoco/*.h inside the installed package), of
# exactly the version pyproject.toml pins in its family's extra
# (`mujoco==X`, the one source of truth; the same library gymnasium's own
# MuJoCo envs run on). The build only needs the wheel's headers (the layouts
# of mjModel and mjData): the extension does not link libmujoco, it loads the
# installed wheel's library at run time (dlopen, the path found by Python at
# make()), so that `import envpool_lite` works without mujoco and a missing or
# mismatched mujoco is a clear error at make() naming the version needed. In
# a process that also imports mujoco, both use the one loaded library.
#
# The reset noise of some tasks is drawn with numpy's
# Generator.standard_normal: numpy's own implementation, linked from the
# static library numpy ships for C users (numpy/random/lib/libnpyrandom.a,
# numpy's "random C API"), fed by our PCG64 (refkit/numpy/random.h).
#
# The wheels are found through the build's Python (the venv's with
# --no-build-isolation, else the isolated build environment, whose
# build-system requirements name both). Without a mujoco of the pinned
# version the MuJoCo envs are left out with a warning (the rest of the build
# goes on); make() of a MuJoCo task then says how to get them.
#
# Defines the target envpool_lite_mujoco when found.

file(STRINGS "${PROJECT_SOURCE_DIR}/pyproject.toml" _mj_requirement
     REGEX "\"mujoco==[^\"]+\"")
string(REGEX MATCH "mujoco==([0-9A-Za-z.]+)" _mj_match "${_mj_requirement}")
set(MUJOCO_VERSION "${CMAKE_MATCH_1}")
if(NOT MUJOCO_VERSION)
  message(FATAL_ERROR "pyproject.toml must pin mujoco as \"mujoco==X\" in "
                      "the mujoco extra")
endif()
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY
             CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/pyproject.toml")

execute_process(
  COMMAND "${Python_EXECUTABLE}" -c "
import importlib.metadata as md, importlib.util as u, os
def where(name):
    s = u.find_spec(name)
    return s.submodule_search_locations[0] if s and s.submodule_search_locations else ''
def version(name):
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return ''
print(version('mujoco')); print(where('mujoco')); print(where('numpy'))
"
  OUTPUT_VARIABLE _mj_out RESULT_VARIABLE _mj_rc ERROR_QUIET
  OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REPLACE "\n" ";" _mj_out "${_mj_out}")
list(LENGTH _mj_out _mj_len)
if(NOT _mj_rc EQUAL 0 OR NOT _mj_len EQUAL 3)
  set(_mj_out ";;")
endif()
list(GET _mj_out 0 _mj_found_version)
list(GET _mj_out 1 _mj_dir)
list(GET _mj_out 2 _np_dir)

if(NOT _mj_found_version STREQUAL MUJOCO_VERSION)
  if(_mj_found_version)
    set(_mj_why "mujoco ${_mj_found_version} is installed")
  else()
    set(_mj_why "mujoco is not installed")
  endif()
  message(WARNING "MuJoCo: ${_mj_why} in ${Python_EXECUTABLE}'s environment, "
                  "the build needs mujoco==${MUJOCO_VERSION} (pip install "
                  "mujoco==${MUJOCO_VERSION}, as scripts/setup.sh does): the "
                  "MuJoCo envs are left out.")
  return()
endif()
set(_mj_include "${_mj_dir}/include")
set(_np_random_lib "${_np_dir}/random/lib/libnpyrandom.a")
set(_np_include "${_np_dir}/_core/include")
if(NOT EXISTS "${_mj_include}/mujoco/mujoco.h")
  message(WARNING "MuJoCo: no headers in ${_mj_include}: the MuJoCo envs are "
                  "left out.")
  return()
endif()
if(NOT EXISTS "${_np_random_lib}" OR
   NOT EXISTS "${_np_include}/numpy/random/bitgen.h")
  message(WARNING "MuJoCo: numpy's random C library (${_np_random_lib}) or "
                  "its headers not found: the MuJoCo envs are left out.")
  return()
endif()
message(STATUS "MuJoCo: mujoco ${MUJOCO_VERSION} headers in ${_mj_include}")
include(${CMAKE_CURRENT_LIST_DIR}/build_tree_headers.cmake)
envpool_lite_build_tree_headers(mujoco "${_mj_include}" _mj_include)
envpool_lite_build_tree_headers(numpy "${_np_include}" _np_include)

add_library(envpool_lite_mujoco INTERFACE)
target_include_directories(envpool_lite_mujoco SYSTEM INTERFACE
  "${_mj_include}" "${_np_include}")
target_link_libraries(envpool_lite_mujoco INTERFACE "${_np_random_lib}"
  ${CMAKE_DL_LIBS} m)
target_compile_definitions(envpool_lite_mujoco INTERFACE
  ENVPOOL_LITE_MUJOCO_VERSION="${MUJOCO_VERSION}")
