/* hitscan umbrella header: segment / ray / line / capsule vs circle queries, scalar to AVX-512. */
#ifndef HITSCAN_HITSCAN_H
#define HITSCAN_HITSCAN_H

#define HS_VERSION_MAJOR 0
#define HS_VERSION_MINOR 1
#define HS_VERSION_PATCH 0

#include "hitscan/types.h"
#include "hitscan/narrow.h"
#include "hitscan/geom.h"
#include "hitscan/batch.h"
#include "hitscan/grid.h"
#include "hitscan/scene.h"

#endif
