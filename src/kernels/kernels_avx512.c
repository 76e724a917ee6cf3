/* The avx512 narrowphase kernels (W = 16, built with -mavx512f/bw/dq/vl -mfma): kernels_impl.h instantiated once. */
#define HS_W 16
#define HS_KNAME avx512
#define HS_KISA HS_ISA_AVX512
#include "kernels_impl.h"
