/* SPDX-License-Identifier: MIT */
// Grid benchmarks: BM_Grid<Mode>[Ws]/<scene>/<N>/<M>[/threads:<k>] queries per second (Ws: with a
// workspace), BM_GridBuild/<scene>/<N>/threads:<k>, BM_GridPairs/<scene>/<N>/threads:<k>,
// BM_GridPairsWithin/<scene>/<N>/threads:<k> (a skin of half the mean radius),
// BM_GridPairs[Within]Periodic/<scene>/<N>/threads:<k> (the same in a periodic box),
// BM_GridSweptPairs[Fast]/<scene>/<N>/threads:<k> (moving circles; Fast: 1 % move 20 mean radii),
// BM_Grid<Mode>Moving/<scene>/<N>/<M>/threads:<k> (queries against circles moving up to the
// mean radius; Mode = Closest, All), and BM_GridScaling/<what>/<scene>/<N> (2 threads against 1,
// call by call). The distribution suite's scenes join the query, build and pair families at
// 10^4 and 10^5 (RegisterSuite).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

#include "hitscan/batch.h"
#include "hitscan/grid.h"
#include "hitscan/scene.h"

#include "hits_per_query.h"

namespace
{

// One scene of hitscan/scene.h (circles, grid, the scene's segments), built once and shared by
// every benchmark that names it: the 10^6 scenes take seconds to set up.
// The mean of v (0 when empty).
double Mean(const std::vector<float> &v)
{
    double sum = 0.0;
    for (float e : v)
        sum += e;
    return v.empty() ? 0.0 : sum / (double)v.size();
}

struct GridScene {
    std::vector<float> x, y, r, ax, ay, dx, dy;
    hs_circles *cs = nullptr;
    hs_grid *g = nullptr;
    hs_grid *periodic = nullptr; // the same circles in the world square, periodic in x and y
    std::vector<float> r_mean;   // every radius the scene's mean ...
    hs_circles *cs_equal = nullptr;
    hs_grid *periodic_equal = nullptr; // ... those circles in the periodic world square
    hs_queries qs{};
    double hits_per_query = 0.0;
    bool ok = false;
    hs_scene_kind kind;

