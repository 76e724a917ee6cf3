/* SPDX-License-Identifier: MIT */
// hitscan.hpp against the C API on the same scene (and on a small maze of walls among
// circles): the same answers from every call, errors with the C API's status and index, owners
// that move without freeing twice. Built as C++17,
// as C++20 (std::span) and as C++17 without exceptions (the try_ calls alone).
#include <hitscan/hitscan.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

static int failures = 0;
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);          \
            ++failures;                                                                            \
        }                                                                                          \
    } while (0)

#if HS_CPP_STD_SPAN
static_assert(std::is_same_v<hitscan::span<const float>, std::span<const float>>, "std::span");
#elif __cplusplus >= 202002L && defined(__cpp_lib_span)
#error "C++20 with <span>: hitscan::span should be std::span"
#endif

namespace
{

// Equal as bytes (NaN on a miss compares equal to NaN).
template <class A, class B> bool same(const A &a, const B *b, std::size_t n)
{
    return a.size() == n && (n == 0 || std::memcmp(a.data(), b, n * sizeof *b) == 0);
}

struct scene {
    std::vector<float> x, y, r, ax, ay, dx, dy;
    scene(std::size_t n, std::size_t m) : x(n), y(n), r(n), ax(m), ay(m), dx(m), dy(m)
    {
        hs_scene_circles(HS_SCENE_LASERS, n, 7, x.data(), y.data(), r.data());
        hs_scene_segments(HS_SCENE_LASERS, n, m, 8, ax.data(), ay.data(), dx.data(), dy.data());
    }
};

// Runs fn at once in enqueue: the smallest task system the contract allows.
struct inline_scheduler {
    int enqueued = 0;
    void *enqueue(hs_task_fn *fn, void *ctx)
    {
        ++enqueued;
        fn(ctx);
        return nullptr;
    }
    void finish(void *) {}
};

void test_queries_match_c(const scene &s)
{
    const std::size_t n = s.x.size(), m = s.ax.size();
    auto rc = hitscan::circles::try_create(s.x, s.y, s.r);
    CHECK(rc.ok() && rc.has_value() && rc.index() == hitscan::npos);
    hitscan::circles cs = std::move(rc).value();
    CHECK(cs.size() == n && same(cs.x(), s.x.data(), n) && cs.mask().empty());
    hitscan::grid g = std::move(hitscan::grid::try_build(cs).value());
    CHECK(g && g.circle_count() == n && g.bytes() > 0 && g.cell_size() > 0.0f);

    hs_circles *ccs = nullptr;
    hs_grid *cg = nullptr;
    CHECK(hs_circles_create(s.x.data(), s.y.data(), s.r.data(), nullptr, n, &ccs, nullptr) ==
          HS_OK);
    CHECK(hs_grid_build(ccs, nullptr, &cg) == HS_OK);
    hs_queries cq = hs_queries_segments(s.ax.data(), s.ay.data(), s.dx.data(), s.dy.data(), m);
    hs_batch_opts copts = hs_batch_opts_default();
    copts.sem = HS_BOUNDARY;

    std::vector<std::uint32_t> idx(m), cnt(m);
    std::vector<float> t(m), px(m), py(m), nx(m), ny(m);
    std::vector<std::uint8_t> any(m);
    CHECK(hs_grid_closest(cg, &cq, &copts,
                          hs_closest_out{idx.data(), t.data(), px.data(), py.data(), nx.data(),
                                         ny.data(), nullptr}) == HS_OK);
    CHECK(hs_grid_any(cg, &cq, &copts, any.data()) == HS_OK);
    CHECK(hs_grid_count_hits(cg, &cq, &copts, cnt.data()) == HS_OK);
    hs_hits call;
    CHECK(hs_grid_all(cg, &cq, &copts, &call) == HS_OK);
    CHECK(call.total > m); // the scene is dense enough that rows hold several hits

    const auto qs = hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy);
    hitscan::options o;
    o.semantics = HS_BOUNDARY;
    hitscan::workspace ws = std::move(hitscan::workspace::try_create().value());
    inline_scheduler pool;
    const hs_task_system pool_ts = hitscan::task_system(pool, 4);
    for (int pass = 0; pass < 3; pass++) {
        o.ws = pass == 1 ? ws.get() : nullptr;
        o.tasks = pass == 2 ? &pool_ts : nullptr;
        auto c = g.try_closest(qs, o, hitscan::closest_points | hitscan::closest_normals);
        CHECK(c.ok());
        CHECK(same(c.value().idx, idx.data(), m) && same(c.value().t, t.data(), m));
        CHECK(same(c.value().px, px.data(), m) && same(c.value().ny, ny.data(), m));
        auto plain = g.try_closest(qs, o);
        CHECK(plain.ok() && plain.value().px.empty() && same(plain.value().t, t.data(), m));
        std::vector<std::uint32_t> idx2(m + 3, 5);
        std::vector<float> t2(m);
        CHECK(g.try_closest_into(qs, {idx2, t2}, o).ok());
        CHECK(same(hitscan::span<const std::uint32_t>(idx2.data(), m), idx.data(), m) &&
              idx2[m] == 5);
        CHECK(same(t2, t.data(), m));
        auto a = g.try_any(qs, o);
        CHECK(a.ok() && same(a.value(), any.data(), m));
        auto k = g.try_count(qs, o);
        CHECK(k.ok() && same(k.value(), cnt.data(), m));
        auto h = g.try_all(qs, o);
        CHECK(h.ok() && h.value().size() == m && h.value().total() == call.total);
        CHECK(same(h.value().offsets(), call.offsets, m + 1) &&
              same(h.value().idx(), call.idx, call.total));
        CHECK(same(h.value().t(), call.t, call.total));
        CHECK(same(h.value().row(3).idx, call.idx + call.offsets[3],
                   call.offsets[4] - call.offsets[3]));
        hitscan::hits_coo coo;
        CHECK(g.try_all_into(qs, coo, o).ok() && coo.idx.size() == call.total);
        for (std::size_t q = 0; q < m; q++)
            for (std::size_t e = call.offsets[q]; e < call.offsets[q + 1]; e++)
                CHECK(coo.query[e] == (std::int64_t)q && coo.idx[e] == call.idx[e] &&
                      coo.t[e] == call.t[e]);
    }
    CHECK(ws.bytes() > 0);

