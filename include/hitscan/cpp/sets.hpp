/* SPDX-License-Identifier: MIT */
// hitscan for C++ (hitscan/hitscan.hpp): circle sets, query batches, workspaces, batch options
// and task systems; the C API's batch.h, owned and checked.
#ifndef HITSCAN_CPP_SETS_HPP
#define HITSCAN_CPP_SETS_HPP

#include "hitscan/cpp/base.hpp"

#include <limits>

namespace hitscan
{

using vec2 = hs_vec2;
using circle = hs_circle;
using aabb = hs_aabb;
using query = hs_query;
using hit = hs_hit;

// A circle set (hs_circles), move-only. create() copies the arrays into aligned storage;
// borrow() keeps the caller's, which must outlive the set and not change while it is used.
// Both validate every circle: a bad one is refused with its status and index. Arrays of
// different lengths are refused with HS_E_RANGE (index npos); an empty mask means none.
class circles
{
  public:
    circles() noexcept = default; // no set: size() 0, get() nullptr

    static result<circles> try_create(span<const float> x, span<const float> y, span<const float> r,
                                      span<const std::uint32_t> mask = {}) noexcept
    {
        return make(hs_circles_create, x, y, r, mask);
    }
    static result<circles> try_borrow(span<const float> x, span<const float> y, span<const float> r,
                                      span<const std::uint32_t> mask = {}) noexcept
    {
        return make(hs_circles_borrow, x, y, r, mask);
    }
#if HS_CPP_EXCEPTIONS
    static circles create(span<const float> x, span<const float> y, span<const float> r,
                          span<const std::uint32_t> mask = {})
    {
        return detail::take(try_create(x, y, r, mask));
    }
    static circles borrow(span<const float> x, span<const float> y, span<const float> r,
                          span<const std::uint32_t> mask = {})
    {
        return detail::take(try_borrow(x, y, r, mask));
    }
#endif

    std::size_t size() const noexcept { return p_ ? hs_circles_count(p_.get()) : 0; }
    span<const float> x() const noexcept
    {
        return detail::view(p_ ? hs_circles_x(p_.get()) : nullptr, size());
    }
    span<const float> y() const noexcept
    {
        return detail::view(p_ ? hs_circles_y(p_.get()) : nullptr, size());
    }
    span<const float> r() const noexcept
    {
        return detail::view(p_ ? hs_circles_r(p_.get()) : nullptr, size());
    }
    span<const std::uint32_t> mask() const noexcept
    {
        return detail::view(p_ ? hs_circles_mask(p_.get()) : nullptr, size());
    }
    const hs_circles *get() const noexcept { return p_.get(); }
    explicit operator bool() const noexcept { return p_ != nullptr; }

  private:
    using maker = hs_status (*)(const float *, const float *, const float *, const std::uint32_t *,
                                std::size_t, hs_circles **, std::size_t *);
    static result<circles> make(maker f, span<const float> x, span<const float> y,
                                span<const float> r, span<const std::uint32_t> mask) noexcept
    {
        const std::size_t n = x.size();
        if (y.size() != n || r.size() != n || (!mask.empty() && mask.size() != n))
            return detail::failed{HS_E_RANGE};
        hs_circles *p = nullptr;
        std::size_t bad = npos;
        const hs_status s = f(x.data(), y.data(), r.data(), detail::ptr(mask), n, &p, &bad);
        circles cs;
        cs.p_.reset(p);
        if (s != HS_OK)
            return detail::failed{s, bad};
        return cs;
    }
    detail::handle<hs_circles, hs_circles_destroy> p_;
};

// A batch of queries (hs_queries): a view of the caller's arrays, which must outlive it. Query i
// is P(t) = (ax[i], ay[i]) + t (dx[i], dy[i]) over [tmin, tmax] with thickness q and filter mask,
// each a scalar for the batch or an array (the setters below). An array whose length is not
// the batch's makes every call given the batch fail with HS_E_RANGE, index npos.
class queries
{
  public:
    queries() noexcept : q_(hs_queries_segments(nullptr, nullptr, nullptr, nullptr, 0)) {}
    queries(const hs_queries &q) noexcept : q_(q) {} // the C batch as it is

    // Segments a -> a + d: t in [0, 1], thickness 0, every mask bit.
    static queries segments(span<const float> ax, span<const float> ay, span<const float> dx,
                            span<const float> dy) noexcept
    {
        queries qs(hs_queries_segments(ax.data(), ay.data(), dx.data(), dy.data(), ax.size()));
        qs.expect(ay.size()).expect(dx.size()).expect(dy.size());
        return qs;
    }
    // Capsules a -> a + d of half-width q[i] (a circle of radius q[i] swept from a to a + d).
    static queries capsules(span<const float> ax, span<const float> ay, span<const float> dx,
                            span<const float> dy, span<const float> q) noexcept
    {
        return segments(ax, ay, dx, dy).thickness(q);
    }
    // Rays from a along d: t in [0, tmax] (in units of |d|), infinite by default.
    static queries rays(span<const float> ax, span<const float> ay, span<const float> dx,
                        span<const float> dy,
                        float tmax = std::numeric_limits<float>::infinity()) noexcept
    {
        return segments(ax, ay, dx, dy).interval(0.0f, tmax);
    }
    // Lines through a and a + d: t in (-inf, inf).
    static queries lines(span<const float> ax, span<const float> ay, span<const float> dx,
                         span<const float> dy) noexcept
    {
        const float inf = std::numeric_limits<float>::infinity();
        return segments(ax, ay, dx, dy).interval(-inf, inf);
    }