    GridScene(hs_scene_kind kind_, size_t n, size_t m)
        : x(n), y(n), r(n), ax(m), ay(m), dx(m), dy(m), kind(kind_)
    {
        if (hs_scene_circles(kind, n, 1, x.data(), y.data(), r.data()) != HS_OK ||
            hs_scene_segments(kind, n, m, 2, ax.data(), ay.data(), dx.data(), dy.data()) != HS_OK ||
            hs_circles_create(x.data(), y.data(), r.data(), nullptr, n, &cs, nullptr) != HS_OK ||
            hs_grid_build(cs, nullptr, &g) != HS_OK)
            return;
        qs = hs_queries_segments(ax.data(), ay.data(), dx.data(), dy.data(), m);
        // the suite's scenes from their first 2000 segments, the classic ones from all
        ok = HitsPerQuery(g, qs, kind >= HS_SCENE_OUTLIER ? 2000 : m, &hits_per_query);
    }
    // The periodic grid, built on first use (nullptr if that failed).
    hs_grid *Periodic()
    {
        if (periodic == nullptr) {
            hs_grid_opts go{};
            go.periodic = HS_PERIODIC_XY;
            go.box.max.x = go.box.max.y = hs_scene_world_side(kind, x.size());
            if (hs_grid_build(cs, &go, &periodic) != HS_OK)
                periodic = nullptr;
        }
        return periodic;
    }
    // The same centres with every radius the scene's mean, as molecular dynamics has them (and
    // bench/peers/ckdtree_pairs.py --periodic against cKDTree), in the periodic world square;
    // built on first use (nullptr if that failed).
    hs_grid *PeriodicEqual()
    {
        if (periodic_equal == nullptr) {
            r_mean.assign(r.size(), (float)Mean(r));
            hs_grid_opts go{};
            go.periodic = HS_PERIODIC_XY;
            go.box.max.x = go.box.max.y = hs_scene_world_side(kind, x.size());
            if (cs_equal == nullptr && hs_circles_create(x.data(), y.data(), r_mean.data(), nullptr,
                                                         x.size(), &cs_equal, nullptr) != HS_OK)
                return nullptr;
            if (hs_grid_build(cs_equal, &go, &periodic_equal) != HS_OK)
                periodic_equal = nullptr;
        }
        return periodic_equal;
    }
    ~GridScene()
    {
        hs_grid_destroy(periodic_equal);
        hs_circles_destroy(cs_equal);
        hs_grid_destroy(periodic);
        hs_grid_destroy(g);
        hs_circles_destroy(cs);
    }
    GridScene(const GridScene &) = delete;
    GridScene &operator=(const GridScene &) = delete;
};

GridScene &Scene(hs_scene_kind kind, size_t n, size_t m)
{
    static std::map<std::tuple<int, size_t, size_t>, std::unique_ptr<GridScene>> cache;
    auto key = std::make_tuple((int)kind, n, m);
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.emplace(key, std::make_unique<GridScene>(kind, n, m)).first;
    return *it->second;
}

// AllInto: all-hits into the caller's (query, circle, t) arrays, hs_grid_all_into.
enum class Mode { Closest, Any, All, Count, AllInto };
const char *ModeName(Mode m)
{
    switch (m) {
    case Mode::Closest: return "Closest";
    case Mode::Any: return "Any";
    case Mode::All: return "All";
    case Mode::AllInto: return "AllInto";
    default: return "Count";
    }
}

// One batch call of mode through the grid of sc into the output arrays (all-hits' result is
// freed again: a no-op on its arrays when they are the workspace's).
struct QueryOut {
    std::vector<uint32_t> u;
    std::vector<float> t;
    std::vector<uint8_t> b;
    // AllInto's arrays: grown by the first call, then reused (as a caller's memory pool)
    std::vector<int64_t> query, circle;
    std::vector<float> hit_t;
    explicit QueryOut(size_t m) : u(m), t(m), b(m) {}
};

int PlaceInto(void *ctx, size_t, size_t total, hs_hits_into *dst)
{
    QueryOut &out = *static_cast<QueryOut *>(ctx);
    if (out.query.size() < total) {
        out.query.resize(total);
        out.circle.resize(total);
        out.hit_t.resize(total);
    }
    dst->query = out.query.data();
    dst->idx = out.circle.data();
    dst->t = out.hit_t.data();
    return 0;
}

hs_status CallMode(Mode mode, const GridScene &sc, const hs_batch_opts &o, QueryOut &out)
{
    switch (mode) {
    case Mode::Closest:
        return hs_grid_closest(
            sc.g, &sc.qs, &o,
            hs_closest_out{out.u.data(), out.t.data(), nullptr, nullptr, nullptr, nullptr, NULL});
    case Mode::Any: return hs_grid_any(sc.g, &sc.qs, &o, out.b.data());
    case Mode::Count: return hs_grid_count_hits(sc.g, &sc.qs, &o, out.u.data());
    case Mode::AllInto: return hs_grid_all_into(sc.g, &sc.qs, &o, PlaceInto, &out);
    default: {
        hs_hits h;
        hs_status s = hs_grid_all(sc.g, &sc.qs, &o, &h);
        hs_hits_free(&h);
        return s;
    }
    }
}

// with_ws: the calls share one hs_workspace, as a frame loop would (Ws benchmarks); without,
// every call allocates and frees its own memory.
double MeanRadius(const GridScene &sc);
std::vector<float> Displacements(const GridScene &sc, hs_scene_kind kind, size_t n, bool fast,
                                 std::vector<float> *dy);

// moving: every circle moves by up to the scene's mean radius in a random direction over the
// queries' interval (hs_batch_opts.disp_x / disp_y).
void RunQueries(benchmark::State &state, Mode mode, hs_scene_kind kind, size_t n, size_t m,
                int threads, bool with_ws, bool moving = false)
{
    GridScene &sc = Scene(kind, n, m);
    if (!sc.ok) {
        state.SkipWithError("scene setup failed");
        return;
    }
    hs_batch_stats st{};
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    o.stats = &st;
    hs_workspace *ws = nullptr;
    if (with_ws && hs_workspace_create(&ws) != HS_OK) {
        state.SkipWithError("workspace failed");
        return;
    }
    o.ws = ws;
    std::vector<float> dy, dx = moving ? Displacements(sc, kind, n, false, &dy) : dy;
    if (moving) {
        o.disp_x = dx.data();
        o.disp_y = dy.data();
    }
    QueryOut out(m);
    auto call = [&]() { return CallMode(mode, sc, o, out); };
    // steady state of a frame loop: one untimed call grows the workspace to the batch
    if (ws && call() != HS_OK) {
        state.SkipWithError("batch call failed");
        hs_workspace_destroy(ws);
        return;
    }
    for (auto _ : state) {
        if (call() != HS_OK) {
            state.SkipWithError("batch call failed");
            break;
        }
        benchmark::DoNotOptimize(out.u.data());
        benchmark::ClobberMemory();
    }
    state.counters["queries_per_second"] =
        benchmark::Counter((double)m * (double)state.iterations(), benchmark::Counter::kIsRate);
    state.counters["pair_tests_per_query"] = m ? (double)st.pair_tests / (double)m : 0.0;
    state.counters["hits_per_query"] = sc.hits_per_query;
    if (ws)
        state.counters["workspace_bytes_per_query"] =
            m ? (double)hs_workspace_bytes(ws) / (double)m : 0.0;
    state.SetLabel(hs_isa_name(hs_isa_resolve(HS_ISA_AUTO)));
    hs_workspace_destroy(ws);
}

// The per-frame path of a particle simulation: hs_grid_rebuild on a grid whose memory fits.
void RunBuild(benchmark::State &state, hs_scene_kind kind, size_t n, int threads)
{
    std::vector<float> x(n), y(n), r(n);
    hs_circles *cs = nullptr;
    hs_grid *g = nullptr;
    hs_grid_opts go{};
    go.threads = threads;
    if (hs_scene_circles(kind, n, 1, x.data(), y.data(), r.data()) != HS_OK ||
        hs_circles_create(x.data(), y.data(), r.data(), nullptr, n, &cs, nullptr) != HS_OK ||
        hs_grid_build(cs, &go, &g) != HS_OK) {
        hs_circles_destroy(cs);
        state.SkipWithError("scene setup failed");
        return;
    }
    for (auto _ : state) {
        if (hs_grid_rebuild(g, cs) != HS_OK) {
            state.SkipWithError("rebuild failed");
            break;
        }
        benchmark::ClobberMemory();
    }
    state.counters["circles_per_second"] =
        benchmark::Counter((double)n * (double)state.iterations(), benchmark::Counter::kIsRate);
    state.counters["bytes_per_circle"] = (double)hs_grid_bytes(g) / (double)n;
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

// The timed loop of a pair search: call(&count) runs it once and says how many pairs it found.
// One untimed call first: a process's first call faults in fresh memory for its lists and
// output, the calls after it reuse what the allocator kept, as a loop calling every step does;
// without it a slow search (one iteration in the minimum time) would time only the first.
template <class Call> void RunPairLoop(benchmark::State &state, size_t n, Call call)
{
    size_t pairs = 0;
    if (call(&pairs) != HS_OK) {
        state.SkipWithError("pairs failed");
        return;
    }
    for (auto _ : state) {
        if (call(&pairs) != HS_OK) {
            state.SkipWithError("pairs failed");
            return;
        }
    }
    state.counters["circles_per_second"] =
        benchmark::Counter((double)n * (double)state.iterations(), benchmark::Counter::kIsRate);
    state.counters["pairs_per_circle"] = n ? (double)pairs / (double)n : 0.0;
}

// The scene's mean radius.
double MeanRadius(const GridScene &sc) { return Mean(sc.r); }

// Particle pairs from a built grid (the other half of a particle simulation's frame, next to
// BM_GridBuild's rebuild): every overlapping pair once (RunPairs), or every pair within a
// cutoff of half the scene's mean radius, a Verlet list's skin (RunPairsWithin).
// With periodic, the same circles in a box periodic in x and y: the world square.
// With equal, that box's circles all of the scene's mean radius.
void RunPairsSkin(benchmark::State &state, hs_scene_kind kind, size_t n, int threads, bool skin,
                  bool periodic = false, bool equal = false)
{
    GridScene &sc = Scene(kind, n, 0);
    hs_grid *g = !sc.ok ? nullptr : equal ? sc.PeriodicEqual() : periodic ? sc.Periodic() : sc.g;
    if (!sc.ok || g == nullptr) {
        state.SkipWithError("scene setup failed");
        return;
    }
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    const float cutoff = skin ? (float)(0.5 * MeanRadius(sc)) : 0.0f;
    RunPairLoop(state, n, [&](size_t *count) {
        hs_pairs p;
        hs_status s = hs_grid_pairs_within(g, cutoff, &o, &p);
        *count = p.count;
        benchmark::DoNotOptimize(p.i);
        hs_pairs_free(&p);
        return s;
    });
}

void RunPairs(benchmark::State &state, hs_scene_kind kind, size_t n, int threads)
{
    RunPairsSkin(state, kind, n, threads, false);
}

void RunPairsWithin(benchmark::State &state, hs_scene_kind kind, size_t n, int threads)
{
    RunPairsSkin(state, kind, n, threads, true);
}

void RunPairsPeriodic(benchmark::State &state, hs_scene_kind kind, size_t n, int threads)
{
    RunPairsSkin(state, kind, n, threads, false, true);
}

void RunPairsWithinPeriodic(benchmark::State &state, hs_scene_kind kind, size_t n, int threads)
{
    RunPairsSkin(state, kind, n, threads, true, true);
}

void RunPairsPeriodicEqual(benchmark::State &state, hs_scene_kind kind, size_t n, int threads)
{
    RunPairsSkin(state, kind, n, threads, false, true, true);
}

// Displacements of the scene's n circles (dx returned, dy in *dy), the same in every run:
// uniform directions, lengths uniform in [0, mean radius]; with fast, 1 % of the circles
// (drawn at random) move 20 mean radii instead.
std::vector<float> Displacements(const GridScene &sc, hs_scene_kind kind, size_t n, bool fast,
                                 std::vector<float> *dy)
{
    const double rmean = MeanRadius(sc);
    std::mt19937_64 rng(12345u + (uint64_t)kind);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<float> dx(n);
    dy->assign(n, 0.0f);
    for (size_t i = 0; i < n; i++) {
        const double a = 6.283185307179586 * unit(rng), u = unit(rng);
        const double len = fast && unit(rng) < 0.01 ? 20.0 * rmean : u * rmean;
        dx[i] = (float)(len * std::cos(a));
        (*dy)[i] = (float)(len * std::sin(a));
    }
    return dx;
}

// Swept pairs of moving circles, hs_grid_swept_pairs, on the scene's grid.
void RunSweptPairs(benchmark::State &state, hs_scene_kind kind, size_t n, int threads, bool fast)
{
    GridScene &sc = Scene(kind, n, 0);
    if (!sc.ok) {
        state.SkipWithError("scene setup failed");
        return;
    }
    std::vector<float> dy, dx = Displacements(sc, kind, n, fast, &dy);
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    RunPairLoop(state, n, [&](size_t *count) {
        hs_swept_pairs p;
        hs_status s = hs_grid_swept_pairs(sc.g, dx.data(), dy.data(), &o, &p);
        *count = p.count;
        benchmark::DoNotOptimize(p.t);
        hs_swept_pairs_free(&p);
        return s;
    });
}

void RunSwept(benchmark::State &state, hs_scene_kind kind, size_t n, int threads)
{
    RunSweptPairs(state, kind, n, threads, false);
}

void RunSweptFast(benchmark::State &state, hs_scene_kind kind, size_t n, int threads)
{
    RunSweptPairs(state, kind, n, threads, true);
}

// Two threads against one, measured call by call. On a shared host the speed drifts by tens
// of percent over minutes, and not equally on both cores (another guest on a core's sibling
// slows that core alone), so 1- and 2-thread figures from separate benchmarks, even
// alternated runs, mix host states. Each iteration times the one-thread call pinned to the
// first and then to the second CPU of the process, then the two-thread call unpinned, all
// within tens of milliseconds. speedup_2t is the median over iterations of the 2-thread rate
// over the mean of the two 1-thread rates: 2.0 when two threads do what the two cores do
// apart, whichever core the host slows. per_second_1t_cpu0 / _cpu1 show how far apart the
// cores were. Queries run with a workspace per thread count (warmed by one untimed call), the
// build is hs_grid_rebuild of grids made for 1 and 2 threads.
enum class Scaled { Closest, Any, All, Count, Build, Pairs }; // the first four as Mode
static_assert((int)Scaled::Closest == (int)Mode::Closest && (int)Scaled::Any == (int)Mode::Any &&
                  (int)Scaled::All == (int)Mode::All && (int)Scaled::Count == (int)Mode::Count,
              "RunScaling passes its query modes on as Mode");

// The calling thread's CPU mask (Linux): pin to one CPU, restore after. Elsewhere a no-op and
// both 1-thread calls run wherever the system puts them.
struct Pinning {
#if defined(__linux__)
    cpu_set_t all;
    int cpu[2] = {-1, -1};
    Pinning()
    {
        CPU_ZERO(&all);
        if (pthread_getaffinity_np(pthread_self(), sizeof all, &all) != 0)
            return;
        for (int c = 0, k = 0; c < CPU_SETSIZE && k < 2; c++)
            if (CPU_ISSET(c, &all))
                cpu[k++] = c;
    }
    void pin(int k)
    {
        if (cpu[1] < 0)
            return;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu[k], &one);
        pthread_setaffinity_np(pthread_self(), sizeof one, &one);
    }
    void unpin()
    {
        if (cpu[1] >= 0)
            pthread_setaffinity_np(pthread_self(), sizeof all, &all);
    }
#else
    void pin(int) {}
    void unpin() {}
#endif
};

void RunScaling(benchmark::State &state, Scaled what, hs_scene_kind kind, size_t n)
{
    GridScene &sc = Scene(kind, n, what == Scaled::Build || what == Scaled::Pairs ? 0 : n);
    if (!sc.ok) {
        state.SkipWithError("scene setup failed");
        return;
    }
    const size_t m = sc.qs.count;
    hs_workspace *ws[2] = {nullptr, nullptr};
    hs_grid *bg[2] = {nullptr, nullptr};
    QueryOut out(m);
    bool ok = true;
    for (int k = 0; k < 2; k++) {
        hs_grid_opts go{};
        go.threads = k + 1;
        if (what == Scaled::Build)
            ok = ok && hs_grid_build(sc.cs, &go, &bg[k]) == HS_OK;
        else if (what != Scaled::Pairs)
            ok = ok && hs_workspace_create(&ws[k]) == HS_OK;
    }
    auto call = [&](int k) -> hs_status {
        hs_batch_opts o = hs_batch_opts_default();
        o.threads = k + 1;
        o.ws = ws[k];
        if (what == Scaled::Build)
            return hs_grid_rebuild(bg[k], sc.cs);
        if (what == Scaled::Pairs) {
            hs_pairs p;
            hs_status s = hs_grid_pairs(sc.g, &o, &p);
            hs_pairs_free(&p);
            return s;
        }
        return CallMode(static_cast<Mode>(what), sc, o, out);
    };
    // steady state: workspaces grown; the team's thread is made here, unpinned
    ok = ok && call(0) == HS_OK && call(1) == HS_OK;
    Pinning pin;
    std::vector<double> t1a, t1b, t2, ratio;
    auto timed = [&](int k) {
        auto a = std::chrono::steady_clock::now();
        ok = ok && call(k) == HS_OK;
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
    };
    for (auto _ : state) {
        if (!ok) {
            state.SkipWithError("setup or call failed");
            break;
        }
        pin.pin(0);
        const double a = timed(0);
        pin.pin(1);
        const double b = timed(0);
        pin.unpin();
        const double c = timed(1);
        benchmark::ClobberMemory();
        t1a.push_back(a);
        t1b.push_back(b);
        t2.push_back(c);
        ratio.push_back((1.0 / c) / (0.5 * (1.0 / a + 1.0 / b)));
        state.SetIterationTime(a + b + c);
    }
    if (!ratio.empty()) {
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            size_t h = v.size() / 2;
            return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
        };
        const double work = (double)(m ? m : n);
        state.counters["speedup_2t"] = median(ratio);
        state.counters["per_second_1t_cpu0"] = work / median(t1a);
        state.counters["per_second_1t_cpu1"] = work / median(t1b);
        state.counters["per_second_2t"] = work / median(t2);
    }
    for (int k = 0; k < 2; k++) {
        hs_workspace_destroy(ws[k]);
        hs_grid_destroy(bg[k]);
    }
}

