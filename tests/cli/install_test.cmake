# `cmake --install` of the build tree into a fresh prefix puts the tool in bin/ and its bash completion in
# share/bash-completion/completions/, its zsh completion in share/zsh/site-functions/, its man page in
# share/man/man1/, and the installed tool runs (cudart is linked statically).
#   cmake -DBUILD=<build dir> -DPREFIX=<empty folder to create> -P install_test.cmake
# With -DCHECK=mpi instead: a consumer project finds the installed package with find_package(napkin
# COMPONENTS mpi) and builds a program that includes napkin/mpi.hpp and links napkin::mpi. HAS_MPI is
# whether napkin's build found MPI: without it the check says SKIPPED (CTest: Skipped); with it the package
# must have installed napkinMpiTargets.cmake. GENERATOR is the consumer's CMake generator.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD}" --prefix "${PREFIX}" RESULT_VARIABLE rc OUTPUT_QUIET
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}): ${err}")
endif()

if(CHECK STREQUAL "mpi")
  file(GLOB_RECURSE mpi_targets "${PREFIX}/*/napkinMpiTargets.cmake")
  if(NOT HAS_MPI)
    if(mpi_targets)
      message(FATAL_ERROR "napkin was built without MPI but installed ${mpi_targets}")
    endif()
    file(REMOVE_RECURSE "${PREFIX}")
    message("SKIPPED: napkin was configured without MPI (no napkin::mpi to install; Debian: libopenmpi-dev)")
    return()
  endif()
  if(NOT mpi_targets)
    message(FATAL_ERROR "napkin was built with MPI but cmake --install did not install napkinMpiTargets.cmake")
  endif()
  set(src "${PREFIX}/consumer")
  file(WRITE "${src}/CMakeLists.txt" [=[
cmake_minimum_required(VERSION 3.22)
project(napkin_mpi_consumer LANGUAGES CXX)
find_package(napkin REQUIRED COMPONENTS mpi)
add_executable(uses_mpi uses_mpi.cpp)
target_link_libraries(uses_mpi PRIVATE napkin::mpi)
]=])
  file(WRITE "${src}/uses_mpi.cpp" [=[
// A program of the installed package's napkin::mpi: napkin/mpi.hpp compiles and MPI links.
#include <napkin/mpi.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const napkin::report_context c = napkin::mpi::context();
  MPI_Finalize();
  return c.rank ? 0 : 1;
}
]=])
  foreach(step "configure;-S;${src};-B;${src}/build;-G;${GENERATOR};-DCMAKE_PREFIX_PATH=${PREFIX}"
               "build;--build;${src}/build")
    list(POP_FRONT step what)
    execute_process(COMMAND ${CMAKE_COMMAND} ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "the napkin::mpi consumer's ${what} failed (${rc}):\n${out}${err}")
    endif()
  endforeach()
  if(NOT EXISTS "${src}/build/uses_mpi")
    message(FATAL_ERROR "the napkin::mpi consumer built no program")
  endif()
  file(REMOVE_RECURSE "${PREFIX}")
  message(STATUS "find_package(napkin COMPONENTS mpi): napkin::mpi found, a program including napkin/mpi.hpp built")
  return()
endif()

foreach(f bin/napkin share/bash-completion/completions/napkin share/zsh/site-functions/_napkin share/man/man1/napkin.1)
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