    // task_system forwards enqueue and finish to the scheduler's members.
    inline_scheduler sched;
    const hs_task_system ts = hitscan::task_system(sched, 3);
    int ran = 0;
    void *task = ts.enqueue([](void *ctx) { ++*static_cast<int *>(ctx); }, &ran, ts.user_context);
    ts.finish(task, ts.user_context);
    CHECK(ran == 1 && sched.enqueued == 1 && ts.workers == 3 && task == nullptr);

    // Brute force answers as the C brute force (and as the grid).
    std::vector<std::uint32_t> bidx(m);
    std::vector<float> bt(m);
    CHECK(hs_brute_closest(ccs, &cq, &copts,
                           hs_closest_out{bidx.data(), bt.data(), nullptr, nullptr, nullptr,
                                          nullptr, nullptr}) == HS_OK);
    auto b = hitscan::brute(cs).try_closest(qs, o);
    CHECK(b.ok() && same(b.value().idx, bidx.data(), m) && same(b.value().t, bt.data(), m));
    CHECK(same(b.value().idx, idx.data(), m));

    // Pairs, swept pairs, overlaps.
    hs_pairs cp{};
    CHECK(hs_grid_pairs(cg, nullptr, &cp) == HS_OK && cp.count > 0);
    auto p = g.try_pairs();
    CHECK(p.ok() && same(p.value().i(), cp.i, cp.count) && same(p.value().j(), cp.j, cp.count));
    CHECK(p.value().nx().empty());
    hs_pair_opts po{0.5f, HS_PAIRS_CONTACTS};
    hs_pairs cpx{};
    CHECK(hs_grid_pairs_ex(cg, &po, nullptr, &cpx) == HS_OK);
    auto px2 = g.try_pairs_ex(po);
    CHECK(px2.ok() && same(px2.value().gap(), cpx.gap, cpx.count) &&
          same(px2.value().j(), cpx.j, cpx.count));
    auto pw = g.try_pairs_within(0.5f);
    CHECK(pw.ok() && same(pw.value().i(), cpx.i, cpx.count));
    std::vector<float> ddx(n), ddy(n);
    for (std::size_t i = 0; i < n; i++) {
        ddx[i] = (float)(i % 7) - 3.0f;
        ddy[i] = (float)(i % 5) - 2.0f;
    }
    hs_swept_pairs csp{};
    CHECK(hs_grid_swept_pairs(cg, ddx.data(), ddy.data(), nullptr, &csp) == HS_OK);
    auto sp = g.try_swept_pairs(ddx, ddy);
    CHECK(sp.ok() && same(sp.value().t(), csp.t, csp.count) &&
          same(sp.value().j(), csp.j, csp.count));
    CHECK(same(sp.value().overlapping(), csp.overlapping, csp.count));
    // Moving circles under a query.
    hs_batch_opts mopts = hs_batch_opts_default();
    mopts.disp_x = ddx.data();
    mopts.disp_y = ddy.data();
    CHECK(hs_grid_closest(cg, &cq, &mopts,
                          hs_closest_out{bidx.data(), bt.data(), nullptr, nullptr, nullptr, nullptr,
                                         nullptr}) == HS_OK);
    hitscan::options mo;
    mo.disp_x = ddx;
    mo.disp_y = ddy;
    auto mc = g.try_closest(qs, mo);
    CHECK(mc.ok() && same(mc.value().idx, bidx.data(), m) && same(mc.value().t, bt.data(), m));

