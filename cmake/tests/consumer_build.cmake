# ctest package_consumer: a project outside the tree finds the installed
# tailrig with find_package, builds against tailrig::solver (C++ and C API) and
# tailrig::detect, and runs both programs. -DPREFIX= -DWORK= -DSOURCE= -DGENERATOR=
include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)
file(REMOVE_RECURSE "${WORK}")
run_checked(configure "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${WORK}/build" -G "${GENERATOR}"
            -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${PREFIX}")
run_checked(build "${CMAKE_COMMAND}" --build "${WORK}/build")
run_checked(solver "${WORK}/build/consumer_solver")
run_checked(fixture "${PREFIX}/bin/harness" fixture fox --out "${WORK}/fox.glb")
run_checked(detect "${WORK}/build/consumer_detect" "${WORK}/fox.glb")
if(NOT OUT_detect MATCHES "consumer_detect: ok \\(([1-9][0-9]*) regions\\)")
  message(FATAL_ERROR "consumer_detect found no region on the fox fixture: ${OUT_detect}")
endif()
