# Runs a command and checks how it ends: for compile-failure tests and for command-line error paths, where
# both the exit status and the message matter. Shared by every test area (NAPKIN_EXPECT in tests/CMakeLists.txt).
#   cmake -DCMD="prog|arg1|arg2" -DEXPECT=fail|pass [-DREGEX=<regex the output must match>] -P expect.cmake
# Arguments are separated by '|' so that they survive add_test() untouched.
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(EXPECT STREQUAL "fail")
  if(NOT rc MATCHES "^[0-9]+$")
    message(FATAL_ERROR "expected a clean failure, got '${rc}':\n${all}")
  endif()
  if(rc EQUAL 0)
    message(FATAL_ERROR "expected a non-zero exit status, got 0:\n${all}")
  endif()
elseif(NOT rc STREQUAL "0")
  message(FATAL_ERROR "expected success, got '${rc}':\n${all}")
endif()
if(DEFINED REGEX AND NOT all MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}':\n${all}")
endif()
message(STATUS "exit ${rc}; output:\n${all}")
