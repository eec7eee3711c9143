# `cmake --install` of the build tree into a fresh prefix puts the tool in bin/ and its bash completion in
# share/bash-completion/completions/, and the installed tool runs (cudart is linked statically).
#   cmake -DBUILD=<build dir> -DPREFIX=<empty folder to create> -P install_test.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD}" --prefix "${PREFIX}" RESULT_VARIABLE rc OUTPUT_QUIET
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}): ${err}")
endif()
foreach(f bin/napkin share/bash-completion/completions/napkin)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "cmake --install did not install ${f}")
  endif()
endforeach()
execute_process(COMMAND "${PREFIX}/bin/napkin" --version RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^napkin [0-9]+\\.[0-9]+\\.[0-9]+")
  message(FATAL_ERROR "the installed napkin does not run (${rc}): ${out}${err}")
endif()
file(REMOVE_RECURSE "${PREFIX}")
message(STATUS "installed and ran: ${out}")
