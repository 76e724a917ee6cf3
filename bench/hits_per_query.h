// SPDX-License-Identifier: MIT
// The work behind a benchmark's rate: the mean hits a segment of a batch meets on a grid, from
// its first `limit` segments (counting them all takes the grid many seconds on some scenes:
// with every circle at one point, every segment meets every circle).
#ifndef HITSCAN_BENCH_HITS_PER_QUERY_H
#define HITSCAN_BENCH_HITS_PER_QUERY_H

#include <algorithm>
#include <cstdint>
#include <vector>

#include "hitscan/batch.h"
#include "hitscan/grid.h"

// The mean into *mean; false when the count failed.
inline bool HitsPerQuery(const hs_grid *g, hs_queries qs, size_t limit, double *mean)
{
    qs.count = std::min(qs.count, limit);
    std::vector<uint32_t> cnt(qs.count);
    if (hs_grid_count_hits(g, &qs, nullptr, cnt.data()) != HS_OK)
        return false;
    uint64_t hits = 0;
    for (uint32_t c : cnt)
        hits += c;
    *mean = qs.count ? (double)hits / (double)qs.count : 0.0;
    return true;
}

#endif