    const hs_circle disc{s.x[10], s.y[10], 30.0f};
    std::vector<std::uint32_t> found(4096);
    std::size_t nfound = 0;
    CHECK(hs_grid_overlap_circle(cg, disc, ~0u, found.data(), found.size(), &nfound) == HS_OK);
    CHECK(nfound > 16); // more than the first try's room
    auto oc = g.try_overlap_circle(disc);
    CHECK(oc.ok() && same(oc.value(), found.data(), nfound));
    std::uint32_t few[2];
    auto oci = g.try_overlap_circle_into(disc, few);
    CHECK(oci.ok() && oci.value() == nfound && few[1] == found[1]);
    hs_overlaps cov{};
    CHECK(hs_grid_overlap_discs(cg, s.ax.data(), s.ay.data(), s.dx.data(), nullptr, m, nullptr,
                                &cov) == HS_E_INVALID_QUERY); // negative radii among dx
    auto ov = g.try_overlap_discs(s.ax, s.ay, s.dx);
    CHECK(!ov.ok() && ov.has_value() && ov.status() == HS_E_INVALID_QUERY);
    std::size_t first_neg = 0;
    while (s.dx[first_neg] >= 0.0f)
        first_neg++;
    CHECK(ov.index() == first_neg);
    CHECK(same(ov.value().offsets(), cov.offsets, m + 1) &&
          same(ov.value().idx(), cov.idx, cov.total));

    hs_overlaps_free(&cov);
    hs_swept_pairs_free(&csp);
    hs_pairs_free(&cpx);
    hs_pairs_free(&cp);
    hs_hits_free(&call);
    hs_grid_destroy(cg);
    hs_circles_destroy(ccs);
}

void test_errors_nothrow(const scene &s)
{
    std::vector<float> x = s.x, y = s.y, r = s.r;
    x[7] = std::numeric_limits<float>::quiet_NaN();
    r[3] = -1.0f;
    auto bad = hitscan::circles::try_create(x, y, r);
    CHECK(!bad.ok() && !bad.has_value() && bad.status() == HS_E_NEG_RADIUS && bad.index() == 3);
    r[3] = 1.0f;
    auto bad2 = hitscan::circles::try_borrow(x, y, r);
    CHECK(bad2.status() == HS_E_NONFINITE && bad2.index() == 7);
    auto mismatch = hitscan::circles::try_create(x, y, hitscan::span<const float>(r.data(), 3));
    CHECK(mismatch.status() == HS_E_RANGE && mismatch.index() == hitscan::npos);

    hitscan::circles cs = std::move(hitscan::circles::try_borrow(s.x, s.y, s.r).value());
    CHECK(cs.x().data() == s.x.data()); // borrowed, not copied
    hitscan::grid g = std::move(hitscan::grid::try_build(cs).value());
    std::vector<float> ax = s.ax;
    ax[5] = std::numeric_limits<float>::infinity();
    ax[9] = std::numeric_limits<float>::quiet_NaN();
    const auto qs = hitscan::queries::segments(ax, s.ay, s.dx, s.dy);
    hs_batch_stats stats{};
    hitscan::options o;
    o.stats = &stats;
    auto c = g.try_closest(qs, o);
    CHECK(!c.ok() && c.has_value() && c.status() == HS_E_INVALID_QUERY && c.index() == 5);
    CHECK(stats.invalid == 2 && stats.first_invalid == 5);
    CHECK(c.value().idx[5] == HS_NONE && c.value().idx.size() == ax.size());
    auto good = g.try_closest(hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy));
    CHECK(c.value().idx[4] == good.value().idx[4]);
    auto all = g.try_all(qs);
    CHECK(all.status() == HS_E_INVALID_QUERY && all.index() == 5 &&
          all.value().size() == ax.size());

    // Lengths, spans too short, options out of range, moving circles, a grid that is not.
    auto qshort =
        hitscan::queries::segments(s.ax, s.ay, s.dx, hitscan::span<const float>(s.dy.data(), 2));
    CHECK(qshort.status() == HS_E_RANGE && g.try_count(qshort).status() == HS_E_RANGE);
    std::vector<std::uint32_t> q1(1);
    auto qs1 = hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy).mask(q1);
    CHECK(g.try_any(qs1).status() == HS_E_RANGE);
    std::vector<std::uint8_t> tiny(2);
    CHECK(g.try_any_into(hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy), tiny).status() ==
          HS_E_RANGE);
    hitscan::options bad_isa;
    bad_isa.isa = hs_isa_supported(HS_ISA_NEON) ? HS_ISA_AVX2 : HS_ISA_NEON;
    CHECK(
        g.try_closest(good.ok() ? hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy) : qs, bad_isa)
            .status() == HS_E_UNSUPPORTED);
    hitscan::options mo;
    mo.disp_x = s.dx;
    mo.disp_y = s.dy; // one per query, not per circle
    CHECK(g.try_closest(qs, mo).status() == HS_E_RANGE);
    CHECK(g.try_swept_pairs(s.dx, s.dy).status() == HS_E_RANGE);
    std::vector<float> zero(s.x.size(), 0.0f);
    mo.disp_x = zero;
    mo.disp_y = zero;
    CHECK(hitscan::brute(cs).try_closest(qs, mo).status() == HS_E_UNSUPPORTED);
    CHECK(g.try_pairs_within(-1.0f).status() == HS_E_NEG_RADIUS);
    hitscan::grid none;
    CHECK(!none && none.try_closest(qs).status() == HS_E_NULL &&
          none.try_pairs().status() == HS_E_NULL);

    // A bad circle in a rebuild: refused with its index, the grid as it was.
    auto before = g.try_count(hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy));
    auto rb = g.try_rebuild_from(x, y, r);
    CHECK(rb.status() == HS_E_NONFINITE && rb.index() == 7);
    auto after = g.try_count(hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy));
    CHECK(before.value() == after.value());
    CHECK(g.try_rebuild_from(s.x, s.y, s.r).ok() && g.try_rebuild(cs).ok());
    CHECK(std::strcmp(hitscan::status_string(HS_E_BUSY), hs_status_string(HS_E_BUSY)) == 0);
    CHECK(std::strcmp(hitscan::version(), HS_VERSION_STRING) == 0);
}

