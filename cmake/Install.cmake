# cmake --install: the `harness` command, the libraries with their public
# headers and a tailrigConfig.cmake (find_package(tailrig) gives
# tailrig::solver, tailrig::rig, tailrig::detect, tailrig::measure, tailrig::pipeline), scenarios and goldens under
# share/tailrig (an installed harness reads them there), and the Blender
# add-on zip. cpack -G DEB packs the same tree.
include(CMakePackageConfigHelpers)

install(TARGETS harness RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS tailrig_solver tailrig_rig tailrig_detect tailrig_measure tailrig_pipeline EXPORT tailrigTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# CMake strips only executables and shared libraries; when stripping (cpack's
# CPACK_STRIP_FILES, cmake --install --strip) the static archives lose their
# debug info too: ~185 MB of RelWithDebInfo objects that made the .deb 35 MB
# and gzip most of the package_deb test. Symbols stay (they are linked against).
foreach(lib tailrig_solver tailrig_rig tailrig_detect tailrig_measure tailrig_pipeline)
  install(CODE "if(CMAKE_INSTALL_DO_STRIP)
    execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug
      \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/$<TARGET_FILE_NAME:${lib}>\"
      RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR \"strip --strip-debug $<TARGET_FILE_NAME:${lib}> failed\")
    endif()
  endif()")
endforeach()
# include/tailrig/{solver,rig,detect,measure,pipeline}/: generic folder names
# stay out of /usr/include; the targets add include/tailrig, so code keeps
# writing #include "solver/tailrig_solver.h" or "rig/io/io.h" as in the tree.
# solver/testing/ (the seeded historical bugs) is for our own tests only.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/solver/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tailrig
  PATTERN testing EXCLUDE)
foreach(dir rig detect measure pipeline)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tailrig/${dir}
    FILES_MATCHING PATTERN "*.h" PATTERN tests EXCLUDE PATTERN fuzz EXCLUDE)
endforeach()

set(TAILRIG_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tailrig)
install(EXPORT tailrigTargets NAMESPACE tailrig:: DESTINATION ${TAILRIG_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tailrigConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tailrigConfig.cmake INSTALL_DESTINATION ${TAILRIG_CMAKE_DIR})
# 0.x: a minor version may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tailrigConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tailrigConfig.cmake ${PROJECT_BINARY_DIR}/tailrigConfigVersion.cmake
  DESTINATION ${TAILRIG_CMAKE_DIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios ${PROJECT_SOURCE_DIR}/golden
  DESTINATION ${CMAKE_INSTALL_DATADIR}/tailrig)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# --- cpack -G DEB ------------------------------------------------------------
set(CPACK_PACKAGE_NAME tailrig)
set(CPACK_PACKAGE_VENDOR "tailrig")
set(CPACK_PACKAGE_CONTACT "tailrig maintainers <tailrig@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Tail detection, rigging and spring solver for auto-rigged characters")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
# Runtime dependencies from the binary itself (dpkg-shlibdeps): libassimp5,
# libtinygltf, libstdc++, libc ... with the versions this build needs.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Stripped, as Debian ships binaries (debug info belongs in a -dbgsym
# package): the RelWithDebInfo harness is ~190 MB with it, ~20 MB without,
# and packing it took most of the package_deb test.
set(CPACK_STRIP_FILES ON)
# What the installed CMake package needs to be usable (headers and configs of
# the dependencies tailrigConfig.cmake finds).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libeigen3-dev, nlohmann-json3-dev, libtinygltf-dev, libassimp-dev, blender")
include(CPack)
