// The one unit of profiler_separate_compilation and profiler_gpu_separate that compiles napkin's bodies
// (napkin/compiled.hpp).
#include "napkin/compiled.hpp"
