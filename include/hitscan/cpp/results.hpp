/* SPDX-License-Identifier: MIT */
// hitscan for C++ (hitscan/hitscan.hpp): what the calls answer. Plain vectors the caller owns,
// spans of the caller's memory, and move-only owners of the C API's result structs.
#ifndef HITSCAN_CPP_RESULTS_HPP
#define HITSCAN_CPP_RESULTS_HPP

#include "hitscan/cpp/sets.hpp"

namespace hitscan
{

// Which of closest's optional outputs to fill (or-ed): hit points P(t), unit normals, kinds.
enum closest_fields : unsigned { closest_points = 1u, closest_normals = 2u, closest_kinds = 4u };

// Closest hits, one entry per query: idx HS_NONE and t NaN on a miss; px, py, nx, ny empty
// unless asked for (closest_fields). kind: HS_KIND_CIRCLE or HS_KIND_WALL of idx
// (HS_KIND_CIRCLE on a miss), filled when asked for and always from a grid with walls, where
// idx alone does not say what was hit.
struct closest_result {
    std::vector<std::uint32_t> idx;
    std::vector<float> t;
    std::vector<float> px, py, nx, ny;
    std::vector<std::uint8_t> kind;
};

// Closest hits written into the caller's memory: idx and t required, the others optional
// (empty: not written); each at least one entry per query (HS_E_RANGE otherwise).
struct closest_spans {
    span<std::uint32_t> idx;
    span<float> t;
    span<float> px = {}, py = {}, nx = {}, ny = {};
    span<std::uint8_t> kind = {};
};

// Every hit of every query in CSR form (hs_hits): query i's hits are offsets()[i] ..
// offsets()[i + 1], ordered by t, then kind (circles first), then index. kind() is each hit's
// HS_KIND_*, empty when the grid has no walls (every hit a circle's). Made with a workspace,
// its arrays are the workspace's and valid until that workspace's next call (trim,
// destruction).
class hits : public detail::owned<hs_hits, hs_hits_free>
{
  public:
    struct row_view {
        span<const std::uint32_t> idx;
        span<const float> t;
        span<const std::uint8_t> kind; // empty without walls
    };
    std::size_t size() const noexcept { return v_.count; } // queries
    std::size_t total() const noexcept { return v_.total; }
    span<const std::size_t> offsets() const noexcept
    {
        return detail::view(v_.offsets, v_.offsets ? v_.count + 1 : 0);
    }
    span<const std::uint32_t> idx() const noexcept { return detail::view(v_.idx, v_.total); }
    span<const float> t() const noexcept { return detail::view(v_.t, v_.total); }
    span<const std::uint8_t> kind() const noexcept { return detail::view(v_.kind, v_.total); }
    row_view row(std::size_t i) const noexcept
    {
        const std::size_t b = v_.offsets[i], n = v_.offsets[i + 1] - b;
        return {detail::view(v_.idx + b, n), detail::view(v_.t + b, n),
                v_.kind ? detail::view(v_.kind + b, n) : span<const std::uint8_t>()};
    }
};

// Every hit written into vectors the caller keeps (hs_hits_into, the COO / CSR layout NumPy
// and sparse matrices take): the same hits in the same order as hits, each with its query.
// all_into() resizes them, so a frame loop reusing one allocates only when it grows.
struct hits_coo {
    std::vector<std::int64_t> offsets; // queries + 1 entries
    std::vector<std::int64_t> query;   // one per hit, ascending
    std::vector<std::int64_t> idx;     // the circle (or wall) hit
    std::vector<float> t;              // its entry parameter
    std::vector<std::uint8_t> kind;    // HS_KIND_* of idx (all HS_KIND_CIRCLE without walls)
};

// Overlapping pairs i < j (hs_pairs), ordered by i then j; the optional arrays are filled
// only when pairs_ex asked for them (pair_options.outputs), else empty.
class pairs : public detail::owned<hs_pairs, hs_pairs_free>
{
  public:
    std::size_t size() const noexcept { return v_.count; }
    span<const std::uint32_t> i() const noexcept { return detail::view(v_.i, v_.count); }
    span<const std::uint32_t> j() const noexcept { return detail::view(v_.j, v_.count); }
    span<const std::int8_t> sx() const noexcept { return detail::view(v_.sx, v_.count); }
    span<const std::int8_t> sy() const noexcept { return detail::view(v_.sy, v_.count); }
    span<const float> nx() const noexcept { return detail::view(v_.nx, v_.count); }
    span<const float> ny() const noexcept { return detail::view(v_.ny, v_.count); }
    span<const float> distance() const noexcept { return detail::view(v_.distance, v_.count); }
    span<const float> gap() const noexcept { return detail::view(v_.gap, v_.count); }
};

// Moving circles that touch during a step (hs_swept_pairs): first contact t, normal, whether
// they touch at t = 0; sx, sy only on a periodic grid.
class swept_pairs : public detail::owned<hs_swept_pairs, hs_swept_pairs_free>
{
  public:
    std::size_t size() const noexcept { return v_.count; }
    span<const std::uint32_t> i() const noexcept { return detail::view(v_.i, v_.count); }
    span<const std::uint32_t> j() const noexcept { return detail::view(v_.j, v_.count); }
    span<const float> t() const noexcept { return detail::view(v_.t, v_.count); }
    span<const float> nx() const noexcept { return detail::view(v_.nx, v_.count); }
    span<const float> ny() const noexcept { return detail::view(v_.ny, v_.count); }
    span<const std::uint8_t> overlapping() const noexcept
    {
        return detail::view(v_.overlapping, v_.count);
    }
    span<const std::int8_t> sx() const noexcept { return detail::view(v_.sx, v_.count); }
    span<const std::int8_t> sy() const noexcept { return detail::view(v_.sy, v_.count); }
};

// Circles overlapping each of many discs (hs_overlaps), CSR: disc q's are idx() from
// offsets()[q] to offsets()[q + 1], in ascending index order.
class overlaps : public detail::owned<hs_overlaps, hs_overlaps_free>
{
  public:
    std::size_t size() const noexcept { return v_.count; } // discs
    std::size_t total() const noexcept { return v_.total; }
    span<const std::size_t> offsets() const noexcept
    {
        return detail::view(v_.offsets, v_.offsets ? v_.count + 1 : 0);
    }
    span<const std::uint32_t> idx() const noexcept { return detail::view(v_.idx, v_.total); }
    span<const std::uint32_t> row(std::size_t q) const noexcept
    {
        return detail::view(v_.idx + v_.offsets[q], v_.offsets[q + 1] - v_.offsets[q]);
    }
};
} // namespace hitscan

#endif
