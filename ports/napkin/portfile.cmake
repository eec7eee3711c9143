# SPDX-License-Identifier: Apache-2.0
# vcpkg overlay port of napkin (docs/packaging.md, "Conan and vcpkg"). UNTESTED: vcpkg is not installed where
# napkin's CI runs, and CI downloads nothing it cannot install with the project's own commands.
#   vcpkg install napkin --overlay-ports=<napkin>/ports
# The source is the checkout this port sits in; a registry's port would instead take a release tag:
#   vcpkg_from_github(OUT_SOURCE_PATH SOURCE_PATH REPO <owner>/napkin REF "v${VERSION}" SHA512 <sha512>)
# napkin is header-only: one release configuration, napkin's own cmake --install (headers, CMake package,
# pkg-config files), the CUDA toolkit and MPI found on the machine (vcpkg packages neither).
set(VCPKG_BUILD_TYPE release)
get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)

vcpkg_cmake_configure(
  SOURCE_PATH "${SOURCE_PATH}"
  OPTIONS
    -DNAPKIN_BUILD_TESTS=OFF
    -DNAPKIN_BUILD_EXAMPLES=OFF
    -DNAPKIN_BUILD_TOOLS=OFF
    -DNAPKIN_BUILD_BENCHMARKS=OFF
    -DNAPKIN_INSTALL=ON
    -DNAPKIN_ENABLE_MPI=OFF)
vcpkg_cmake_install()
# share/cmake/napkin -> share/napkin, where find_package(napkin CONFIG) looks in a vcpkg tree.
vcpkg_cmake_config_fixup(PACKAGE_NAME napkin CONFIG_PATH share/cmake/napkin)
vcpkg_fixup_pkgconfig()
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE" "${SOURCE_PATH}/NOTICE")
