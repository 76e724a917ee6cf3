/* SPDX-License-Identifier: MIT */
// hitscan for C++ (hitscan/hitscan.hpp): the grid (hs_grid), owned: build, rebuilds, walls,
// batch queries, pairs, swept pairs and overlap queries.
#ifndef HITSCAN_CPP_GRID_HPP
#define HITSCAN_CPP_GRID_HPP

#include "hitscan/cpp/engine.hpp"
#include "hitscan/cpp/walls.hpp"

namespace hitscan
{

// The grid keeps its own copy of the circles (hitscan/grid.h), so it outlives the set it was
// built from and sees moved circles only through a rebuild. Move-only. Its batch queries
// (closest, any, count, all, all_into and their try_ and _into forms) are engine's.
class grid : public detail::engine<grid>
{
  public:
    grid() noexcept = default; // no grid: every call fails with HS_E_NULL

    static result<grid> try_build(const circles &cs, const grid_options &o = {}) noexcept
    {
        hs_grid *p = nullptr;
        const hs_status s = hs_grid_build(cs.get(), &o, &p);
        grid g;
        g.p_.reset(p);
        if (s != HS_OK)
            return detail::failed{s};
        return g;
    }
    // Circles and walls in one grid (o.walls set to ws; the grid copies both, so either set
    // may go first). A grid of walls alone is built from an empty circle set. W is walls
    // (a template only so that try_build(cs, {}) still means the options).
    template <class W, class = std::enable_if_t<std::is_same_v<W, hitscan::walls>>>
    static result<grid> try_build(const circles &cs, const W &ws, grid_options o = {}) noexcept
    {
        o.walls = ws.get();
        return try_build(cs, o);
    }
    // The grid's walls replaced by a copy of ws (an empty walls(): none). On an error (a
    // periodic grid, a wall beyond the grid's range: HS_E_RANGE) the grid keeps its walls.
    result<void> try_set_walls(const hitscan::walls &ws) noexcept
    {
        return hs_grid_set_walls(p_.get(), ws.get());
    }
    // From a set with new positions or radii; on a bad circle the grid is left as it was.
    result<void> try_rebuild(const circles &cs) noexcept
    {
        return hs_grid_rebuild(p_.get(), cs.get());
    }
    // From the caller's arrays, read during the call only: the one call a frame loop needs.
    // A bad circle is refused with its index and the grid left as it was.
    result<void> try_rebuild_from(span<const float> x, span<const float> y, span<const float> r,
                                  span<const std::uint32_t> mask = {}) noexcept
    {
        const std::size_t n = x.size();
        if (y.size() != n || r.size() != n || (!mask.empty() && mask.size() != n))
            return HS_E_RANGE;
        std::size_t bad = npos;
        const hs_status s = hs_grid_rebuild_from(p_.get(), x.data(), y.data(), r.data(),
                                                 detail::ptr(mask), n, &bad);
        return {s, bad};
    }

