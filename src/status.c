/* SPDX-License-Identifier: MIT */
/* hs_status_string: the status codes of hitscan/types.h in words. */
#include "hitscan/types.h"

const char *hs_status_string(hs_status s)
{
    switch (s) {
    case HS_OK: return "ok";
    case HS_E_NULL: return "a required pointer was NULL";
    case HS_E_NONFINITE: return "a value is NaN or infinite";
    case HS_E_NEG_RADIUS: return "a radius or thickness is negative";
    case HS_E_RANGE:
        return "a value is out of range (tmin > tmax, |value| > HS_MAX_COORD, or a bad option)";
    case HS_E_TOO_MANY:
        return "too many items (more than HS_MAX_COUNT, or more cells than 32-bit indices address)";
    case HS_E_NOMEM: return "out of memory";
    case HS_E_UNSUPPORTED: return "the requested ISA level is not available on this CPU or build";
    case HS_E_INVALID_QUERY: return "some queries were invalid and were answered as misses";
    case HS_E_BUSY: return "the workspace is in use by another call";
    case HS_E_BOX:
        return "the periodic box is too small for the circles, the search or the cells, or a "
               "circle lies outside it on an axis that is not periodic";
    }
    return "unknown status";
}