#if HS_CPP_EXCEPTIONS
template <class F> bool throws(F f, hs_status s, std::size_t index)
{
    try {
        f();
    } catch (const hitscan::error &e) {
        const std::runtime_error &base = e; // what callers catch without knowing hitscan
        return e.status() == s && e.index() == index &&
               std::strstr(base.what(), hs_status_string(s));
    }
    return false;
}

void test_errors_throw(const scene &s)
{
    std::vector<float> r = s.r;
    r[12] = -2.0f;
    CHECK(throws([&] { hitscan::circles::create(s.x, s.y, r); }, HS_E_NEG_RADIUS, 12));
    hitscan::circles cs = hitscan::circles::create(s.x, s.y, s.r);
    hitscan::grid g = hitscan::grid::build(cs);
    std::vector<float> dy = s.dy;
    dy[4] = std::numeric_limits<float>::quiet_NaN();
    const auto qs = hitscan::queries::segments(s.ax, s.ay, s.dx, dy);
    CHECK(throws([&] { (void)g.closest(qs); }, HS_E_INVALID_QUERY, 4));
    CHECK(throws([&] { (void)hitscan::brute(cs).count(qs); }, HS_E_INVALID_QUERY, 4));
    hitscan::hits_coo coo;
    CHECK(throws([&] { g.all_into(qs, coo); }, HS_E_INVALID_QUERY, 4));
    CHECK(coo.offsets.size() == s.ax.size() + 1); // answered, though it threw
    CHECK(throws([&] { g.rebuild_from(s.x, s.y, r); }, HS_E_NEG_RADIUS, 12));
    CHECK(throws([&] { (void)g.pairs_within(std::nanf("")); }, HS_E_NONFINITE, hitscan::npos));
    hs_grid_opts go{};
    go.cell_size = -1.0f;
    CHECK(throws([&] { hitscan::grid::build(cs, go); }, HS_E_RANGE, hitscan::npos) ||
          throws([&] { hitscan::grid::build(cs, go); }, HS_E_NEG_RADIUS, hitscan::npos));
    auto ok = hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy);
    CHECK(g.count(ok) == hitscan::brute(cs).count(ok));
    CHECK(g.all(ok).total() > 0 && g.pairs().size() > 0);
    bool caught = false;
    try {
        (void)g.try_closest(qs).value(); // has_value: the answers, not an exception
        hitscan::grid().pairs();
    } catch (const std::runtime_error &) {
        caught = true;
    }
    CHECK(caught);
}
#endif

template <class T> void self_move(T &x)
{
    T &alias = x;
    x = std::move(alias);
}

void test_moves(const scene &s)
{
    hitscan::circles a = std::move(hitscan::circles::try_create(s.x, s.y, s.r).value());
    hitscan::circles b(std::move(a));
    CHECK(!a && a.size() == 0 && b.size() == s.x.size()); // NOLINT(bugprone-use-after-move)
    a = std::move(b);
    self_move(b); // empty, stays empty
    self_move(a); // keeps its set, frees nothing
    CHECK(a.size() == s.x.size());
    hitscan::grid g1 = std::move(hitscan::grid::try_build(a).value());
    hitscan::grid g2;
    g2 = std::move(g1);
    CHECK(!g1 && g2.circle_count() == s.x.size());
    a = hitscan::circles(); // the grid keeps its own copy
    const auto qs = hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy);
    auto h1 = g2.try_all(qs);
    hitscan::hits h2 = std::move(h1.value());
    CHECK(h1.value().size() == 0 && h1.value().idx().empty() && h2.size() == s.ax.size());
    hitscan::hits h3;
    h3 = std::move(h2);
    self_move(h3);
    CHECK(h3.total() > 0);
    auto p1 = g2.try_pairs();
    hitscan::pairs p2 = std::move(p1.value());
    self_move(p2);
    hitscan::pairs p3(std::move(p2));
    CHECK(p3.size() > 0 && p2.size() == 0);
    // With a workspace the hits are the workspace's: moving and freeing them frees nothing.
    hitscan::workspace ws = std::move(hitscan::workspace::try_create().value());
    hitscan::options o;
    o.ws = ws.get();
    {
        hitscan::hits wh = std::move(g2.try_all(qs, o).value());
        hitscan::hits wh2(std::move(wh));
        CHECK(wh2.total() == h3.total());
    }
    CHECK(g2.try_all(qs, o).ok());
    const std::size_t held = ws.bytes();
    hitscan::workspace ws2(std::move(ws));
    CHECK(!ws.get() && ws.bytes() == 0 && ws2.bytes() == held);
    CHECK(ws2.try_trim().ok() && ws2.bytes() < held);
    static_assert(!std::is_copy_constructible_v<hitscan::grid> &&
                      !std::is_copy_assignable_v<hitscan::hits>,
                  "owners are move-only");
    static_assert(std::is_nothrow_move_constructible_v<hitscan::pairs> &&
                      std::is_nothrow_move_assignable_v<hitscan::circles>,
                  "moves do not throw");
}

