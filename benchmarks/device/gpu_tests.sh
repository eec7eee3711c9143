set -uo pipefail
prefix=$PWD/.carry/prefix
export LD_LIBRARY_PATH=$prefix/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cmake -S . -B build/device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" -DNAPKIN_BUILD_TESTS=ON -DNAPKIN_WARNINGS_AS_ERRORS=ON -DNAPKIN_BUILD_EXAMPLES=OFF -DNAPKIN_BUILD_TOOLS=OFF -DNAPKIN_BUILD_BENCHMARKS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/b.log 2>&1
cmake --build build/device -j 16 >> /tmp/b.log 2>&1 || { grep -B2 -A10 error /tmp/b.log | head -40; }
cd build/device && ctest -j 8 -E build_headers --output-on-failure 2>&1 | grep -E "tests passed|Failed|Skipped|ERROR|CHECK" | head -30
./tests/profiler/profiler_gpu -s --test-case="scope*,*application*" 2>&1 | grep -E "MESSAGE|wall|passed" | head
