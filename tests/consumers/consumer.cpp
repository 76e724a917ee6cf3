/* SPDX-License-Identifier: MIT */
// A C++17 program using the installed hitscan: the public headers must compile as C++, and
// the installed C++ wrapper (hitscan/hitscan.hpp) must answer as the C API does.
#include "consumer.h"

#include <hitscan/hitscan.hpp>

#include <vector>

// consumer.h's scene through hitscan.hpp: the same closest hit, and an error with its index.
static int hs_consumer_check_hpp()
{
    const std::vector<float> x{10.0f, 20.0f, 30.0f}, y{0.0f, 0.5f, -0.5f}, r{1.0f, 2.0f, 1.0f};
    const std::vector<float> ax{0.0f}, ay{0.0f}, dx{40.0f}, dy{0.0f};
    hitscan::grid g = hitscan::grid::build(hitscan::circles::create(x, y, r));
    hitscan::closest_result c = g.closest(hitscan::queries::segments(ax, ay, dx, dy));
    const hs_query seg = hs_segment(hs_vec2{0.0f, 0.0f}, hs_vec2{40.0f, 0.0f});
    hs_hit hit;
    const int scalar = hs_intersect_circle(seg, hs_circle{x[0], y[0], r[0]}, HS_SOLID, &hit);
    int ok = c.idx.size() == 1 && c.idx[0] == 0 && scalar == 1 && c.t[0] == hit.t;
    const std::vector<float> bad_r{1.0f, -1.0f, 1.0f};
    try {
        hitscan::circles::create(x, y, bad_r);
        ok = 0;
    } catch (const hitscan::error &e) {
        ok = ok && e.status() == HS_E_NEG_RADIUS && e.index() == 1;
    }
    std::printf("C++ consumer (hitscan.hpp): closest idx %u t %.6f: %s\n",
                c.idx.empty() ? 0u : (unsigned)c.idx[0], c.t.empty() ? 0.0 : (double)c.t[0],
                ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}

int main()
{
    std::vector<float> x{1.0f};
    static_assert(HS_VERSION_MAJOR >= 0, "version macros are integers");
    return hs_consumer_check("C++ consumer") + hs_consumer_check_hpp() + (x.size() == 1 ? 0 : 1);
}
