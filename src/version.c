/* SPDX-License-Identifier: MIT */
/* The library's own version, for programs that check what they run with. */
#include "hitscan/version.h"

const char *hs_version(void) { return HS_VERSION_STRING; }
