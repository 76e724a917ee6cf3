/* SPDX-License-Identifier: MIT */
// hitscan_bench entry point: the one BENCHMARK_MAIN() for every bench/*.cc.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
