# `cmake --install`: the gotrace CLI, the core and tracer libraries with their headers,
# and a package for `find_package(gotrace)` (targets gotrace::core and gotrace::tracer).
include(CMakePackageConfigHelpers)
set(GOTRACE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gotrace)
install(EXPORT gotraceTargets NAMESPACE gotrace:: FILE gotraceTargets.cmake DESTINATION ${GOTRACE_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gotraceConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/gotraceConfig.cmake INSTALL_DESTINATION ${GOTRACE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/gotraceConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/gotraceConfig.cmake ${CMAKE_BINARY_DIR}/gotraceConfigVersion.cmake
        DESTINATION ${GOTRACE_CMAKE_DIR})