// A periodic box: the options are the C struct; pairs across the edge carry their shift.
// queries::ignore: each engine's answers equal its all-hits without ignore, the ignored
// circle's hits taken out (the first left for closest, any left, how many, the list).
template <class E> void check_ignore(const E &e, const scene &s)
{
    const std::size_t n = s.x.size(), m = s.ax.size();
    const auto plain = hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy);
    auto ref = e.try_all(plain);
    CHECK(ref.ok());
    std::vector<std::uint32_t> ign(m);
    for (std::size_t i = 0; i < m; i++) {
        const auto row = ref.value().row(i);
        const std::uint32_t pick[4] = {row.idx.empty() ? 0u : row.idx[0], HS_NONE,
                                       static_cast<std::uint32_t>((i * 7919) % n),
                                       static_cast<std::uint32_t>(n + i)};
        ign[i] = pick[i % 4];
    }
    const auto qs = hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy).ignore(ign);
    auto c = e.try_closest(qs);
    auto a = e.try_any(qs);
    auto k = e.try_count(qs);
    auto h = e.try_all(qs);
    CHECK(c.ok() && a.ok() && k.ok() && h.ok());
    if (!(c.ok() && a.ok() && k.ok() && h.ok()))
        return;
    std::size_t removed = 0, total = 0;
    for (std::size_t i = 0; i < m; i++) {
        const auto row = ref.value().row(i), got = h.value().row(i);
        std::vector<std::uint32_t> idx;
        std::vector<float> t;
        for (std::size_t j = 0; j < row.idx.size(); j++)
            if (row.idx[j] != ign[i]) {
                idx.push_back(row.idx[j]);
                t.push_back(row.t[j]);
            }
        removed += row.idx.size() - idx.size();
        total += idx.size();
        CHECK(same(got.idx, idx.data(), idx.size()) && same(got.t, t.data(), t.size()));
        CHECK(c.value().idx[i] == (idx.empty() ? HS_NONE : idx[0]));
        CHECK(idx.empty() ? std::isnan(c.value().t[i]) : c.value().t[i] == t[0]);
        CHECK(a.value()[i] == (idx.empty() ? 0 : 1) && k.value()[i] == idx.size());
    }
    CHECK(removed > m / 8 && h.value().total() == total); // the closest circle, a quarter
    // An empty span ignores nothing; a span of another length is refused.
    auto none = e.try_count(hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy).ignore({}));
    auto before = e.try_count(plain);
    CHECK(none.ok() && before.ok() && none.value() == before.value());
    CHECK(e.try_count(hitscan::queries::segments(s.ax, s.ay, s.dx, s.dy)
                          .ignore(hitscan::span<const std::uint32_t>(ign.data(), 1)))
              .status() == HS_E_RANGE);
}

void test_ignore(const scene &s)
{
    hitscan::circles cs = std::move(hitscan::circles::try_create(s.x, s.y, s.r).value());
    check_ignore(std::move(hitscan::grid::try_build(cs).value()), s);
    check_ignore(hitscan::brute(cs), s);
}

void test_periodic()
{
    const float x[3] = {0.5f, 5.0f, 9.7f}, y[3] = {5.0f, 5.0f, 5.0f}, r[3] = {0.5f, 0.5f, 0.5f};
    hitscan::grid_options go{};
    go.periodic = HS_PERIODIC_XY;
    go.box = hitscan::aabb{{0.0f, 0.0f}, {10.0f, 10.0f}};
    auto cs = hitscan::circles::try_create(x, y, r);
    auto g = hitscan::grid::try_build(cs.value(), go);
    CHECK(g.ok());
    hitscan::aabb box{};
    CHECK(g.value().periodic(&box) == HS_PERIODIC_XY && box.max.x == 10.0f);
    hitscan::pair_options po{0.0f, HS_PAIRS_SHIFTS};
    auto p = g.value().try_pairs_ex(po);
    CHECK(p.ok() && p.value().size() == 1 && p.value().i()[0] == 0 && p.value().j()[0] == 2);
    CHECK(p.value().sx().size() == 1 && p.value().sx()[0] == -1);
    inline_scheduler sched;
    const hs_task_system ts = hitscan::task_system(sched, 2);
    g.value().set_tasks(&ts);
    CHECK(g.value().try_rebuild_from(x, y, r).ok() && g.value().circle_count() == 3);
    const float far_x[3] = {0.5f, 5.0f, 30.0f};
    CHECK(g.value().try_rebuild_from(far_x, y, r).ok()); // wrapped into the box
    const float big_r[3] = {0.5f, 3.0f, 0.5f};
    auto rb = g.value().try_rebuild_from(x, y, big_r);
    CHECK(rb.status() == HS_E_BOX && rb.index() == 1);
}

