/* SPDX-License-Identifier: MIT */
/* hitscan umbrella header: segment / ray / line / capsule vs circle queries, scalar to AVX-512. */
#ifndef HITSCAN_HITSCAN_H
#define HITSCAN_HITSCAN_H

#include "hitscan/version.h"
#include "hitscan/types.h"
#include "hitscan/narrow.h"
#include "hitscan/geom.h"
#include "hitscan/batch.h"
#include "hitscan/walls.h"
#include "hitscan/grid.h"
#include "hitscan/scene.h"
#include "hitscan/origin.h"

#endif
