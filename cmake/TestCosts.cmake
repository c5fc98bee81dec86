# tailrig_test_costs(NAME SECONDS ...): ctest's COST for tests that take
# seconds, as measured on the 2-core machine. A fresh clone has no
# CTestCostData.txt, so ctest -j starts tests in the order they are declared
# and a long test declared last ran alone at the end (3-4 s of one idle core);
# with COST the long ones start first and the short ones fill the cores.
# Only the directory that declares a test can set its properties; tests
# absent in this configuration (no Blender, no validator) are skipped.
function(tailrig_test_costs)
  set(args ${ARGN})
  while(args)
    list(POP_FRONT args name seconds)
    if(TEST ${name})
      set_tests_properties(${name} PROPERTIES COST ${seconds})
    endif()
  endwhile()
endfunction()
