/* SPDX-License-Identifier: MIT */
// BM_GridVsTwin/<what>/<scene>/<N>: a scene of the distribution suite (hitscan/scene.h) against
// its twin (hs_scene_twin), call by call, one thread. Each iteration times one call on the
// scene and one on its twin, back to back (which one first alternates), so that the ratio of
// the two is taken between calls milliseconds apart: on a shared host whose speed switches
// between levels within seconds, separate benchmarks of the scene and the twin, even shuffled
// together, meet different levels. ratio is the median over iterations of time(scene) /
// time(twin); scene_ms and twin_ms the medians of each side. what: Closest, All (the scene's
// segments, hits_per_query over the first 2000 of them), Build (hs_grid_rebuild), Pairs
// (hs_grid_pairs on the built grid, pairs_per_circle), PairsBuild (a rebuild, then the pairs).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "hitscan/batch.h"
#include "hitscan/grid.h"
#include "hitscan/scene.h"

#include "hits_per_query.h"

namespace
{

enum class What { Closest, All, Build, Pairs, PairsBuild };

// One side: the circles, their grid and the segments.
struct Side {
    std::vector<float> x, y, r, ax, ay, dx, dy;
    std::vector<uint32_t> idx;
    std::vector<float> t;
    hs_circles *cs = nullptr;
    hs_grid *g = nullptr;
    hs_queries qs{};
    double hits_per_query = 0.0;
    size_t pairs = 0;
    bool ok = false;

    Side(hs_scene_kind kind, size_t n, bool segments)
        : x(n), y(n), r(n), ax(segments ? n : 0), ay(ax.size()), dx(ax.size()), dy(ax.size()),
          idx(ax.size()), t(ax.size())
    {
        hs_grid_opts go{};
        go.threads = 1;
        if (hs_scene_circles(kind, n, 1, x.data(), y.data(), r.data()) != HS_OK ||
            hs_circles_create(x.data(), y.data(), r.data(), nullptr, n, &cs, nullptr) != HS_OK ||
            hs_grid_build(cs, &go, &g) != HS_OK)
            return;
        if (segments) {
            if (hs_scene_segments(kind, n, n, 2, ax.data(), ay.data(), dx.data(), dy.data()) !=
                HS_OK)
                return;
            qs = hs_queries_segments(ax.data(), ay.data(), dx.data(), dy.data(), n);
            if (!HitsPerQuery(g, qs, 2000, &hits_per_query))
                return;
        }
        ok = true;
    }
    ~Side()
    {
        hs_grid_destroy(g);
        hs_circles_destroy(cs);
    }
    Side(const Side &) = delete;
    Side &operator=(const Side &) = delete;

    hs_status Call(What what)
    {
        hs_batch_opts o = hs_batch_opts_default();
        o.threads = 1;
        hs_status s = HS_OK;
        if (what == What::Closest)
            return hs_grid_closest(
                g, &qs, &o,
                hs_closest_out{idx.data(), t.data(), nullptr, nullptr, nullptr, nullptr, nullptr});
        if (what == What::All) {
            hs_hits h;
            s = hs_grid_all(g, &qs, &o, &h);
            hs_hits_free(&h);
            return s;
        }
        if (what == What::Build || what == What::PairsBuild)
            s = hs_grid_rebuild(g, cs);
        if (s == HS_OK && (what == What::Pairs || what == What::PairsBuild)) {
            hs_pairs p;
            s = hs_grid_pairs(g, &o, &p);
            pairs = p.count;
            benchmark::DoNotOptimize(p.i);
            hs_pairs_free(&p);
        }
        return s;
    }
};

double Median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t h = v.size() / 2;
    return v.empty() ? 0.0 : v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

void RunVsTwin(benchmark::State &state, What what, hs_scene_kind kind, size_t n)
{
    const bool segments = what == What::Closest || what == What::All;
    Side scene(kind, n, segments), twin(hs_scene_twin(kind), n, segments);
    // one untimed call each: fresh memory faulted in, as in a loop calling every step
    if (!scene.ok || !twin.ok || scene.Call(what) != HS_OK || twin.Call(what) != HS_OK) {
        state.SkipWithError("setup or call failed");
        return;
    }
    std::vector<double> ts, tt, ratio;
    bool ok = true;
    auto timed = [&](Side &side) {
        const auto a = std::chrono::steady_clock::now();
        ok = ok && side.Call(what) == HS_OK;
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
    };
    for (auto _ : state) {
        double a, b; /* the scene's, the twin's */
        if (ts.size() % 2 == 0) {
            a = timed(scene);
            b = timed(twin);
        } else {
            b = timed(twin);
            a = timed(scene);
        }
        benchmark::ClobberMemory();
        if (!ok) {
            state.SkipWithError("call failed");
            break;
        }
        ts.push_back(a);
        tt.push_back(b);
        ratio.push_back(a / b);
        state.SetIterationTime(a + b);
    }
    state.counters["ratio"] = Median(ratio);
    state.counters["scene_ms"] = 1e3 * Median(ts);
    state.counters["twin_ms"] = 1e3 * Median(tt);
    if (segments) {
        state.counters["hits_per_query"] = scene.hits_per_query;
        state.counters["twin_hits_per_query"] = twin.hits_per_query;
    } else if (what != What::Build) {
        state.counters["pairs_per_circle"] = (double)scene.pairs / (double)n;
        state.counters["twin_pairs_per_circle"] = (double)twin.pairs / (double)n;
    }
}

int RegisterVsTwin()
{
    const std::pair<const char *, What> whats[] = {{"Closest", What::Closest},
                                                   {"All", What::All},
                                                   {"Build", What::Build},
                                                   {"Pairs", What::Pairs},
                                                   {"PairsBuild", What::PairsBuild}};
    for (const auto &w : whats)
        for (int k = HS_SCENE_OUTLIER; k < HS_SCENE_COUNT_; k++) {
            const hs_scene_kind kind = (hs_scene_kind)k;
            if (hs_scene_twin(kind) == HS_SCENE_INVALID)
                continue;
            const size_t n = 100000;
            const std::string name = std::string("BM_GridVsTwin/") + w.first + "/" +
                                     hs_scene_kind_name(kind) + "/" + std::to_string(n);
            const What what = w.second;
            benchmark::RegisterBenchmark(
                name.c_str(), [=](benchmark::State &st) { RunVsTwin(st, what, kind, n); })
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
        }
    return 0;
}

const int registered = RegisterVsTwin();

} // namespace
