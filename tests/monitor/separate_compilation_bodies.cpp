// The one unit of monitor_separate_compilation that compiles napkin's bodies (napkin/compiled.hpp).
#include "napkin/compiled.hpp"
