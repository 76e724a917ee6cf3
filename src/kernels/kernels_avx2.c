/* The avx2 narrowphase kernels (W = 8, built with -mavx2 -mfma): kernels_impl.h instantiated once. */
#define HS_W 8
#define HS_KNAME avx2
#define HS_KISA HS_ISA_AVX2
#include "kernels_impl.h"
