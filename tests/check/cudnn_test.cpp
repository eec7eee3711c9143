#include <doctest/doctest.h>
#include <napkin/check/cudnn.hpp>

#include <string>

TEST_CASE("cuDNN: names from cudnnGetErrorString") {
  try {
    NAPKIN_CUDA_CHECK(CUDNN_STATUS_BAD_PARAM);
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.library() == "cuDNN");
    CHECK(e.name() == "CUDNN_STATUS_BAD_PARAM");
  }
}

TEST_CASE("cuDNN fails for real: a null descriptor pointer") {
  try {
    NAPKIN_CUDA_CHECK(cudnnCreateTensorDescriptor(nullptr));
    FAIL("no throw");
  } catch (const napkin::cuda_error& e) {
    CHECK(e.name().rfind("CUDNN_STATUS_BAD_PARAM", 0) == 0);
    CHECK(e.expression() == "cudnnCreateTensorDescriptor(nullptr)");
  }
}
