# numpy's random C library (numpy/random/lib/libnpyrandom.a, numpy's
# "random C API") and its headers, from the numpy of the Python that builds:
# the families whose reference draws with numpy's Generator.standard_normal
# (its ziggurat) call numpy's own code on our PCG64 (refkit/numpy/random.h).
# Defines the INTERFACE target envpool_lite_numpy_random, or nothing (with
# the reason in ENVPOOL_LITE_NUMPY_RANDOM_ERROR) when numpy has none.
if(TARGET envpool_lite_numpy_random)
  return()
endif()
if(NOT Python_EXECUTABLE)
  find_package(Python 3.9 REQUIRED COMPONENTS Interpreter)
endif()
execute_process(
  COMMAND "${Python_EXECUTABLE}" -c
          "import importlib.util as u; print(u.find_spec('numpy').submodule_search_locations[0])"
  OUTPUT_VARIABLE _npr_dir RESULT_VARIABLE _npr_rc ERROR_QUIET
  OUTPUT_STRIP_TRAILING_WHITESPACE)
set(_npr_lib "${_npr_dir}/random/lib/libnpyrandom.a")
set(_npr_include "${_npr_dir}/_core/include")
if(NOT _npr_rc EQUAL 0 OR NOT EXISTS "${_npr_lib}" OR
   NOT EXISTS "${_npr_include}/numpy/random/bitgen.h")
  set(ENVPOOL_LITE_NUMPY_RANDOM_ERROR
      "numpy's random C library (numpy/random/lib/libnpyrandom.a) or its headers were not found in ${Python_EXECUTABLE}'s numpy")
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/build_tree_headers.cmake)
envpool_lite_build_tree_headers(numpy "${_npr_include}" _npr_include)
add_library(envpool_lite_numpy_random INTERFACE)
target_include_directories(envpool_lite_numpy_random SYSTEM INTERFACE
  "${_npr_include}")
target_link_libraries(envpool_lite_numpy_random INTERFACE "${_npr_lib}"
  ${CMAKE_DL_LIBS} m)
