# ALE, the Arcade Learning Environment, for the Atari envs.
#
# Its C++ sources come from the source distribution of exactly the ale-py
# version that pyproject.toml pins in its family's extra (`ale-py==X`, the
# one source of truth: the ROMs are read from that installed package at run
# time). pip fetches it from the configured package index, by name and
# version (never by address), once: the archive and its unpacked tree are
# cached under ENVPOOL_LITE_DEPS_DIR (default build/_deps), so rebuilds and
# fresh build directories reuse them. -DALE_SOURCE_DIR=<unpacked sdist>
# skips the fetch (offline builds).
#
# ALE is built with its own CMake as a static C++ library (BUILD_CPP_LIB=ON;
# Python bindings, vector lib and SDL off; needs zlib), at -O3, without the
# IPO/LTO its CMake turns on (a longer build, and a 6% slower emulator when
# measured here), with hidden symbols so that it cannot clash with ale-py's
# own copy in the same process, and installed nowhere (its install rules
# belong to an install component that scikit-build-core does not install).
#
# Defines the target envpool_lite_ale: link it to get ALE and its headers.

file(STRINGS "${PROJECT_SOURCE_DIR}/pyproject.toml" _ale_requirement
     REGEX "\"ale-py==[^\"]+\"")
string(REGEX MATCH "ale-py==([0-9A-Za-z.]+)" _ale_match "${_ale_requirement}")
set(ALE_PY_VERSION "${CMAKE_MATCH_1}")
if(NOT ALE_PY_VERSION)
  message(FATAL_ERROR "pyproject.toml must pin ale-py as \"ale-py==X\" in "
                      "the atari extra (it names the ALE sources)")
endif()
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY
             CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/pyproject.toml")

set(ALE_SOURCE_DIR "" CACHE PATH
    "An unpacked ale-py source distribution to build instead of fetching one")

if(ALE_SOURCE_DIR)
  set(_ale_src "${ALE_SOURCE_DIR}")
else()
  include(third_party/fetch_sdist.cmake)
  envpool_lite_fetch_sdist(ALE ale-py ${ALE_PY_VERSION} _ale_src)
endif()
if(NOT EXISTS "${_ale_src}/src/ale/ale_interface.hpp")
  message(FATAL_ERROR "ALE: no ALE sources in ${_ale_src}")
endif()
message(STATUS "ALE: ale-py ${ALE_PY_VERSION} sources in ${_ale_src}")

# ALE's options (its CMake honours these as normal variables).
set(BUILD_CPP_LIB ON)
set(BUILD_PYTHON_LIB OFF)
set(BUILD_VECTOR_LIB OFF)
set(BUILD_VECTOR_XLA_LIB OFF)
set(BUILD_WASM_LIB OFF)
set(SDL_SUPPORT OFF)
# Its version header would otherwise record this repository's git commit
# (the sources sit inside it) and change, forcing rebuilds, at every commit.
set(CMAKE_DISABLE_FIND_PACKAGE_Git TRUE)
# Its install rules (headers, libale.a) must not land in the wheel.
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME ale)
add_subdirectory("${_ale_src}" "${CMAKE_BINARY_DIR}/ale" EXCLUDE_FROM_ALL)
unset(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME)
unset(CMAKE_DISABLE_FIND_PACKAGE_Git)

foreach(_t ale ale-lib)
  set_target_properties(${_t} PROPERTIES
    INTERPROCEDURAL_OPTIMIZATION OFF
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_compile_options(${_t} PRIVATE -w)  # third-party code: no warnings
endforeach()

add_library(envpool_lite_ale INTERFACE)
target_link_libraries(envpool_lite_ale INTERFACE ale-lib)
target_include_directories(envpool_lite_ale SYSTEM INTERFACE
  "${_ale_src}/src" "${CMAKE_BINARY_DIR}/ale/src/ale")
