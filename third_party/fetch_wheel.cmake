# envpool_lite_fetch_wheel(<label> <requirement> <out_var>
#                          [PIP_ARGS ...] [PATTERNS ...])
#
# Fetches the wheel <requirement> (package==version) through the Python
# environment's pip from the configured package index, by name and version
# (never by address), once, and unpacks it (only the archive members matching
# PATTERNS, paths inside the wheel, when given). PIP_ARGS are more arguments
# of `pip download`, e.g. the platform of a wheel built for another Python.
# Sets <out_var> to the unpacked folder, or to "" (with the reason in
# <out_var>_ERROR) when pip could not fetch it. Cached under
# ENVPOOL_LITE_DEPS_DIR (default build/_deps).

set(ENVPOOL_LITE_DEPS_DIR "${PROJECT_SOURCE_DIR}/build/_deps" CACHE PATH
    "Where third-party source distributions are fetched and unpacked")

function(envpool_lite_fetch_wheel label requirement out_var)
  cmake_parse_arguments(PARSE_ARGV 3 _fw "" "" "PIP_ARGS;PATTERNS")
  string(REPLACE "==" "-" _name "${requirement}")
  set(_cache "${ENVPOOL_LITE_DEPS_DIR}/${_name}-wheel")
  set(_src "${_cache}/src")
  set(_stamp "${_cache}/unpacked.stamp")
  set(${out_var}_ERROR "" PARENT_SCOPE)
  if(NOT EXISTS "${_stamp}")
    file(GLOB _archive "${_cache}/*.whl")
    if(NOT _archive)
      if(NOT Python_EXECUTABLE)
        find_package(Python 3.9 REQUIRED COMPONENTS Interpreter)
      endif()
      message(STATUS "${label}: fetching the ${requirement} wheel through pip")
      set(_download "${_cache}/download")
      file(REMOVE_RECURSE "${_download}")
      execute_process(
        COMMAND "${CMAKE_COMMAND}" -E env --unset=PYTHONPATH
                --unset=PYTHONNOUSERSITE "${Python_EXECUTABLE}" -m pip download
                --no-deps --only-binary=:all: --disable-pip-version-check
                --dest "${_download}" ${_fw_PIP_ARGS} "${requirement}"
        RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
      file(GLOB _archive "${_download}/*.whl")
      if(NOT _rc EQUAL 0 OR NOT _archive)
        set(${out_var} "" PARENT_SCOPE)
        set(${out_var}_ERROR "pip could not fetch the ${requirement} wheel:\n${_out}"
            PARENT_SCOPE)
        return()
      endif()
      get_filename_component(_whl "${_archive}" NAME)
      file(RENAME "${_archive}" "${_cache}/${_whl}")
      file(REMOVE_RECURSE "${_download}")
      set(_archive "${_cache}/${_whl}")
    endif()
    file(REMOVE_RECURSE "${_src}")
    if(_fw_PATTERNS)
      file(ARCHIVE_EXTRACT INPUT "${_archive}" DESTINATION "${_src}"
           PATTERNS ${_fw_PATTERNS})
    else()
      file(ARCHIVE_EXTRACT INPUT "${_archive}" DESTINATION "${_src}")
    endif()
    file(TOUCH "${_stamp}")
  endif()
  set(${out_var} "${_src}" PARENT_SCOPE)
endfunction()
