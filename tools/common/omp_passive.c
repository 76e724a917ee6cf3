/* SPDX-License-Identifier: MIT */
/* Linked into hitscan's own programs (the tool, the examples): unless the user chose a wait
 * policy, OpenMP's idle threads sleep instead of spinning. libgomp's default spins for
 * milliseconds after every parallel region; on a machine where another process holds a core
 * (a game's render thread, a browser, a build) the spinning thread takes that core's time
 * from the program's own serial work and stalls every barrier, so two threads ran far
 * slower than one. libgomp reads the variable once, as it loads, before main(): the setting
 * is made from the executable's pre-initialisation array, which runs before any shared
 * library's initialisers. */
#define _POSIX_C_SOURCE 200112L /* setenv */
#include <stdlib.h>

static void hs_omp_passive_default(void) { setenv("OMP_WAIT_POLICY", "passive", 0); }

__attribute__((section(".preinit_array"),
               used)) static void (*const hs_omp_passive_entry)(void) = hs_omp_passive_default;
