/* SPDX-License-Identifier: MIT */
/* Internal: every performance knob of the library in one place, with why it has its value.
 * None changes a result: the answers, the grid and the stats are the same for any setting
 * (see docs/ARCHITECTURE.md for where each is used). */
#ifndef HITSCAN_TUNING_H
#define HITSCAN_TUNING_H

/* ---- Batch driver (src/batch/) ------------------------------------------------------------- */

/* Batches with less work (queries x rough circle tests per query) run on the calling thread:
 * starting a team costs more than a small batch gains from it. */
#define HS_PAR_MIN_WORK (2048u * 64u)
/* A light step (a copy, a count, a prefix sum: a few nanoseconds an item) over fewer than twice
 * this many items runs on the calling thread: waking a helper costs more than it saves. */
#define HS_PAR_LIGHT_STEP 16384u
/* Scheduling chunks per thread: query costs vary and threads share the machine, so several
 * chunks each balance the load while keeping the schedule's atomics rare. */
#define HS_CHUNKS_PER_THREAD 16u
/* Largest chunk of queries: bounds the imbalance one chunk can leave at the end. */
#define HS_CHUNK_MAX 1024u
/* Smallest range handed to the grid's block walk: it fills blocks of 64 from a range. */
#define HS_RANGE_MIN 256
/* All-hits: queries per block (a block's hits wait contiguously in one thread's buffer). */
#define HS_ALL_BLOCK 256
/* All-hits without a workspace: a thread's hit buffer is sized once from the hit rate of its
 * first this-many queries, instead of doubling from empty (which copies every hit once). */
#define HS_ALL_ESTIMATE 1024
/* All-hits' output: rows the copy requests ahead (each row waits at, or goes to, a random
 * place). */
#define HS_COPY_AHEAD 8
/* All-hits into the caller's arrays: an output of at least this many hits is stored past the
 * cache (a smaller one stays in the cache the caller reads it from): 1.25 MB at 20 bytes. */
#define HS_STREAM_MIN_HITS ((size_t)1 << 16)

/* Pairs' per-pair outputs copied in order: pairs per range at least. */
#define HS_PAIR_COPY_GRAIN HS_PAR_LIGHT_STEP
/* A pair filter's bits gathered into storage order: circles per range at least. */
#define HS_PAIR_FILTER_GRAIN HS_PAR_LIGHT_STEP

/* Periodic queries' pieces made and merged: queries per range at least. */
#define HS_PERIODIC_GRAIN 1024

/* The library's helper threads (src/batch/parallel.c): a step whose wall time exceeds this many
 * times the CPU time all its threads spent on it (what one thread alone would take), plus this
 * many microseconds, was held up by a helper the OS did not run: the cores are taken ... */
#define HS_PAR_STALL_RATIO 1.25
#define HS_PAR_STALL_US 50.0
/* ... and the next steps, up to this many in a row, run on the calling thread alone. */
#define HS_PAR_BACKOFF_MAX 1024u

/* ---- Grid build (src/grid/) ---------------------------------------------------------------- */

/* Automatic cell size: circles per cell on average over a level's bounding box. */
#define HS_GRID_PER_CELL 4.0
/* ... and never below this many times the level's largest radius: a query is inflated by that
 * radius, so smaller cells only multiply the cells visited. */
#define HS_GRID_R_FACTOR 2.0
/* Cells per circle are capped (the cells grow instead): bounds cell_start[] and the build's
 * histograms, hence the bytes per circle. */
#define HS_GRID_MAX_CELLS_PER_CIRCLE 0.5
/* A cell size the caller asks for is honoured up to this many cells per circle (+ 65536);
 * above, the build refuses it (HS_E_RANGE) rather than change it. */
#define HS_GRID_REQ_MAX_CELLS_PER_CIRCLE 16.0
/* A circle goes to the big level when r > max(HS_GRID_SPLIT x p99 radius, half the density
 * cell): a few large circles must not set the inflation of every query among small ones. */
#define HS_GRID_SPLIT 4.0
/* Circles sampled (at a fixed stride) for the split radius: deterministic and O(1). */
#define HS_GRID_SAMPLE 4096
/* The spatial partition (grid/partition.h): a node is cut when its sides' grids would cost at
 * most HS_PART_GAIN of its own, and only while it holds HS_PART_MIN_SAMPLE sampled centres;
 * a leaf accepts centres up to 1 / HS_PART_MARGIN of its box's longer side outside it. */
#define HS_PART_GAIN 0.7
#define HS_PART_MIN_SAMPLE 64
#define HS_PART_MARGIN 16.0
/* A leaf whose circles fill a share f of its box gets cells sized for that share (up to
 * 1 / f times the cells, so 0.5 / HS_PART_MIN_FILL cells per circle at most). */
#define HS_PART_MIN_FILL 0.125
/* Build threads: at most this many (each keeps a band buffer) ... */
#define HS_GRID_MAX_BUILD_THREADS 8
/* ... and one per this many circles (below, a team costs more to start than it saves). */
#define HS_GRID_MIN_PER_THREAD 16384
/* Up to this many circles the sort is one counting sort straight from the input (its random
 * writes stay in L2); above, circles are first partitioned into bands. */
