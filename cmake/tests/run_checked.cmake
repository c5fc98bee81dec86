# run_checked(NAME cmd...): runs a command, prints its output, stops the test
# script with a one-line error when it fails. OUT_<NAME> holds stdout.
function(run_checked name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${name}: ${out}${err}")
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${name} failed (exit ${code}): ${ARGN}")
  endif()
  set(OUT_${name} "${out}" PARENT_SCOPE)
endfunction()