// Spans from pointer and count, arrays and containers; C++20 also designated options.
void test_spans(const scene &s)
{
    const std::size_t m = 64;
    const float *ax = s.ax.data();
    auto qs =
        hitscan::queries::segments({ax, m}, {s.ay.data(), m}, {s.dx.data(), m}, {s.dy.data(), m});
    CHECK(qs.size() == m && qs.status() == HS_OK);
    float x[3] = {0, 10, 20}, y[3] = {0, 0, 0}, r[3] = {1, 1, 1};
    auto cs = hitscan::circles::try_create(x, y, r);
    CHECK(cs.ok() && cs.value().size() == 3);
#if __cplusplus >= 202002L
    hitscan::options o{.semantics = HS_SOLID, .threads = 1};
    std::span<const float> sx(s.x);
    CHECK(sx.size() == s.x.size() && o.threads == 1);
    hitscan::grid g = std::move(hitscan::grid::try_build(cs.value()).value());
    auto c = g.try_closest(qs, {.semantics = HS_BOUNDARY, .threads = 1});
    CHECK(c.ok() && c.value().idx.size() == m);
#endif
}

// A small maze of walls (unit cells, each with its bottom or left edge or a diagonal; every
// fifth wall thick, one a point) among circles, and segments across it.
struct maze {
    std::vector<float> ax, ay, bx, by, w, x, y, r;
    explicit maze(std::size_t side)
    {
        for (std::size_t i = 0; i < side * side; i++) {
            const float cx = (float)(i % side), cy = (float)(i / side);
            const std::size_t pick = (i * 7 + i / side) % 10;
            ax.push_back(cx);
            ay.push_back(cy);
            bx.push_back(pick < 4 || pick == 9 ? cx + 1.0f : cx);
            by.push_back(pick < 4 ? cy : cy + 1.0f);
            w.push_back(i % 5 == 0 ? 0.08f : 0.0f);
            if (i % 13 == 6) // a point wall
                bx.back() = cx, by.back() = cy;
            x.push_back(cx + 0.5f);
            y.push_back(cy + 0.3f + 0.04f * (float)(i % 5));
            r.push_back(0.1f + 0.02f * (float)(i % 4));
        }
    }
};

