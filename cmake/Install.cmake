include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GPUPRIMS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpuprims)

install(TARGETS gpuprims EXPORT gpuprimsTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(module common reduce gemm)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/${module}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
install(EXPORT gpuprimsTargets NAMESPACE gpuprims:: DESTINATION ${GPUPRIMS_CMAKE_DIR})

# The dist component: its own export set, which the package config loads only when a consumer asks
# for the component (COMPONENTS dist), after finding NCCL; FindNCCL.cmake travels with the package.
# GPUPRIMS_NCCL_HINT (the folder NCCL was found in at build time) is where the config looks first.
set(GPUPRIMS_NCCL_HINT "")
if(TARGET gpuprims_dist)
  install(TARGETS gpuprims_dist EXPORT gpuprimsDistTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/dist/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT gpuprimsDistTargets NAMESPACE gpuprims:: DESTINATION ${GPUPRIMS_CMAKE_DIR})
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/FindNCCL.cmake DESTINATION ${GPUPRIMS_CMAKE_DIR})
  get_filename_component(GPUPRIMS_NCCL_HINT "${NCCL_INCLUDE_DIR}" DIRECTORY)
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gpuprimsConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gpuprimsConfig.cmake INSTALL_DESTINATION ${GPUPRIMS_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpuprimsConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gpuprimsConfig.cmake ${PROJECT_BINARY_DIR}/gpuprimsConfigVersion.cmake
  DESTINATION ${GPUPRIMS_CMAKE_DIR})
