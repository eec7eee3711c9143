// is_complete<T>: whether T is a complete type in this unit. The separate-compilation tests use it to show that a
// declaring unit sees a class's state type (the monitor's engine, the profiler's core) only by name.
#pragma once

#include <type_traits>

namespace napkin_test {
template <class T, class = void>
struct is_complete : std::false_type {};
template <class T>
struct is_complete<T, decltype(void(sizeof(T)))> : std::true_type {};
}  // namespace napkin_test
