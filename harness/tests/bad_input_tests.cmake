# The bad-input corpus (issue 15): small generated files, each with the exit
# code and message fragment `harness` must answer with. Never a crash, a hang,
# a silent success or a lost file. Files come from tests/make_bad_inputs.py.
set(bad "${CMAKE_CURRENT_BINARY_DIR}/bad_inputs")
set(expect_error "${CMAKE_CURRENT_SOURCE_DIR}/tests/expect_error.sh")
set(h $<TARGET_FILE:harness>)

if(NOT Python3_FOUND)
  message(STATUS "python3 not found: bad-input corpus tests are not registered")
  return()
endif()
add_test(NAME bad_inputs_generate
  COMMAND ${Python3_EXECUTABLE} "${CMAKE_CURRENT_SOURCE_DIR}/tests/make_bad_inputs.py" "${bad}")
add_test(NAME bad_inputs_fixtures
  COMMAND sh -c "mkdir -p \"${bad}\" && \"${h}\" fixture fox --density 0.3 --out \"${bad}/fox.glb\" >/dev/null && \"${h}\" fixture mouse_chained --density 0.3 --out \"${bad}/mouse_chained.glb\" >/dev/null")
set_tests_properties(bad_inputs_generate bad_inputs_fixtures PROPERTIES FIXTURES_SETUP bad_inputs)

# bad_input(NAME CODE FRAGMENT ARGS...): `harness ARGS` exits CODE, one stderr
# line holding FRAGMENT (a repair note when CODE is 0).
function(bad_input name code fragment)
  add_test(NAME bad_input_${name} COMMAND ${expect_error} ${code} "${fragment}" ${ARGN})
  set_tests_properties(bad_input_${name} PROPERTIES FIXTURES_REQUIRED bad_inputs TIMEOUT 60)
endfunction()

# Crashes (SIGSEGV on main before issue 15).
bad_input(image_view_out_of_range 2 "image 0: bufferView" ${h} info "${bad}/image_view_out_of_range.glb")
bad_input(nodes_100000_deep 2 "nested deeper than" ${h} info "${bad}/nodes_100000_deep.glb")
bad_input(bvh_100000_deep 2 "nested deeper than" ${h} info "${bad}/bvh_100000_deep.bvh")
bad_input(bvh_unbalanced_braces 2 "unexpected end of file in the hierarchy" ${h} info "${bad}/bvh_unbalanced_braces.bvh")
# Hangs: `fix` on a vertex at 1e38 looped for hours (now refused at the
# reader); a vertex far out but within the coordinate limit must still end.
bad_input(vertex_1e38_fix 2 "holds an implausible value (1e+38)" ${h} fix "${bad}/vertex_1e38.glb" --out "${bad}/never.glb")
add_test(NAME bad_input_vertex_far_1e8_fix_ends COMMAND ${h} fix "${bad}/vertex_far_1e8.glb" --out "${bad}/out_far.glb")
set_tests_properties(bad_input_vertex_far_1e8_fix_ends PROPERTIES FIXTURES_REQUIRED bad_inputs TIMEOUT 30)
# Signed overflow in welding (coordinates 1e9 on a model 1e-20 high; UBSan
# reports it in the sanitizer build): read and fixed, exit 0.
add_test(NAME bad_input_flat_huge_ratio_info COMMAND ${h} info "${bad}/flat_huge_ratio.glb")
add_test(NAME bad_input_flat_huge_ratio_fix COMMAND ${h} fix "${bad}/flat_huge_ratio.glb" --out "${bad}/out_flat.glb")
set_tests_properties(bad_input_flat_huge_ratio_info bad_input_flat_huge_ratio_fix
  PROPERTIES FIXTURES_REQUIRED bad_inputs TIMEOUT 30)
