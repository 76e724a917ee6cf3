/* SPDX-License-Identifier: MIT */
/* Circle sets (SoA), ISA levels, and batch queries by brute force over the SIMD kernels. */
#ifndef HITSCAN_BATCH_H
#define HITSCAN_BATCH_H

#include "hitscan/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- ISA levels -------------------------------------------------------------------------
 * Kernels are compiled once per level. HS_ISA_AUTO picks the best the CPU supports, or the
 * level named by the environment variable HITSCAN_ISA=scalar|sse4|avx2|avx512|neon|wasm128
 * (read once, at the first query). A level can also be forced per call through hs_batch_opts.isa,
 * so there is no process-wide mutable switch. */
typedef enum hs_isa {
    HS_ISA_AUTO = 0, /* zero, so a zero-initialised hs_batch_opts means "auto" */
    HS_ISA_SCALAR = 1,
    HS_ISA_SSE4 = 2,   /* SSE4.2 */
    HS_ISA_AVX2 = 3,   /* AVX2 + FMA */
    HS_ISA_AVX512 = 4, /* AVX-512 F/BW/DQ/VL */
    HS_ISA_NEON = 5,
    HS_ISA_WASM128 = 6, /* WebAssembly SIMD128 (the WebAssembly build only) */
    HS_ISA_COUNT = 7    /* one past the last level: loops over levels stop here */
} hs_isa;
/* Deprecated (removed in 0.4): the old name of HS_ISA_COUNT. */
#define HS_ISA_COUNT_ HS_ISA_COUNT

HS_API const char *hs_isa_name(hs_isa isa); /* "scalar", "sse4", ...; "auto"; "?" if out of range */
HS_API int hs_isa_supported(hs_isa isa);    /* compiled in and the CPU has it */
HS_API hs_isa hs_isa_resolve(hs_isa isa);   /* AUTO -> env or best; an explicit level -> itself */
HS_API int hs_isa_width(hs_isa isa);        /* float lanes of that level's kernels */

/* ---- Circle sets ------------------------------------------------------------------------
 * SoA x[], y[], r[] and optional filter mask[] (a query with mask m tests only circles with
 * (mask[i] & m) != 0; a set without masks counts as every bit set, so a query of mask 0 hits
 * nothing, on every engine and path). hs_circles_create copies into arrays aligned and padded
 * to the widest vector; hs_circles_borrow keeps the caller's arrays (any alignment; they must
 * outlive the set and not change while queries run). Both validate every circle: on the first bad
 * one they return HS_E_NONFINITE or HS_E_NEG_RADIUS and, if bad_index != NULL, its index. */
typedef struct hs_circles hs_circles;

HS_API hs_status hs_circles_create(const float *x, const float *y, const float *r,
                                   const uint32_t *mask, size_t n, hs_circles **out,
                                   size_t *bad_index);
HS_API hs_status hs_circles_borrow(const float *x, const float *y, const float *r,
                                   const uint32_t *mask, size_t n, hs_circles **out,
                                   size_t *bad_index);
HS_API void hs_circles_destroy(hs_circles *cs);
HS_API size_t hs_circles_count(const hs_circles *cs);
/* The set's own arrays (aligned copies, or the borrowed ones). mask may be NULL. */
HS_API const float *hs_circles_x(const hs_circles *cs);
HS_API const float *hs_circles_y(const hs_circles *cs);
HS_API const float *hs_circles_r(const hs_circles *cs);
HS_API const uint32_t *hs_circles_mask(const hs_circles *cs);

/* ---- Query batches (SoA in) -------------------------------------------------------------
 * Query i is P(t) = (ax[i], ay[i]) + t (dx[i], dy[i]) over [tmin, tmax] with thickness q and
 * filter mask. A NULL per-query array means "every query uses the scalar field below". */
