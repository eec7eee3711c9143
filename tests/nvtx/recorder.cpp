// A tiny NVTX tool: loaded through NVTX_INJECTION64_PATH exactly as Nsight Systems/Compute are, it
// receives every NVTX call of the process and records it as one line of text, e.g.
//   push domain=napkin name="gemm" color=0xFF4CE5A8 category=0 payload=none tid=1234
//   start domain=napkin name="job" color=... category=0 payload=i64:7 tid=1234 id=3
//   end domain=napkin id=3 tid=1240
// Lines go to the file named by NAPKIN_NVTX_LOG (if set) and to an in-memory log that tests read
// through napkin_test_nvtx_take() (dlopen the same path with RTLD_NOLOAD, then dlsym).
#define NVTX_NO_IMPL  // a tool, not an instrumented program: types and ids only
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCudaRt.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#define NAPKIN_RECORDER_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct recorder {
  std::mutex mutex;
  std::string pending;  // since the last napkin_test_nvtx_take()
  std::string history;  // everything, for tests of what happened before main()
  std::FILE* file = nullptr;
  std::vector<std::unique_ptr<std::string>> domains;  // a domain handle points at its name
  std::vector<std::unique_ptr<std::string>> strings;  // a registered-string handle points at its text
  std::map<long, int> depth;                          // push/pop nesting per OS thread
  std::uint64_t next_id = 1;
};
recorder& rec() {
  static recorder* r = new recorder;  // never destroyed: NVTX calls may come from static destructors
  return *r;
}

long tid() { return static_cast<long>(::syscall(SYS_gettid)); }

void emit(const std::string& line) {
  recorder& r = rec();
  std::lock_guard<std::mutex> lock{r.mutex};
  r.pending += line;
  r.pending += '\n';
  r.history += line;
  r.history += '\n';
  if (r.file != nullptr) {
    std::fputs(line.c_str(), r.file);
    std::fputc('\n', r.file);
    std::fflush(r.file);
  }
}

std::string quoted(const char* s) { return s == nullptr ? std::string{"null"} : "\"" + std::string{s} + "\""; }
std::string domain_name(nvtxDomainHandle_t d) {
  return d == nullptr ? std::string{"<global>"} : *reinterpret_cast<const std::string*>(d);
}
std::string hex(std::uint64_t v, int width) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*" PRIX64, width, v);
  return buf;
}

std::string describe(const nvtxEventAttributes_t* a) {
  std::ostringstream os;
  if (a == nullptr) return "attributes=null";
  os << "name=";
  switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII: os << quoted(a->message.ascii); break;
    case NVTX_MESSAGE_TYPE_REGISTERED:
      os << "registered:" << quoted(reinterpret_cast<const std::string*>(a->message.registered)->c_str());
      break;
    case NVTX_MESSAGE_UNKNOWN: os << "none"; break;
    default: os << "type" << a->messageType; break;
  }
  os << " color=" << (a->colorType == NVTX_COLOR_ARGB ? hex(a->color, 8) : std::string{"none"});
  os << " category=" << a->category << " payload=";
  switch (a->payloadType) {
    case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64: os << "u64:" << a->payload.ullValue; break;
    case NVTX_PAYLOAD_TYPE_INT64: os << "i64:" << a->payload.llValue; break;
    case NVTX_PAYLOAD_TYPE_DOUBLE: os << "f64:" << a->payload.dValue; break;
    case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32: os << "u32:" << a->payload.uiValue; break;
    case NVTX_PAYLOAD_TYPE_INT32: os << "i32:" << a->payload.iValue; break;
    case NVTX_PAYLOAD_TYPE_FLOAT: os << "f32:" << a->payload.fValue; break;
    default: os << "none"; break;
  }
  return os.str();
}
std::string ascii_attributes(const char* message) {
  nvtxEventAttributes_t a{};
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = message;
  return describe(&a);
}

int push_depth() {
  std::lock_guard<std::mutex> lock{rec().mutex};
  return rec().depth[tid()]++;
}
int pop_depth() {
  std::lock_guard<std::mutex> lock{rec().mutex};
  int& d = rec().depth[tid()];
  return d > 0 ? --d : NVTX_NO_PUSH_POP_TRACKING;
}
nvtxRangeId_t next_id() {
  std::lock_guard<std::mutex> lock{rec().mutex};
  return rec().next_id++;
}

