# Sanitizer builds of napkin's tests: tests/run.sh's sanitizer lanes configure a build folder with
#   -DNAPKIN_SANITIZE=address,undefined   AddressSanitizer + UndefinedBehaviorSanitizer (g++): every host test
#   -DNAPKIN_SANITIZE=thread              ThreadSanitizer (clang): the threaded NVTX tests
# and every C++ target defined after this file is included (tests, examples, benchmarks) is compiled and
# linked with the sanitizer. napkin's own targets are header-only INTERFACE libraries, so this changes what
# the tests build, never the installed package. CUDA sources are left alone (nvcc does not take these
# flags); tests/CMakeLists.txt builds no nvcc-compiled test in a sanitizer build.
#
# Also defines napkin_sanitizer_shims(<target>): links tests/sanitizers/no_deepbind.cpp into a test
# executable, so that CUPTI's host library can be loaded under ASan/TSan (see that file).
set(NAPKIN_SANITIZE "" CACHE STRING "Build the tests with sanitizers: address,undefined or thread (empty: none)")
set_property(CACHE NAPKIN_SANITIZE PROPERTY STRINGS "" "address,undefined" "thread")

function(napkin_sanitizer_shims target)
  if(NOT NAPKIN_SANITIZE STREQUAL "")
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests/sanitizers/no_deepbind.cpp)
    target_link_libraries(${target} PRIVATE ${CMAKE_DL_LIBS})
    # The shim's dlopen must be in the executable's dynamic symbol table to interpose CUPTI's call.
    if(NAPKIN_LINKER_EXPORTS_DLOPEN)
      target_link_options(${target} PRIVATE -Wl,--export-dynamic-symbol=dlopen)
    endif()
  endif()
endfunction()

if(NAPKIN_SANITIZE STREQUAL "")
  return()
endif()
if(NOT NAPKIN_SANITIZE MATCHES "^(address,undefined|address|undefined|thread)$")
  message(FATAL_ERROR "NAPKIN_SANITIZE='${NAPKIN_SANITIZE}': expected address,undefined or thread")
endif()

# Stop at the first finding (UBSan would otherwise print and continue, and the test would pass); keep frame
# pointers so that every report has a full stack.
set(napkin_sanitizer_flags -fsanitize=${NAPKIN_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)

include(CheckCXXSourceCompiles)
include(CheckLinkerFlag)
set(CMAKE_REQUIRED_FLAGS "-fsanitize=${NAPKIN_SANITIZE}")
set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=${NAPKIN_SANITIZE})
check_cxx_source_compiles("int main() { return 0; }" NAPKIN_COMPILER_HAS_SANITIZER)
unset(CMAKE_REQUIRED_FLAGS)
unset(CMAKE_REQUIRED_LINK_OPTIONS)
if(NOT NAPKIN_COMPILER_HAS_SANITIZER)
  message(FATAL_ERROR "NAPKIN_SANITIZE=${NAPKIN_SANITIZE}: ${CMAKE_CXX_COMPILER} cannot build with "
                      "-fsanitize=${NAPKIN_SANITIZE} (Debian: the runtimes are in libasan8/libubsan1/libtsan2 for "
                      "g++ and libclang-rt-dev for clang)")
endif()
check_linker_flag(CXX -Wl,--export-dynamic-symbol=dlopen NAPKIN_LINKER_EXPORTS_DLOPEN)

foreach(flag IN LISTS napkin_sanitizer_flags)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:${flag}>)
endforeach()
add_link_options($<$<LINK_LANGUAGE:CXX>:-fsanitize=${NAPKIN_SANITIZE}>)
message(STATUS "napkin: tests built with -fsanitize=${NAPKIN_SANITIZE}")
