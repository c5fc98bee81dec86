# ctest package_consumer: a project outside the tree finds the installed
# tailrig with find_package, builds against tailrig::solver (C++ and C API,
# with Assimp and tinygltf made unfindable) and tailrig::detect, and runs both
# programs. -DPREFIX= -DWORK= -DSOURCE= -DGENERATOR=
include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)
file(REMOVE_RECURSE "${WORK}")
run_checked(configure_solver "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${WORK}/solver" -G "${GENERATOR}"
            -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${PREFIX}" -DCONSUMER_PART=solver
            -DCMAKE_DISABLE_FIND_PACKAGE_assimp=ON -DCMAKE_DISABLE_FIND_PACKAGE_TinyGLTF=ON)
run_checked(build_solver "${CMAKE_COMMAND}" --build "${WORK}/solver")
run_checked(solver "${WORK}/solver/consumer_solver")
run_checked(configure_detect "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${WORK}/detect" -G "${GENERATOR}"
            -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${PREFIX}" -DCONSUMER_PART=detect)
run_checked(build_detect "${CMAKE_COMMAND}" --build "${WORK}/detect")
run_checked(fixture "${PREFIX}/bin/harness" fixture fox --out "${WORK}/fox.glb")
run_checked(detect "${WORK}/detect/consumer_detect" "${WORK}/fox.glb")
if(NOT OUT_detect MATCHES "consumer_detect: ok \\(([1-9][0-9]*) regions\\)")
  message(FATAL_ERROR "consumer_detect found no region on the fox fixture: ${OUT_detect}")
endif()
