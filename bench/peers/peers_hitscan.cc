/* SPDX-License-Identifier: MIT */
// hitscan itself on the peers' data: grid closest, all hits, pairs and build, one thread; closest
// on the maze of walls.
#include "peers.h"

namespace peers
{
namespace
{

bool HitscanHas(Mode mode) { return mode != Mode::Closest16; }

// Queries run with a workspace warmed by one untimed call (a frame loop's steady state); the
// peers likewise reuse their output buffers from call to call.
void RunHitscan(benchmark::State &state, Mode mode, hs_scene_kind kind, size_t n, size_t m)
{
    Scene &sc = GetScene(kind, n, m);
    if (!sc.ok) {
        state.SkipWithError("scene setup failed");
        return;
    }
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = 1;
    hs_workspace *ws = nullptr;
    if (hs_workspace_create(&ws) != HS_OK) {
        state.SkipWithError("workspace failed");
        return;
    }
    o.ws = ws;
    std::vector<uint32_t> idx(m);
    std::vector<float> t(m);
    hs_status s = HS_OK;
    auto once = [&]() {
        switch (mode) {
        case Mode::Closest:
            s = hs_grid_closest(
                sc.g, &sc.qs, &o,
                hs_closest_out{idx.data(), t.data(), nullptr, nullptr, nullptr, nullptr, NULL});
            break;
        case Mode::All: {
            hs_hits h;
            s = hs_grid_all(sc.g, &sc.qs, &o, &h);
            benchmark::DoNotOptimize(h.idx);
            hs_hits_free(&h);
            break;
        }
        case Mode::Pairs: {
            hs_pairs p;
            s = hs_grid_pairs(sc.g, &o, &p);
            benchmark::DoNotOptimize(p.i);
            hs_pairs_free(&p);
            break;
        }
        default: {
            hs_grid_opts go{};
            go.threads = 1;
            hs_grid *g = nullptr;
            s = hs_grid_build(sc.cs, &go, &g);
            state.PauseTiming();
            hs_grid_destroy(g);
            state.ResumeTiming();
        }
        }
    };
    if (mode != Mode::Build)
        once();
    for (auto _ : state) {
        once();
        if (s != HS_OK) {
            state.SkipWithError("hitscan call failed");
            break;
        }
        benchmark::ClobberMemory();
    }
    hs_workspace_destroy(ws);
    SetRates(state, mode, sc);
}

// The maze: hs_grid_closest on the grid of its walls, with a warmed workspace as above.
void RunHitscanMaze(benchmark::State &state, size_t k, size_t m)
{
    Maze &mz = GetMaze(k, m);
    hs_workspace *ws = nullptr;
    if (!mz.ok || hs_workspace_create(&ws) != HS_OK) {
        state.SkipWithError("maze setup failed");
        return;
    }
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = 1;
    o.ws = ws;
    std::vector<uint32_t> idx(m);
    std::vector<float> t(m);
    const hs_closest_out out{idx.data(), t.data(), nullptr, nullptr, nullptr, nullptr, nullptr};
    hs_status s = hs_grid_closest(mz.g, &mz.qs, &o, out);
    for (auto _ : state) {
        s = hs_grid_closest(mz.g, &mz.qs, &o, out);
        if (s != HS_OK) {
            state.SkipWithError("hitscan call failed");
            break;
        }
        benchmark::ClobberMemory();
    }
    hs_workspace_destroy(ws);
    SetMazeRates(state, mz);
}

} // namespace

const Library kHitscan{"Hitscan", HitscanHas, RunHitscan, RunHitscanMaze};

} // namespace peers
