# Every solver invariant scenario (kind solver_*) also runs on solver::Batch
# (issue 14): `harness run NAME --solver batch` checks the scenario's
# expectations on the batch; the goldens pin the scalar reference only.
file(GLOB batch_scenario_files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/scenarios/*.json")
foreach(f ${batch_scenario_files})
  file(READ "${f}" scenario_text)
  string(JSON scenario_kind ERROR_VARIABLE scenario_json_error GET "${scenario_text}" kind)
  if(NOT scenario_json_error AND scenario_kind MATCHES "^solver_")
    get_filename_component(name "${f}" NAME_WE)
    add_test(NAME scenario_batch_${name} COMMAND harness run ${name} --solver batch)
  endif()
endforeach()
