// Writes counter_data_gh100_1range.bin, the counter-data image napkin's host tests check image validation
// against: an image CUPTI's host library (libnvperf_host) lays out for GH100 with room for one range and no
// counters, so it can be made without a GPU. Not built by CMake (it calls libnvperf_host's
// NVPW_CUDA_Profiler_CounterDataImage_* functions, which the toolkit exports but no header declares; their
// parameter structs below are those of the CUDA 10-era PerfWorks headers and were accepted by CUDA 13.0's
// library). To regenerate:
//   g++ -std=c++17 -I/usr/local/cuda/include make_counter_data_image.cpp -L/usr/local/cuda/lib64 -lnvperf_host
//       -Wl,-rpath,/usr/local/cuda/lib64 -o make_image && ./make_image      (one line)
// napkin assumes the range profiler's own images (cuptiRangeProfilerCounterDataImageInitialize, GPU only)
// have the same layout (CUPTI's host evaluator reads both); every GPU test runs CUPTI's real images through
// the same checks. Deterministic: two runs wrote identical bytes.
#include <nvperf_cuda_host.h>
#include <nvperf_host.h>

#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" {
struct image_options {
  const uint8_t* prefix;
  size_t prefix_size;
  uint32_t max_ranges;
  uint32_t max_range_tree_nodes;
  uint32_t max_range_name_length;
};
struct calculate_size_params {
  size_t struct_size;
  void* priv;
  size_t options_size;
  const image_options* options;
  size_t image_size;
};
struct initialize_params {
  size_t struct_size;
  void* priv;
  size_t options_size;
  const image_options* options;
  size_t image_size;
  uint8_t* image;
};
NVPA_Status NVPW_CUDA_Profiler_CounterDataImage_CalculateSize(calculate_size_params*);
NVPA_Status NVPW_CUDA_Profiler_CounterDataImage_Initialize(initialize_params*);
}

int main() {
  NVPW_InitializeHost_Params host{NVPW_InitializeHost_Params_STRUCT_SIZE, nullptr};
  if (NVPW_InitializeHost(&host) != NVPA_STATUS_SUCCESS) return 1;
  NVPW_CUDA_CounterDataBuilder_Create_Params builder{};
  builder.structSize = NVPW_CUDA_CounterDataBuilder_Create_Params_STRUCT_SIZE;
  builder.pChipName = "GH100";
  if (NVPW_CUDA_CounterDataBuilder_Create(&builder) != NVPA_STATUS_SUCCESS) return 2;
  std::vector<uint8_t> prefix(4096);
  NVPW_CounterDataBuilder_GetCounterDataPrefix_Params get{};
  get.structSize = NVPW_CounterDataBuilder_GetCounterDataPrefix_Params_STRUCT_SIZE;
  get.pCounterDataBuilder = builder.pCounterDataBuilder;
  get.bytesAllocated = prefix.size();
  get.pBuffer = prefix.data();
  if (NVPW_CounterDataBuilder_GetCounterDataPrefix(&get) != NVPA_STATUS_SUCCESS) return 3;
  prefix.resize(get.bytesCopied);
  const image_options options{prefix.data(), prefix.size(), 1, 1, 64};
  const size_t options_size = 28;  // up to and including max_range_name_length
  calculate_size_params size{sizeof(calculate_size_params), nullptr, options_size, &options, 0};
  if (NVPW_CUDA_Profiler_CounterDataImage_CalculateSize(&size) != NVPA_STATUS_SUCCESS) return 4;
  std::vector<uint8_t> image(size.image_size);
  initialize_params init{sizeof(initialize_params), nullptr, options_size, &options, image.size(), image.data()};
  if (NVPW_CUDA_Profiler_CounterDataImage_Initialize(&init) != NVPA_STATUS_SUCCESS) return 5;
  FILE* f = std::fopen("counter_data_gh100_1range.bin", "wb");
  if (f == nullptr || std::fwrite(image.data(), 1, image.size(), f) != image.size()) return 6;
  std::fclose(f);
  std::printf("%zu bytes\n", image.size());
}
