/* SPDX-License-Identifier: MIT */
// hitscan for C++17 and C++20: header-only, over the C API of hitscan/hitscan.h (link
// hitscan::hitscan as for C). docs/cpp.md has the whole tour; in short:
//
//   auto cs = hitscan::circles::create(x, y, r);     // spans: std::vector, std::array, {ptr, n}
//   auto g = hitscan::grid::build(cs);               // owns its copy; move-only, freed once
//   auto qs = hitscan::queries::segments(ax, ay, dx, dy);
//   hitscan::closest_result c = g.closest(qs);       // c.idx[i] == HS_NONE on a miss, c.t[i]
//   g.closest_into(qs, {idx, t});                    // or into your memory
//   hitscan::hits all = g.all(qs);                   // CSR, owned; all.row(i).idx, .t
//   auto ws = hitscan::walls::create(ax, ay, bx, by); // walls (thickness, mask optional)
//   auto gw = hitscan::grid::build(cs, ws);          // c.kind[i]: HS_KIND_CIRCLE / _WALL
//   g.rebuild_from(x, y, r);                         // next frame
//
// Conventions:
// - Spans are std::span in C++20 (when <span> is there), else hitscan::span, a pointer and a
//   count with the same use; both are made from containers, arrays or (pointer, count).
// - Errors: every call X throws hitscan::error (a std::runtime_error with status() and index(),
//   the bad circle, wall, query or disc where the C API names one, else hitscan::npos) and
//   has a twin try_X, noexcept, returning result<T> (ok(), status(), index(), value()). Built
//   with -fno-exceptions only the try_ calls exist. A batch with invalid queries is an error
//   for X; try_X keeps the answers (has_value(), status HS_E_INVALID_QUERY).
// - Owners (circles, walls, grid, workspace, hits, pairs, swept_pairs, overlaps) are
//   move-only and free what they hold once; get() and c() give the C objects for the C API's
//   other calls.
// - Nothing thrown crosses the library: a task system's members must not throw.
#ifndef HITSCAN_HITSCAN_HPP
#define HITSCAN_HITSCAN_HPP

#include "hitscan/cpp/base.hpp"    // span, error, result<T>, status_string
#include "hitscan/cpp/sets.hpp"    // circles, queries, workspace, options, task_system
#include "hitscan/cpp/results.hpp" // closest_result, closest_spans, hits, hits_coo, pairs, ...
#include "hitscan/cpp/engine.hpp"  // batch queries (grid and brute share them), brute
#include "hitscan/cpp/walls.hpp"   // walls
#include "hitscan/cpp/grid.hpp"    // grid

#endif