    queries &interval(float tmin, float tmax) noexcept
    {
        q_.tmin = q_.tmax = nullptr;
        q_.tmin_all = tmin;
        q_.tmax_all = tmax;
        return *this;
    }
    queries &interval(span<const float> tmin, span<const float> tmax) noexcept
    {
        q_.tmin = detail::ptr(tmin);
        q_.tmax = detail::ptr(tmax);
        return expect(tmin.size()).expect(tmax.size());
    }
    queries &thickness(float q) noexcept
    {
        q_.q = nullptr;
        q_.q_all = q;
        return *this;
    }
    queries &thickness(span<const float> q) noexcept
    {
        q_.q = detail::ptr(q);
        return expect(q.size());
    }
    queries &mask(std::uint32_t m) noexcept
    {
        q_.mask = nullptr;
        q_.mask_all = m;
        return *this;
    }
    queries &mask(span<const std::uint32_t> m) noexcept
    {
        q_.mask = detail::ptr(m);
        return expect(m.size());
    }
    // Per query, the index of one circle it never reports (its shooter's, say), HS_NONE for
    // none; an index past the set ignores nothing and walls are never ignored. An empty span:
    // none for any query.
    queries &ignore(span<const std::uint32_t> idx) noexcept
    {
        q_.ignore = detail::ptr(idx);
        return idx.empty() ? *this : expect(idx.size());
    }

    std::size_t size() const noexcept { return q_.count; }
    hs_status status() const noexcept { return status_; } // HS_OK, or HS_E_RANGE (lengths)
    const hs_queries &c() const noexcept { return q_; }

  private:
    queries &expect(std::size_t n) noexcept
    {
        if (n != q_.count)
            status_ = HS_E_RANGE;
        return *this;
    }
    hs_queries q_;
    hs_status status_ = HS_OK;
};

// A workspace (hs_workspace), move-only: a batch call's memory kept for the next call given it
// (options::ws). One call at a time per workspace (HS_E_BUSY otherwise); all-hits results made
// with it (hitscan::hits) stay valid only until its next call, trim or destruction.
class workspace
{
  public:
    workspace() noexcept = default; // none: get() nullptr
    static result<workspace> try_create() noexcept
    {
        hs_workspace *p = nullptr;
        const hs_status s = hs_workspace_create(&p);
        workspace ws;
        ws.p_.reset(p);
        if (s != HS_OK)
            return detail::failed{s};
        return ws;
    }
    result<void> try_trim() noexcept { return hs_workspace_trim(p_.get()); }
#if HS_CPP_EXCEPTIONS
    static workspace create() { return detail::take(try_create()); }
    void trim() { detail::take(try_trim()); }
#endif
    std::size_t bytes() const noexcept { return p_ ? hs_workspace_bytes(p_.get()) : 0; }
    hs_workspace *get() const noexcept { return p_.get(); }

  private:
    detail::handle<hs_workspace, hs_workspace_destroy> p_;
};

// The options of a batch call (hs_batch_opts); a value-initialised one is the default (solid,
// the best ISA level, the default team). ws and tasks are the caller's and outlive the call.
// disp_x, disp_y: the displacements of moving circles (grid calls only; one per circle of the
// grid, else HS_E_RANGE; refused by brute force with HS_E_UNSUPPORTED). stats: filled on return.
struct options {
    hs_semantics semantics = HS_SOLID;
    hs_isa isa = HS_ISA_AUTO;
    int threads = 0;
    hs_workspace *ws = nullptr;
    const hs_task_system *tasks = nullptr;
    span<const float> disp_x = {}, disp_y = {};
    hs_batch_stats *stats = nullptr;
};

// The grid's options: cell size, threads, periodic box, task system (hitscan/grid.h).
using grid_options = hs_grid_opts;
using pair_options = hs_pair_opts;

// An hs_task_system over a scheduler object of yours with the members
//   void *enqueue(hs_task_fn *fn, void *task_context);  // run fn(task_context) once; a handle
//   void finish(void *task);                             // return once that task has run
// (the contract of hs_task_system in hitscan/batch.h). The scheduler must outlive the calls
// given it; its members must not throw (an exception there ends the program: it cannot
// cross the library's C frames).
template <class Scheduler> hs_task_system task_system(Scheduler &s, int workers) noexcept
{
    hs_task_system ts{};
    ts.enqueue = [](hs_task_fn *fn, void *task_context, void *user) noexcept -> void * {
        return static_cast<Scheduler *>(user)->enqueue(fn, task_context);
    };
    ts.finish = [](void *task, void *user) noexcept {
        static_cast<Scheduler *>(user)->finish(task);
    };
    ts.workers = workers;
    ts.user_context = &s;
    return ts;
}

namespace detail
{
inline hs_batch_opts c_options(const options &o, hs_batch_stats *stats) noexcept
{
    hs_batch_opts c = hs_batch_opts_default();
    c.sem = o.semantics;
    c.isa = o.isa;
    c.threads = o.threads;
    c.stats = stats;
    c.ws = o.ws;
    c.disp_x = ptr(o.disp_x);
    c.disp_y = ptr(o.disp_y);
    c.tasks = o.tasks;
    return c;
}
} // namespace detail
} // namespace hitscan

#endif
