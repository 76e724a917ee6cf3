// SPDX-License-Identifier: MIT
// Walls beside circles (hitscan/walls.h), closest and any (line of sight) on one thread and two:
//   BM_GridClosestWalls/maze/<K>/<M>        K walls of the maze (walls_maze.h), no circles
//   BM_GridClosestWalls/crowd/<K>/<M>       the crowd alone: K circles in the maze's square
//   BM_GridClosestWalls/maze_crowd/<K>/<M>  both in one grid (at most the sum of the two)
//   BM_GridAnyWalls/<scene>/<K>/<M>         the same scenes, any
// each /threads:1 and /threads:2, M segments per iteration; counters queries_per_second and
// hits_per_query.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "hitscan/hitscan.h"
#include "walls_maze.h"

namespace
{

void RunWalls(benchmark::State &state, bool any, bool walls, bool crowd, size_t k, size_t m,
              int threads)
{
    std::vector<float> wax(k), way(k), wbx(k), wby(k), cx(k), cy(k), cr(k);
    std::vector<float> ax(m), ay(m), dx(m), dy(m);
    std::vector<uint32_t> idx(m);
    std::vector<float> t(m);
    std::vector<uint8_t> hit(m);
    hs_maze_walls(k, 1, wax.data(), way.data(), wbx.data(), wby.data());
    hs_maze_crowd(k, k, 2, cx.data(), cy.data(), cr.data());
    hs_maze_segments(k, m, 3, ax.data(), ay.data(), dx.data(), dy.data());
    hs_circles *cs = nullptr;
    hs_walls *ws = nullptr;
    hs_grid *g = nullptr;
    hs_workspace *w = nullptr;
    hs_grid_opts go = {};
    if (hs_circles_create(cx.data(), cy.data(), cr.data(), nullptr, crowd ? k : 0, &cs, nullptr) !=
            HS_OK ||
        hs_walls_create(wax.data(), way.data(), wbx.data(), wby.data(), nullptr, nullptr, k, &ws,
                        nullptr) != HS_OK ||
        hs_workspace_create(&w) != HS_OK) {
        state.SkipWithError("set-up failed");
        return;
    }
    go.walls = walls ? ws : nullptr;
    if (hs_grid_build(cs, &go, &g) != HS_OK) {
        state.SkipWithError("build failed");
        return;
    }
    const hs_queries qs = hs_queries_segments(ax.data(), ay.data(), dx.data(), dy.data(), m);
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = threads;
    o.ws = w;
    hs_closest_out co = {};
    co.idx = idx.data();
    co.t = t.data();
    for (auto _ : state)
        if ((any ? hs_grid_any(g, &qs, &o, hit.data()) : hs_grid_closest(g, &qs, &o, co)) != HS_OK)
            state.SkipWithError(any ? "any failed" : "closest failed");
    size_t hits = 0;
    for (size_t i = 0; i < m; i++)
        hits += any ? hit[i] != 0 : idx[i] != HS_NONE;
    state.counters["queries_per_second"] =
        benchmark::Counter((double)m * (double)state.iterations(), benchmark::Counter::kIsRate);
    state.counters["hits_per_query"] = (double)hits / (double)m;
    hs_grid_destroy(g);
    hs_workspace_destroy(w);
    hs_walls_destroy(ws);
    hs_circles_destroy(cs);
}

struct Registrar {
    Registrar()
    {
        const struct {
            const char *name;
            bool walls, crowd;
        } scenes[] = {{"maze", true, false}, {"crowd", false, true}, {"maze_crowd", true, true}};
        for (const bool any : {false, true})
            for (const auto &sc : scenes)
                for (size_t k : {size_t{10000}, size_t{100000}})
                    for (int th = 1; th <= 2; th++) {
                        const std::string name =
                            std::string(any ? "BM_GridAnyWalls/" : "BM_GridClosestWalls/") +
                            sc.name + "/" + std::to_string(k) + "/" + std::to_string(k) +
                            "/threads:" + std::to_string(th);
                        const bool wl = sc.walls, cr = sc.crowd;
                        benchmark::RegisterBenchmark(
                            name.c_str(),
                            [=](benchmark::State &st) { RunWalls(st, any, wl, cr, k, k, th); })
                            ->UseRealTime()
                            ->Unit(benchmark::kMillisecond);
                    }
    }
} registrar;

} // namespace
