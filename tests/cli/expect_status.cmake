# Runs the napkin CLI once and checks its exact exit status and its output (stdout and stderr together).
#   cmake "-DCMD=prog|arg1|arg2" -DSTATUS=<0|1|2> [-DREGEX=<regex>] [-DNOT_REGEX=<regex>] -P expect_status.cmake
# Arguments are separated by '|' so that they survive add_test() untouched.
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc STREQUAL "${STATUS}")
  message(FATAL_ERROR "expected exit status ${STATUS}, got '${rc}':\n${all}")
endif()
if(DEFINED REGEX AND NOT all MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}':\n${all}")
endif()
if(DEFINED NOT_REGEX AND all MATCHES "${NOT_REGEX}")
  message(FATAL_ERROR "output matches '${NOT_REGEX}', which it must not:\n${all}")
endif()
message(STATUS "exit ${rc}; output:\n${all}")
