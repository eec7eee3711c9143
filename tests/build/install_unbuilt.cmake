# `cmake --install` of a tree where nothing was built works and installs no tool (the tool installs only
# when it was built): once with the tool and examples off (headers only), once with them on and nothing built.
#   cmake -DSOURCE=<napkin> -DWORK=<scratch folder> -DGENERATOR=<generator> -P install_unbuilt.cmake
file(REMOVE_RECURSE "${WORK}")
foreach(examples OFF ON)  # NAPKIN_BUILD_TOOLS and NAPKIN_BUILD_EXAMPLES together
  set(build "${WORK}/build-${examples}")
  set(prefix "${WORK}/prefix-${examples}")
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE}" -B "${build}" -G "${GENERATOR}" -DNAPKIN_BUILD_TESTS=OFF
                          -DNAPKIN_BUILD_EXAMPLES=${examples} -DNAPKIN_BUILD_TOOLS=${examples}
                          -DNAPKIN_BUILD_BENCHMARKS=OFF
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configure with examples ${examples} failed (${rc}): ${err}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --install "${build}" --prefix "${prefix}" RESULT_VARIABLE rc
                  OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install of an unbuilt tree (examples ${examples}) failed (${rc}): ${err}")
  endif()
  file(GLOB_RECURSE installed_headers "${prefix}/include/napkin/*.hpp")
  if(NOT installed_headers)
    message(FATAL_ERROR "examples ${examples}: no header installed")
  endif()
  if(EXISTS "${prefix}/bin/napkin" OR EXISTS "${prefix}/share/bash-completion/completions/napkin")
    message(FATAL_ERROR "examples ${examples}: the napkin tool (or its completion) was installed without being built")
  endif()
  message("examples ${examples}: installed without building, no tool")
endforeach()
file(REMOVE_RECURSE "${WORK}")
