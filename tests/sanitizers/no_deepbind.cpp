// Sanitizer builds only (cmake/napkin_sanitizers.cmake links this into every test executable): lets CUPTI's
// host library load under AddressSanitizer and ThreadSanitizer, so that napkin's CUPTI host code
// (check_metrics, plan_passes, ...) is tested with them instead of skipped.
//
// The problem: CUPTI loads libnvperf_host.so with dlopen(RTLD_NOW | RTLD_GLOBAL | RTLD_DEEPBIND). The
// sanitizers refuse RTLD_DEEPBIND and end the process ("You are trying to dlopen a libnvperf_host.so
// shared library with RTLD_DEEPBIND flag which is incompatible with sanitizer runtime",
// https://github.com/google/sanitizers/issues/611): a deep-bound library looks symbols up in itself and its
// own dependencies before the global scope, so its malloc/free/... would bind to libc's and bypass the
// sanitizer's interceptors, and memory would be allocated on one side and freed on the other.
//
// The fix: this dlopen, defined in the executable (first in symbol lookup order, ahead of the sanitizer's
// own interceptor), drops RTLD_DEEPBIND for libnvperf_host.so only and hands every call on, otherwise
// unchanged, to the sanitizer's dlopen interceptor (which then does its usual bookkeeping).
//
// Why that is safe: RTLD_DEEPBIND changes only which definition wins when a name the library uses is
// defined both in the library (or its dependencies) and elsewhere in the global scope. libnvperf_host.so
// exports only NVPW_* and NVPA_* names (`nm -D --defined-only`), and its undefined symbols are libc's,
// libm's and libgcc's, which should resolve to the sanitizer's interceptors: that is exactly what the
// sanitizer needs. The one other library that defines the NVPW_*/NVPA_* names is libnvperf_target.so
// (CUPTI loads it to profile a GPU; its 232 exports are all also exported by libnvperf_host.so). So the
// flag is dropped only when no other library already defines NVPA_GetProcAddress in the global scope;
// otherwise it is kept, and the sanitizer stops the process with its message, visibly. Any other library
// loaded with RTLD_DEEPBIND is also passed through unchanged: it needs its own review before it is added here.
#include <dlfcn.h>

#include <cstring>

extern "C" {
// The sanitizers' dlopen interceptor: exported by g++'s shared libasan/libtsan, linked into the
// executable with clang's static runtimes. Weak: absent when the runtime names it differently.
void* __interceptor_dlopen(const char* file, int mode) __attribute__((weak));  // NOLINT(bugprone-reserved-identifier)
}

namespace {

using dlopen_fn = void* (*)(const char*, int);

bool is_nvperf_host(const char* file) {
  if (file == nullptr) return false;
  const char* slash = std::strrchr(file, '/');
  const char* base = slash != nullptr ? slash + 1 : file;
  return std::strncmp(base, "libnvperf_host.so", 17) == 0;
}

// True when a library other than libnvperf_host.so already defines NVPerf's names in the global scope:
// libnvperf_host.so, bound without RTLD_DEEPBIND, could then call that library's functions.
bool nvperf_names_defined_elsewhere() {
  void* const existing = ::dlsym(RTLD_DEFAULT, "NVPA_GetProcAddress");
  if (existing == nullptr) return false;
  Dl_info info{};
  return ::dladdr(existing, &info) == 0 || !is_nvperf_host(info.dli_fname);
}

dlopen_fn next_dlopen() {
  static const dlopen_fn next = __interceptor_dlopen != nullptr
                                    ? &__interceptor_dlopen
                                    : reinterpret_cast<dlopen_fn>(::dlsym(RTLD_NEXT, "dlopen"));
  return next;
}

}  // namespace

extern "C" void* dlopen(const char* file, int mode) noexcept {  // NOLINT(readability-inconsistent-declaration-parameter-name)
  if ((mode & RTLD_DEEPBIND) != 0 && is_nvperf_host(file) && !nvperf_names_defined_elsewhere())
    mode &= ~RTLD_DEEPBIND;
  return next_dlopen()(file, mode);
}