typedef struct hs_queries {
    const float *ax, *ay, *dx, *dy; /* required */
    const float *tmin, *tmax, *q;   /* optional */
    const uint32_t *mask;           /* optional */
    size_t count;
    float tmin_all, tmax_all, q_all; /* used where the array is NULL */
    uint32_t mask_all;
    /* optional: per query, the index of one circle it never reports in any mode (the shooter's
     * own, say), HS_NONE for none; an index past the set ignores nothing, and walls are never
     * ignored. Every engine takes it (brute force, the grid, moving circles, periodic boxes);
     * the MPI calls refuse it (HS_E_UNSUPPORTED). A batch without it runs the item loops it ran
     * before (closest measured at 0.99x, within the noise). */
    const uint32_t *ignore;
} hs_queries;

/* Segments a -> a + d: tmin 0, tmax 1, q 0, all mask bits. */
HS_API hs_queries hs_queries_segments(const float *ax, const float *ay, const float *dx,
                                      const float *dy, size_t count);
/* Capsules a -> a + d of half-width q[i] (a circle of radius q[i] swept from a to a + d, as
 * hs_capsule): hs_queries_segments with the per-query thickness array q (NULL: thickness 0).
 * For one half-width for the whole batch, set q_all on hs_queries_segments' batch instead. */
HS_API hs_queries hs_queries_capsules(const float *ax, const float *ay, const float *dx,
                                      const float *dy, const float *q, size_t count);

typedef struct hs_batch_stats {
    size_t invalid;       /* queries that failed hs_query_validate (answered as misses) */
    size_t first_invalid; /* index of the first one, or (size_t)-1 */
    uint64_t pair_tests;  /* circle tests performed (vector lanes counted) */
} hs_batch_stats;

/* ---- Workspaces ---------------------------------------------------------------------------
 * Memory a batch call needs for itself (the grid's locality order of the queries, all-hits'
 * per-thread hit buffers, and all-hits' result) normally comes from malloc and goes back when
 * the call returns. Fresh memory costs a page fault per page on first touch; on 4 KB pages that
 * can be a sixth of an all-hits call on a large batch. hitscan asks for 2 MB pages for its
 * large buffers where Linux allows it (transparent huge pages), which takes most of that
 * away, and a workspace all of it. A workspace keeps the memory between
 * calls: pass one in hs_batch_opts.ws to calls made again and again (a frame loop) and, once it
 * has grown to the batch's size, they allocate nothing. (With several threads, a thread's
 * all-hits buffer can still grow on a later call that hands it more hits than before, at most
 * to the whole batch's hits.)
 *   - One call at a time per workspace: a call given a workspace that another call is using
 *     returns HS_E_BUSY (give each calling thread its own). Calls without one never contend.
 *   - All-hits with a workspace: the hs_hits arrays belong to the workspace, valid until the
 *     next call with it, hs_workspace_trim or hs_workspace_destroy; hs_hits_free then only
 *     clears the struct. Without one they are the caller's, as always.
 *   - It holds the largest batch's memory until trimmed, plus 1/8 headroom;
 *     hs_workspace_bytes reports it. Grid calls on large batches: 24 bytes per query (the
 *     order; closest / any / count stage their answers inside it, and need 20 when the batch
 *     has no per-query tmin, tmax, q or mask array; closest's hit points and normals add 16).
 *     All-hits adds 12 bytes per query and 8 bytes per hit twice over: the per-thread
 *     buffers (grown by doubling) and the result. All-hits into the caller's arrays
 *     (hs_grid_all_into) adds 28 bytes per query and the per-thread buffers' 8 bytes per
 *     hit: the result is the caller's. */
typedef struct hs_workspace hs_workspace;
HS_API hs_status hs_workspace_create(hs_workspace **out);
HS_API void hs_workspace_destroy(hs_workspace *ws);   /* NULL is a no-op */
HS_API hs_status hs_workspace_trim(hs_workspace *ws); /* frees its memory; HS_E_BUSY while in use */
HS_API size_t hs_workspace_bytes(const hs_workspace *ws); /* memory held (not during a call) */

