// The one unit of report_separate_compilation_plain that compiles napkin's plain-C++ bodies
// (napkin/compiled_plain.hpp: no CUDA header, no toolkit).
#include "napkin/compiled_plain.hpp"