void test_walls(const scene &s)
{
    const maze z(24);
    const std::size_t k = z.ax.size(), n = z.x.size(), m = s.ax.size();
    // The lasers scene's segments scaled into the maze's square.
    std::vector<float> ax(m), ay(m), dx(m), dy(m);
    float span_max = 0.0f;
    for (std::size_t i = 0; i < s.x.size(); i++)
        span_max = std::fmax(span_max, std::fmax(s.x[i], s.y[i]));
    const float f = 24.0f / span_max;
    for (std::size_t i = 0; i < m; i++)
        ax[i] = s.ax[i] * f, ay[i] = s.ay[i] * f, dx[i] = s.dx[i] * f, dy[i] = s.dy[i] * f;

    auto rw = hitscan::walls::try_create(z.ax, z.ay, z.bx, z.by, z.w);
    CHECK(rw.ok() && rw.index() == hitscan::npos);
    hitscan::walls ws = std::move(rw).value();
    CHECK(ws && ws.size() == k && ws.get() != nullptr);
    hitscan::circles cs = std::move(hitscan::circles::try_create(z.x, z.y, z.r).value());
    hitscan::grid g = std::move(hitscan::grid::try_build(cs, ws).value());
    CHECK(g.wall_count() == k && g.circle_count() == n);
    ws = hitscan::walls(); // the grid keeps its own copy
    CHECK(!ws && ws.size() == 0);

    hs_circles *ccs = nullptr;
    hs_walls *cws = nullptr;
    hs_grid *cg = nullptr;
    CHECK(hs_circles_create(z.x.data(), z.y.data(), z.r.data(), nullptr, n, &ccs, nullptr) ==
          HS_OK);
    CHECK(hs_walls_create(z.ax.data(), z.ay.data(), z.bx.data(), z.by.data(), z.w.data(), nullptr,
                          k, &cws, nullptr) == HS_OK);
    hs_grid_opts go{};
    go.walls = cws;
    CHECK(hs_grid_build(ccs, &go, &cg) == HS_OK && hs_grid_wall_count(cg) == k);
    const hs_queries cq = hs_queries_segments(ax.data(), ay.data(), dx.data(), dy.data(), m);
    std::vector<std::uint32_t> idx(m), cnt(m);
    std::vector<float> t(m), px(m), py(m), nx(m), ny(m);
    std::vector<std::uint8_t> kind(m), any(m);
    CHECK(hs_grid_closest(cg, &cq, nullptr,
                          hs_closest_out{idx.data(), t.data(), px.data(), py.data(), nx.data(),
                                         ny.data(), kind.data()}) == HS_OK);
    CHECK(hs_grid_any(cg, &cq, nullptr, any.data()) == HS_OK);
    CHECK(hs_grid_count_hits(cg, &cq, nullptr, cnt.data()) == HS_OK);
    hs_hits call;
    CHECK(hs_grid_all(cg, &cq, nullptr, &call) == HS_OK && call.kind != nullptr);
    std::size_t walls_hit = 0, circles_hit = 0;
    for (std::size_t i = 0; i < m; i++) {
        walls_hit += idx[i] != HS_NONE && kind[i] == HS_KIND_WALL;
        circles_hit += idx[i] != HS_NONE && kind[i] == HS_KIND_CIRCLE;
    }
    CHECK(walls_hit > m / 4 && circles_hit > m / 20); // both kinds among the closest hits

    const auto qs = hitscan::queries::segments(ax, ay, dx, dy);
    hitscan::workspace wsp = std::move(hitscan::workspace::try_create().value());
    hitscan::options o;
    for (int pass = 0; pass < 2; pass++) {
        o.ws = pass == 1 ? wsp.get() : nullptr;
        auto c = g.try_closest(qs, o, hitscan::closest_points | hitscan::closest_normals);
        CHECK(c.ok() && same(c.value().idx, idx.data(), m) && same(c.value().t, t.data(), m));
        CHECK(same(c.value().kind, kind.data(), m)); // without asking: the grid has walls
        CHECK(same(c.value().px, px.data(), m) && same(c.value().ny, ny.data(), m));
        std::vector<std::uint32_t> idx2(m);
        std::vector<float> t2(m);
        std::vector<std::uint8_t> kind2(m, 9);
        hitscan::closest_spans into{idx2, t2};
        into.kind = kind2;
        CHECK(g.try_closest_into(qs, into, o).ok() && same(kind2, kind.data(), m));
        CHECK(same(idx2, idx.data(), m) && same(t2, t.data(), m));
        auto a = g.try_any(qs, o);
        CHECK(a.ok() && same(a.value(), any.data(), m));
        auto kc = g.try_count(qs, o);
        CHECK(kc.ok() && same(kc.value(), cnt.data(), m));
        auto h = g.try_all(qs, o);
        CHECK(h.ok() && h.value().total() == call.total &&
              same(h.value().idx(), call.idx, call.total));
        CHECK(same(h.value().kind(), call.kind, call.total) &&
              same(h.value().t(), call.t, call.total));
        const std::size_t q = 17, b = call.offsets[q], e = call.offsets[q + 1];
        CHECK(same(h.value().row(q).kind, call.kind + b, e - b));
        hitscan::hits_coo coo;
        CHECK(g.try_all_into(qs, coo, o).ok() && coo.kind.size() == call.total);
        for (std::size_t i = 0; i < call.total; i++)
            CHECK(coo.kind[i] == call.kind[i] && coo.idx[i] == call.idx[i]);
    }
    std::vector<std::uint8_t> short_kind(m - 1);
    hitscan::closest_spans too_short{idx, t};
    too_short.kind = short_kind;
    CHECK(g.try_closest_into(qs, too_short).status() == HS_E_RANGE);

    // The circles alone: no kinds unless asked for, then all circles'; set_walls adds the walls.
    hitscan::grid gc = std::move(hitscan::grid::try_build(cs, {}).value()); // {}: the options
    CHECK(gc.wall_count() == 0 && gc.try_closest(qs).value().kind.empty());
    auto ck = gc.try_closest(qs, {}, hitscan::closest_kinds);
    CHECK(ck.ok() && ck.value().kind.size() == m);
    bool all_circles = true;
    for (std::size_t i = 0; i < m; i++)
        all_circles = all_circles && ck.value().kind[i] == HS_KIND_CIRCLE;
    CHECK(all_circles && gc.try_all(qs).value().kind().empty());
    auto bk = hitscan::brute(cs).try_closest(qs, {}, hitscan::closest_kinds);
    CHECK(bk.ok() && same(bk.value().kind, ck.value().kind.data(), m) &&
          same(bk.value().idx, ck.value().idx.data(), m));
    std::vector<std::uint8_t> bkind(m, 9);
    std::vector<std::uint32_t> bidx(m);
    std::vector<float> bt(m);
    hitscan::closest_spans binto{bidx, bt};
    binto.kind = bkind;
    CHECK(hitscan::brute(cs).try_closest_into(qs, binto).ok() &&
          same(bkind, ck.value().kind.data(), m)); // brute force writes kinds too
    hitscan::walls bw = std::move(hitscan::walls::try_borrow(z.ax, z.ay, z.bx, z.by, z.w).value());
    CHECK(gc.try_set_walls(bw).ok() && gc.wall_count() == k);
    auto cw = gc.try_closest(qs);
    CHECK(cw.ok() && same(cw.value().idx, idx.data(), m) && same(cw.value().kind, kind.data(), m));
    CHECK(gc.try_set_walls(hitscan::walls()).ok() && gc.wall_count() == 0);

    // Walls alone: an empty circle set.
    hitscan::circles none = std::move(hitscan::circles::try_create({}, {}, {}).value());
    auto gw = hitscan::grid::try_build(none, bw);
    CHECK(gw.ok() && gw.value().circle_count() == 0 && gw.value().wall_count() == k);
    auto wc = gw.value().try_closest(qs);
    std::size_t agree = 0;
    for (std::size_t i = 0; i < m; i++)
        agree += kind[i] != HS_KIND_WALL || wc.value().idx[i] == idx[i];
    CHECK(wc.ok() && agree == m); // every wall answer of the maze with circles, the same

    // Errors: the C API's status and the bad wall's index; a periodic grid refuses walls.
    std::vector<float> bad_bx = z.bx, bad_w = z.w;
    bad_bx[11] = std::numeric_limits<float>::quiet_NaN();
    bad_w[4] = -0.5f;
    auto e1 = hitscan::walls::try_create(z.ax, z.ay, bad_bx, z.by);
    CHECK(!e1.ok() && !e1.has_value() && e1.status() == HS_E_NONFINITE && e1.index() == 11);
    auto e2 = hitscan::walls::try_borrow(z.ax, z.ay, z.bx, z.by, bad_w);
    CHECK(e2.status() == HS_E_NEG_RADIUS && e2.index() == 4);
    auto e3 =
        hitscan::walls::try_create(z.ax, z.ay, z.bx, hitscan::span<const float>(z.by.data(), 3));
    CHECK(e3.status() == HS_E_RANGE && e3.index() == hitscan::npos);
    std::vector<std::uint32_t> wmask(2, 1u);
    CHECK(hitscan::walls::try_create(z.ax, z.ay, z.bx, z.by, {}, wmask).status() == HS_E_RANGE);
    hitscan::grid_options pgo{};
    pgo.periodic = HS_PERIODIC_XY;
    pgo.box = hitscan::aabb{{0.0f, 0.0f}, {24.0f, 24.0f}};
    CHECK(hitscan::grid::try_build(cs, bw, pgo).status() == HS_E_RANGE);
    hitscan::grid pg = std::move(hitscan::grid::try_build(cs, pgo).value());
    CHECK(pg.try_set_walls(bw).status() == HS_E_RANGE && pg.wall_count() == 0);
    CHECK(hitscan::grid().try_set_walls(bw).status() == HS_E_NULL);
#if HS_CPP_EXCEPTIONS
    CHECK(throws([&] { hitscan::walls::create(z.ax, z.ay, bad_bx, z.by); }, HS_E_NONFINITE, 11));
    CHECK(throws([&] { hitscan::grid::build(cs, bw, pgo); }, HS_E_RANGE, hitscan::npos));
    CHECK(throws([&] { pg.set_walls(bw); }, HS_E_RANGE, hitscan::npos));
    hitscan::grid tg =
        hitscan::grid::build(cs, hitscan::walls::create(z.ax, z.ay, z.bx, z.by, z.w));
    CHECK(tg.closest(qs).kind == cw.value().kind);
    tg.set_walls(hitscan::walls());
    CHECK(tg.wall_count() == 0);
#endif

    // Owners: move-only, freed once.
    hitscan::walls w1(std::move(bw));
    CHECK(!bw && w1.size() == k); // NOLINT(bugprone-use-after-move)
    self_move(w1);
    CHECK(w1.size() == k);
    static_assert(!std::is_copy_constructible_v<hitscan::walls> &&
                      std::is_nothrow_move_assignable_v<hitscan::walls>,
                  "walls: move-only");

    hs_hits_free(&call);
    hs_grid_destroy(cg);
    hs_walls_destroy(cws);
    hs_circles_destroy(ccs);
}
} // namespace

int main()
{
    const scene s(3000, 800);
    test_queries_match_c(s);
    test_errors_nothrow(s);
#if HS_CPP_EXCEPTIONS
    test_errors_throw(s);
#endif
    test_moves(s);
    test_periodic();
    test_spans(s);
    test_walls(s);
    test_ignore(s);
    std::printf("hitscan.hpp (C++%ld, %s, %s): %s\n", (long)(__cplusplus / 100 % 100),
                HS_CPP_STD_SPAN ? "std::span" : "hitscan::span",
                HS_CPP_EXCEPTIONS ? "exceptions" : "no exceptions", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
