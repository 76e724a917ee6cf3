/* SPDX-License-Identifier: MIT */
/* Internal: the plain engine's walk of a batch (closest, any, count), which the periodic
 * engine runs on its pieces. */
#ifndef HITSCAN_GRID_PLAIN_H
#define HITSCAN_GRID_PLAIN_H

#include "grid/engine.h"

/* c's batch (closest, any or count) walked where the circles lie: hs_batch_end's status, or
 * HS_E_NOMEM before anything is answered. */
hs_status hs_plain_walk(const hs_grid_call *c);

#endif
