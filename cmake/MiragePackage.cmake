# The installable CMake package: `cmake --install <build> --prefix <P>` puts
# the headers (sources and generated .h.inc), the static Mirage libraries and
# <P>/lib/cmake/mirage/{MirageConfig,MirageConfigVersion,MirageTargets}.cmake
# there, so that another project gets the targets with
#   find_package(Mirage REQUIRED CONFIG)   # -DMirage_DIR=<P>/lib/cmake/mirage
#   target_link_libraries(tool PRIVATE Mirage::Mirage)
# docs/embedding.md describes the package and how it is tested.
#
# add_mlir_library already installs every library into the export set
# `MLIRTargets` (MLIR's own name for it; Debian's LLVMConfig leaves
# LLVM_INSTALL_TOOLCHAIN_ONLY off, so the install rules exist). This file adds
# the include directory to those targets, an umbrella target, and writes the
# export set as Mirage::* targets. Included after lib/ is configured.

include(CMakePackageConfigHelpers)

set(MIRAGE_VERSION 0.1.0)
set(MIRAGE_INSTALL_PACKAGE_DIR lib${LLVM_LIBDIR_SUFFIX}/cmake/mirage)
set(MIRAGE_INSTALL_INCLUDE_DIR include)

# Every library that add_mlir_library registered for installation.
get_property(mirage_exported_libs GLOBAL PROPERTY MLIR_EXPORTS)
list(FILTER mirage_exported_libs INCLUDE REGEX "^Mirage")
foreach(lib ${mirage_exported_libs})
  set_property(TARGET ${lib} APPEND PROPERTY
    INTERFACE_INCLUDE_DIRECTORIES $<INSTALL_INTERFACE:include>)
endforeach()

# Mirage::Mirage: every dialect, pass and the import, for tools that want all
# of it (what mirage-opt links).
add_library(Mirage INTERFACE)
target_link_libraries(Mirage INTERFACE MirageImport MirageSearch MirageVerify
  MirageConversion MirageTransforms MirageKernel MirageBlock MirageThread
  MirageInterfaces MirageGPUTargets)
install(TARGETS Mirage EXPORT MLIRTargets COMPONENT mirage-cmake-exports)

install(DIRECTORY include/Mirage include/mirage-c
  DESTINATION include COMPONENT mirage-headers
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/Mirage
  DESTINATION include COMPONENT mirage-headers
  FILES_MATCHING PATTERN "*.h.inc" PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT MLIRTargets NAMESPACE Mirage:: FILE MirageTargets.cmake
  DESTINATION ${MIRAGE_INSTALL_PACKAGE_DIR} COMPONENT mirage-cmake-exports)

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/MirageConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/MirageConfig.cmake
  INSTALL_DESTINATION ${MIRAGE_INSTALL_PACKAGE_DIR}
  PATH_VARS MIRAGE_INSTALL_INCLUDE_DIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/MirageConfigVersion.cmake
  VERSION ${MIRAGE_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/MirageConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/MirageConfigVersion.cmake
  DESTINATION ${MIRAGE_INSTALL_PACKAGE_DIR} COMPONENT mirage-cmake-exports)
