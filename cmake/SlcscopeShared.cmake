# libslcscope.so: the libraries as one shared object for programs built on
# slcscope, with a SONAME and versioned symbols (docs/design.md, "The
# library's ABI").  The command and the tests link the static libraries;
# this object is their code, whole, behind the version script.
include(CMakePackageConfigHelpers)

set(SLCSCOPE_SOVERSION ${PROJECT_VERSION_MAJOR})
set(SLCSCOPE_PARTS slcscope_lab slcscope_session slcscope_emulate slcscope_plot slcscope_analysis
    slcscope_probes slcscope_core)

if(NOT BUILD_SHARED_LIBS)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/slcscope-abi.map.in ${PROJECT_BINARY_DIR}/slcscope-abi.map @ONLY)
  file(WRITE ${PROJECT_BINARY_DIR}/slcscope_shared.c
       "/* libslcscope.so holds the static libraries' objects, whole. */\nextern int slc__shared_unused;\n")
  add_library(slcscope_shared SHARED ${PROJECT_BINARY_DIR}/slcscope_shared.c)
  target_link_libraries(slcscope_shared PRIVATE "-Wl,--whole-archive" ${SLCSCOPE_PARTS} "-Wl,--no-whole-archive")
  target_link_options(slcscope_shared PRIVATE "LINKER:--version-script=${PROJECT_BINARY_DIR}/slcscope-abi.map")
  if(NOT SLCSCOPE_SANITIZE)
    target_link_options(slcscope_shared PRIVATE "LINKER:--no-undefined")
  endif()
  # its export control is the version script above, not slcscope_library()'s
  set_property(TARGET slcscope_shared PROPERTY SLCSCOPE_LIBRARY ON)
  set_target_properties(slcscope_shared PROPERTIES OUTPUT_NAME slcscope EXPORT_NAME slcscope
                        VERSION ${PROJECT_VERSION} SOVERSION ${SLCSCOPE_SOVERSION}
                        LINK_DEPENDS ${PROJECT_BINARY_DIR}/slcscope-abi.map)
  target_include_directories(slcscope_shared INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS slcscope_shared EXPORT slcscopeTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development)
  install(EXPORT slcscopeTargets NAMESPACE slcscope:: FILE slcscopeTargets.cmake
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/slcscope)
  configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/slcscopeConfig.cmake.in
    ${PROJECT_BINARY_DIR}/slcscopeConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/slcscope)
  # 0.x: a new minor version may break the ABI, as the SONAME's symbol version says
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/slcscopeConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/slcscopeConfig.cmake ${PROJECT_BINARY_DIR}/slcscopeConfigVersion.cmake
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/slcscope)
endif()
