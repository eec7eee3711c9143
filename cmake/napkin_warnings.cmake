# napkin_warnings(<target>): the warning set every napkin test, example, benchmark and the tool are built with.
# Warnings are errors only with NAPKIN_WARNINGS_AS_ERRORS (OFF by default, ON in tests/run.sh and so in CI): a
# user's newer compiler with a new warning must not break their build of the tool or the examples.
function(napkin_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:-Wall -Wextra -Wpedantic>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
  if(NAPKIN_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:-Werror>
      $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
  endif()
endfunction()