// ---- Core (global domain) ----
void NVTX_API MarkEx(const nvtxEventAttributes_t* a) { emit("mark domain=<global> " + describe(a) + " tid=" + std::to_string(tid())); }
void NVTX_API MarkA(const char* m) { emit("mark domain=<global> " + ascii_attributes(m) + " tid=" + std::to_string(tid())); }
nvtxRangeId_t start(nvtxDomainHandle_t d, const std::string& attributes) {
  const nvtxRangeId_t id = next_id();
  emit("start domain=" + domain_name(d) + " " + attributes + " tid=" + std::to_string(tid()) + " id=" + std::to_string(id));
  return id;
}
nvtxRangeId_t NVTX_API RangeStartEx(const nvtxEventAttributes_t* a) { return start(nullptr, describe(a)); }
nvtxRangeId_t NVTX_API RangeStartA(const char* m) { return start(nullptr, ascii_attributes(m)); }
void NVTX_API RangeEnd(nvtxRangeId_t id) { emit("end domain=<global> id=" + std::to_string(id) + " tid=" + std::to_string(tid())); }
int push(nvtxDomainHandle_t d, const std::string& attributes) {
  emit("push domain=" + domain_name(d) + " " + attributes + " tid=" + std::to_string(tid()));
  return push_depth();
}
int NVTX_API RangePushEx(const nvtxEventAttributes_t* a) { return push(nullptr, describe(a)); }
int NVTX_API RangePushA(const char* m) { return push(nullptr, ascii_attributes(m)); }
int pop(nvtxDomainHandle_t d) {
  emit("pop domain=" + domain_name(d) + " tid=" + std::to_string(tid()));
  return pop_depth();
}
int NVTX_API RangePop() { return pop(nullptr); }
void NVTX_API NameCategoryA(std::uint32_t id, const char* n) {
  emit("name_category domain=<global> id=" + std::to_string(id) + " name=" + quoted(n));
}
void NVTX_API NameOsThreadA(std::uint32_t id, const char* n) {
  emit("name_thread tid=" + std::to_string(id) + " name=" + quoted(n));
}

// ---- Core2 (domains) ----
void NVTX_API DomainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  emit("mark domain=" + domain_name(d) + " " + describe(a) + " tid=" + std::to_string(tid()));
}
nvtxRangeId_t NVTX_API DomainRangeStartEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) { return start(d, describe(a)); }
void NVTX_API DomainRangeEnd(nvtxDomainHandle_t d, nvtxRangeId_t id) {
  emit("end domain=" + domain_name(d) + " id=" + std::to_string(id) + " tid=" + std::to_string(tid()));
}
int NVTX_API DomainRangePushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) { return push(d, describe(a)); }
int NVTX_API DomainRangePop(nvtxDomainHandle_t d) { return pop(d); }
void NVTX_API DomainNameCategoryA(nvtxDomainHandle_t d, std::uint32_t id, const char* n) {
  emit("name_category domain=" + domain_name(d) + " id=" + std::to_string(id) + " name=" + quoted(n));
}
nvtxStringHandle_t NVTX_API DomainRegisterStringA(nvtxDomainHandle_t d, const char* s) {
  recorder& r = rec();
  nvtxStringHandle_t h;
  {
    std::lock_guard<std::mutex> lock{r.mutex};
    r.strings.push_back(std::make_unique<std::string>(s == nullptr ? "" : s));
    h = reinterpret_cast<nvtxStringHandle_t>(r.strings.back().get());
  }
  emit("register domain=" + domain_name(d) + " name=" + quoted(s));
  return h;
}
nvtxDomainHandle_t NVTX_API DomainCreateA(const char* name) {
  recorder& r = rec();
  std::lock_guard<std::mutex> lock{r.mutex};
  r.domains.push_back(std::make_unique<std::string>(name == nullptr ? "" : name));
  return reinterpret_cast<nvtxDomainHandle_t>(r.domains.back().get());
}
void NVTX_API DomainDestroy(nvtxDomainHandle_t d) { emit("domain_destroy domain=" + domain_name(d)); }
void NVTX_API Initialize(const void*) {}