using PerCircle = std::pair<const char *, void (*)(benchmark::State &, hs_scene_kind, size_t, int)>;

// BM_Grid<Mode>/<scene>/<N>/<N>: the bare name runs with OpenMP's default team, /threads:k
// pins k threads.
void RegisterQueries(Mode mode, hs_scene_kind kind, size_t n)
{
    std::string base = std::string("BM_Grid") + ModeName(mode) + "/" + hs_scene_kind_name(kind) +
                       "/" + std::to_string(n) + "/" + std::to_string(n);
    for (int k = 0; k <= 2; k++) {
        std::string name = k ? base + "/threads:" + std::to_string(k) : base;
        benchmark::RegisterBenchmark(
            name.c_str(), [=](benchmark::State &st) { RunQueries(st, mode, kind, n, n, k, false); })
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
}

// <family>/<scene>/<N>/threads:k for k = 1, 2.
void RegisterPerCircle(const PerCircle &bm, hs_scene_kind kind, size_t n)
{
    for (int k = 1; k <= 2; k++) {
        std::string name = std::string(bm.first) + hs_scene_kind_name(kind) + "/" +
                           std::to_string(n) + "/threads:" + std::to_string(k);
        auto run = bm.second;
        benchmark::RegisterBenchmark(name.c_str(),
                                     [=](benchmark::State &st) { run(st, kind, n, k); })
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
}

// The distribution suite (scene.h, bench/suite.sh): every scene of the suite at N = M = 10^4
// and 10^5, and the twins registered above at 10^4 and 10^6 (uniform, clustered) at 10^5 too;
// the query modes, build, pairs and pairs within a skin. point only where its work
// is not quadratic: closest and any, build, and pairs at 1000 and 4000 circles (N^2 / 2 pairs).
void RegisterSuite(const std::vector<Mode> &modes, const std::vector<PerCircle> &per_circle)
{
    std::vector<std::pair<hs_scene_kind, size_t>> suite;
    for (int k = HS_SCENE_OUTLIER; k < (int)HS_SCENE_COUNT_; k++)
        for (size_t n : {size_t{10000}, size_t{100000}})
            suite.emplace_back((hs_scene_kind)k, n);
    suite.emplace_back(HS_SCENE_UNIFORM, 100000);
    suite.emplace_back(HS_SCENE_CLUSTERED, 100000);
    for (Mode mode : modes)
        for (const auto &sn : suite) {
            const hs_scene_kind kind = sn.first;
            const size_t n = sn.second;
            if (kind != HS_SCENE_POINT || mode == Mode::Closest || mode == Mode::Any)
                RegisterQueries(mode, kind, n);
        }
    for (const auto &bm : per_circle)
        for (const auto &sn : suite) {
            // periodic boxes and moving circles stay with the first scenes
            if (bm.second != RunBuild && bm.second != RunPairs && bm.second != RunPairsWithin)
                continue;
            const hs_scene_kind kind = sn.first;
            size_t n = sn.second;
            if (kind == HS_SCENE_POINT && bm.second != RunBuild)
                n = n == 10000 ? 1000 : 4000;
            RegisterPerCircle(bm, kind, n);
        }
}

int RegisterAll()
{
    const hs_scene_kind kinds[] = {HS_SCENE_UNIFORM, HS_SCENE_CLUSTERED, HS_SCENE_MIXED,
                                   HS_SCENE_SPARSE, HS_SCENE_LASERS};
    const hs_scene_kind scaled_kinds[] = {HS_SCENE_UNIFORM, HS_SCENE_CLUSTERED, HS_SCENE_MIXED};
    const size_t sizes[] = {10000, 1000000};
    const std::vector<Mode> modes = {Mode::Closest, Mode::Any, Mode::All, Mode::Count,
                                     Mode::AllInto};
    for (Mode mode : modes)
        for (hs_scene_kind kind : kinds)
            for (size_t n : sizes)
                RegisterQueries(mode, kind, n);
    for (Mode mode : modes)
        for (hs_scene_kind kind : kinds)
            for (size_t n : sizes)
                for (int k = 1; k <= 2; k++) {
                    std::string name = std::string("BM_Grid") + ModeName(mode) + "Ws/" +
                                       hs_scene_kind_name(kind) + "/" + std::to_string(n) + "/" +
                                       std::to_string(n) + "/threads:" + std::to_string(k);
                    benchmark::RegisterBenchmark(
                        name.c_str(),
                        [=](benchmark::State &st) { RunQueries(st, mode, kind, n, n, k, true); })
                        ->UseRealTime()
                        ->Unit(benchmark::kMillisecond);
                }
    for (Mode mode : {Mode::Closest, Mode::All})
        for (hs_scene_kind kind : kinds)
            for (size_t n : {(size_t)10000, (size_t)100000, (size_t)1000000})
                for (int k = 1; k <= 2; k++) {
                    if (n == 100000 && kind != HS_SCENE_UNIFORM)
                        continue; /* the middle size: uniform only, beside BM_GridClosest's */
                    std::string name = std::string("BM_Grid") + ModeName(mode) + "Moving/" +
                                       hs_scene_kind_name(kind) + "/" + std::to_string(n) + "/" +
                                       std::to_string(n) + "/threads:" + std::to_string(k);
                    benchmark::RegisterBenchmark(name.c_str(),
                                                 [=](benchmark::State &st) {
                                                     RunQueries(st, mode, kind, n, n, k, false,
                                                                true);
                                                 })
                        ->UseRealTime()
                        ->Unit(benchmark::kMillisecond);
                }
    const std::vector<PerCircle> per_circle = {
        {"BM_GridBuild/", RunBuild},
        {"BM_GridPairs/", RunPairs},
        {"BM_GridPairsWithin/", RunPairsWithin},
        {"BM_GridPairsPeriodic/", RunPairsPeriodic},
        {"BM_GridPairsWithinPeriodic/", RunPairsWithinPeriodic},
        {"BM_GridPairsPeriodicEqual/", RunPairsPeriodicEqual},
        {"BM_GridSweptPairs/", RunSwept},
        {"BM_GridSweptPairsFast/", RunSweptFast}};
    for (const auto &bm : per_circle)
        for (hs_scene_kind kind : kinds)
            for (size_t n : sizes)
                RegisterPerCircle(bm, kind, n);
    RegisterSuite(modes, per_circle);
    const std::pair<const char *, Scaled> scaled[] = {
        {"Closest", Scaled::Closest}, {"Any", Scaled::Any},     {"All", Scaled::All},
        {"Count", Scaled::Count},     {"Build", Scaled::Build}, {"Pairs", Scaled::Pairs}};
    for (const auto &w : scaled)
        for (hs_scene_kind kind : scaled_kinds) {
            const size_t n = 1000000;
            std::string name = std::string("BM_GridScaling/") + w.first + "/" +
                               hs_scene_kind_name(kind) + "/" + std::to_string(n);
            const Scaled what = w.second;
            // all-hits' iterations take 0.4-0.7 s at 10^6: 10 s gives its median ~15-25 of them
            benchmark::RegisterBenchmark(
                name.c_str(), [=](benchmark::State &st) { RunScaling(st, what, kind, n); })
                ->UseManualTime()
                ->MinTime(what == Scaled::All ? 10.0 : 3.0)
                ->Unit(benchmark::kMillisecond);
        }
    return 0;
}

const int registered = RegisterAll();

} // namespace
