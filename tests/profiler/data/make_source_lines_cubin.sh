#!/bin/sh
# Builds the cubins of tests/profiler/source_lines_test.cpp and records the toolkit's own line table for
# them: nvdisasm --print-line-info (the expected side of the test, never napkin's code). Run from this folder
# with CUDA 13.0's nvcc and an nvdisasm (the toolkit's, or PyPI's nvidia-cuda-nvdisasm 13.5 as used here).
set -eu
NVDISASM=${NVDISASM:-nvdisasm}
nvcc -cubin -lineinfo -arch=sm_90 -o source_lines_kernel.cubin source_lines_kernel.cu
nvcc -cubin -arch=sm_90 -o source_lines_kernel_nolines.cubin source_lines_kernel.cu
"$NVDISASM" --print-line-info -c source_lines_kernel.cubin > source_lines_kernel.nvdisasm.txt
