# libFuzzer targets (issue 15), built only with -DTAILRIG_FUZZ=ON and clang:
#   CC=clang CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DTAILRIG_FUZZ=ON \
#     -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer"
# scripts/fuzz.sh builds them and runs each for a while from its seeds.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "TAILRIG_FUZZ needs clang (libFuzzer): set CXX=clang++")
endif()
function(tailrig_fuzzer name source)
  add_executable(${name} ${source})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${name} PRIVATE ${ARGN})
endfunction()
tailrig_fuzzer(fuzz_load_glb rig/fuzz/load_fuzz.cpp tailrig_rig)
target_compile_definitions(fuzz_load_glb PRIVATE FUZZ_EXT=".glb")
tailrig_fuzzer(fuzz_load_gltf rig/fuzz/load_fuzz.cpp tailrig_rig)
target_compile_definitions(fuzz_load_gltf PRIVATE FUZZ_EXT=".gltf")
tailrig_fuzzer(fuzz_load_bvh rig/fuzz/load_fuzz.cpp tailrig_rig)
target_compile_definitions(fuzz_load_bvh PRIVATE FUZZ_EXT=".bvh")
tailrig_fuzzer(fuzz_json harness/fuzz/json_fuzz.cpp tailrig_harness)
tailrig_fuzzer(fuzz_solver_step solver/fuzz/step_fuzz.cpp tailrig_solver)
target_include_directories(fuzz_solver_step PRIVATE solver/tests)
tailrig_fuzzer(fuzz_solver_c_api solver/fuzz/c_api_fuzz.cpp tailrig_solver)
target_include_directories(fuzz_solver_c_api PRIVATE solver/tests)
tailrig_fuzzer(fuzz_fix_glb detect/fuzz/fix_fuzz.cpp tailrig_detect)
