/* SPDX-License-Identifier: MIT */
/* Example: hitscan inside a game that has its own job system. The game's frame (game_frame.h:
 * asteroids, bullets, lasers) runs its hitscan calls on the game's pool of worker threads
 * (task_pool.h) through hs_task_system, and once more on one thread to show that the answers
 * are the same. `game_frame [workers]`: the pool's threads (default 1; the calling thread
 * works too). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_frame.h"
#include "task_pool.h"

#define FRAMES 5

int main(int argc, char **argv)
{
    const int nthreads = argc > 1 ? atoi(argv[1]) : 1;
    if (nthreads < 0 || nthreads > 64) {
        fprintf(stderr, "usage: game_frame [pool threads, 0..64]\n");
        return 2;
    }
    tp_pool pool;
    if (tp_start(&pool, nthreads) != 0) {
        fprintf(stderr, "game_frame: could not start %d threads\n", nthreads);
        return 1;
    }
    /* the grid keeps the task system for its rebuilds; every other call gets it in its
     * options */
    hs_grid_opts go;
    memset(&go, 0, sizeof go);
    go.tasks = &pool.tasks;
    hs_batch_opts on_pool = hs_batch_opts_default();
    on_pool.tasks = &pool.tasks;
    hs_batch_opts alone = hs_batch_opts_default();
    alone.threads = 1;

    gf_world *a = gf_make(2024, &go), *b = gf_make(2024, NULL);
    int rc = a && b ? 0 : 1;
    for (int f = 0; f < FRAMES && rc == 0; f++) {
        if (gf_frame(a, &on_pool) != HS_OK || gf_frame(b, &alone) != HS_OK) {
            fprintf(stderr, "game_frame: a call failed\n");
            rc = 1;
            break;
        }
        size_t bullets_hit = 0, lasers_hit = 0;
        for (int i = 0; i < GF_BULLETS; i++)
            bullets_hit += a->hit[i] != HS_NONE;
        for (int i = GF_BULLETS; i < GF_BULLETS + GF_LASERS; i++)
            lasers_hit += a->hit[i] != HS_NONE;
        const int same = memcmp(a->hit, b->hit, sizeof a->hit) == 0 &&
                         memcmp(a->t, b->t, sizeof a->t) == 0 && a->pairs == b->pairs &&
                         a->swept == b->swept;
        printf("frame %d: %zu bullets hit, %zu lasers hit, %zu overlapping pairs, %zu "
               "collisions during the frame; %s one thread's answers\n",
               f, bullets_hit, lasers_hit, a->pairs, a->swept, same ? "the same as" : "NOT");
        rc = same ? 0 : 1;
    }
    gf_free(a);
    gf_free(b);
    tp_stop(&pool);
    return rc;
}
