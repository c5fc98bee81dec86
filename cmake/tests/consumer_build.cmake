# ctest package_consumer: a project outside the tree finds the installed
# tailrig with find_package, builds against tailrig::solver (C++ and C API,
# with Assimp and tinygltf made unfindable), tailrig::detect and
# tailrig::pipeline (fix --bake from C++: the same bytes as `harness fix
# --bake`), and runs them. -DPREFIX= -DWORK= -DSOURCE= -DGENERATOR=
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
run_checked(configure_pipeline "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${WORK}/pipeline" -G "${GENERATOR}"
            -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${PREFIX}" -DCONSUMER_PART=pipeline)
run_checked(build_pipeline "${CMAKE_COMMAND}" --build "${WORK}/pipeline")
run_checked(pipeline "${WORK}/pipeline/consumer_pipeline" "${WORK}/fox.glb" "${WORK}/fox_consumer.glb")
if(NOT OUT_pipeline MATCHES "consumer_pipeline: ok \\(1 chains, ([1-9][0-9]*) clips baked\\)")
  message(FATAL_ERROR "consumer_pipeline grew no chain or baked no clip on the fox fixture: ${OUT_pipeline}")
endif()
run_checked(harness_fix "${PREFIX}/bin/harness" fix "${WORK}/fox.glb" --out "${WORK}/fox_harness.glb" --bake)
file(SHA256 "${WORK}/fox_consumer.glb" consumer_sha)
file(SHA256 "${WORK}/fox_harness.glb" harness_sha)
if(NOT consumer_sha STREQUAL harness_sha)
  message(FATAL_ERROR "the consumer's fix --bake and `harness fix --bake` wrote different files")
endif()
