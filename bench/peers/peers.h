/* SPDX-License-Identifier: MIT */
// hitscan_peers: the same queries on hitscan's scenes through hitscan, Embree 3 and Box2D v3.
// Shared here: the scene (circles, segments) with hitscan's answers as the reference every peer
// is checked against, the modes, and the interface each library's file implements.
#ifndef HITSCAN_BENCH_PEERS_H
#define HITSCAN_BENCH_PEERS_H

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hitscan/grid.h"
#include "hitscan/scene.h"

namespace peers
{

// Closest16: closest hit with 16-ray packets (Embree's rtcIntersect16). Build: the acceleration
// structure from circles already in memory.
enum class Mode { Closest, Closest16, All, Pairs, Build };
const char *ModeName(Mode mode);
bool ModeUsesQueries(Mode mode); // Closest, Closest16, All: M segments; Pairs, Build: circles only

// One scene of hitscan/scene.h, generated once per process, with hitscan's answers (one
// thread): the reference of every check.
struct Scene {
    hs_scene_kind kind = HS_SCENE_INVALID;
    size_t n = 0, m = 0;
    std::vector<float> x, y, r, ax, ay, dx, dy;
    float rmax = 0.0f;
    hs_circles *cs = nullptr;
    hs_grid *g = nullptr;
    hs_queries qs{};
    bool ok = false;

    Scene(hs_scene_kind kind, size_t n, size_t m);
    ~Scene();
    Scene(const Scene &) = delete;
    Scene &operator=(const Scene &) = delete;

    // Reference answers, computed on first use.
    const std::vector<uint32_t> &ClosestIdx();
    const std::vector<float> &ClosestT();
    const std::vector<uint32_t> &HitCounts();
    const std::vector<uint8_t> &StartsInside(); // segment start in some closed disc
    uint64_t HitsTotal();
    size_t PairCount();
    double HitsPerQuery() { return m ? (double)HitsTotal() / (double)m : 0.0; }
    // The exact overlap test of hs_grid_pairs: (xi - xj)^2 + (yi - yj)^2 <= (ri + rj)^2 in double.
    bool Overlap(size_t i, size_t j) const;
    // Segment i's start lies in the closed disc of circle c.
    bool StartInside(size_t i, size_t c) const;

  private:
    std::vector<uint32_t> closest_idx_, hit_counts_;
    std::vector<float> closest_t_;
    std::vector<uint8_t> starts_inside_;
    bool have_closest_ = false, have_counts_ = false, have_inside_ = false, have_pairs_ = false;
    size_t pairs_ = 0;
};

// The shared scene of (kind, n, m); m = 0 for the circles-only modes.
Scene &GetScene(hs_scene_kind kind, size_t n, size_t m);

// The order in which a peer runs its queries. hitscan's calls run a large batch in the Z-order
// of its start cells (made inside the call) and its pairs cell by cell, so the peers are given
// the same: ZOrder (the default) runs segments in the Z-order of their starts and per-circle
// queries in that of the centres, made inside every timed call; Given runs them as stored
// (uniformly random places), which costs a tree cache misses on most steps.
enum class Order { ZOrder, Given };
Order QueryOrder();
void SetQueryOrder(Order order);
const char *OrderName(Order order);

// The walls benchmark's maze (bench/walls_maze.h, as BM_GridClosestWalls/maze: k walls from
// seed 1, m segments from seed 3, no circles), with hitscan's closest answers on a grid of the
// walls alone (one thread): the reference of the peers' maze checks.
struct Maze {
    size_t k = 0, m = 0;
    std::vector<float> wax, way, wbx, wby, ax, ay, dx, dy;
    hs_grid *g = nullptr;
    hs_queries qs{};
    bool ok = false;

    Maze(size_t k, size_t m);
    ~Maze();
    Maze(const Maze &) = delete;
    Maze &operator=(const Maze &) = delete;

    const std::vector<uint32_t> &ClosestIdx(); // wall index, HS_NONE on a miss
    const std::vector<float> &ClosestT();
    double HitsPerQuery(); // segments that hit a wall, per segment

