# Copies golden/walk_stretch.json into a temp dir with one metric moved far
# beyond its tolerance, then runs the gate against it: it must exit 1 and
# name the metric. Args: -DHARNESS= -DSRC= -DWORK=
set(metric "chain.tail.p99")
file(READ "${SRC}/golden/walk_stretch.json" golden)
string(JSON value GET "${golden}" metrics ${metric} value)
string(JSON golden SET "${golden}" metrics ${metric} value "3.5")
file(MAKE_DIRECTORY "${WORK}/tampered")
file(WRITE "${WORK}/tampered/walk_stretch.json" "${golden}")
execute_process(COMMAND "${HARNESS}" run walk_stretch --golden "${WORK}/tampered"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "tampered golden: expected exit 1, got ${rc}")
endif()
if(NOT out MATCHES "FAIL ${metric}: golden 3.5, actual")
  message(FATAL_ERROR "tampered golden: the failing metric ${metric} was not named")
endif()
# A missing golden is an error, not a pass.
file(MAKE_DIRECTORY "${WORK}/empty")
execute_process(COMMAND "${HARNESS}" run walk_stretch --golden "${WORK}/empty" RESULT_VARIABLE rc2 OUTPUT_QUIET ERROR_QUIET)
if(rc2 EQUAL 0)
  message(FATAL_ERROR "missing golden: expected a non-zero exit")
endif()
