/* SPDX-License-Identifier: MIT */
/* hitscan tool: command-line values. */
#ifndef HITSCAN_TOOL_ARGS_H
#define HITSCAN_TOOL_ARGS_H

#include <stddef.h>

typedef enum hsio_count_status {
    HSIO_COUNT_OK = 0,
    HSIO_COUNT_SYNTAX = 1,   /* not a plain decimal number (sign, letters, hex, empty, ...) */
    HSIO_COUNT_FRACTION = 2, /* a number, but not a whole one (1.5, 1e-3) */
    HSIO_COUNT_RANGE = 3     /* a whole number above max */
} hsio_count_status;

/* A count: decimal digits with an optional fraction and exponent (1000000, 1e6, 2.5e5,
 * 1.0E+06), taken only when the value is exactly a whole number in 0..max. Evaluated on the
 * digits themselves, never through a float, so 1.0000000000000000001 is a fraction and
 * 4294967295 never rounds to its neighbour. *v is set only on HSIO_COUNT_OK. */
hsio_count_status hsio_parse_count(const char *s, size_t max, size_t *v);

/* Exactly k finite numbers separated by commas ("1.5,-2"): 1 with v[0 .. k) set, else 0. */
int hsio_parse_numbers(const char *s, double *v, int k);

#endif