    // Every overlapping pair once (hs_grid_pairs), every pair within skin
    // (hs_grid_pairs_within), and either with shifts or contacts (hs_grid_pairs_ex).
    result<hitscan::pairs> try_pairs(const options &o = {}) const noexcept
    {
        return make_pairs(o, [&](const hs_batch_opts *b, hs_pairs *out) {
            return hs_grid_pairs(p_.get(), b, out);
        });
    }
    result<hitscan::pairs> try_pairs_within(float skin, const options &o = {}) const noexcept
    {
        return make_pairs(o, [&](const hs_batch_opts *b, hs_pairs *out) {
            return hs_grid_pairs_within(p_.get(), skin, b, out);
        });
    }
    result<hitscan::pairs> try_pairs_ex(const pair_options &po,
                                        const options &o = {}) const noexcept
    {
        return make_pairs(o, [&](const hs_batch_opts *b, hs_pairs *out) {
            return hs_grid_pairs_ex(p_.get(), &po, b, out);
        });
    }
    // Moving circles touching during a step: dx, dy one per circle of the grid (HS_E_RANGE
    // otherwise).
    result<hitscan::swept_pairs> try_swept_pairs(span<const float> dx, span<const float> dy,
                                                 const options &o = {}) const noexcept
    {
        hitscan::swept_pairs sp;
        if (dx.size() != circle_count() || dy.size() != circle_count())
            return detail::failed{HS_E_RANGE};
        const hs_batch_opts b = detail::c_options(o, o.stats);
        const hs_status s = hs_grid_swept_pairs(p_.get(), dx.data(), dy.data(), &b, sp.refill());
        if (s != HS_OK)
            return detail::failed{s};
        return sp;
    }
    // Circles overlapping the closed disc c whose mask meets mask, in ascending index order.
    result<std::vector<std::uint32_t>> try_overlap_circle(circle c,
                                                          std::uint32_t mask = ~0u) const noexcept
    {
        return detail::guard([&]() -> result<std::vector<std::uint32_t>> {
            std::vector<std::uint32_t> v(16);
            std::size_t found = 0;
            hs_status s = hs_grid_overlap_circle(p_.get(), c, mask, v.data(), v.size(), &found);
            if (s == HS_OK && found > v.size()) {
                v.resize(found);
                s = hs_grid_overlap_circle(p_.get(), c, mask, v.data(), v.size(), &found);
            }
            if (s != HS_OK)
                return detail::failed{s};
            v.resize(found);
            return v;
        });
    }
    // The same into the caller's memory: writes up to idx.size() and returns how many there
    // are (call again with more room when that is larger).
    result<std::size_t> try_overlap_circle_into(circle c, span<std::uint32_t> idx,
                                                std::uint32_t mask = ~0u) const noexcept
    {
        std::size_t found = 0;
        const hs_status s =
            hs_grid_overlap_circle(p_.get(), c, mask, detail::ptr(idx), idx.size(), &found);
        if (s != HS_OK)
            return detail::failed{s};
        return found;
    }
    // Many disc overlap queries at once (r empty: points; mask empty: every bit). A disc the
    // C API refuses gets an empty row: HS_E_INVALID_QUERY with the first one's index.
    result<hitscan::overlaps> try_overlap_discs(span<const float> x, span<const float> y,
                                                span<const float> r = {},
                                                span<const std::uint32_t> mask = {},
                                                const options &o = {}) const noexcept
    {
        hitscan::overlaps ov;
        const std::size_t m = x.size();
        if (y.size() != m || (!r.empty() && r.size() != m) || (!mask.empty() && mask.size() != m))
            return detail::failed{HS_E_RANGE};
        hs_overlaps *c = ov.refill();
        result<void> s =
            detail::batch(queries(), o, HS_OK, [&](const hs_queries *, const hs_batch_opts *b) {
                return hs_grid_overlap_discs(p_.get(), x.data(), y.data(), detail::ptr(r),
                                             detail::ptr(mask), m, b, c);
            });
        return detail::answer(std::move(ov), s);
    }

#if HS_CPP_EXCEPTIONS
    static grid build(const circles &cs, const grid_options &o = {})
    {
        return detail::take(try_build(cs, o));
    }
    template <class W, class = std::enable_if_t<std::is_same_v<W, hitscan::walls>>>
    static grid build(const circles &cs, const W &ws, const grid_options &o = {})
    {
        return detail::take(try_build(cs, ws, o));
    }
    void set_walls(const hitscan::walls &ws) { detail::take(try_set_walls(ws)); }
    void rebuild(const circles &cs) { detail::take(try_rebuild(cs)); }
    void rebuild_from(span<const float> x, span<const float> y, span<const float> r,
                      span<const std::uint32_t> mask = {})
    {
        detail::take(try_rebuild_from(x, y, r, mask));
    }
    hitscan::pairs pairs(const options &o = {}) const { return detail::take(try_pairs(o)); }
    hitscan::pairs pairs_within(float skin, const options &o = {}) const
    {
        return detail::take(try_pairs_within(skin, o));
    }
    hitscan::pairs pairs_ex(const pair_options &po, const options &o = {}) const
    {
        return detail::take(try_pairs_ex(po, o));
    }
    hitscan::swept_pairs swept_pairs(span<const float> dx, span<const float> dy,
                                     const options &o = {}) const
    {
        return detail::take(try_swept_pairs(dx, dy, o));
    }
    std::vector<std::uint32_t> overlap_circle(circle c, std::uint32_t mask = ~0u) const
    {
        return detail::take(try_overlap_circle(c, mask));
    }
    std::size_t overlap_circle_into(circle c, span<std::uint32_t> idx,
                                    std::uint32_t mask = ~0u) const
    {
        return detail::take(try_overlap_circle_into(c, idx, mask));
    }
    hitscan::overlaps overlap_discs(span<const float> x, span<const float> y,
                                    span<const float> r = {}, span<const std::uint32_t> mask = {},
                                    const options &o = {}) const
    {
        return detail::take(try_overlap_discs(x, y, r, mask, o));
    }
#endif

    std::size_t circle_count() const noexcept { return p_ ? hs_grid_circle_count(p_.get()) : 0; }
    std::size_t wall_count() const noexcept { return p_ ? hs_grid_wall_count(p_.get()) : 0; }
    std::size_t bytes() const noexcept { return p_ ? hs_grid_bytes(p_.get()) : 0; }
    float cell_size() const noexcept { return p_ ? hs_grid_cell_size(p_.get()) : 0.0f; }
    unsigned periodic(aabb *box = nullptr) const noexcept
    {
        return p_ ? hs_grid_periodic(p_.get(), box) : 0u;
    }
    // The task system the grid's rebuilds run on from now on (nullptr: the library's own).
    void set_tasks(const hs_task_system *ts) noexcept
    {
        if (p_)
            hs_grid_set_tasks(p_.get(), ts);
    }
    const hs_grid *get() const noexcept { return p_.get(); }
    hs_grid *get() noexcept { return p_.get(); }
    explicit operator bool() const noexcept { return p_ != nullptr; }

  private:
    friend class detail::engine<grid>;
    const hs_grid *c_handle() const noexcept { return p_.get(); }
    bool has_walls() const noexcept { return wall_count() > 0; }
    hs_status motion(const options &o) const noexcept
    {
        if (o.disp_x.empty() && o.disp_y.empty())
            return HS_OK;
        const std::size_t n = circle_count();
        return o.disp_x.size() == n && o.disp_y.size() == n ? HS_OK : HS_E_RANGE;
    }
    template <class Call>
    result<hitscan::pairs> make_pairs(const options &o, Call call) const noexcept
    {
        hitscan::pairs ps;
        const hs_batch_opts b = detail::c_options(o, o.stats);
        const hs_status s = call(&b, ps.refill());
        if (s != HS_OK)
            return detail::failed{s};
        return ps;
    }
    static constexpr auto c_closest = &hs_grid_closest;
    static constexpr auto c_any = &hs_grid_any;
    static constexpr auto c_count = &hs_grid_count_hits;
    static constexpr auto c_all = &hs_grid_all;
    static constexpr auto c_all_into = &hs_grid_all_into;
    detail::handle<hs_grid, hs_grid_destroy> p_;
};
} // namespace hitscan

#endif
