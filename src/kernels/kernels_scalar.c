/* The scalar narrowphase kernels (W = 1, built with plain C: no special flags): kernels_impl.h instantiated once. */
#define HS_W 1
#define HS_KNAME scalar
#define HS_KISA HS_ISA_SCALAR
#include "kernels_impl.h"
