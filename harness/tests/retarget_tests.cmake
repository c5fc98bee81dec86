# Retarget command checks (issue #7); included from harness/CMakeLists.txt.
