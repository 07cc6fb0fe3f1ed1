# A MuJoCo of its own for a family whose reference pins another MuJoCo than
# the one the other families run on (Meta-World: metaworld 3.1.1 pins
# mujoco==3.3.0; everything else runs on the mujoco==X of pyproject.toml).
#
# envpool_lite_mujoco_version(<version> <target>)
#
# Fetches the mujoco==<version> wheel by name through pip (third_party/
# fetch_wheel.cmake: the CPython 3.11 manylinux wheel, whatever Python
# builds; the C library and headers are the same in each of a release's
# wheels. 3.3.0's wheels are manylinux2014, 3.6.0's manylinux_2_28, and
# pip matches each --platform exactly, so both are named) and defines the INTERFACE target <target>: that version's headers
# (mjModel and mjData as that library lays them out), numpy's headers and
# random C library, and ENVPOOL_LITE_MUJOCO_VERSION="<version>". The family
# compiles against it in a shared library of its own whose symbols stay
# inside it (see CMakeLists.txt), so the two layouts of mjModel never meet.
# The version's libmujoco.so.<version> goes into the package,
# envpool_lite/_mujoco/, where the family's Python finds it and the C++
# loads it at make() (dlopen, beside the mujoco package's own library in the
# same process: each handle resolves its own symbols).
#
# Sets <target>_LIBRARY to the fetched library's path; leaves <target>
# undefined (with a warning) when the wheel cannot be fetched.

include(${CMAKE_CURRENT_LIST_DIR}/fetch_wheel.cmake)

function(envpool_lite_mujoco_version version target)
  envpool_lite_fetch_wheel("MuJoCo ${version}" "mujoco==${version}" _dir
    PIP_ARGS --python-version 311 --implementation cp --abi cp311
             --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64
    PATTERNS "mujoco/include/*" "mujoco/libmujoco.so.${version}"
             "mujoco/plugin/*")
  if(NOT _dir)
    message(WARNING "MuJoCo ${version}: ${_dir_ERROR}")
    return()
  endif()
  set(_include "${_dir}/mujoco/include")
  set(_library "${_dir}/mujoco/libmujoco.so.${version}")
  if(NOT EXISTS "${_include}/mujoco/mujoco.h" OR NOT EXISTS "${_library}")
    message(WARNING "MuJoCo ${version}: no headers or library in ${_dir}")
    return()
  endif()
  # numpy's headers and random C library, as third_party/mujoco.cmake
  # found them (the family's reset noise is numpy's own draws).
  get_target_property(_np_include envpool_lite_mujoco
                      INTERFACE_INCLUDE_DIRECTORIES)
  list(FILTER _np_include INCLUDE REGEX "numpy")
  get_target_property(_np_libs envpool_lite_mujoco INTERFACE_LINK_LIBRARIES)
  add_library(${target} INTERFACE)
  target_include_directories(${target} SYSTEM INTERFACE "${_include}"
                                                         ${_np_include})
  target_link_libraries(${target} INTERFACE ${_np_libs})
  target_compile_definitions(${target} INTERFACE
    ENVPOOL_LITE_MUJOCO_VERSION="${version}")
  install(FILES "${_library}" DESTINATION envpool_lite/_mujoco
          COMPONENT python)
  # The mesh decoders, where the release has them as plugins (3.6 reads STL
  # and OBJ files only through libstl_decoder.so and libobj_decoder.so):
  # refkit/mujoco/api.h loads envpool_lite/_mujoco/plugins-<version>/ with
  # the library.
  file(GLOB _decoders "${_dir}/mujoco/plugin/*decoder*.so")
  if(_decoders)
    install(FILES ${_decoders}
            DESTINATION envpool_lite/_mujoco/plugins-${version}
            COMPONENT python)
  endif()
  set(${target}_LIBRARY "${_library}" PARENT_SCOPE)
  message(STATUS "MuJoCo ${version}: headers and library from its wheel")
endfunction()
