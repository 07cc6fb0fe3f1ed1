# ViZDoom's C++ client library, for the ViZDoom envs.
#
# Only the client library (src/lib and include/ of ViZDoom's sources) is
# compiled here, as a static library. The engine itself (the `vizdoom`
# binary), vizdoom.pk3, freedoom2.wad and the scenarios are not built: they
# come at run time from the installed vizdoom wheel, exactly the version that
# pyproject.toml pins in its family's extra (`vizdoom==X`, the one source
# of truth). The library checks at init that the engine it talks to has its
# own version, so the sources are those of that same version: its source
# distribution, fetched through the Python environment's pip from the
# configured package index, by name and version (never by address), once.
# The archive and the few unpacked directories we need are cached under
# ENVPOOL_LITE_DEPS_DIR (default build/_deps); -DVIZDOOM_SOURCE_DIR=<unpacked
# sdist> skips the fetch (offline builds).
#
# The library needs Boost (filesystem thread system date_time chrono regex
# iostreams: Debian's libboost-*-dev packages, which scripts/setup.sh
# installs). Debian's static Boost archives are not position-independent,
# so the extension links Debian's shared Boost libraries (only those it
# uses). Without Boost the ViZDoom envs are left out with a warning (the rest
# of the build goes on).
#
# The client library is compiled with hidden symbols, and the static
# archives' symbols are kept out of the extension's dynamic symbol table, so
# that this copy cannot clash with the vizdoom Python module's own when both
# are loaded in one process.
#
# Also builds envpool_lite's engine launcher (cpp/envs/vizdoom/launcher.cc),
# installed next to the extension module.
#
# Defines the target envpool_lite_vizdoom: link it to get the client library
# and its headers (when Boost is missing, the target is not defined).

file(STRINGS "${PROJECT_SOURCE_DIR}/pyproject.toml" _vzd_requirement
     REGEX "\"vizdoom==[^\"]+\"")
string(REGEX MATCH "vizdoom==([0-9A-Za-z.]+)" _vzd_match "${_vzd_requirement}")
set(VIZDOOM_VERSION "${CMAKE_MATCH_1}")
if(NOT VIZDOOM_VERSION)
  message(FATAL_ERROR "pyproject.toml must pin vizdoom as \"vizdoom==X\" in "
                      "the vizdoom extra (it names the ViZDoom sources)")
endif()
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY
             CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/pyproject.toml")

# Boost first: without it there is nothing to fetch for.
set(Boost_USE_STATIC_LIBS OFF)
set(Boost_USE_MULTITHREADED ON)
find_package(Boost 1.56 CONFIG QUIET
             COMPONENTS filesystem thread system date_time chrono regex iostreams)
if(NOT Boost_FOUND)
  message(WARNING "ViZDoom: Boost (filesystem thread system date_time chrono "
                  "regex iostreams) not found: the ViZDoom "
                  "envs are left out. On Debian: apt-get install "
                  "libboost-filesystem-dev libboost-thread-dev "
                  "libboost-system-dev libboost-date-time-dev "
                  "libboost-chrono-dev libboost-regex-dev "
                  "libboost-iostreams-dev (scripts/setup.sh does).")
  return()
endif()

set(VIZDOOM_SOURCE_DIR "" CACHE PATH
    "An unpacked vizdoom source distribution to build instead of fetching one")

if(VIZDOOM_SOURCE_DIR)
  set(_vzd_src "${VIZDOOM_SOURCE_DIR}")
else()
  include(third_party/fetch_sdist.cmake)
  # Only what the client library needs (the sdist also carries the whole
  # engine's sources).
  envpool_lite_fetch_sdist(ViZDoom vizdoom ${VIZDOOM_VERSION} _vzd_src
    PATTERNS "CMakeLists.txt" "include/*" "src/lib/*"
             "src/vizdoom/src/viz_doom_classes.h")
endif()
if(NOT EXISTS "${_vzd_src}/src/lib/ViZDoomGame.cpp"
   OR NOT EXISTS "${_vzd_src}/include/ViZDoom.h")
  message(FATAL_ERROR "ViZDoom: no ViZDoom client library sources in ${_vzd_src}")
endif()

# The version header, generated exactly as ViZDoom's own CMakeLists.txt does
# (project(ViZDoom VERSION M.m.p) and ViZDoom_VERSION_SUFFIX give
# ViZDoom_VERSION_ID = Mmp and ViZDoom_VERSION_STR = M.m.p<suffix>), from the
# sources' own CMakeLists.txt.
file(READ "${_vzd_src}/CMakeLists.txt" _vzd_cmakelists)
string(REGEX MATCH "project\\(ViZDoom VERSION ([0-9]+)\\.([0-9]+)\\.([0-9]+)\\)"
       _vzd_project "${_vzd_cmakelists}")
if(NOT _vzd_project)
  message(FATAL_ERROR "ViZDoom: no project(ViZDoom VERSION ...) in "
                      "${_vzd_src}/CMakeLists.txt")
