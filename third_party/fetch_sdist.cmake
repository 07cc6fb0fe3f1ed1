# envpool_lite_fetch_sdist(<label> <package> <version> <out_var> [PATTERNS ...])
#
# Fetches the source distribution <package>==<version> through the Python
# environment's pip from the configured package index, by name and version
# (never by address), once, and unpacks it (only the archive members matching
# PATTERNS, relative to the archive's top folder, when given). Sets <out_var>
# to the unpacked folder. The archive and the unpacked folder are cached
# under ENVPOOL_LITE_DEPS_DIR (default build/_deps).
#
# pip runs with the interpreter's own environment: a build-isolation
# environment (pip install . without --no-build-isolation) hides pip through
# PYTHONPATH. pip reads the sdist's metadata with the build tools already
# installed (scikit-build-core: --no-build-isolation, nothing more fetched),
# or else in an isolated environment of its own.

set(ENVPOOL_LITE_DEPS_DIR "${PROJECT_SOURCE_DIR}/build/_deps" CACHE PATH
    "Where third-party source distributions are fetched and unpacked")

function(envpool_lite_fetch_sdist label package version out_var)
  cmake_parse_arguments(PARSE_ARGV 4 _fs "" "" "PATTERNS")
  set(_cache "${ENVPOOL_LITE_DEPS_DIR}/${package}-${version}")
  set(_src "${_cache}/src")
  set(_stamp "${_cache}/unpacked.stamp")
  if(NOT EXISTS "${_stamp}")
    file(GLOB _archive "${_cache}/*.tar.gz")
    if(NOT _archive)
      if(NOT Python_EXECUTABLE)
        find_package(Python 3.9 REQUIRED COMPONENTS Interpreter)
      endif()
      message(STATUS "${label}: fetching the ${package} ${version} source "
                     "distribution through pip")
      set(_download "${_cache}/download")
      set(_pip "${CMAKE_COMMAND}" -E env --unset=PYTHONPATH
          --unset=PYTHONNOUSERSITE "${Python_EXECUTABLE}" -m pip download
          --no-deps --no-binary "${package}" --disable-pip-version-check
          --dest "${_download}" "${package}==${version}")
      set(_log "")
      foreach(_isolation IN ITEMS shared isolated)
        file(REMOVE_RECURSE "${_download}")
        set(_cmd ${_pip})
        if(_isolation STREQUAL "shared")
          list(APPEND _cmd --no-build-isolation)
        endif()
        execute_process(COMMAND ${_cmd}
                        RESULT_VARIABLE _rc
                        OUTPUT_VARIABLE _out
                        ERROR_VARIABLE _out)
        string(APPEND _log "${_out}")
        file(GLOB _archive "${_download}/*.tar.gz")
        if(_rc EQUAL 0 AND _archive)
          break()
        endif()
      endforeach()
      if(NOT _rc EQUAL 0 OR NOT _archive)
        message(FATAL_ERROR "${label}: could not fetch the ${package} "
                            "${version} source distribution with pip:\n${_log}")
      endif()
      get_filename_component(_name "${_archive}" NAME)
      file(RENAME "${_archive}" "${_cache}/${_name}")
      file(REMOVE_RECURSE "${_download}")
      set(_archive "${_cache}/${_name}")
    endif()
    file(REMOVE_RECURSE "${_src}" "${_cache}/unpack")
    if(_fs_PATTERNS)
      # Archive members are named <top folder>/<path>; the top folder is the
      # archive's name without .tar.gz.
      get_filename_component(_top "${_archive}" NAME)
      string(REGEX REPLACE "\\.tar\\.gz$" "" _top "${_top}")
      set(_patterns "")
      foreach(_p IN LISTS _fs_PATTERNS)
        list(APPEND _patterns "${_top}/${_p}")
      endforeach()
      file(ARCHIVE_EXTRACT INPUT "${_archive}" DESTINATION "${_cache}/unpack"
           PATTERNS ${_patterns})
    else()
      file(ARCHIVE_EXTRACT INPUT "${_archive}" DESTINATION "${_cache}/unpack")
    endif()
    file(GLOB _unpacked LIST_DIRECTORIES true "${_cache}/unpack/*")
    file(RENAME "${_unpacked}" "${_src}")
    file(REMOVE_RECURSE "${_cache}/unpack")
    file(TOUCH "${_stamp}")
  endif()
  set(${out_var} "${_src}" PARENT_SCOPE)
endfunction()
