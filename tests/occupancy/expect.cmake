# cmake -DCMD="prog|arg|..." -DEXPECT=pass|fail [-DREGEX=...] -P expect.cmake
# Runs CMD; checks the exit status (0, or a clean non-zero) and that stdout+stderr match REGEX.
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(EXPECT STREQUAL "fail" AND (NOT rc MATCHES "^[1-9][0-9]*$"))
  message(FATAL_ERROR "expected a non-zero exit status, got '${rc}':\n${out}${err}")
elseif(EXPECT STREQUAL "pass" AND NOT rc STREQUAL "0")
  message(FATAL_ERROR "expected success, got '${rc}':\n${out}${err}")
endif()
if(DEFINED REGEX AND NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}':\n${out}${err}")
endif()
