/* SPDX-License-Identifier: MIT */
// hitscan for C++ (hitscan/hitscan.hpp): the batch queries grids and brute force share, written
// once over each one's C calls (closest, any, count, all, all_into).
#ifndef HITSCAN_CPP_ENGINE_HPP
#define HITSCAN_CPP_ENGINE_HPP

#include "hitscan/cpp/results.hpp"

namespace hitscan
{
namespace detail
{

// A batch call's outcome with its answers: kept on HS_OK and on HS_E_INVALID_QUERY (the
// invalid queries answered as misses), dropped on any other status.
template <class T> result<T> answer(T &&value, result<void> r) noexcept
{
    if (r.ok() || r.status() == HS_E_INVALID_QUERY)
        return result<T>(std::move(value), r.status(), r.index());
    return failed{r.status(), r.index()};
}

// Runs one C batch call: the batch's own status first, then the engine's check of the moving
// circles' displacements, then the call with stats, whose first invalid query becomes the
// index of HS_E_INVALID_QUERY. The caller's stats get a copy.
template <class Call>
result<void> batch(const queries &qs, const options &o, hs_status motion, Call call) noexcept
{
    if (qs.status() != HS_OK)
        return qs.status();
    if (motion != HS_OK)
        return motion;
    hs_batch_stats st{};
    st.first_invalid = npos;
    const hs_batch_opts c = c_options(o, &st);
    const hs_status s = call(&qs.c(), &c);
    if (o.stats)
        *o.stats = st;
    return {s, s == HS_E_INVALID_QUERY ? st.first_invalid : npos};
}

template <class T> bool too_short(span<T> s, std::size_t m) noexcept
{
    return !s.empty() && s.size() < m;
}
template <class T> T *data_or_null(std::vector<T> &v) noexcept
{
    return v.empty() ? nullptr : v.data();
}

// hs_hits_place_fn over hits_coo: sizes its vectors; an allocation that fails gives up the
// call (HS_E_NOMEM) rather than unwinding through the library.
inline int place_coo(void *ctx, std::size_t count, std::size_t total, hs_hits_into *dst) noexcept
{
    hits_coo &out = *static_cast<hits_coo *>(ctx);
#if HS_CPP_EXCEPTIONS
    try {
#endif
        out.offsets.resize(count + 1);
        out.query.resize(total);
        out.idx.resize(total);
        out.t.resize(total);
        out.kind.resize(total);
#if HS_CPP_EXCEPTIONS
    } catch (...) {
        return 1;
    }
#endif
    dst->offsets = out.offsets.data();
    dst->query = out.query.data();
    dst->idx = out.idx.data();
    dst->t = out.t.data();
    dst->kind = out.kind.data();
    return 0;
}

// Self gives c_handle(), motion(options), has_walls() and the C calls c_closest, c_any,
// c_count, c_all, c_all_into taking that handle.
template <class Self> class engine
{
  public:
    // Closest hit per query, into vectors (fields: closest_points | closest_normals |
    // closest_kinds; kinds come anyway when there are walls).
    result<closest_result> try_closest(const queries &qs, const options &o = {},
                                       unsigned fields = 0) const noexcept
    {
        return guard([&]() -> result<closest_result> {
            closest_result r;
            const std::size_t m = qs.status() == HS_OK ? qs.size() : 0;
            r.idx.resize(m);
            r.t.resize(m);
            if (fields & closest_points) {
                r.px.resize(m);
                r.py.resize(m);
            }
            if (fields & closest_normals) {
                r.nx.resize(m);
                r.ny.resize(m);
            }
            if ((fields & closest_kinds) || self().has_walls())
                r.kind.resize(m);
            closest_spans out{r.idx, r.t, r.px, r.py, r.nx, r.ny, r.kind};
            result<void> s = try_closest_into(qs, out, o);
            return answer(std::move(r), s);
        });
    }
    // Closest hit per query, into the caller's memory.
    result<void> try_closest_into(const queries &qs, const closest_spans &out,
                                  const options &o = {}) const noexcept
    {
        const std::size_t m = qs.size();
        if (too_short(out.idx, m) || too_short(out.t, m) || too_short(out.px, m) ||
            too_short(out.py, m) || too_short(out.nx, m) || too_short(out.ny, m) ||
            too_short(out.kind, m))
            return HS_E_RANGE;
        hs_closest_out c{ptr(out.idx), ptr(out.t),  ptr(out.px),  ptr(out.py),
                         ptr(out.nx),  ptr(out.ny), ptr(out.kind)};
        return run(qs, o, [&](const hs_queries *q, const hs_batch_opts *b) {
            return Self::c_closest(self().c_handle(), q, b, c);
        });
    }
    // Whether each query hits anything (1 / 0).
    result<std::vector<std::uint8_t>> try_any(const queries &qs,
                                              const options &o = {}) const noexcept
    {
        return into_vector<std::uint8_t>(
            qs, [&](span<std::uint8_t> s) { return try_any_into(qs, s, o); });
    }
    result<void> try_any_into(const queries &qs, span<std::uint8_t> hit,
                              const options &o = {}) const noexcept
    {
        return per_query(qs, hit, o, Self::c_any);
    }
    // How many circles each query hits.
    result<std::vector<std::uint32_t>> try_count(const queries &qs,
                                                 const options &o = {}) const noexcept
    {
        return into_vector<std::uint32_t>(
            qs, [&](span<std::uint32_t> s) { return try_count_into(qs, s, o); });
    }
    result<void> try_count_into(const queries &qs, span<std::uint32_t> count,
                                const options &o = {}) const noexcept
    {
        return per_query(qs, count, o, Self::c_count);
    }
    // Every hit of every query (CSR, owned).
    result<hits> try_all(const queries &qs, const options &o = {}) const noexcept
    {
        hits h;
        hs_hits *c = h.refill();
        result<void> s = run(qs, o, [&](const hs_queries *q, const hs_batch_opts *b) {
            return Self::c_all(self().c_handle(), q, b, c);
        });
        return answer(std::move(h), s);
    }
    // Every hit into the caller's vectors (resized; emptied on an error without answers).
    result<void> try_all_into(const queries &qs, hits_coo &out,
                              const options &o = {}) const noexcept
    {
        result<void> s = run(qs, o, [&](const hs_queries *q, const hs_batch_opts *b) {
            return Self::c_all_into(self().c_handle(), q, b, place_coo, &out);
        });
        if (!s.ok() && s.status() != HS_E_INVALID_QUERY)
            out = hits_coo{};
        return s;
    }

#if HS_CPP_EXCEPTIONS
    // The same calls, throwing hitscan::error for any status but HS_OK (HS_E_INVALID_QUERY
    // included: its index is the first invalid query; the _into forms have written the rest).
    closest_result closest(const queries &qs, const options &o = {}, unsigned fields = 0) const
    {
        return take(try_closest(qs, o, fields));
    }
    void closest_into(const queries &qs, const closest_spans &out, const options &o = {}) const
    {
        take(try_closest_into(qs, out, o));
    }
    std::vector<std::uint8_t> any(const queries &qs, const options &o = {}) const
    {
        return take(try_any(qs, o));
    }
    void any_into(const queries &qs, span<std::uint8_t> hit, const options &o = {}) const
    {
        take(try_any_into(qs, hit, o));
    }
    std::vector<std::uint32_t> count(const queries &qs, const options &o = {}) const
    {
        return take(try_count(qs, o));
    }
    void count_into(const queries &qs, span<std::uint32_t> count, const options &o = {}) const
    {
        take(try_count_into(qs, count, o));
    }
    hits all(const queries &qs, const options &o = {}) const { return take(try_all(qs, o)); }
    void all_into(const queries &qs, hits_coo &out, const options &o = {}) const
    {
        take(try_all_into(qs, out, o));
    }
#endif

  private:
    const Self &self() const noexcept { return static_cast<const Self &>(*this); }
    template <class Call>
    result<void> run(const queries &qs, const options &o, Call call) const noexcept
    {
        return batch(qs, o, self().motion(o), call);
    }
    // A call writing one answer per query into out (any, count).
    template <class T, class CCall>
    result<void> per_query(const queries &qs, span<T> out, const options &o,
                           CCall c_call) const noexcept
    {
        if (too_short(out, qs.size()))
            return HS_E_RANGE;
        return run(qs, o, [&](const hs_queries *q, const hs_batch_opts *b) {
            return c_call(self().c_handle(), q, b, ptr(out));
        });
    }
    template <class T, class Into>
    result<std::vector<T>> into_vector(const queries &qs, Into into) const noexcept
    {
        return guard([&]() -> result<std::vector<T>> {
            std::vector<T> v(qs.status() == HS_OK ? qs.size() : 0);
            result<void> s = into(span<T>(v));
            return answer(std::move(v), s);
        });
    }
};
} // namespace detail

// Brute force over a circle set (hs_brute_*): every query against every circle, the same
// answers as a grid's; the right choice for small sets. A view: the set must outlive it.
class brute : public detail::engine<brute>
{
  public:
    explicit brute(const circles &cs) noexcept : cs_(cs.get()) {}

  private:
    friend class detail::engine<brute>;
    const hs_circles *c_handle() const noexcept { return cs_; }
    static hs_status motion(const options &o) noexcept
    {
        return o.disp_x.empty() && o.disp_y.empty() ? HS_OK : HS_E_UNSUPPORTED;
    }
    static bool has_walls() noexcept { return false; }
    static constexpr auto c_closest = &hs_brute_closest;
    static constexpr auto c_any = &hs_brute_any;
    static constexpr auto c_count = &hs_brute_count;
    static constexpr auto c_all = &hs_brute_all;
    static constexpr auto c_all_into = &hs_brute_all_into;
    const hs_circles *cs_;
};
} // namespace hitscan

#endif
