# SPDX-License-Identifier: Apache-2.0
# The test package of napkin's Conan recipe (../../../conanfile.py): a consumer that finds the package with
# find_package(napkin CONFIG), builds napkin::math's program (and napkin::napkin's, with the toolkit) and runs
# them. `conan create . -tf tests/build/conan_test_package` (build_conan_create).
import os

from conan import ConanFile
from conan.tools.build import can_run
from conan.tools.cmake import CMake, cmake_layout


class NapkinTestConan(ConanFile):
    settings = "os", "arch", "compiler", "build_type"
    generators = "CMakeDeps", "CMakeToolchain"

    def requirements(self):
        self.requires(self.tested_reference_str)

    def layout(self):
        cmake_layout(self)

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def test(self):
        if can_run(self):
            for program in ("uses_math", "uses_check"):
                path = os.path.join(self.cpp.build.bindir, program)
                if os.path.exists(path):
                    self.run(path, env="conanrun")
