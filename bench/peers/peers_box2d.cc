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

} // namespace

const Library kBox2d{"Box2d", Box2dHas, RunBox2d};

} // namespace peers
