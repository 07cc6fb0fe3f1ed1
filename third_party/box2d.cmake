# Box2D 2.3, for the Box2D envs (LunarLander, BipedalWalker, CarRacing).
#
# gymnasium's Box2D envs run on the box2d==2.3.10 wheel (pybox2d), which has
# no source distribution on the package index. The 2.3.x source
# distributions there, Box2D==2.3.2 and box2d-py==2.3.8, carry the Box2D C++
# sources pybox2d compiles, and those sources are the same file for file
# (`diff -r` of their Box2D/ folders is empty; the wheel's b2Settings constants
# are theirs too). We build box2d-py 2.3.8's (the one gymnasium itself names,
# for Python 3.14), fetched through pip by name and version, never committed,
# with the flags that reproduce the wheel's arithmetic: no FMA contraction
# (the wheel's x86-64 code has no fused multiply-add), no fast-math.
# tests/test_box2d*.py check the result step for step against gymnasium on
# the wheel. -DBOX2D_SOURCE_DIR=<an unpacked one> skips the fetch (offline
# builds).
#
# Defines the target envpool_lite_box2d: link it to get the library and its
# headers (#include <Box2D/Box2D.h>).

set(BOX2D_SDIST_VERSION "2.3.8")
set(BOX2D_SOURCE_DIR "" CACHE PATH
    "An unpacked box2d-py source distribution to build instead of fetching one")

if(BOX2D_SOURCE_DIR)
  set(_b2_src "${BOX2D_SOURCE_DIR}")
else()
  include(third_party/fetch_sdist.cmake)
  envpool_lite_fetch_sdist(Box2D box2d-py ${BOX2D_SDIST_VERSION} _b2_src
                           PATTERNS "Box2D/*" "LICENSE")
endif()
if(NOT EXISTS "${_b2_src}/Box2D/Box2D.h")
  message(FATAL_ERROR "Box2D: no Box2D sources in ${_b2_src}")
endif()
message(STATUS "Box2D: box2d-py ${BOX2D_SDIST_VERSION} sources in ${_b2_src}")

# Changes, to a copy in the build tree (each checked to apply exactly once):
# - pybox2d's b2Settings.h includes <Python.h> and makes a failed b2Assert
#   set a Python error and throw; ours throws std::logic_error naming the
#   assertion (the pool reports it), with no Python involved.
# - Box2D's process-wide statistics counters (b2_gjkCalls, b2_toiCalls, ...:
#   written on every distance and time-of-impact query, never read by the
#   envs) become thread_local, so that envs stepping in different threads do
#   not race on them.
# - The two lazy one-time initialisations of process-wide tables (the
#   contact table in b2Contact::Create, the block-size lookup in
#   b2BlockAllocator's constructor) become thread-safe: two envs' first
#   worlds or contacts in two threads would otherwise race on them.
# - b2Timer (the step profile, b2World::GetProfile, which no env reads) stops
#   calling gettimeofday: a dozen calls per world step, 4% of BipedalWalker's
#   step time.
# None changes any computed value.
set(_b2_copy "${CMAKE_BINARY_DIR}/box2d")
set(_b2_patched Common/b2Settings.h Collision/b2Distance.cpp
    Collision/b2TimeOfImpact.cpp Dynamics/Contacts/b2Contact.cpp
    Common/b2BlockAllocator.cpp Common/b2Timer.cpp)
set(_b2_exclude "")
foreach(_f IN LISTS _b2_patched)
  get_filename_component(_name "${_f}" NAME)
  list(APPEND _b2_exclude PATTERN "${_name}" EXCLUDE)
endforeach()
file(COPY "${_b2_src}/Box2D" DESTINATION "${_b2_copy}"
     FILES_MATCHING PATTERN "*.h" PATTERN "*.cpp" ${_b2_exclude})

function(_b2_patch file old new)
  set(_path "${_b2_copy}/Box2D/${file}")
  if(EXISTS "${_path}.edit")
    file(READ "${_path}.edit" _text)
  else()
    file(READ "${_b2_src}/Box2D/${file}" _text)
  endif()
  string(FIND "${_text}" "${old}" _at)
  string(FIND "${_text}" "${old}" _last REVERSE)
  if(_at EQUAL -1 OR NOT _at EQUAL _last)
    message(FATAL_ERROR "Box2D: ${file} changed; review the changes in "
                        "third_party/box2d.cmake")
  endif()
  string(REPLACE "${old}" "${new}" _text "${_text}")
  file(WRITE "${_path}.edit" "${_text}")
endfunction()
foreach(_f IN LISTS _b2_patched)
  file(REMOVE "${_b2_copy}/Box2D/${_f}.edit")
endforeach()
_b2_patch(Common/b2Settings.h
  "#include <Python.h>
class b2AssertException {};
#define b2Assert(A) if (!(A)) { PyErr_SetString(PyExc_AssertionError, #A); throw b2AssertException(); }"
  "#include <stdexcept>
#define b2Assert(A) if (!(A)) { throw std::logic_error(\"Box2D: \" #A); }")
_b2_patch(Collision/b2Distance.cpp
  "\nint32 b2_gjkCalls, b2_gjkIters, b2_gjkMaxIters;"
  "\nthread_local int32 b2_gjkCalls, b2_gjkIters, b2_gjkMaxIters;")
_b2_patch(Collision/b2TimeOfImpact.cpp
  "\nfloat32 b2_toiTime, b2_toiMaxTime;\nint32 b2_toiCalls, b2_toiIters, b2_toiMaxIters;\nint32 b2_toiRootIters, b2_toiMaxRootIters;"
  "\nthread_local float32 b2_toiTime, b2_toiMaxTime;\nthread_local int32 b2_toiCalls, b2_toiIters, b2_toiMaxIters;\nthread_local int32 b2_toiRootIters, b2_toiMaxRootIters;")
_b2_patch(Dynamics/Contacts/b2Contact.cpp
  "\tif (s_initialized == false)\n\t{\n\t\tInitializeRegisters();\n\t\ts_initialized = true;\n\t}"
  "\tstatic const bool initialized = (InitializeRegisters(), s_initialized = true);\n\t(void)initialized;")
_b2_patch(Common/b2BlockAllocator.cpp
  "#include <memory>\n" "#include <memory>\n#include <mutex>\n")
_b2_patch(Common/b2BlockAllocator.cpp
  "\tif (s_blockSizeLookupInitialized == false)"
  "\tstatic std::mutex lookup_mutex;\n\tstd::lock_guard<std::mutex> lookup_lock(lookup_mutex);\n\tif (s_blockSizeLookupInitialized == false)")
_b2_patch(Common/b2Timer.cpp
  "#elif defined(__linux__) || defined (__APPLE__)"
  "#elif 0  // envpool_lite: no clock reads (the profile is never read)")
foreach(_f IN LISTS _b2_patched)
  # Rewritten only when it changes (no needless recompiles).
  configure_file("${_b2_copy}/Box2D/${_f}.edit" "${_b2_copy}/Box2D/${_f}" COPYONLY)
endforeach()

file(GLOB_RECURSE _b2_sources "${_b2_copy}/Box2D/*.cpp")
add_library(envpool_lite_box2d STATIC ${_b2_sources})
target_include_directories(envpool_lite_box2d SYSTEM PUBLIC "${_b2_copy}")
set_target_properties(envpool_lite_box2d PROPERTIES
  INTERPROCEDURAL_OPTIMIZATION OFF
  CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON)
# -O3 -DNDEBUG as the wheel (CPython's own flags); third-party code: no
# warnings.
target_compile_options(envpool_lite_box2d PRIVATE -w)
