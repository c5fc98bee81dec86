# Exit codes of `harness run` (issue 13): a product failure inside a valid
# scenario is a regression (exit 1, naming the scenario), bad input stays 2.
# Args: -DHARNESS= -DSRC= -DWORK=
set(dir "${WORK}/exit_codes")
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}/scenarios" "${dir}/golden")

# A fixture that no longer yields a tail: detection regressed, not bad input.
# loop_closure (solver kind, detect --chain first) and walk_stretch (edge
# stretch) on the tailless fixture, each with its real golden.
foreach(name loop_closure walk_stretch)
  file(READ "${SRC}/scenarios/${name}.json" text)
  string(JSON text SET "${text}" character "{\"fixture\": \"tailless\", \"params\": {\"density\": 0.5}}")
  string(JSON text SET "${text}" samples 4)
  file(WRITE "${dir}/scenarios/${name}.json" "${text}")
  configure_file("${SRC}/golden/${name}.json" "${dir}/golden/${name}.json" COPYONLY)
  execute_process(COMMAND "${HARNESS}" run ${name} --scenarios "${dir}/scenarios" --golden "${dir}/golden"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "${name} on a tailless fixture: expected exit 1 (regression), got ${rc}\n${out}\n${err}")
  endif()
  if(NOT out MATCHES "${name}: ")
    message(FATAL_ERROR "${name} on a tailless fixture: the scenario is not named\n${out}")
  endif()
  if(NOT out MATCHES "FAIL .*(regression: ${name}: detect|no tail region detected)")
    message(FATAL_ERROR "${name} on a tailless fixture: the detection failure is not reported\n${out}")
  endif()
endforeach()

# Bad input stays 2: a scenario that is not JSON, a missing golden, an
# unknown fixture.
file(WRITE "${dir}/scenarios/broken.json" "{ not json")
execute_process(COMMAND "${HARNESS}" run broken --scenarios "${dir}/scenarios" --golden "${dir}/golden"
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "a scenario that is not JSON: expected exit 2, got ${rc}")
endif()
file(READ "${SRC}/scenarios/metric_definitions.json" text)
file(WRITE "${dir}/scenarios/no_golden.json" "${text}")
execute_process(COMMAND "${HARNESS}" run no_golden --scenarios "${dir}/scenarios" --golden "${dir}/golden"
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "a missing golden: expected exit 2, got ${rc}")
endif()
file(READ "${SRC}/scenarios/walk_stretch.json" text)
string(JSON text SET "${text}" character "{\"fixture\": \"no_such_fixture\"}")
file(WRITE "${dir}/scenarios/walk_stretch.json" "${text}")
execute_process(COMMAND "${HARNESS}" run walk_stretch --scenarios "${dir}/scenarios" --golden "${dir}/golden"
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "an unknown fixture: expected exit 2, got ${rc}")
endif()
