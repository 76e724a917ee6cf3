/* SPDX-License-Identifier: MIT */
// Small batches through the public API only: BM_SmallBatch<Mode>/uniform/<N>/<M> (one thread,
// a workspace, queries per second) and BM_ScalarIntersect (one hs_intersect_circle call per
// pair, pairs per second). hitscan_bench runs them against libhitscan.a and
// hitscan_bench_shared against libhitscan.so: the ratio is the cost of the shared library's
// calls (PLT, position-independent code) where a call does the least work.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "hitscan/hitscan.h"

namespace
{

constexpr size_t kCircles = 10000;
constexpr size_t kQueries = 4096;

struct SmallScene {
    std::vector<float> x, y, r, ax, ay, dx, dy;
    hs_circles *cs = nullptr;
    hs_grid *g = nullptr;
    hs_workspace *ws = nullptr;
    bool ok = false;

    SmallScene()
        : x(kCircles), y(kCircles), r(kCircles), ax(kQueries), ay(kQueries), dx(kQueries),
          dy(kQueries)
    {
        ok = hs_scene_circles(HS_SCENE_UNIFORM, kCircles, 1, x.data(), y.data(), r.data()) ==
                 HS_OK &&
             hs_scene_segments(HS_SCENE_UNIFORM, kCircles, kQueries, 2, ax.data(), ay.data(),
                               dx.data(), dy.data()) == HS_OK &&
             hs_circles_create(x.data(), y.data(), r.data(), nullptr, kCircles, &cs, nullptr) ==
                 HS_OK &&
             hs_grid_build(cs, nullptr, &g) == HS_OK && hs_workspace_create(&ws) == HS_OK;
    }
    ~SmallScene()
    {
        hs_workspace_destroy(ws);
        hs_grid_destroy(g);
        hs_circles_destroy(cs);
    }
    SmallScene(const SmallScene &) = delete;
    SmallScene &operator=(const SmallScene &) = delete;
};

SmallScene &scene()
{
    static SmallScene s;
    return s;
}

enum class Mode { Closest, Any, Count };

template <Mode mode> void BM_SmallBatch(benchmark::State &state)
{
    SmallScene &s = scene();
    const size_t m = static_cast<size_t>(state.range(0));
    if (!s.ok) {
        state.SkipWithError("scene set-up failed");
        return;
    }
    hs_batch_opts opts = hs_batch_opts_default();
    opts.threads = 1;
    opts.ws = s.ws;
    std::vector<uint32_t> idx(m), count(m);
    std::vector<float> t(m);
    std::vector<uint8_t> hit(m);
    hs_closest_out out{};
    out.idx = idx.data();
    out.t = t.data();
    // Consecutive calls take consecutive windows of the scene's queries.
    size_t start = 0;
    for (auto _ : state) {
        if (start + m > kQueries)
            start = 0;
        hs_queries qs = hs_queries_segments(s.ax.data() + start, s.ay.data() + start,
                                            s.dx.data() + start, s.dy.data() + start, m);
        hs_status st = HS_OK;
        if (mode == Mode::Closest)
            st = hs_grid_closest(s.g, &qs, &opts, out);
        else if (mode == Mode::Any)
            st = hs_grid_any(s.g, &qs, &opts, hit.data());
        else
            st = hs_grid_count_hits(s.g, &qs, &opts, count.data());
        if (st != HS_OK) {
            state.SkipWithError("query failed");
            return;
        }
        benchmark::DoNotOptimize(idx.data());
        benchmark::DoNotOptimize(hit.data());
        benchmark::DoNotOptimize(count.data());
        start += m;
    }
    state.counters["queries_per_second"] =
        benchmark::Counter(static_cast<double>(m) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}

void BM_ScalarIntersect(benchmark::State &state)
{
    SmallScene &s = scene();
    if (!s.ok) {
        state.SkipWithError("scene set-up failed");
        return;
    }
    uint64_t hits = 0;
    size_t k = 0;
    for (auto _ : state) {
        for (size_t i = 0; i < 64; i++, k++) {
            const size_t q = k % kQueries, c = (k * 7919u) % kCircles;
            hs_query query = hs_segment({s.ax[q], s.ay[q]}, {s.ax[q] + s.dx[q], s.ay[q] + s.dy[q]});
            hs_hit h;
            hits += static_cast<uint64_t>(
                hs_intersect_circle(query, {s.x[c], s.y[c], s.r[c]}, HS_SOLID, &h) == 1);
        }
    }
    benchmark::DoNotOptimize(hits);
    state.counters["pairs_per_second"] = benchmark::Counter(
        64.0 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

} // namespace

BENCHMARK(BM_SmallBatch<Mode::Closest>)
    ->Name("BM_SmallBatchClosest/uniform/10000")
    ->Arg(1)
    ->Arg(64)
    ->Arg(4096);
BENCHMARK(BM_SmallBatch<Mode::Any>)
    ->Name("BM_SmallBatchAny/uniform/10000")
    ->Arg(1)
    ->Arg(64)
    ->Arg(4096);
BENCHMARK(BM_SmallBatch<Mode::Count>)
    ->Name("BM_SmallBatchCount/uniform/10000")
    ->Arg(1)
    ->Arg(64)
    ->Arg(4096);
BENCHMARK(BM_ScalarIntersect);