/* The caller's task system (a game engine's job system, enkiTS, a thread pool): hand it to
 * a call in hs_batch_opts.tasks or hs_grid_opts.tasks and the call runs its parallel work as
 * tasks of yours instead of on the library's own helper threads (after Box2D v3's
 * b2WorldDef.enqueueTask / finishTask). docs/threads.md shows it wired to a pool.
 *   - A call splits its work into at most `workers` tasks (workers <= 1, or threads = 1 in
 *     the options: no task at all, the calling thread does everything). It runs one task
 *     itself and hands the others to enqueue, each task once, then calls finish on every
 *     handle enqueue returned (not NULL) before it returns. enqueue and finish are called
 *     only from the thread that called hitscan, only during that call.
 *   - enqueue(fn, task_context, user_context) must see that fn(task_context) runs exactly
 *     once, on any thread (the calling one included, even inside enqueue or finish): return
 *     a handle for finish, or NULL when fn has already run. finish(task, user_context) returns
 *     when that task has run; it may run the task itself if no worker has started it.
 *   - A task never waits for another task, for a lock of yours or for the calling thread:
 *     the work it has not claimed is done by the others, so tasks run late, in any order, or
 *     one after the other on one thread all give the same answers, the same bytes as one
 *     thread's. Tasks of one call may be run while other calls' tasks run.
 *   - Several threads may call hitscan at once with the same task system when its enqueue
 *     and finish may be called from several threads at once.
 *   - The struct is read during the call only (a grid keeps the pointer: see
 *     hs_grid_set_tasks). */
typedef void hs_task_fn(void *task_context);
typedef struct hs_task_system {
    /* run fn(task_context) once, on any thread; return a handle for finish, or NULL when it
     * ran already */
    void *(*enqueue)(hs_task_fn *fn, void *task_context, void *user_context);
    void (*finish)(void *task, void *user_context); /* return when that task has run */
    int workers;                                    /* tasks one call may split into */
    void *user_context;
} hs_task_system;

typedef struct hs_batch_opts {
    hs_semantics sem;      /* HS_SOLID by default (zero-initialised); | HS_SKIP_START allowed */
    hs_isa isa;            /* HS_ISA_AUTO (0) or a level; unsupported -> HS_E_UNSUPPORTED */
    int threads;           /* 0: the default team (tasks->workers with tasks, else every processor);
                            * 1: the calling thread alone; results never depend on it */
    hs_batch_stats *stats; /* optional, filled on return */
    hs_workspace *ws;      /* optional (see above); results never depend on it */
    /* Moving circles (grid calls only; NULL for circles standing still): circle i, by the
     * caller's index, stands at c_i + t (disp_x[i], disp_y[i]) when the query is at P(t), so a
     * segment over t in [0, 1] meets circles that move by those displacements meanwhile (a
     * bullet against a crowd over one frame). Closest's t, any, count and all answer that
     * motion: the query a + t (d - d_i) against circle i standing still, exactly as
     * hs_intersect_circle decides it, with the semantics and thickness asked for; closest's
     * point is the query's own P(t), its normal from the moving circle's centre at t. A query
     * needs a finite interval (rays with a finite tmax; lines and unbounded rays are invalid
     * here whatever the displacements, all 0 included: answered as misses and counted). Both
     * arrays, hs_grid_circle_count entries, finite, each displacement at most HS_MAX_COORD
     * long (HS_E_NULL, HS_E_NONFINITE, HS_E_RANGE; nothing answered then; with no query the
     * outputs may be NULL, as without displacements). In a periodic box the query meets
     * every image of each moving circle (a circle crossing an edge is met beyond it).
     * Answers do not depend on the ISA level or the thread count; with every displacement 0
     * the valid queries get the circles' standing answers. Cost: the displacements copied in
     * the grid's order (8 bytes per circle, in the workspace); each query walks the grid with
     * its thickness grown by its interval times the largest displacement, and the circles it
     * meets are tested exactly on their relative motion (the stats count the walk's tests). */
    const float *disp_x, *disp_y;
    /* Optional: the caller's task system (above); NULL: the library's own helper threads. */
    const hs_task_system *tasks;
} hs_batch_opts;

