# Tests of what users install: cmake --install into a scratch prefix, a
# consumer project built with find_package(tailrig), the installed harness's
# data and cache paths, and the .deb unpacked into a scratch root.
set(TAILRIG_PACKAGE_TEST_DIR ${PROJECT_BINARY_DIR}/package_test)
set(TAILRIG_TEST_PREFIX ${TAILRIG_PACKAGE_TEST_DIR}/prefix)

add_test(NAME package_install
  COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DPREFIX=${TAILRIG_TEST_PREFIX}
          -P ${PROJECT_SOURCE_DIR}/cmake/tests/install_prefix.cmake)
set_tests_properties(package_install PROPERTIES FIXTURES_SETUP tailrig_installed)

add_test(NAME package_consumer
  COMMAND ${CMAKE_COMMAND} -DPREFIX=${TAILRIG_TEST_PREFIX} -DWORK=${TAILRIG_PACKAGE_TEST_DIR}/consumer
          -DSOURCE=${PROJECT_SOURCE_DIR}/cmake/tests/consumer -DGENERATOR=${CMAKE_GENERATOR}
          -P ${PROJECT_SOURCE_DIR}/cmake/tests/consumer_build.cmake)
set_tests_properties(package_consumer PROPERTIES FIXTURES_REQUIRED tailrig_installed)

add_test(NAME installed_harness_layout
  COMMAND ${CMAKE_COMMAND} -DPREFIX=${TAILRIG_TEST_PREFIX} -DWORK=${TAILRIG_PACKAGE_TEST_DIR}/layout
          -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DSCENARIO=teleport
          -P ${PROJECT_SOURCE_DIR}/cmake/tests/installed_layout.cmake)
set_tests_properties(installed_harness_layout PROPERTIES FIXTURES_REQUIRED tailrig_installed)

add_test(NAME package_deb
  COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DWORK=${TAILRIG_PACKAGE_TEST_DIR}/deb
          -DASSETS=${TAILRIG_ASSETS} -P ${PROJECT_SOURCE_DIR}/cmake/tests/deb_package.cmake)

include(${PROJECT_SOURCE_DIR}/cmake/TestCosts.cmake)
tailrig_test_costs(package_install 1.0 package_consumer 10.0 package_deb 9.2)
