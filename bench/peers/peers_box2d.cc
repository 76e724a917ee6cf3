/* SPDX-License-Identifier: MIT */
// Box2D v3 on the peers' data, as a Box2D user writes it: one static body per circle with a
// circle shape, in a world with one worker. Closest: b2World_CastRayClosest. All hits:
// b2World_CastRay with a callback that records every shape and returns 1 (go on to the end).
// Pairs: b2World_OverlapShape with each circle as the query shape; static shapes never make
// contacts with one another, so the contact begin events of a step would need every circle
// dynamic and measure a whole simulation step rather than the overlap query. Box2D accepts
// shapes within 0.1 x linear slop; the callback keeps exact overlaps with j > i, as hitscan.
// Queries run in the walk order of peers.h (Z-order by default); b2DefaultQueryFilter
// everywhere. The static tree is left as the shapes' insertion built it:
// b2World_RebuildStaticTree (marked for internal testing) gives queries no faster a tree.
// The maze of walls: one segment shape per wall on one static body, b2World_CastRayClosest;
// there the rebuilt static tree is faster, and kept.
#include "peers.h"

#include <box2d/box2d.h>

#include <cmath>
#include <map>
#include <memory>

namespace peers
{
namespace
{

b2Pos Pos(float x, float y)
{
    b2Pos p;
    p.x = x;
    p.y = y;
    return p;
}

struct World {
    b2WorldId id = b2_nullWorldId;
    std::vector<uint32_t> circle_of_shape; // shape index (index1 - 1) -> circle index
};

void Populate(const Scene &sc, World &w)
{
    b2WorldDef wd = b2DefaultWorldDef();
    wd.workerCount = 1;
    wd.capacity.staticShapeCount = (int)sc.n; // the documented hint for a known count
    wd.capacity.staticBodyCount = (int)sc.n;
    w.id = b2CreateWorld(&wd);
    w.circle_of_shape.assign(sc.n, HS_NONE);
    b2ShapeDef sd = b2DefaultShapeDef();
    for (size_t i = 0; i < sc.n; i++) {
        b2BodyDef bd = b2DefaultBodyDef(); // static
        bd.position = Pos(sc.x[i], sc.y[i]);
        b2BodyId body = b2CreateBody(w.id, &bd);
        b2Circle circle{{0.0f, 0.0f}, sc.r[i]};
        b2ShapeId shape = b2CreateCircleShape(body, &sd, &circle);
        const size_t s = (size_t)shape.index1 - 1;
        if (s >= w.circle_of_shape.size())
            w.circle_of_shape.resize(s + 1, HS_NONE);
        w.circle_of_shape[s] = (uint32_t)i;
    }
}

struct CachedWorld {
    World w;
    explicit CachedWorld(const Scene &sc) { Populate(sc, w); }
    ~CachedWorld() { b2DestroyWorld(w.id); }
    CachedWorld(const CachedWorld &) = delete;
    CachedWorld &operator=(const CachedWorld &) = delete;
};

World &Get(const Scene &sc)
{
    static std::map<const Scene *, std::unique_ptr<CachedWorld>> cache;
    auto it = cache.find(&sc);
    if (it == cache.end())
        it = cache.emplace(&sc, std::make_unique<CachedWorld>(sc)).first;
    return it->second->w;
}

void Closest(const Scene &sc, const World &w, Walk &walk, std::vector<uint32_t> &idx,
             std::vector<float> &t)
{
    const b2QueryFilter filter = b2DefaultQueryFilter();
    walk.Make(sc);
    for (size_t k = 0; k < sc.m; k++) {
        const size_t i = walk.perm[k];
        b2RayResult res = b2World_CastRayClosest(w.id, Pos(sc.ax[i], sc.ay[i]),
                                                 b2Vec2{sc.dx[i], sc.dy[i]}, filter);
        idx[i] = res.hit ? w.circle_of_shape[(size_t)res.shapeId.index1 - 1] : HS_NONE;
        t[i] = res.hit ? res.fraction : NAN;
    }
}

struct AllContext {
    const World *w;
    WalkHits *hits;
};

float CollectHit(b2ShapeId shape, b2Pos, b2Vec2, float fraction, void *user)
{
    AllContext *c = static_cast<AllContext *>(user);
    c->hits->idx.push_back(c->w->circle_of_shape[(size_t)shape.index1 - 1]);
    c->hits->t.push_back(fraction);
    return 1.0f;
}

// Hits of query i are hit_idx[offsets[i] .. offsets[i + 1]), in the order Box2D found them.
void All(const Scene &sc, const World &w, Walk &walk, WalkHits &wh, std::vector<size_t> &offsets,
         std::vector<uint32_t> &hit_idx, std::vector<float> &hit_t)
{
    const b2QueryFilter filter = b2DefaultQueryFilter();
    AllContext c{&w, &wh};
    walk.Make(sc);
    wh.off.assign(1, 0);
    wh.idx.clear();
    wh.t.clear();
    for (size_t k = 0; k < sc.m; k++) {
        const size_t i = walk.perm[k];
        b2World_CastRay(w.id, Pos(sc.ax[i], sc.ay[i]), b2Vec2{sc.dx[i], sc.dy[i]}, filter,
                        CollectHit, &c);
        wh.off.push_back(wh.idx.size());
    }
    wh.ToSegmentOrder(walk.perm, offsets, hit_idx, hit_t);
}

struct PairContext {
    const Scene *sc;
    const World *w;
    uint32_t i;
    std::vector<std::pair<uint32_t, uint32_t>> *out;
    uint64_t near = 0; // accepted by Box2D's tolerance but not overlapping exactly
};

bool CollectPair(b2ShapeId shape, void *user)
{
    PairContext *c = static_cast<PairContext *>(user);
    const uint32_t j = c->w->circle_of_shape[(size_t)shape.index1 - 1];
    if (j > c->i) {
        if (c->sc->Overlap(c->i, j))
            c->out->emplace_back(c->i, j);
        else
            c->near++;
    }
    return true;
}

uint64_t Pairs(const Scene &sc, const World &w, Walk &walk,
               std::vector<std::pair<uint32_t, uint32_t>> &out)
{
    const b2QueryFilter filter = b2DefaultQueryFilter();
    out.clear();
    PairContext c{&sc, &w, 0, &out};
    walk.Make(sc.x.data(), sc.y.data(), sc.n);
    for (size_t k = 0; k < sc.n; k++) {
        const size_t i = walk.perm[k];
        const b2Vec2 centre{sc.x[i], sc.y[i]};
        const b2ShapeProxy proxy = b2MakeProxy(&centre, 1, sc.r[i]);
        c.i = (uint32_t)i;
        b2World_OverlapShape(w.id, Pos(0.0f, 0.0f), &proxy, filter, CollectPair, &c);
    }
    return c.near;
}

bool Box2dHas(Mode mode) { return mode != Mode::Closest16; }

void RunBox2d(benchmark::State &state, Mode mode, hs_scene_kind kind, size_t n, size_t m)
{
    Scene &sc = GetScene(kind, n, m);
    if (!sc.ok) {
        state.SkipWithError("scene setup failed");
        return;
    }
    if (mode == Mode::Build) {
        for (auto _ : state) {
            World w;
            Populate(sc, w);
            state.PauseTiming();
            b2DestroyWorld(w.id);
            state.ResumeTiming();
        }
        SetRates(state, mode, sc);
        return;
    }
    const World &w = Get(sc);
    const std::string key = std::string("Box2d") + ModeName(mode) + "/" + hs_scene_kind_name(kind) +
                            "/" + std::to_string(n);
    // Outputs sized up front (hitscan's counts), so no call grows a buffer; the check reads
    // the last timed call's answers.
    std::vector<uint32_t> idx(m);
    std::vector<float> t(m);
    std::vector<size_t> offsets(m + 1);
    std::vector<uint32_t> hit_idx;
    std::vector<float> hit_t;
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    Walk walk;
    WalkHits wh;
    if (mode == Mode::All) {
        hit_idx.reserve(sc.HitsTotal() + m);
        hit_t.reserve(sc.HitsTotal() + m);
        wh.Reserve(m, sc.HitsTotal() + m);
    }
    if (mode == Mode::Pairs)
        pairs.reserve(sc.PairCount() + n);
    uint64_t near = 0;
    auto once = [&]() {
        switch (mode) {
        case Mode::Closest: Closest(sc, w, walk, idx, t); break;
        case Mode::All: All(sc, w, walk, wh, offsets, hit_idx, hit_t); break;
        default: near = Pairs(sc, w, walk, pairs);
        }
    };
    for (auto _ : state) {
        once();
        benchmark::ClobberMemory();
    }
    Check c;
    if (mode == Mode::Pairs) {
        c = CheckPairs(sc, pairs.size());
        c.note = "within Box2D's tolerance but apart " + std::to_string(near);
    } else if (mode == Mode::All) {
        c = CheckHits(sc, offsets, hit_idx);
    } else {
        c = CheckClosest(sc, idx, t);
    }
    Report(state, key, c);
    SetRates(state, mode, sc);
}

// The maze: every wall a segment shape (b2Segment, two-sided: Box2D's choice for static level
// geometry) on one static body at the origin, the world's capacity hints for k static shapes,
// the static tree rebuilt once the shapes are in (not timed).
struct MazeWorld {
    b2WorldId id = b2_nullWorldId;
    std::vector<uint32_t> wall_of_shape; // shape index (index1 - 1) -> wall index
    explicit MazeWorld(const Maze &mz)
    {
        b2WorldDef wd = b2DefaultWorldDef();
        wd.workerCount = 1;
        wd.capacity.staticShapeCount = (int)mz.k;
        wd.capacity.staticBodyCount = 1;
        id = b2CreateWorld(&wd);
        b2BodyDef bd = b2DefaultBodyDef(); // static, at the origin
        b2BodyId body = b2CreateBody(id, &bd);
        b2ShapeDef sd = b2DefaultShapeDef();
        wall_of_shape.assign(mz.k, HS_NONE);
        for (size_t i = 0; i < mz.k; i++) {
            const b2Segment seg{{mz.wax[i], mz.way[i]}, {mz.wbx[i], mz.wby[i]}};
            const b2ShapeId shape = b2CreateSegmentShape(body, &sd, &seg);
            const size_t s = (size_t)shape.index1 - 1;
            if (s >= wall_of_shape.size())
                wall_of_shape.resize(s + 1, HS_NONE);
            wall_of_shape[s] = (uint32_t)i;
        }
        // Box2D never rebuilds its static tree by itself; for these segments the tree their
        // insertion built answers rays 1.3x slower than a rebuilt one (for the circles, no
        // difference), so the level is set up with the faster tree, as a user would.
        b2World_RebuildStaticTree(id);
    }
    ~MazeWorld() { b2DestroyWorld(id); }
    MazeWorld(const MazeWorld &) = delete;
    MazeWorld &operator=(const MazeWorld &) = delete;
};

// b2World_CastRayClosest per segment, in the walk order (the Z-order made inside the call, as
// for the other scenes), the answers written back in the segments' order.
void RunBox2dMaze(benchmark::State &state, size_t k, size_t m)
{
    Maze &mz = GetMaze(k, m);
    if (!mz.ok) {
        state.SkipWithError("maze setup failed");
        return;
    }
    static std::map<const Maze *, std::unique_ptr<MazeWorld>> cache;
    auto it = cache.find(&mz);
    if (it == cache.end())
        it = cache.emplace(&mz, std::make_unique<MazeWorld>(mz)).first;
    const MazeWorld &w = *it->second;
    const b2QueryFilter filter = b2DefaultQueryFilter();
    std::vector<uint32_t> idx(m);
    std::vector<float> t(m);
    Walk walk;
    for (auto _ : state) {
        walk.Make(mz);
        for (size_t j = 0; j < m; j++) {
            const size_t i = walk.perm[j];
            const b2RayResult res = b2World_CastRayClosest(w.id, Pos(mz.ax[i], mz.ay[i]),
                                                           b2Vec2{mz.dx[i], mz.dy[i]}, filter);
            idx[i] = res.hit ? w.wall_of_shape[(size_t)res.shapeId.index1 - 1] : HS_NONE;
            t[i] = res.hit ? res.fraction : NAN;
        }
        benchmark::ClobberMemory();
    }
    Report(state, "Box2dClosest/maze/" + std::to_string(k), CheckMazeClosest(mz, idx, t));
    SetMazeRates(state, mz);
}

} // namespace

const Library kBox2d{"Box2d", Box2dHas, RunBox2d, RunBox2dMaze};

} // namespace peers
