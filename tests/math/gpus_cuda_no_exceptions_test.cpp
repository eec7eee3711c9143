// napkin/math/gpus_cuda.hpp, the one math header that needs the CUDA runtime's header, compiles with
// -fno-exceptions (tests/math/CMakeLists.txt compiles this file with -fsyntax-only).
#include "napkin/math.hpp"
#include "napkin/math/gpus_cuda.hpp"

double fp32_peak_of_the_current_device() { return napkin::device_gpu_spec().spec.peak(napkin::pipe::fp32); }