# Wrapping bounds arithmetic and huge counts.
bad_input(accessor_offset_wraps 2 "runs past bufferView" ${h} info "${bad}/accessor_offset_wraps.glb")
bad_input(view_offset_wraps 2 "runs past its buffer" ${h} info "${bad}/view_offset_wraps.glb")
bad_input(huge_count 2 "over the limit" ${h} info "${bad}/huge_count.glb")
bad_input(bvh_frames_2pow32 2 "Frames: 4294967296 is over the limit" ${h} info "${bad}/bvh_frames_2pow32.bvh")
bad_input(bvh_too_few_frames 2 "declares 1000 frames" ${h} info "${bad}/bvh_too_few_frames.bvh")
# Non-finite and implausible values, named where they are.
bad_input(ibm_huge 2 "inverse bind matrices: accessor 4 element 0 holds an implausible value (-1e+38)" ${h} info "${bad}/ibm_huge.glb")
bad_input(bvh_nan_motion 2 "frame 1: motion value 'nan'" ${h} info "${bad}/bvh_nan_motion.bvh")
bad_input(bvh_inf_motion 2 "frame 1: motion value 'inf'" ${h} info "${bad}/bvh_inf_motion.bvh")
bad_input(bvh_inf_offset 2 "joint 'Hips': OFFSET" ${h} info "${bad}/bvh_inf_offset.bvh")
bad_input(bvh_nan_frame_time 2 "Frame Time: 'nan'" ${h} info "${bad}/bvh_nan_frame_time.bvh")
bad_input(bvh_nan_motion_retarget 2 "frame 1: motion value 'nan'" ${h} retarget fox "${bad}/bvh_nan_motion.bvh" --out "${bad}/never.glb")
# Structure.
bad_input(node_cycle 2 "node hierarchy has a cycle" ${h} info "${bad}/node_cycle.glb")
bad_input(index_out_of_range 2 "index out of range" ${h} info "${bad}/index_out_of_range.glb")
bad_input(requires_draco 2 "requires extension KHR_draco_mesh_compression" ${h} info "${bad}/requires_KHR_draco_mesh_compression.glb")
bad_input(output_longer_than_input 2 "animation 'wag' output does not match its input" ${h} convert "${bad}/output_longer_than_input.glb" --out "${bad}/never.glb")
bad_input(requires_meshopt 2 "requires extension EXT_meshopt_compression" ${h} info "${bad}/requires_EXT_meshopt_compression.glb")

# Repairs: exit 0, said on stderr.
bad_input(zero_quaternion_repaired 0 "zero rotation quaternion" ${h} convert "${bad}/zero_quat_zero_weights.glb" --out "${bad}/out_zero_quat.glb")
bad_input(zero_weights_repaired 0 "1 vertices have no weight" ${h} convert "${bad}/zero_quat_zero_weights.glb" --out "${bad}/out_zero_weights.glb")
bad_input(repeated_key_times_repaired 0 "keys at a repeated time dropped" ${h} convert "${bad}/repeated_key_times.glb" --out "${bad}/out_repeated.glb")
bad_input(strided_sampler_repaired 0 "samplers re-packed" ${h} convert "${bad}/strided_anim_bad_skeleton.glb" --out "${bad}/out_strided.glb")
bad_input(skin_skeleton_repaired 0 "is not a common root" ${h} convert "${bad}/strided_anim_bad_skeleton.glb" --out "${bad}/out_skeleton.glb")
# ... and what was written is valid glTF (Khronos validator; skipped, 77,
# when it is not installed).
  foreach(f zero_quat_zero_weights repeated_key_times strided_anim_bad_skeleton)
    add_test(NAME bad_input_repaired_valid_${f}
      COMMAND sh -c "${TAILRIG_NEEDS_VALIDATOR} \"${h}\" convert \"${bad}/${f}.glb\" --out \"${bad}/valid_${f}.glb\" 2>/dev/null && node \"${CMAKE_SOURCE_DIR}/scripts/validate_gltf.js\" \"${bad}/valid_${f}.glb\"")
    set_tests_properties(bad_input_repaired_valid_${f} PROPERTIES FIXTURES_REQUIRED bad_inputs SKIP_RETURN_CODE 77)
  endforeach()

# Valid files we must read (issue 45, class 5): animations the glTF spec
# allows and the Khronos validator accepts, built from the fox fixture by
# tests/make_valid_animation_inputs.py. convert, fix and fix --bake each exit
# 0 and write valid glTF (tests/valid_input_writes.sh). Before issue 45 every
# write of unused_sampler and animation_pointer_weights exited 2: "animation
# 'walk': output does not match input".
set(valid_anim "${bad}/valid_animation")
add_test(NAME valid_animation_generate
  COMMAND ${Python3_EXECUTABLE} "${CMAKE_CURRENT_SOURCE_DIR}/tests/make_valid_animation_inputs.py" "${bad}/fox.glb" "${valid_anim}")