// ---- CUDA runtime resource naming ----
void NVTX_API NameCudaDeviceA(int device, const char* n) {
  emit("name_device device=" + std::to_string(device) + " name=" + quoted(n));
}
void NVTX_API NameCudaStreamA(cudaStream_t s, const char* n) {
  emit("name_stream stream=" + hex(reinterpret_cast<std::uintptr_t>(s), 1) + " name=" + quoted(n));
}
void NVTX_API NameCudaEventA(cudaEvent_t e, const char* n) {
  emit("name_event event=" + hex(reinterpret_cast<std::uintptr_t>(e), 1) + " name=" + quoted(n));
}

template <class F>
void install(NvtxFunctionTable table, unsigned size, unsigned id, F* fn) {
  if (id < size && table[id] != nullptr) *table[id] = reinterpret_cast<NvtxFunctionPointer>(fn);
}

}  // namespace

NAPKIN_RECORDER_EXPORT int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->struct_size < sizeof(NvtxExportTableCallbacks)) return 0;
  if (const char* path = std::getenv("NAPKIN_NVTX_LOG"); path != nullptr && *path != '\0') {
    rec().file = std::fopen(path, "w");
    if (rec().file == nullptr) {
      std::fprintf(stderr, "napkin nvtx recorder: cannot open NAPKIN_NVTX_LOG=%s\n", path);
      return 0;
    }
  }
  NvtxFunctionTable t = nullptr;
  unsigned n = 0;
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &t, &n) == 0) return 0;
  install(t, n, NVTX_CBID_CORE_MarkEx, &MarkEx);
  install(t, n, NVTX_CBID_CORE_MarkA, &MarkA);
  install(t, n, NVTX_CBID_CORE_RangeStartEx, &RangeStartEx);
  install(t, n, NVTX_CBID_CORE_RangeStartA, &RangeStartA);
  install(t, n, NVTX_CBID_CORE_RangeEnd, &RangeEnd);
  install(t, n, NVTX_CBID_CORE_RangePushEx, &RangePushEx);
  install(t, n, NVTX_CBID_CORE_RangePushA, &RangePushA);
  install(t, n, NVTX_CBID_CORE_RangePop, &RangePop);
  install(t, n, NVTX_CBID_CORE_NameCategoryA, &NameCategoryA);
  install(t, n, NVTX_CBID_CORE_NameOsThreadA, &NameOsThreadA);
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &t, &n) == 0) return 0;
  install(t, n, NVTX_CBID_CORE2_DomainMarkEx, &DomainMarkEx);
  install(t, n, NVTX_CBID_CORE2_DomainRangeStartEx, &DomainRangeStartEx);
  install(t, n, NVTX_CBID_CORE2_DomainRangeEnd, &DomainRangeEnd);
  install(t, n, NVTX_CBID_CORE2_DomainRangePushEx, &DomainRangePushEx);
  install(t, n, NVTX_CBID_CORE2_DomainRangePop, &DomainRangePop);
  install(t, n, NVTX_CBID_CORE2_DomainNameCategoryA, &DomainNameCategoryA);
  install(t, n, NVTX_CBID_CORE2_DomainRegisterStringA, &DomainRegisterStringA);
  install(t, n, NVTX_CBID_CORE2_DomainCreateA, &DomainCreateA);
  install(t, n, NVTX_CBID_CORE2_DomainDestroy, &DomainDestroy);
  install(t, n, NVTX_CBID_CORE2_Initialize, &Initialize);
  if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CUDART, &t, &n) != 0) {
    install(t, n, NVTX_CBID_CUDART_NameCudaDeviceA, &NameCudaDeviceA);
    install(t, n, NVTX_CBID_CUDART_NameCudaStreamA, &NameCudaStreamA);
    install(t, n, NVTX_CBID_CUDART_NameCudaEventA, &NameCudaEventA);
  }
  return 1;
}

// Test hook: the lines recorded since the previous call (owned by the recorder until the next call).
NAPKIN_RECORDER_EXPORT const char* napkin_test_nvtx_take() {
  static std::string taken;
  recorder& r = rec();
  std::lock_guard<std::mutex> lock{r.mutex};
  taken.swap(r.pending);
  r.pending.clear();
  return taken.c_str();
}
// Test hook: every line recorded since the tool was loaded.
NAPKIN_RECORDER_EXPORT const char* napkin_test_nvtx_history() {
  static std::string copy;
  recorder& r = rec();
  std::lock_guard<std::mutex> lock{r.mutex};
  copy = r.history;
  return copy.c_str();
}
