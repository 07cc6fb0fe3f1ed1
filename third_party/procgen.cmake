# Procgen, for the Procgen envs (BigfishEasy-v0, CoinrunHard-v0, ...).
#
# The games are OpenAI's procgen 0.10.7 exactly as its official wheel ships
# them: procgen/data/prebuilt/libenv.so (the 16 games with Qt linked in
# statically; it needs only libc, libstdc++, zlib and glib) and the games'
# images in procgen/data/assets. That release has no source distribution and
# no wheel for Python 3.11 or newer, but libenv.so does not depend on Python:
# it is gym3's libenv C API. So the build fetches the CPython 3.10 manylinux
# wheel by name (pip download with that platform), checks libenv.so's
# SHA-256, and installs libenv.so and the assets into the package
# (envpool_lite/_procgen/). The envs load that libenv.so at run time (dlopen,
# the path found by Python at make()) and drive one libenv instance per env
# from the pool's worker threads; frames are procgen's own by construction.
# The C header of the API, libenv.h, comes from gym3's wheel (pure Python).
#
# Without the wheels (no package index) the Procgen envs are left out with a
# warning; make() of a Procgen task then says how to get them.
#
# Defines the target envpool_lite_procgen when found.

set(PROCGEN_VERSION 0.10.7)
set(PROCGEN_GYM3_VERSION 0.3.3)
set(PROCGEN_LIBENV_SHA256
    f44786431a902e9ae1a32cd44f4aa650f4bdad893240a322e49e6098d6a7a2ea)

include(third_party/fetch_wheel.cmake)
envpool_lite_fetch_wheel(Procgen "procgen==${PROCGEN_VERSION}" _pg_dir
  PIP_ARGS --python-version 310 --implementation cp --abi cp310
           --platform manylinux2014_x86_64
  PATTERNS procgen/data procgen/version.txt)
if(NOT _pg_dir)
  message(WARNING "Procgen: ${_pg_dir_ERROR}\nThe Procgen envs are left out.")
  return()
endif()
envpool_lite_fetch_wheel(Procgen "gym3==${PROCGEN_GYM3_VERSION}" _gym3_dir
  PATTERNS gym3/libenv.h)
if(NOT _gym3_dir)
  message(WARNING "Procgen: ${_gym3_dir_ERROR}\nThe Procgen envs are left out.")
  return()
endif()

set(_pg_lib "${_pg_dir}/procgen/data/prebuilt/libenv.so")
if(NOT EXISTS "${_pg_lib}" OR NOT EXISTS "${_gym3_dir}/gym3/libenv.h")
  message(WARNING "Procgen: the wheels lack libenv.so or libenv.h: the "
                  "Procgen envs are left out.")
  return()
endif()
file(SHA256 "${_pg_lib}" _pg_sha)
if(NOT _pg_sha STREQUAL PROCGEN_LIBENV_SHA256)
  message(FATAL_ERROR "Procgen: ${_pg_lib} has SHA-256 ${_pg_sha}, expected "
                      "${PROCGEN_LIBENV_SHA256} (procgen ${PROCGEN_VERSION}'s "
                      "official wheel); delete ${ENVPOOL_LITE_DEPS_DIR}/"
                      "procgen-${PROCGEN_VERSION}-wheel and rebuild")
endif()
message(STATUS "Procgen: procgen ${PROCGEN_VERSION}'s libenv.so and assets")

add_library(envpool_lite_procgen INTERFACE)
target_include_directories(envpool_lite_procgen SYSTEM INTERFACE
                           "${_gym3_dir}")
target_compile_definitions(envpool_lite_procgen INTERFACE
  ENVPOOL_LITE_PROCGEN_VERSION="${PROCGEN_VERSION}")
target_link_libraries(envpool_lite_procgen INTERFACE ${CMAKE_DL_LIBS})

if(ENVPOOL_LITE_PYTHON)
  install(FILES "${_pg_lib}" "${_pg_dir}/procgen/version.txt"
          DESTINATION envpool_lite/_procgen COMPONENT python)
  install(DIRECTORY "${_pg_dir}/procgen/data/assets"
          DESTINATION envpool_lite/_procgen COMPONENT python)
endif()
