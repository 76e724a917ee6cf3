/* SPDX-License-Identifier: MIT */
// The shared scenes, hitscan's reference answers and the checks of every peer against them.
#include "peers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <tuple>

namespace peers
{

const char *ModeName(Mode mode)
{
    switch (mode) {
    case Mode::Closest: return "Closest";
    case Mode::Closest16: return "Closest16";
    case Mode::All: return "All";
    case Mode::Pairs: return "Pairs";
    default: return "Build";
    }
}

bool ModeUsesQueries(Mode mode)
{
    return mode == Mode::Closest || mode == Mode::Closest16 || mode == Mode::All;
}

Scene::Scene(hs_scene_kind kind_, size_t n_, size_t m_)
    : kind(kind_), n(n_), m(m_), x(n_), y(n_), r(n_), ax(m_), ay(m_), dx(m_), dy(m_)
{
    hs_grid_opts go{};
    go.threads = 1;
    if (hs_scene_circles(kind, n, 1, x.data(), y.data(), r.data()) != HS_OK ||
        hs_scene_segments(kind, n, m, 2, ax.data(), ay.data(), dx.data(), dy.data()) != HS_OK ||
        hs_circles_create(x.data(), y.data(), r.data(), nullptr, n, &cs, nullptr) != HS_OK ||
        hs_grid_build(cs, &go, &g) != HS_OK)
        return;
    qs = hs_queries_segments(ax.data(), ay.data(), dx.data(), dy.data(), m);
    for (float ri : r)
        rmax = std::max(rmax, ri);
    ok = true;
}

Scene::~Scene()
{
    hs_grid_destroy(g);
    hs_circles_destroy(cs);
}

static hs_batch_opts OneThread()
{
    hs_batch_opts o = hs_batch_opts_default();
    o.threads = 1;
    return o;
}

const std::vector<uint32_t> &Scene::ClosestIdx()
{
    if (!have_closest_) {
        closest_idx_.assign(m, HS_NONE);
        closest_t_.assign(m, NAN);
        hs_batch_opts o = OneThread();
        if (hs_grid_closest(g, &qs, &o,
                            hs_closest_out{closest_idx_.data(), closest_t_.data(), nullptr, nullptr,
                                           nullptr, nullptr, NULL}) != HS_OK)
            std::fprintf(stderr, "peers: hs_grid_closest failed\n");
        have_closest_ = true;
    }
    return closest_idx_;
}

const std::vector<float> &Scene::ClosestT()
{
    ClosestIdx();
    return closest_t_;
}

const std::vector<uint32_t> &Scene::HitCounts()
{
    if (!have_counts_) {
        hit_counts_.assign(m, 0);
        hs_batch_opts o = OneThread();
        if (hs_grid_count_hits(g, &qs, &o, hit_counts_.data()) != HS_OK)
            std::fprintf(stderr, "peers: hs_grid_count_hits failed\n");
        have_counts_ = true;
    }
    return hit_counts_;
}

uint64_t Scene::HitsTotal()
{
    uint64_t total = 0;
    for (uint32_t c : HitCounts())
        total += c;
    return total;
}

const std::vector<uint8_t> &Scene::StartsInside()
{
    if (!have_inside_) {
        starts_inside_.assign(m, 0);
        for (size_t i = 0; i < m; i++) {
            size_t found = 0;
            uint32_t idx;
            hs_grid_overlap_circle(g, hs_circle{ax[i], ay[i], 0.0f}, UINT32_MAX, &idx, 1, &found);
            starts_inside_[i] = found > 0;
        }
        have_inside_ = true;
    }
    return starts_inside_;
}

size_t Scene::PairCount()
{
    if (!have_pairs_) {
        hs_batch_opts o = OneThread();
        hs_pairs p;
        if (hs_grid_pairs(g, &o, &p) == HS_OK)
            pairs_ = p.count;
        else
            std::fprintf(stderr, "peers: hs_grid_pairs failed\n");
        hs_pairs_free(&p);
        have_pairs_ = true;
    }
    return pairs_;
}

bool Scene::Overlap(size_t i, size_t j) const
{
    const double ddx = (double)x[i] - (double)x[j], ddy = (double)y[i] - (double)y[j];
    const double rr = (double)r[i] + (double)r[j];
    return ddx * ddx + ddy * ddy <= rr * rr;
}

bool Scene::StartInside(size_t i, size_t c) const
{
    const double ddx = (double)ax[i] - (double)x[c], ddy = (double)ay[i] - (double)y[c];
    return ddx * ddx + ddy * ddy <= (double)r[c] * (double)r[c];
}

Scene &GetScene(hs_scene_kind kind, size_t n, size_t m)
{
    static std::map<std::tuple<int, size_t, size_t>, std::unique_ptr<Scene>> cache;
    auto key = std::make_tuple((int)kind, n, m);
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.emplace(key, std::make_unique<Scene>(kind, n, m)).first;
    return *it->second;
}

static Order g_order = Order::ZOrder;
Order QueryOrder() { return g_order; }
void SetQueryOrder(Order order) { g_order = order; }
const char *OrderName(Order order) { return order == Order::ZOrder ? "zorder" : "given"; }

// The 16 low bits of v spread to the even bits of the result.
static uint32_t Spread16(uint32_t v)
{
    v &= 0xffffu;
    v = (v | (v << 8)) & 0x00ff00ffu;
    v = (v | (v << 4)) & 0x0f0f0f0fu;
    v = (v | (v << 2)) & 0x33333333u;
    return (v | (v << 1)) & 0x55555555u;
}

// Points quantised to 2^16 steps per axis over their bounding box; key = Z code << 32 | index,
// sorted by a least-significant-digit radix sort on the code's four bytes (stable, so equal
// codes keep the stored order).
void Walk::Make(const float *x, const float *y, size_t m)
{
    perm.resize(m);
    if (QueryOrder() == Order::Given) {
        for (size_t i = 0; i < m; i++)
            perm[i] = (uint32_t)i;
        return;
    }
    float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (size_t i = 0; i < m; i++) {
        x0 = std::min(x0, x[i]);
        x1 = std::max(x1, x[i]);
        y0 = std::min(y0, y[i]);
        y1 = std::max(y1, y[i]);
    }
    const float sx = x1 > x0 ? 65535.0f / (x1 - x0) : 0.0f;
    const float sy = y1 > y0 ? 65535.0f / (y1 - y0) : 0.0f;
    keys_.resize(m);
    tmp_.resize(m);
    size_t count[4][256] = {};
    for (size_t i = 0; i < m; i++) {
        const uint32_t code =
            Spread16((uint32_t)((x[i] - x0) * sx)) | Spread16((uint32_t)((y[i] - y0) * sy)) << 1;
        keys_[i] = (uint64_t)code << 32 | i;
        for (int d = 0; d < 4; d++)
            count[d][(code >> (8 * d)) & 0xffu]++;
    }
    for (int d = 0; d < 4; d++) {
        size_t sum = 0;
        for (size_t &c : count[d]) {
            const size_t here = c;
            c = sum;
            sum += here;
        }
        for (size_t i = 0; i < m; i++)
            tmp_[count[d][(keys_[i] >> (32 + 8 * d)) & 0xffu]++] = keys_[i];
        keys_.swap(tmp_);
    }
    for (size_t i = 0; i < m; i++)
        perm[i] = (uint32_t)keys_[i];
}

void WalkHits::Reserve(size_t m, size_t hits)
{
    off.reserve(m + 1);
    idx.reserve(hits);
    t.reserve(hits);
}

void WalkHits::ToSegmentOrder(const std::vector<uint32_t> &perm, std::vector<size_t> &offsets,
                              std::vector<uint32_t> &hit_idx, std::vector<float> &hit_t) const
{
    const size_t m = perm.size();
    offsets.assign(m + 1, 0);
    for (size_t k = 0; k < m; k++)
        offsets[perm[k] + 1] = off[k + 1] - off[k];
    for (size_t i = 0; i < m; i++)
        offsets[i + 1] += offsets[i];
    hit_idx.resize(idx.size());
    hit_t.resize(t.size());
    for (size_t k = 0; k < m; k++) {
        const size_t to = offsets[perm[k]];
        std::copy(idx.begin() + (long)off[k], idx.begin() + (long)off[k + 1],
                  hit_idx.begin() + (long)to);
        std::copy(t.begin() + (long)off[k], t.begin() + (long)off[k + 1], hit_t.begin() + (long)to);
    }
}

Check CheckClosest(Scene &sc, const std::vector<uint32_t> &idx, const std::vector<float> &t)
{
    const std::vector<uint32_t> &ri = sc.ClosestIdx();
    const std::vector<float> &rt = sc.ClosestT();
    const std::vector<uint8_t> &inside = sc.StartsInside();
    const double tol = 1e-3;
    Check c;
    for (size_t i = 0; i < sc.m; i++) {
        if (inside[i]) {
            c.skipped++;
            continue;
        }
        c.checked++;
        const bool ref_hit = ri[i] != HS_NONE, got_hit = idx[i] != HS_NONE;
        if (ref_hit)
            c.expected++;
        if (got_hit)
            c.got++;
        if (!ref_hit && !got_hit)
            continue;
        const double dt = ref_hit && got_hit ? std::fabs((double)rt[i] - (double)t[i]) : 1.0;
        if (ref_hit && got_hit && dt <= tol) // same circle, or a tie at the same t
            c.max_dt = std::max(c.max_dt, dt);
        else
            c.disagree++;
    }
    return c;
}

Check CheckCounts(Scene &sc, const std::vector<uint32_t> &counts)
{
    const std::vector<uint32_t> &ref = sc.HitCounts();
    Check c;
    for (size_t i = 0; i < sc.m; i++) {
        c.checked++;
        c.expected += ref[i];
        c.got += counts[i];
        c.disagree += ref[i] != counts[i];
    }
    return c;
}

// Distance from segment q to circle c's rim in double (negative: the segment enters the disc).
static double RimGap(const Scene &sc, size_t q, size_t c)
{
    const double ax = sc.ax[q], ay = sc.ay[q], dx = sc.dx[q], dy = sc.dy[q];
    const double cx = sc.x[c] - ax, cy = sc.y[c] - ay;
    const double dd = dx * dx + dy * dy;
    const double t = dd > 0 ? std::min(1.0, std::max(0.0, (cx * dx + cy * dy) / dd)) : 0.0;
    return std::hypot(cx - t * dx, cy - t * dy) - (double)sc.r[c];
}

Check CheckHits(Scene &sc, const std::vector<size_t> &offsets, const std::vector<uint32_t> &idx)
{
    std::vector<uint32_t> counts(sc.m);
    for (size_t i = 0; i < sc.m; i++)
        counts[i] = (uint32_t)(offsets[i + 1] - offsets[i]);
    Check c = CheckCounts(sc, counts);
    const std::vector<uint32_t> &ref = sc.HitCounts();
    hs_batch_opts o = OneThread();
    int described = 0;
    for (size_t q = 0; q < sc.m && described < 3; q++) {
        if (ref[q] == counts[q])
            continue;
        described++;
        hs_queries one = hs_queries_segments(&sc.ax[q], &sc.ay[q], &sc.dx[q], &sc.dy[q], 1);
        hs_hits h;
        if (hs_grid_all(sc.g, &one, &o, &h) != HS_OK)
            continue;
        std::set<uint32_t> mine(h.idx, h.idx + h.total);
        std::set<uint32_t> theirs(idx.begin() + (long)offsets[q],
                                  idx.begin() + (long)offsets[q + 1]);
        hs_hits_free(&h);
        char buf[160];
        std::snprintf(buf, sizeof buf, "segment %zu: hitscan %u, peer %u;", q, ref[q], counts[q]);
        c.note += buf;
        for (uint32_t k : theirs)
            if (!mine.count(k)) {
                std::snprintf(buf, sizeof buf, " peer only: circle %u, rim gap %.3g;", k,
                              RimGap(sc, q, k));
                c.note += buf;
            }
        for (uint32_t k : mine)
            if (!theirs.count(k)) {
                std::snprintf(buf, sizeof buf, " hitscan only: circle %u, rim gap %.3g;", k,
                              RimGap(sc, q, k));
                c.note += buf;
            }
        c.note += " ";
    }
    return c;
}

Check CheckPairs(Scene &sc, uint64_t pairs)
{
    Check c;
    c.checked = 1;
    c.expected = sc.PairCount();
    c.got = pairs;
    c.disagree = c.expected != c.got;
    return c;
}

void Report(benchmark::State &state, const std::string &key, const Check &c)
{
    static std::set<std::string> printed;
    if (printed.insert(key).second)
        std::fprintf(stderr,
                     "check %s: %zu compared, %zu disagree, %zu skipped (start inside), "
                     "got %llu expected %llu, max |dt| %.3g%s%s\n",
                     key.c_str(), c.checked, c.disagree, c.skipped, (unsigned long long)c.got,
                     (unsigned long long)c.expected, c.max_dt, c.note.empty() ? "" : "; ",
                     c.note.c_str());
    state.counters["check_disagree"] = (double)c.disagree;
    state.counters["check_compared"] = (double)c.checked;
}

int ProcessThreads()
{
    int threads = 0;
    if (FILE *f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        while (std::fgets(line, sizeof line, f))
            if (std::sscanf(line, "Threads: %d", &threads) == 1)
                break;
        std::fclose(f);
    }
    return threads;
}

void SetRates(benchmark::State &state, Mode mode, Scene &sc)
{
    state.counters["process_threads"] = ProcessThreads();
    const double it = (double)state.iterations();
    if (ModeUsesQueries(mode)) {
        state.counters["queries_per_second"] =
            benchmark::Counter((double)sc.m * it, benchmark::Counter::kIsRate);
        state.counters["hits_per_query"] = sc.HitsPerQuery();
    } else {
        state.counters["circles_per_second"] =
            benchmark::Counter((double)sc.n * it, benchmark::Counter::kIsRate);
        if (mode == Mode::Pairs)
            state.counters["pairs_per_circle"] = sc.n ? (double)sc.PairCount() / (double)sc.n : 0;
    }
}

} // namespace peers
