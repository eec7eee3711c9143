set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/prefix/lib/x86_64-linux-gnu:/usr/local/cuda/extras/CUPTI/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
cmake -S . -B build/device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$PWD/.carry/prefix -DNAPKIN_BUILD_TESTS=ON -DNAPKIN_BUILD_EXAMPLES=ON -DNAPKIN_BUILD_TOOLS=OFF -DNAPKIN_BUILD_BENCHMARKS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $OUT/configure.log 2>&1
ninja -C build/device -j16 zoo > $OUT/build.log 2>&1 || tail -30 $OUT/build.log
build/device/benchmarks/zoo/zoo why > $OUT/napkin_why.txt 2>&1; echo zoo rc=$?
grep -c NAPKIN_WHY $OUT/napkin_why.txt
