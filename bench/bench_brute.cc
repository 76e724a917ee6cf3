/* SPDX-License-Identifier: MIT */
// Brute-force batch benchmarks: BM_Brute{Count,Closest,All}/<isa>/<N>/<M>/threads:<k>, pairs and
// queries per second, 1 vs 2 OpenMP threads.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "hitscan/batch.h"
#include "hitscan/scene.h"

namespace
{

// The `uniform` scene (hitscan/scene.h: side 4000 sqrt(N / 1e6), r in [0.5, 1.5], segments of
// length [5, 50]): brute force runs the same data the grid benchmarks run.
struct BruteScene {
    std::vector<float> x, y, r, ax, ay, dx, dy;
    hs_circles *cs = nullptr;
    hs_queries qs{};

    BruteScene(size_t n, size_t m) : x(n), y(n), r(n), ax(m), ay(m), dx(m), dy(m)
    {
        if (hs_scene_circles(HS_SCENE_UNIFORM, n, 1, x.data(), y.data(), r.data()) != HS_OK ||
            hs_scene_segments(HS_SCENE_UNIFORM, n, m, 2, ax.data(), ay.data(), dx.data(),
                              dy.data()) != HS_OK ||
            hs_circles_create(x.data(), y.data(), r.data(), nullptr, n, &cs, nullptr) != HS_OK)
            cs = nullptr;
        qs = hs_queries_segments(ax.data(), ay.data(), dx.data(), dy.data(), m);
    }
    ~BruteScene() { hs_circles_destroy(cs); }
    BruteScene(const BruteScene &) = delete;
    BruteScene &operator=(const BruteScene &) = delete;
};

enum class Mode { Count, Closest, All };

void RunBrute(benchmark::State &state, Mode mode, hs_isa isa, size_t n, size_t m, int threads)
{
    BruteScene sc(n, m);
    if (sc.cs == nullptr) {
        state.SkipWithError("scene setup failed");
        return;
    }
    hs_batch_opts o = hs_batch_opts_default();
    o.isa = isa;
    o.threads = threads;
    std::vector<uint32_t> out_u(m);
    std::vector<float> out_t(m);
    hs_closest_out co{out_u.data(), out_t.data(), nullptr, nullptr, nullptr, nullptr, NULL};
    uint64_t all_hits = 0;
    for (auto _ : state) {
        hs_status s;
        if (mode == Mode::All) {
            hs_hits h; // the CSR output is allocated per batch (never per query): part of the cost
            s = hs_brute_all(sc.cs, &sc.qs, &o, &h);
            all_hits = h.total;
            hs_hits_free(&h);
        } else {
            s = mode == Mode::Count ? hs_brute_count(sc.cs, &sc.qs, &o, out_u.data())
                                    : hs_brute_closest(sc.cs, &sc.qs, &o, co);
        }
        if (s != HS_OK) {
            state.SkipWithError("batch call failed");
            return;
        }
        benchmark::DoNotOptimize(out_u.data());
        benchmark::ClobberMemory();
    }
    uint64_t hits = 0;
    if (mode == Mode::Count)
        for (uint32_t c : out_u)
            hits += c;
    const double it = static_cast<double>(state.iterations());
    state.counters["pairs_per_second"] = benchmark::Counter(
        it * static_cast<double>(n) * static_cast<double>(m), benchmark::Counter::kIsRate);
    state.counters["queries_per_second"] =
        benchmark::Counter(it * static_cast<double>(m), benchmark::Counter::kIsRate);
    if (mode == Mode::All)
        hits = all_hits;
    if (mode != Mode::Closest)
        state.counters["hits_per_query"] = static_cast<double>(hits) / static_cast<double>(m);
    state.counters["omp_threads"] = threads;
}

// Registered at start-up for every level this CPU runs. N = 1k (L1) and 64k (L2); M keeps one
// iteration at a few milliseconds so the OpenMP fork/join is noise. The OpenMP team size is
// part of the name (threads:<k>) the way Google Benchmark names its own threaded runs, and
// the time is wall-clock (UseRealTime): that is what the 1-vs-2-thread target is about. The
// CPU column is the whole process's (MeasureProcessCPUTime), so on a busy machine one can still
// see whether 2 threads did more work than 1 (run with OMP_WAIT_POLICY=passive so idle OpenMP
// threads sleep instead of spinning, and compare CPU times).
int RegisterAll()
{
    struct Size {
        size_t n, m;
    };
    const Size sizes[] = {{1024, 16384}, {65536, 512}};
    const struct {
        Mode mode;
        const char *name;
    } modes[] = {{Mode::Count, "BM_BruteCount"},
                 {Mode::Closest, "BM_BruteClosest"},
                 {Mode::All, "BM_BruteAll"}};
    for (const auto &md : modes)
        for (int i = HS_ISA_SCALAR; i < HS_ISA_COUNT; i++) {
            hs_isa isa = static_cast<hs_isa>(i);
            if (!hs_isa_supported(isa))
                continue;
            for (const Size &sz : sizes)
                for (int th = 1; th <= 2; th++) {
                    std::string name = std::string(md.name) + "/" + hs_isa_name(isa) + "/" +
                                       std::to_string(sz.n) + "/" + std::to_string(sz.m) +
                                       "/threads:" + std::to_string(th);
                    Mode mode = md.mode;
                    size_t n = sz.n, m = sz.m;
                    benchmark::RegisterBenchmark(
                        name.c_str(),
                        [=](benchmark::State &st) { RunBrute(st, mode, isa, n, m, th); })
                        ->UseRealTime()
                        ->MeasureProcessCPUTime()
                        ->Unit(benchmark::kMillisecond);
                }
        }
    return 0;
}

[[maybe_unused]] const int registered = RegisterAll();

} // namespace