set_tests_properties(valid_animation_generate PROPERTIES FIXTURES_REQUIRED bad_inputs FIXTURES_SETUP valid_animation)
foreach(f unused_sampler animation_pointer_weights
          morph_weights_linear morph_weights_step morph_weights_cubicspline morph_weights_normalized_ubyte
          morph_weights_rigid_tongue weights_only_clip rotation_cubicspline rotation_step rotation_normalized_short
          rotation_normalized_byte rotation_cubicspline_normalized_short shared_sampler channels_on_non_joints
          one_key_sampler sparse_rotation_output channel_without_node animation_data_in_one_view
          late_times_duplicate_names)
  add_test(NAME valid_animation_${f}
    COMMAND "${CMAKE_CURRENT_SOURCE_DIR}/tests/valid_input_writes.sh" ${h} "${CMAKE_SOURCE_DIR}/scripts/validate_gltf.js"
            "${valid_anim}/${f}.glb" "${valid_anim}/out")
  set_tests_properties(valid_animation_${f} PROPERTIES FIXTURES_REQUIRED valid_animation SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()
# What is not read is said (stderr, exit 0): morph weights, channels on
# nodes that are no joints, channels tinygltf drops (no target node).
bad_input(valid_animation_weights_noted 0 "1 animation channels (1 on morph target weights, in 'walk') not read"
  ${h} convert "${valid_anim}/morph_weights_linear.glb" --out "${valid_anim}/noted_weights.glb")
bad_input(valid_animation_off_joint_noted 0 "9 animation channels (9 on nodes that are not joints, in 'walk') not read"
  ${h} convert "${valid_anim}/channels_on_non_joints.glb" --out "${valid_anim}/noted_off_joint.glb")
bad_input(valid_animation_pointer_noted 0 "1 animation channels without a target node"
  ${h} convert "${valid_anim}/animation_pointer_weights.glb" --out "${valid_anim}/noted_pointer.glb")
set_tests_properties(bad_input_valid_animation_weights_noted bad_input_valid_animation_off_joint_noted
  bad_input_valid_animation_pointer_noted PROPERTIES FIXTURES_REQUIRED valid_animation)

# Writes: every failure is exit 2 with one line, never "wrote".
bad_input(write_missing_folder 2 "does not exist" ${h} convert "${bad}/good.glb" --out "${bad}/no/such/folder/x.glb")
bad_input(write_onto_directory 2 "is a directory" ${h} convert "${bad}/good.glb" --out "${bad}")
bad_input(write_dev_full 2 "No space left on device" ${h} convert "${bad}/good.glb" --out /dev/full)
bad_input(write_fix_dev_full 2 "No space left on device" ${h} fix "${bad}/fox.glb" --out /dev/full)
bad_input(write_strip_tail_dev_full 2 "No space left on device" ${h} strip-tail "${bad}/mouse_chained.glb" --out /dev/full)
bad_input(write_retarget_dev_full 2 "No space left on device" ${h} retarget fox "${bad}/fox.glb" --clip walk --out /dev/full)
bad_input(write_strip_tail_out_is_input 2 "is the input file" ${h} strip-tail "${bad}/mouse_chained.glb" --out "${bad}/mouse_chained.glb")
bad_input(write_retarget_out_is_clip 2 "is the clip file" ${h} retarget fox "${bad}/fox.glb" --clip walk --out "${bad}/fox.glb")
bad_input(write_fix_out_is_input 2 "is the input file" ${h} fix "${bad}/fox.glb" --out "${bad}/fox.glb")
bad_input(write_out_is_input 2 "is the input file" ${h} convert "${bad}/good.glb" --out "${bad}/good.glb")
bad_input(write_run_json_dev_full 2 "No space left on device" --any-lines ${h} run ok_teleport --scenarios "${bad}/scenarios" --golden "${bad}/golden/none" --update-golden --json /dev/full)
# A full disk (file size limit, SIGXFSZ ignored) while replacing an older
# output: exit 2 and the older file is untouched, byte for byte.
foreach(cmd convert fix)
  add_test(NAME bad_input_write_${cmd}_full_disk_keeps_old_file
    COMMAND sh -c "set -u; d=\"${bad}/fulldisk_${cmd}\"; rm -rf \"$d\"; mkdir -p \"$d\"; \"${h}\" fixture fox --out \"$d/fox.glb\" >/dev/null || exit 1; printf 'previous output' > \"$d/out.glb\"; cp \"$d/out.glb\" \"$d/before\"; (trap '' XFSZ; ulimit -f 64; \"${expect_error}\" 2 'cannot write' \"${h}\" ${cmd} \"$d/fox.glb\" --out \"$d/out.glb\") || exit 1; cmp \"$d/out.glb\" \"$d/before\" || { echo 'FAIL: the previous file changed'; exit 1; }; ls -A \"$d\" | grep -q tmp && { echo 'FAIL: temporary file left behind'; exit 1; }; exit 0")
  set_tests_properties(bad_input_write_${cmd}_full_disk_keeps_old_file PROPERTIES FIXTURES_REQUIRED bad_inputs)
endforeach()
# --update-golden onto a full disk: exit 2 naming the golden, the older
# golden untouched (it exited 0 on a full device before issue 15).
add_test(NAME bad_input_update_golden_full_disk_keeps_old_golden
  COMMAND sh -c "set -u; d=\"${bad}/golden/fulldisk\"; rm -rf \"$d\"; \"${h}\" run ok_teleport --scenarios \"${bad}/scenarios\" --golden \"$d\" --update-golden >/dev/null 2>&1 || exit 1; sed -i 's/\"value\": [-0-9.e]*/\"value\": 12345/' \"$d/ok_teleport.json\"; cp \"$d/ok_teleport.json\" \"$d/before\"; (trap '' XFSZ; ulimit -f 1; \"${expect_error}\" 2 'ok_teleport.json' --any-lines \"${h}\" run ok_teleport --scenarios \"${bad}/scenarios\" --golden \"$d\" --update-golden) || exit 1; cmp \"$d/ok_teleport.json\" \"$d/before\" || { echo 'FAIL: the older golden changed'; exit 1; }; exit 0")
set_tests_properties(bad_input_update_golden_full_disk_keeps_old_golden PROPERTIES FIXTURES_REQUIRED bad_inputs)

# Scenario parameters: each out of range or of the wrong type is one line.
foreach(case "chains_1e9;\"chains\" values must each be an integer 1..32" "hold_1e7;\"hold_s\" must be a number 0..600"
             "fps_string;\"fps\" must be a number 1..1000" "solver_step_tiny;solver: \"internal_step\" must be"
             "schema_huge;schema_version must be 1" "samples_huge;\"samples\" must be an integer 1..100000"
             "samples_fraction;\"samples\" must be an integer 1..100000")
  list(GET case 0 name)
  list(GET case 1 fragment)
  bad_input(scenario_${name} 2 "${fragment}" ${h} run ${name} --scenarios "${bad}/scenarios")
endforeach()
# A runner's JSON type error in a --jobs worker thread: exit 2 naming the
# scenario (was SIGABRT: the exception escaped the thread).
bad_input(scenario_runner_type_error_jobs 2 "runner_type_error.json: " --any-lines
  ${h} run runner_type_error ok_teleport --jobs 2 --scenarios "${bad}/scenarios" --golden "${bad}/golden/none")
# Malformed goldens: exit 2 naming the golden file.
foreach(g metric_is_array value_is_string tolerance_is_number metrics_is_list)
  bad_input(golden_${g} 2 "golden/${g}/ok_teleport.json: golden" --any-lines
    ${h} run ok_teleport --scenarios "${bad}/scenarios" --golden "${bad}/golden/${g}")
endforeach()
# --update-golden twice: the second run changes nothing and says so.
add_test(NAME bad_input_update_golden_no_phantom_change
  COMMAND sh -c "d=\"${bad}/golden/update\"; rm -rf \"$d\"; \"${h}\" run ok_teleport --scenarios \"${bad}/scenarios\" --golden \"$d\" --update-golden >/dev/null 2>&1 || exit 1; out=$(\"${h}\" run ok_teleport --scenarios \"${bad}/scenarios\" --golden \"$d\" --update-golden 2>/dev/null) || exit 1; echo \"$out\"; echo \"$out\" | grep -q '(0 changes)'")
set_tests_properties(bad_input_update_golden_no_phantom_change PROPERTIES FIXTURES_REQUIRED bad_inputs)
# Kills at seeded random moments during convert, fix and --update-golden:
# the older file or the complete new one, never a partial file (20 kills
# each here; scripts run it with --iterations 300 for the issue's campaign).
add_test(NAME bad_input_killed_write_keeps_a_whole_file
  COMMAND ${Python3_EXECUTABLE} "${CMAKE_CURRENT_SOURCE_DIR}/tests/kill_test.py" ${h} "${bad}/kill" --iterations 20 --bad-inputs "${bad}")
set_tests_properties(bad_input_killed_write_keeps_a_whole_file PROPERTIES FIXTURES_REQUIRED bad_inputs TIMEOUT 300)
