# napkin configures, installs and is consumed with CMake 3.22 (Ubuntu 22.04's), the minimum it declares. The
# test installs that CMake itself from PyPI (`pip install cmake==3.22.6`) into a virtual environment under WORK;
# without network or venv it says SKIPPED. Then, with 3.22: configure napkin (headers only) and install it,
# and build and run tests/build/consumer through find_package and through FetchContent, with the toolkit.
#   cmake -DPYTHON=<python3> -DSOURCE=<napkin> -DWORK=<scratch> -DGENERATOR=<generator> -P cmake_3_22.cmake
cmake_minimum_required(VERSION 3.22)
set(venv "${WORK}/venv")
include("${CMAKE_CURRENT_LIST_DIR}/pip_venv.cmake")
pip_venv_tool(DIR "${venv}" PACKAGE "cmake==3.22.6" TOOL cmake TIMEOUT 180 OUT cmake322)
execute_process(COMMAND "${cmake322}" --version OUTPUT_VARIABLE version)
if(NOT version MATCHES "version 3\\.22\\.")
  message(FATAL_ERROR "${cmake322} is not CMake 3.22: ${version}")
endif()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed with CMake 3.22 (${rc})")
  endif()
endfunction()

set(build "${WORK}/napkin-build")
set(prefix "${WORK}/prefix")
file(REMOVE_RECURSE "${build}" "${prefix}")
run("napkin's configure" "${cmake322}" -S "${SOURCE}" -B "${build}" -G "${GENERATOR}" -DNAPKIN_BUILD_TESTS=OFF
    -DNAPKIN_BUILD_EXAMPLES=OFF -DNAPKIN_BUILD_TOOLS=OFF -DNAPKIN_BUILD_BENCHMARKS=OFF)
run("napkin's install" "${cmake322}" --install "${build}" --prefix "${prefix}")
foreach(mode find_package fetchcontent)
  run("the ${mode} consumer" ${CMAKE_COMMAND} -DMODE=${mode} -DWITH_CUDA=ON -DPREFIX=${prefix}
      -DNAPKIN_SOURCE_DIR=${SOURCE} -DSOURCE=${SOURCE}/tests/build/consumer -DBINARY=${WORK}/consumer-${mode}
      -DGENERATOR=${GENERATOR} -DCONSUMER_CMAKE=${cmake322} -P ${SOURCE}/tests/build/consumer/run_consumer.cmake)
endforeach()
message(STATUS "CMake 3.22: napkin configured and installed; find_package and FetchContent consumers built and ran")
