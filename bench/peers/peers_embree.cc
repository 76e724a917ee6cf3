/* SPDX-License-Identifier: MIT */
// Embree 3 on the peers' data. Circles are RTC_GEOMETRY_TYPE_SPHERE_POINT spheres at z = 0 and a
// segment a -> a + d is a ray with org (a, 0), dir (d, 0), tnear 0, tfar 1: in the plane z = 0
// a sphere is its circle, so the hits are the circle's. Pairs use rtcCollide, which takes user
// geometries only: a second scene of user primitives whose bounds are the circles' boxes, the
// callback keeping exact overlaps. One thread: the device is made with "threads=1".
// Set up as Embree's guide asks: flush-to-zero and denormals-are-zero while tracing, org/tnear
// and dir/time written as vectors, rays run in the walk order of peers.h (Z-order by default, so
// a 16-ray packet holds neighbours), default build quality and context flags (for spheres,
// RTC_BUILD_QUALITY_HIGH builds the same BVH, and the coherent flag gains nothing on segments of
// random directions).
#include "peers.h"

#include <embree3/rtcore.h>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define PEERS_HAVE_SSE 1
#endif

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <tuple>

namespace peers
{
namespace
{

RTCDevice Device()
{
    static RTCDevice device = rtcNewDevice("threads=1");
    return device;
}

struct Embree {
    Scene &sc;
    std::vector<float> xyzr;     // x, y, 0, r per sphere: the vertex buffer, shared with Embree
    RTCScene spheres = nullptr;  // for the rays
    RTCScene filtered = nullptr; // the same, accepting a context filter (all hits)
    RTCScene boxes = nullptr;    // user geometry, for rtcCollide
    explicit Embree(Scene &s);
    ~Embree()
    {
        if (spheres)
            rtcReleaseScene(spheres);
        if (filtered)
            rtcReleaseScene(filtered);
        if (boxes)
            rtcReleaseScene(boxes);
    }
    Embree(const Embree &) = delete;
    Embree &operator=(const Embree &) = delete;
};

RTCScene BuildSpheres(Scene &sc, std::vector<float> &xyzr,
                      RTCSceneFlags flags = RTC_SCENE_FLAG_NONE)
{
    RTCScene scene = rtcNewScene(Device());
    rtcSetSceneFlags(scene, flags);
    RTCGeometry geom = rtcNewGeometry(Device(), RTC_GEOMETRY_TYPE_SPHERE_POINT);
    rtcSetSharedGeometryBuffer(geom, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT4, xyzr.data(), 0,
                               4 * sizeof(float), sc.n);
    rtcSetGeometryUserData(geom, &sc);
    rtcCommitGeometry(geom);
    rtcAttachGeometry(scene, geom);
    rtcReleaseGeometry(geom);
    rtcCommitScene(scene);
    return scene;
}

void CircleBounds(const RTCBoundsFunctionArguments *args)
{
    const Scene &sc = *static_cast<const Scene *>(args->geometryUserPtr);
    const unsigned i = args->primID;
    RTCBounds *b = args->bounds_o;
    b->lower_x = sc.x[i] - sc.r[i];
    b->lower_y = sc.y[i] - sc.r[i];
    b->lower_z = 0.0f;
    b->upper_x = sc.x[i] + sc.r[i];
    b->upper_y = sc.y[i] + sc.r[i];
    b->upper_z = 0.0f;
}

// Never called (pairs cast no rays), but a user geometry is incomplete without it.
void NoIntersect(const RTCIntersectFunctionNArguments *) {}

RTCScene BuildBoxes(Scene &sc)
{
    RTCScene scene = rtcNewScene(Device());
    RTCGeometry geom = rtcNewGeometry(Device(), RTC_GEOMETRY_TYPE_USER);
    rtcSetGeometryUserPrimitiveCount(geom, (unsigned)sc.n);
    rtcSetGeometryUserData(geom, &sc);
    rtcSetGeometryBoundsFunction(geom, CircleBounds, &sc);
    rtcSetGeometryIntersectFunction(geom, NoIntersect);
    rtcCommitGeometry(geom);
    rtcAttachGeometry(scene, geom);
    rtcReleaseGeometry(geom);
    rtcCommitScene(scene);
    return scene;
}

Embree::Embree(Scene &s) : sc(s), xyzr(4 * s.n + 4)
{
    for (size_t i = 0; i < sc.n; i++) {
        xyzr[4 * i] = sc.x[i];
        xyzr[4 * i + 1] = sc.y[i];
        xyzr[4 * i + 2] = 0.0f;
        xyzr[4 * i + 3] = sc.r[i];
    }
    spheres = BuildSpheres(sc, xyzr);
    filtered = BuildSpheres(sc, xyzr, RTC_SCENE_FLAG_CONTEXT_FILTER_FUNCTION);
    boxes = BuildBoxes(sc);
}

Embree &Get(Scene &sc)
{
    static std::map<const Scene *, std::unique_ptr<Embree>> cache;
    auto it = cache.find(&sc);
    if (it == cache.end())
        it = cache.emplace(&sc, std::make_unique<Embree>(sc)).first;
    return *it->second;
}

// Segment i as a ray in the plane z = 0, t in [0, 1], no hit yet. Embree reads (org, tnear)
// and (dir, time) as 4-float vectors: one vector store each, as its guide asks, so the loads do
// not wait on four scalar stores.
void SegmentRay(const Scene &sc, size_t i, RTCRayHit &rh)
{
#ifdef PEERS_HAVE_SSE
    _mm_store_ps(&rh.ray.org_x, _mm_setr_ps(sc.ax[i], sc.ay[i], 0.0f, 0.0f));
    _mm_store_ps(&rh.ray.dir_x, _mm_setr_ps(sc.dx[i], sc.dy[i], 0.0f, 0.0f));
#else
    rh.ray.org_x = sc.ax[i];
    rh.ray.org_y = sc.ay[i];
    rh.ray.org_z = 0.0f;
    rh.ray.tnear = 0.0f;
    rh.ray.dir_x = sc.dx[i];
    rh.ray.dir_y = sc.dy[i];
    rh.ray.dir_z = 0.0f;
    rh.ray.time = 0.0f;
#endif
    rh.ray.tfar = 1.0f;
    rh.ray.mask = ~0u;
    rh.ray.id = 0;
    rh.ray.flags = 0;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
}

void Closest1(const Embree &e, Walk &w, std::vector<uint32_t> &idx, std::vector<float> &t)
{
    const Scene &sc = e.sc;
    RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    w.Make(sc);
    for (size_t k = 0; k < sc.m; k++) {
        const size_t i = w.perm[k];
        RTCRayHit rh;
        SegmentRay(sc, i, rh);
        rtcIntersect1(e.spheres, &ctx, &rh);
        const bool hit = rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
        idx[i] = hit ? rh.hit.primID : HS_NONE;
        t[i] = hit ? rh.ray.tfar : NAN;
    }
}

// Packets of 16 segments consecutive in the walk order (the Z-order by default: neighbours).
void Closest16(const Embree &e, Walk &w, std::vector<uint32_t> &idx, std::vector<float> &t)
{
    const Scene &sc = e.sc;
    RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    w.Make(sc);
    for (size_t base = 0; base < sc.m; base += 16) {
        alignas(64) RTCRayHit16 rh;
        alignas(64) int valid[16];
        for (size_t k = 0; k < 16; k++) {
            const size_t i = w.perm[base + k < sc.m ? base + k : base];
            valid[k] = base + k < sc.m ? -1 : 0;
            rh.ray.org_x[k] = sc.ax[i];
            rh.ray.org_y[k] = sc.ay[i];
            rh.ray.org_z[k] = 0.0f;
            rh.ray.dir_x[k] = sc.dx[i];
            rh.ray.dir_y[k] = sc.dy[i];
            rh.ray.dir_z[k] = 0.0f;
            rh.ray.tnear[k] = 0.0f;
            rh.ray.tfar[k] = 1.0f;
            rh.ray.time[k] = 0.0f;
            rh.ray.mask[k] = ~0u;
            rh.ray.id[k] = (unsigned)k;
            rh.ray.flags[k] = 0;
            rh.hit.geomID[k] = RTC_INVALID_GEOMETRY_ID;
            rh.hit.instID[0][k] = RTC_INVALID_GEOMETRY_ID;
        }
        rtcIntersect16(valid, e.spheres, &ctx, &rh);
        for (size_t k = 0; k < 16 && base + k < sc.m; k++) {
            const size_t i = w.perm[base + k];
            const bool hit = rh.hit.geomID[k] != RTC_INVALID_GEOMETRY_ID;
            idx[i] = hit ? rh.hit.primID[k] : HS_NONE;
            t[i] = hit ? rh.ray.tfar[k] : NAN;
        }
    }
}

// All hits: the intersection filter records every hit and rejects it, so traversal goes on to
// the ray's end. A sphere reports its entry and then its exit; a circle counts once: at its
// entry, or at its exit when the segment starts inside it. A segment lying wholly inside a
// circle meets neither surface, so Embree does not report that circle (hitscan does).
struct AllContext {
    RTCIntersectContext ctx; // first: Embree hands the filter this pointer back
    const Scene *sc;
    size_t query;
    WalkHits *hits;
};

void CollectHit(const RTCFilterFunctionNArguments *args)
{
    AllContext *c = reinterpret_cast<AllContext *>(args->context);
    args->valid[0] = 0; // reject: keep traversing
    const unsigned prim = RTCHitN_primID(args->hit, args->N, 0);
    const float ngx = RTCHitN_Ng_x(args->hit, args->N, 0),
                ngy = RTCHitN_Ng_y(args->hit, args->N, 0);
    const size_t q = c->query;
    const bool entry = ngx * c->sc->dx[q] + ngy * c->sc->dy[q] < 0.0f;
    if (!entry && !c->sc->StartInside(q, prim))
        return;
    c->hits->idx.push_back(prim);
    c->hits->t.push_back(RTCRayN_tfar(args->ray, args->N, 0));
}

// Hits of query i are hit_idx[offsets[i] .. offsets[i + 1]), in the order Embree found them.
void All(const Embree &e, Walk &w, WalkHits &wh, std::vector<size_t> &offsets,
         std::vector<uint32_t> &hit_idx, std::vector<float> &hit_t)
{
    const Scene &sc = e.sc;
    AllContext c;
    rtcInitIntersectContext(&c.ctx);
    c.ctx.filter = CollectHit;
    c.sc = &sc;
    c.hits = &wh;
    w.Make(sc);
    wh.off.assign(1, 0);
    wh.idx.clear();
    wh.t.clear();
    for (size_t k = 0; k < sc.m; k++) {
        c.query = w.perm[k];
        RTCRayHit rh;
        SegmentRay(sc, c.query, rh);
        rtcIntersect1(e.filtered, &c.ctx, &rh);
        wh.off.push_back(wh.idx.size());
    }
    wh.ToSegmentOrder(w.perm, offsets, hit_idx, hit_t);
}

// rtcCollide of the box scene with itself hands over candidate primitive pairs (boxes
// overlapping); the callback keeps i < j with exact disc overlap. Self pairs and the mirrored
// (j, i) are counted to say how Embree reports a scene collided with itself.
struct PairContext {
    const Scene *sc;
    std::vector<std::pair<uint32_t, uint32_t>> *out;
    uint64_t mirrored = 0, self = 0;
};

void CollectPairs(void *user, RTCCollision *col, unsigned num)
{
    PairContext *c = static_cast<PairContext *>(user);
    for (unsigned k = 0; k < num; k++) {
        const uint32_t i = col[k].primID0, j = col[k].primID1;
        if (i < j) {
            if (c->sc->Overlap(i, j))
                c->out->emplace_back(i, j);
        } else if (i == j) {
            c->self++;
        } else if (c->sc->Overlap(i, j)) {
            c->mirrored++;
        }
    }
}

PairContext Pairs(const Embree &e, std::vector<std::pair<uint32_t, uint32_t>> &out)
{
    out.clear();
    PairContext c{&e.sc, &out};
    rtcCollide(e.boxes, e.boxes, CollectPairs, &c);
    return c;
}

// Of the all-hits disagreements, those where Embree found exactly hitscan's circles less the
// ones containing the whole segment (both ends in the disc): spheres report surface
// crossings. These are taken out of c.disagree and named in the note.
void ExplainContained(Scene &sc, const std::vector<size_t> &offsets, Check &c)
{
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = 1;
    hs_hits h;
    if (c.disagree == 0 || hs_grid_all(sc.g, &sc.qs, &o, &h) != HS_OK)
        return;
    size_t explained = 0;
    uint64_t contained_total = 0;
    for (size_t i = 0; i < sc.m; i++) {
        const size_t got = offsets[i + 1] - offsets[i];
        if (got == h.offsets[i + 1] - h.offsets[i])
            continue;
        size_t contained = 0;
        for (size_t k = h.offsets[i]; k < h.offsets[i + 1]; k++) {
            const size_t ci = h.idx[k];
            const double ex = (double)sc.ax[i] + (double)sc.dx[i] - (double)sc.x[ci];
            const double ey = (double)sc.ay[i] + (double)sc.dy[i] - (double)sc.y[ci];
            contained +=
                sc.StartInside(i, ci) && ex * ex + ey * ey <= (double)sc.r[ci] * (double)sc.r[ci];
        }
        if (got + contained == h.offsets[i + 1] - h.offsets[i]) {
            explained++;
            contained_total += contained;
        }
    }
    hs_hits_free(&h);
    c.disagree -= explained;
    if (explained)
        c.note += std::to_string(explained) + " queries differ only by " +
                  std::to_string(contained_total) +
                  " circles that contain the whole segment (no surface crossed): not counted above";
}

bool EmbreeHas(Mode) { return true; }

// Embree asks its callers to set flush-to-zero and denormals-are-zero on every thread that
// traces (it warns otherwise); set for Embree's benchmarks alone, the caller's mode restored.
struct FlushDenormals {
#ifdef PEERS_HAVE_SSE
    unsigned saved = _mm_getcsr();
    FlushDenormals() { _mm_setcsr(saved | 0x8040u); } // FTZ (bit 15) | DAZ (bit 6)
    ~FlushDenormals() { _mm_setcsr(saved); }
#endif
};

void RunEmbree(benchmark::State &state, Mode mode, hs_scene_kind kind, size_t n, size_t m)
{
    FlushDenormals ftz;
    Scene &sc = GetScene(kind, n, m);
    if (!sc.ok) {
        state.SkipWithError("scene setup failed");
        return;
    }
    if (mode == Mode::Build) {
        Embree &e = Get(sc);
        for (auto _ : state) {
            RTCScene s = BuildSpheres(sc, e.xyzr);
            state.PauseTiming();
            rtcReleaseScene(s);
            state.ResumeTiming();
        }
        SetRates(state, mode, sc);
        return;
    }
    Embree &e = Get(sc);
    if (rtcGetDeviceError(Device()) != RTC_ERROR_NONE) {
        state.SkipWithError("Embree error");
        return;
    }
    const std::string key = std::string("Embree") + ModeName(mode) + "/" +
                            hs_scene_kind_name(kind) + "/" + std::to_string(n);
    // Outputs sized up front (hitscan's counts), so no call grows a buffer; the check reads
    // the last timed call's answers.
    std::vector<uint32_t> idx(m);
    std::vector<float> t(m);
    std::vector<size_t> offsets(m + 1);
    std::vector<uint32_t> hit_idx;
    std::vector<float> hit_t;
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    Walk w;
    WalkHits wh;
    if (mode == Mode::All) {
        hit_idx.reserve(sc.HitsTotal() + m);
        hit_t.reserve(sc.HitsTotal() + m);
        wh.Reserve(m, sc.HitsTotal() + m);
    }
    if (mode == Mode::Pairs)
        pairs.reserve(sc.PairCount() + n);
    PairContext pc{};
    auto once = [&]() {
        switch (mode) {
        case Mode::Closest: Closest1(e, w, idx, t); break;
        case Mode::Closest16: Closest16(e, w, idx, t); break;
        case Mode::All: All(e, w, wh, offsets, hit_idx, hit_t); break;
        default: pc = Pairs(e, pairs);
        }
    };
    for (auto _ : state) {
        once();
        benchmark::ClobberMemory();
    }
    Check c;
    if (mode == Mode::Pairs) {
        c = CheckPairs(sc, pairs.size());
        c.note = "self pairs " + std::to_string(pc.self) + ", mirrored overlaps " +
                 std::to_string(pc.mirrored);
    } else if (mode == Mode::All) {
        c = CheckHits(sc, offsets, hit_idx);
        ExplainContained(sc, offsets, c);
    } else {
        c = CheckClosest(sc, idx, t);
    }
    Report(state, key, c);
    SetRates(state, mode, sc);
}

} // namespace

const Library kEmbree{"Embree", EmbreeHas, RunEmbree, nullptr}; // no segment primitive

} // namespace peers
