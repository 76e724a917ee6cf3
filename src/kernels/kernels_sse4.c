/* The sse4 narrowphase kernels (W = 4, built with -msse4.2): kernels_impl.h instantiated once. */
#define HS_W 4
#define HS_KNAME sse4
#define HS_KISA HS_ISA_SSE4
#include "kernels_impl.h"