endif()
set(ViZDoom_VERSION_MAJOR "${CMAKE_MATCH_1}")
set(ViZDoom_VERSION_MINOR "${CMAKE_MATCH_2}")
set(ViZDoom_VERSION_PATCH "${CMAKE_MATCH_3}")
set(ViZDoom_VERSION_SUFFIX "")
if(_vzd_cmakelists MATCHES "set\\(ViZDoom_VERSION_SUFFIX \"([^\"]*)\"\\)")
  set(ViZDoom_VERSION_SUFFIX "${CMAKE_MATCH_1}")
endif()
set(ViZDoom_VERSION_STR
    ${ViZDoom_VERSION_MAJOR}.${ViZDoom_VERSION_MINOR}.${ViZDoom_VERSION_PATCH}${ViZDoom_VERSION_SUFFIX})
set(ViZDoom_VERSION_ID
    ${ViZDoom_VERSION_MAJOR}${ViZDoom_VERSION_MINOR}${ViZDoom_VERSION_PATCH})
if(NOT ViZDoom_VERSION_STR STREQUAL VIZDOOM_VERSION)
  message(FATAL_ERROR "ViZDoom: the sources in ${_vzd_src} are version "
                      "${ViZDoom_VERSION_STR}, pyproject.toml pins "
                      "vizdoom==${VIZDOOM_VERSION}")
endif()
set(_vzd_generated "${CMAKE_BINARY_DIR}/vizdoom_generated")
configure_file("${_vzd_src}/src/lib/ViZDoomVersion.h.in"
               "${_vzd_generated}/ViZDoomVersion.h")
message(STATUS "ViZDoom: client library ${ViZDoom_VERSION_STR} from ${_vzd_src}")

# One fix, to a copy in the build tree: when the engine exits before it is
# up (it failed to start, was killed, or the launcher refused a taken
# instance name), DoomController::close() reads the game state it does not
# have yet and the whole process segfaults (vizdoom 1.3.2's own Python
# module does the same); with the fix, init() throws.
file(READ "${_vzd_src}/src/lib/ViZDoomController.cpp" _vzd_controller)
set(_vzd_bug "if (this->gameState->DEMO_RECORDING){")
string(FIND "${_vzd_controller}" "${_vzd_bug}" _vzd_at)
string(FIND "${_vzd_controller}" "${_vzd_bug}" _vzd_last REVERSE)
if(_vzd_at EQUAL -1 OR NOT _vzd_at EQUAL _vzd_last)
  message(FATAL_ERROR "ViZDoom: ViZDoomController.cpp changed; review the "
                      "fix in third_party/vizdoom.cmake")
endif()
string(REPLACE "${_vzd_bug}" "if (this->gameState && this->gameState->DEMO_RECORDING){"
       _vzd_controller "${_vzd_controller}")
file(WRITE "${_vzd_generated}/ViZDoomController.cpp.new" "${_vzd_controller}")
configure_file("${_vzd_generated}/ViZDoomController.cpp.new"
               "${_vzd_generated}/ViZDoomController.cpp" COPYONLY)  # rewritten only when it changes

file(GLOB _vzd_sources "${_vzd_src}/src/lib/*.cpp")
list(FILTER _vzd_sources EXCLUDE REGEX "/ViZDoomController\\.cpp$")
list(APPEND _vzd_sources "${_vzd_generated}/ViZDoomController.cpp")
add_library(envpool_lite_vizdoom_client STATIC ${_vzd_sources})
# src/lib first: it bundles the Boost.Process version the library is written
# for, which must win over the system Boost's newer one.
target_include_directories(envpool_lite_vizdoom_client PRIVATE
  "${_vzd_src}/src/lib" "${_vzd_src}/include" "${_vzd_generated}")
target_link_libraries(envpool_lite_vizdoom_client PRIVATE
  Boost::filesystem Boost::thread Boost::system Boost::date_time
  Boost::chrono Boost::regex Boost::iostreams Threads::Threads rt)
set_target_properties(envpool_lite_vizdoom_client PROPERTIES
  CXX_STANDARD 11  # as ViZDoom's own build
  CXX_EXTENSIONS OFF
  CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON)
target_compile_options(envpool_lite_vizdoom_client PRIVATE -w)  # third-party code

add_library(envpool_lite_vizdoom INTERFACE)
target_link_libraries(envpool_lite_vizdoom INTERFACE
  envpool_lite_vizdoom_client Boost::filesystem Boost::thread Boost::system
  Boost::date_time Boost::chrono Boost::regex Boost::iostreams rt)
target_include_directories(envpool_lite_vizdoom SYSTEM INTERFACE
  "${_vzd_src}/include")
target_link_options(envpool_lite_vizdoom INTERFACE
  "LINKER:--exclude-libs,ALL" "LINKER:--as-needed")

# The launcher every env starts its engine through (see launcher.cc): beside
# the extension module, where the env looks for it.
add_executable(envpool_lite_vizdoom_launcher
               "${PROJECT_SOURCE_DIR}/cpp/envs/vizdoom/launcher.cc")
set_target_properties(envpool_lite_vizdoom_launcher PROPERTIES
  OUTPUT_NAME vizdoom_launcher)
if(ENVPOOL_LITE_PYTHON)
  install(TARGETS envpool_lite_vizdoom_launcher
          RUNTIME DESTINATION envpool_lite COMPONENT python)
endif()