  private:
    std::vector<uint32_t> closest_idx_;
    std::vector<float> closest_t_;
    bool have_closest_ = false;
};
Maze &GetMaze(size_t k, size_t m);

// Walk order of m points under QueryOrder(): perm[k] is the k-th to run. The buffers are kept
// from call to call, as a caller's frame loop would keep them.
class Walk
{
  public:
    std::vector<uint32_t> perm;
    void Make(const float *x, const float *y, size_t m);
    void Make(const Scene &sc) { Make(sc.ax.data(), sc.ay.data(), sc.m); } // segment starts
    void Make(const Maze &mz) { Make(mz.ax.data(), mz.ay.data(), mz.m); }

  private:
    std::vector<uint64_t> keys_, tmp_;
};

// All hits gathered in walk order (run k, walk_off[k] .. walk_off[k + 1], belongs to segment
// perm[k]) copied to CSR in the segments' order, as hitscan returns them.
struct WalkHits {
    std::vector<size_t> off;
    std::vector<uint32_t> idx;
    std::vector<float> t;
    void Reserve(size_t m, size_t hits);
    void ToSegmentOrder(const std::vector<uint32_t> &perm, std::vector<size_t> &offsets,
                        std::vector<uint32_t> &hit_idx, std::vector<float> &hit_t) const;
};

// How a peer's answers compare with hitscan's. Printed once per (library, mode, scene) on
// stderr and attached to every run as counters, so a disagreement shows in the JSON too.
struct Check {
    size_t checked = 0;    // queries (or pairs) compared
    size_t disagree = 0;   // queries whose answer differs beyond the tolerance
    size_t skipped = 0;    // closest: segments starting inside a circle (semantics differ)
    double max_dt = 0.0;   // closest: largest |t - t_hitscan| among agreeing hits
    uint64_t got = 0;      // all: hits found; pairs: pairs found
    uint64_t expected = 0; // the same from hitscan
    std::string note;
};
// Closest: index and t (|dt| <= 1e-3, and a different index at the same t is a tie, not a
// disagreement) on every segment that does not start inside a circle.
Check CheckClosest(Scene &sc, const std::vector<uint32_t> &idx, const std::vector<float> &t);
// All: hit count per segment. With the peer's hits (CSR, as the peers' All returns them) the
// note names the first few differing segments and, for each circle found by one side only,
// how far the segment passes from its rim (in double: negative inside).
Check CheckCounts(Scene &sc, const std::vector<uint32_t> &counts);
Check CheckHits(Scene &sc, const std::vector<size_t> &offsets, const std::vector<uint32_t> &idx);
// Pairs: the number of overlapping pairs (each peer filters to exact overlaps as hitscan does).
Check CheckPairs(Scene &sc, uint64_t pairs);
// Maze closest: hit or miss, and |t - t_hitscan| <= 1e-3 on a hit, on every segment but those
// starting on a wall (skipped: hitscan's solid semantics answers t = 0 there, Box2D's ray
// ignores the wall). A hit on another wall at the same t (a corner where walls meet) is a
// tie, named in note, not a disagreement; the note names the first few disagreeing segments.
Check CheckMazeClosest(Maze &mz, const std::vector<uint32_t> &idx, const std::vector<float> &t);
// Prints the check once per key and sets its counters on state.
void Report(benchmark::State &state, const std::string &key, const Check &c);

// Rates like hitscan_bench's: queries_per_second for query modes, circles_per_second for
// Pairs and Build, plus hits_per_query / pairs_per_circle.
void SetRates(benchmark::State &state, Mode mode, Scene &sc);
// Threads of the process (Linux; 0 elsewhere): 1 shows that no library ran work on a pool.
int ProcessThreads();
// The maze's: queries_per_second, hits_per_query (segments hitting a wall), process_threads.
void SetMazeRates(benchmark::State &state, Maze &mz);

// One library: which modes it has and the benchmark body for (mode, kind, n, m); maze: closest
// on the maze of k walls (BM_Peer<name>Closest/maze/<k>/<m>), nullptr without walls.
struct Library {
    const char *name; // as in BM_Peer<name><Mode>
    bool (*has)(Mode);
    void (*run)(benchmark::State &, Mode, hs_scene_kind, size_t n, size_t m);
    void (*maze)(benchmark::State &, size_t k, size_t m);
};
extern const Library kHitscan;
#ifdef HS_PEERS_EMBREE
extern const Library kEmbree;
#endif
#ifdef HS_PEERS_BOX2D
extern const Library kBox2d;
#endif

} // namespace peers

#endif
