/* SPDX-License-Identifier: MIT */
// The maze of the walls benchmark (bench/walls_maze.h) for the peers, hitscan's answers on it
// and the check of a peer's closest hits against them.
#include "peers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "walls_maze.h"

namespace peers
{

Maze::Maze(size_t k_, size_t m_)
    : k(k_), m(m_), wax(k_), way(k_), wbx(k_), wby(k_), ax(m_), ay(m_), dx(m_), dy(m_)
{
    // the seeds of bench_walls.cc: walls 1, segments 3
    hs_maze_walls(k, 1, wax.data(), way.data(), wbx.data(), wby.data());
    hs_maze_segments(k, m, 3, ax.data(), ay.data(), dx.data(), dy.data());
    hs_circles *none = nullptr;
    hs_walls *ws = nullptr;
    hs_grid_opts go{};
    go.threads = 1;
    if (hs_circles_create(nullptr, nullptr, nullptr, nullptr, 0, &none, nullptr) == HS_OK &&
        hs_walls_create(wax.data(), way.data(), wbx.data(), wby.data(), nullptr, nullptr, k, &ws,
                        nullptr) == HS_OK) {
        go.walls = ws;
        ok = hs_grid_build(none, &go, &g) == HS_OK;
    }
    hs_walls_destroy(ws); // the grid keeps its copy
    hs_circles_destroy(none);
    qs = hs_queries_segments(ax.data(), ay.data(), dx.data(), dy.data(), m);
}

Maze::~Maze() { hs_grid_destroy(g); }

const std::vector<uint32_t> &Maze::ClosestIdx()
{
    if (!have_closest_) {
        closest_idx_.assign(m, HS_NONE);
        closest_t_.assign(m, NAN);
        std::vector<uint8_t> kind(m);
        hs_batch_opts o = hs_batch_opts_default();
        o.threads = 1;
        if (hs_grid_closest(g, &qs, &o,
                            hs_closest_out{closest_idx_.data(), closest_t_.data(), nullptr, nullptr,
                                           nullptr, nullptr, kind.data()}) != HS_OK)
            std::fprintf(stderr, "peers: hs_grid_closest (maze) failed\n");
        for (size_t i = 0; i < m; i++)
            if (closest_idx_[i] != HS_NONE && kind[i] != HS_KIND_WALL)
                std::fprintf(stderr, "peers: maze segment %zu hit a circle\n", i);
        have_closest_ = true;
    }
    return closest_idx_;
}

const std::vector<float> &Maze::ClosestT()
{
    ClosestIdx();
    return closest_t_;
}

double Maze::HitsPerQuery()
{
    size_t hits = 0;
    for (uint32_t i : ClosestIdx())
        hits += i != HS_NONE;
    return m ? (double)hits / (double)m : 0.0;
}

Maze &GetMaze(size_t k, size_t m)
{
    static std::map<std::pair<size_t, size_t>, std::unique_ptr<Maze>> cache;
    auto it = cache.find({k, m});
    if (it == cache.end())
        it = cache.emplace(std::make_pair(k, m), std::make_unique<Maze>(k, m)).first;
    return *it->second;
}

// Segment i starts on wall w: the orientation and the projection in double, exact here (the
// maze's walls have integer ends one unit apart, the starts are floats).
static bool StartsOnWall(const Maze &mz, size_t i, size_t w)
{
    const double ex = (double)mz.wbx[w] - mz.wax[w], ey = (double)mz.wby[w] - mz.way[w];
    const double px = (double)mz.ax[i] - mz.wax[w], py = (double)mz.ay[i] - mz.way[w];
    const double along = px * ex + py * ey;
    return ex * py - ey * px == 0.0 && along >= 0.0 && along <= ex * ex + ey * ey;
}

Check CheckMazeClosest(Maze &mz, const std::vector<uint32_t> &idx, const std::vector<float> &t)
{
    const std::vector<uint32_t> &ri = mz.ClosestIdx();
    const std::vector<float> &rt = mz.ClosestT();
    const double tol = 1e-3;
    Check c;
    size_t ties = 0;
    int described = 0;
    std::string tie_note;
    for (size_t i = 0; i < mz.m; i++) {
        // solid semantics: hitscan reports t = 0 on a wall the segment starts on, which
        // b2World_CastRayClosest ignores (as a circle a ray starts in)
        if (ri[i] != HS_NONE && rt[i] == 0.0f && StartsOnWall(mz, i, ri[i])) {
            c.skipped++;
            continue;
        }
        c.checked++;
        const bool ref_hit = ri[i] != HS_NONE, got_hit = idx[i] != HS_NONE;
        c.expected += ref_hit;
        c.got += got_hit;
        if (!ref_hit && !got_hit)
            continue;
        const double dt = ref_hit && got_hit ? std::fabs((double)rt[i] - (double)t[i]) : 1.0;
        if (ref_hit && got_hit && dt <= tol) {
            c.max_dt = std::max(c.max_dt, dt);
            if (idx[i] != ri[i] && ties++ < 3)
                tie_note += " segment " + std::to_string(i) + ": walls " + std::to_string(ri[i]) +
                            ", " + std::to_string(idx[i]) + ";";
            continue;
        }
        c.disagree++;
        if (described++ < 3) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "segment %zu: hitscan wall %d t %.7g, peer %d t %.7g; ",
                          i, ref_hit ? (int)ri[i] : -1, (double)rt[i], got_hit ? (int)idx[i] : -1,
                          (double)t[i]);
            c.note += buf;
        }
    }
    c.note += "ties (another wall at the same t) " + std::to_string(ties) + tie_note;
    return c;
}

void SetMazeRates(benchmark::State &state, Maze &mz)
{
    state.counters["process_threads"] = ProcessThreads();
    state.counters["queries_per_second"] =
        benchmark::Counter((double)mz.m * (double)state.iterations(), benchmark::Counter::kIsRate);
    state.counters["hits_per_query"] = mz.HitsPerQuery();
}

} // namespace peers