/* Defaults: solid, auto ISA, default threads, no stats (the same as a zeroed struct). */
HS_API hs_batch_opts hs_batch_opts_default(void);

/* Closest hit per query: idx[i] = circle index or HS_NONE, t[i] = entry parameter (NaN on a
 * miss). Ties in t go to the smaller circle index. nx/ny/px/py optional (may be NULL). */
typedef struct hs_closest_out {
    uint32_t *idx;
    float *t;
    float *px, *py; /* hit point P(t) */
    float *nx, *ny; /* unit normal, as hs_intersect_circle */
    uint8_t *kind;  /* HS_KIND_CIRCLE or HS_KIND_WALL of idx (HS_KIND_CIRCLE on a miss) */
} hs_closest_out;

/* All hits, CSR: hits of query i are entries offsets[i] .. offsets[i+1]-1, ordered by entry t,
 * then kind (circles first), then index. Owned by the library: free with hs_hits_free (a no-op on
 * the arrays when they belong to a workspace, see above). */
typedef struct hs_hits {
    size_t *offsets; /* count + 1 entries */
    uint32_t *idx;
    float *t;
    size_t count;           /* number of queries */
    size_t total;           /* offsets[count] */
    const hs_workspace *ws; /* non-NULL: the arrays are this workspace's */
    uint8_t *kind;          /* HS_KIND_* of each hit; NULL when the grid has no walls */
} hs_hits;
HS_API void hs_hits_free(hs_hits *h);

/* All hits written straight into the caller's memory, as index arrays (the layout NumPy,
 * pandas and sparse COO / CSR matrices take): the same hits in the same order as hs_hits,
 * with each hit's query beside it and no copy of the result left to make. */
typedef struct hs_hits_into {
    int64_t *offsets; /* count + 1 entries: query i's hits are offsets[i] .. offsets[i+1]-1 */
    int64_t *query;   /* total entries: the query of each hit (ascending) */
    int64_t *idx;     /* total entries: the circle hit */
    float *t;         /* total entries: its entry parameter */
    uint8_t *kind;    /* total entries: HS_KIND_* of idx (all HS_KIND_CIRCLE without walls) */
} hs_hits_into;

/* Called once per successful call, on the calling thread, when the number of hits is known
 * and before any is written: points the members of *dst it wants (each NULL on entry; any
 * left NULL is not written) at memory for count + 1 offsets and total hits, and returns 0,
 * or non-zero to give up (the call then writes nothing and returns HS_E_NOMEM). */
typedef int (*hs_hits_place_fn)(void *ctx, size_t count, size_t total, hs_hits_into *dst);

/* Every batch call returns HS_OK, HS_E_INVALID_QUERY (some queries invalid: they are answered
 * as misses and counted in stats), or another negative status with nothing answered.
 * A NULL opts means hs_batch_opts_default(). */
HS_API hs_status hs_brute_closest(const hs_circles *cs, const hs_queries *qs,
                                  const hs_batch_opts *opts, hs_closest_out out);
HS_API hs_status hs_brute_any(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                              uint8_t *hit);
HS_API hs_status hs_brute_count(const hs_circles *cs, const hs_queries *qs,
                                const hs_batch_opts *opts, uint32_t *count);
HS_API hs_status hs_brute_all(const hs_circles *cs, const hs_queries *qs, const hs_batch_opts *opts,
                              hs_hits *out);
/* hs_brute_all into the caller's memory (hs_hits_into); a NULL place is HS_E_NULL. */
HS_API hs_status hs_brute_all_into(const hs_circles *cs, const hs_queries *qs,
                                   const hs_batch_opts *opts, hs_hits_place_fn place, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
