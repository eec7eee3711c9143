// The one file of the program that compiles napkin's bodies (NAPKIN_SEPARATE_COMPILATION=1).
#include <napkin/compiled.hpp>
