/* SPDX-License-Identifier: MIT */
// hitscan for C++ (hitscan/hitscan.hpp): wall sets (hs_walls, hitscan/walls.h), owned and
// checked. A grid built with one (grid::build(circles, walls), grid::set_walls) answers every
// query against circles and walls together; its answers carry a kind (HS_KIND_CIRCLE,
// HS_KIND_WALL) beside each index.
#ifndef HITSCAN_CPP_WALLS_HPP
#define HITSCAN_CPP_WALLS_HPP

#include "hitscan/cpp/base.hpp"

namespace hitscan
{

// A wall set (hs_walls), move-only: wall i runs from (ax[i], ay[i]) to (bx[i], by[i]),
// thickened by thickness[i] (a capsule; empty: every wall thin) and filtered by mask[i] (empty:
// every bit). create() copies the arrays into aligned storage; borrow() keeps the caller's,
// which must outlive the set and not change while it is used. Both validate every wall: a bad
// one is refused with its status and index. Arrays of different lengths are refused with
// HS_E_RANGE (index npos). A grid copies the walls it is given, so it may outlive the set.
class walls
{
  public:
    walls() noexcept = default; // no set: size() 0, get() nullptr (a grid without walls)

    static result<walls> try_create(span<const float> ax, span<const float> ay,
                                    span<const float> bx, span<const float> by,
                                    span<const float> thickness = {},
                                    span<const std::uint32_t> mask = {}) noexcept
    {
        return make(hs_walls_create, ax, ay, bx, by, thickness, mask);
    }
    static result<walls> try_borrow(span<const float> ax, span<const float> ay,
                                    span<const float> bx, span<const float> by,
                                    span<const float> thickness = {},
                                    span<const std::uint32_t> mask = {}) noexcept
    {
        return make(hs_walls_borrow, ax, ay, bx, by, thickness, mask);
    }
#if HS_CPP_EXCEPTIONS
    static walls create(span<const float> ax, span<const float> ay, span<const float> bx,
                        span<const float> by, span<const float> thickness = {},
                        span<const std::uint32_t> mask = {})
    {
        return detail::take(try_create(ax, ay, bx, by, thickness, mask));
    }
    static walls borrow(span<const float> ax, span<const float> ay, span<const float> bx,
                        span<const float> by, span<const float> thickness = {},
                        span<const std::uint32_t> mask = {})
    {
        return detail::take(try_borrow(ax, ay, bx, by, thickness, mask));
    }
#endif

    std::size_t size() const noexcept { return hs_walls_count(p_.get()); }
    const hs_walls *get() const noexcept { return p_.get(); }
    explicit operator bool() const noexcept { return p_ != nullptr; }

  private:
    using maker = hs_status (*)(const float *, const float *, const float *, const float *,
                                const float *, const std::uint32_t *, std::size_t, hs_walls **,
                                std::size_t *);
    static result<walls> make(maker f, span<const float> ax, span<const float> ay,
                              span<const float> bx, span<const float> by,
                              span<const float> thickness, span<const std::uint32_t> mask) noexcept
    {
        const std::size_t n = ax.size();
        if (ay.size() != n || bx.size() != n || by.size() != n ||
            (!thickness.empty() && thickness.size() != n) || (!mask.empty() && mask.size() != n))
            return detail::failed{HS_E_RANGE};
        hs_walls *p = nullptr;
        std::size_t bad = npos;
        const hs_status s = f(ax.data(), ay.data(), bx.data(), by.data(), detail::ptr(thickness),
                              detail::ptr(mask), n, &p, &bad);
        walls ws;
        ws.p_.reset(p);
        if (s != HS_OK)
            return detail::failed{s, bad};
        return ws;
    }
    detail::handle<hs_walls, hs_walls_destroy> p_;
};

} // namespace hitscan

#endif
