// Plain C++17: no CUDA header anywhere on the include path when WITH_CUDA=OFF.
#include <napkin/occupancy.hpp>

int main() { return 0; }
