# ctest package_install: cmake --install into a fresh scratch prefix.
# -DBUILD_DIR= -DPREFIX=
include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)
file(REMOVE_RECURSE "${PREFIX}")
# Stripped, as the .deb installs it (debug info of the RelWithDebInfo archives
# is ~185 MB to copy and to link through).
run_checked(install "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" --strip)
foreach(f bin/harness include/tailrig/solver/tailrig_solver.h include/tailrig/rig/io/io.h
          include/tailrig/detect/find_appendages.h
          share/tailrig/scenarios/walk_stretch.json share/tailrig/golden/walk_stretch.json
          share/tailrig/blender/tailrig_blender_addon.zip)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "installed tree lacks ${f}")
  endif()
endforeach()
file(GLOB_RECURSE configs "${PREFIX}/*/tailrigConfig.cmake" "${PREFIX}/*/tailrigConfigVersion.cmake")
list(LENGTH configs config_count)
if(NOT config_count EQUAL 2)
  message(FATAL_ERROR "installed tree lacks tailrigConfig.cmake / tailrigConfigVersion.cmake")
endif()