#define HS_GRID_DIRECT 32768
/* Circles per band at most: a band is sorted inside a per-thread buffer that stays in L2. */
#define HS_GRID_BAND 16384
/* Bands are unions of consecutive sub-bands of cells: at most this many sub-bands, about
 * HS_GRID_SB_PER_BAND per band (fine enough to pack the bands evenly, coarse enough for the
 * tables to stay in L1). */
#define HS_GRID_SUBBANDS 4096
#define HS_GRID_SB_PER_BAND 16
/* Circles per vectorised cell computation. */
#define HS_GRID_BLOCK 256
/* Occupancy bits are kept for a level when at least this fraction of its cells is empty, as
 * estimated from HS_OCC_SAMPLE cells: with half the cells empty the check costs more than it
 * skips (CHANGELOG). */
#define HS_OCC_MIN_EMPTY 0.6
#define HS_OCC_SAMPLE 256
/* Radii sampled per level for hs_glevel.meet (every one of a level of fewer) */
#define HS_GRID_MEET_SAMPLE 1024
/* Records the band sort's scatter requests ahead (a store that misses holds up later ones). */
#define HS_GRID_PREFETCH 16

/* ---- Grid queries (src/grid/, src/kernels/) ------------------------------------------------ */

/* Rough circle tests of a short grid query: the driver's work estimate. */
#define HS_GRID_QUERY_COST 64
/* Locality order: only for grids and batches this large (smaller ones stay in cache). */
#define HS_SORT_MIN_CIRCLES 32768
#define HS_SORT_MIN_QUERIES 4096
/* Locality order: 2^bits x 2^bits coarse cells over the grid, in Z-order. */
#define HS_SORT_BITS 4
/* Locality order: floats the scatter and the unstaging request ahead in a bucket's stream. */
#define HS_ORD_AHEAD 64
/* The order's counting sort: slices per slot of the team (more slices, more bucket counts to
 * sum; fewer, more of the sort waits on a slice a late helper took). */
#define HS_ORD_SLICES_PER_SLOT 4
/* Answers copied back to the caller's order: positions per range at least. */
#define HS_ORD_UNSTAGE_GRAIN HS_PAR_LIGHT_STEP
/* Queries whose inflated box spans at most this many cells are walked row by row (and
 * planned in blocks, 16 queries a vector on AVX-512); longer ones take the per-query slab walk
 * with its earlier exit for closest. Large enough that long segments through mostly empty
 * space are planned in blocks too (CHANGELOG); block.inl's rounding margin is sized for it. */
#define HS_WALK_BOX_CELLS 1024
/* Columns per slab of a long x-dominant query (rows are contiguous in storage, columns not). */
#define HS_WALK_SLAB_COLUMNS 4
/* A block's item list: long enough for 64 short queries' runs. */
#define HS_BLOCK_ITEMS 2048
/* All-hits: after a block whose items do not fit the list, the next blocks planned slot by
 * slot before the row plan is tried again (walk/block_walk.inl). */
#define HS_ALL_SLOT_BLOCKS 8
/* Closest's hit list, folded into the slots' bests whenever it fills. */
#define HS_BLOCK_HITS 1024
/* Pairs: storage positions per scheduling block. */
#define HS_PAIR_BLOCK 4096
/* Pairs: a search of this many circles on has its lists grow in an arena on 2 MB pages
 * (grid/pair_list.h); smaller ones reuse what malloc has at hand. */
#define HS_PAIR_ARENA_MIN 32768
/* Sub-cells (grid/subcells.h): a cell is cut from HS_SUBCELL_CUT circles on (a sparser cell
 * scans faster whole), into sub-cells of at least HS_SUBCELL_FILL circles on average (a
 * pair search tests a row of sub-cells a vector of candidates at a time: a few circles each
 * fill it better than one), at most HS_SUBCELL_MAX a side, none narrower than
 * HS_SUBCELL_SIDE_R largest radii of its level (a pair's box). */
#define HS_SUBCELL_CUT 32u
#define HS_SUBCELL_FILL 4u
#define HS_SUBCELL_MAX 16u
#define HS_SUBCELL_SIDE_R 4.0
/* Repeats (grid/repeats.c): cells of HS_REPEAT_CELL circles on are searched for circles equal
 * to an earlier one, and the grid is built again with them apart from HS_REPEAT_MIN on. */
#define HS_REPEAT_CELL 128u
#define HS_REPEAT_MIN 64u
/* Pairs: big circles (level 1) per scheduling block; each searches thousands of small ones. */
#define HS_PAIR_BIG_BLOCK 16
/* Swept pairs: a circle whose displacement exceeds HS_SWEPT_FAST times the median one (and
 * half a cell) finds its partners alone, so the few fast movers do not set every slow
 * circle's reach. */
#define HS_SWEPT_FAST 4.0

/* Most pieces a wall is cut into (grid/wall_grid.h): a longer wall gets longer pieces, whose
 * proxies are larger (they go to the level of large circles) but still hold them. */
#define HS_WALL_MAX_PIECES 65536u
/* The walls' cells for thin queries (grid/wall_cells.h): the side, times the larger of the
 * square root of the walls' box per wall and their mean length; the origin moved back by this
 * share of a side (walls on a lattice then lie inside cells, not on their edges); at most
 * this many entries a wall before the side doubles. */
#define HS_WALL_CELL_SIDE 2.0
#define HS_WALL_CELL_SHIFT 0.381966
#define HS_WALL_CELL_ENTRIES 16u

#endif
