/* SPDX-License-Identifier: MIT */
/* hitscan tool: command-line values. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "args.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }

hsio_count_status hsio_parse_count(const char *s, size_t max, size_t *v)
{
    /* mantissa: its digits without leading zeros, and where the point was */
    const char *p = s, *first = NULL; /* the first non-zero digit */
    size_t ndig = 0, nfrac = 0,
           nzeros = 0; /* digits from `first` on, after the point, trailing 0s */
    int any = 0, point = 0;
    for (;; p++) {
        if (*p == '.' && !point) {
            point = 1;
            continue;
        }
        if (!is_digit(*p))
            break;
        any = 1;
        nfrac += point;
        if (!first && *p == '0')
            continue;
        if (!first)
            first = p;
        ndig++;
        nzeros = *p == '0' ? nzeros + 1 : 0;
    }
    if (!any)
        return HSIO_COUNT_SYNTAX;
    /* exponent, saturated far beyond any count */
    long long e = 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        int neg = *p == '-';
        if (*p == '+' || *p == '-')
            p++;
        if (!is_digit(*p))
            return HSIO_COUNT_SYNTAX;
        for (; is_digit(*p); p++)
            if (e < 1000000)
                e = e * 10 + (*p - '0');
        if (neg)
            e = -e;
    }
    if (*p)
        return HSIO_COUNT_SYNTAX;
    if (!first) {
        *v = 0;
        return HSIO_COUNT_OK;
    }
    /* value = (the ndig - nzeros significant digits) * 10^scale */
    const size_t sig = ndig - nzeros;
    const long long scale = e - (long long)nfrac + (long long)nzeros;
    if (scale < 0)
        return HSIO_COUNT_FRACTION;
    if ((long long)sig + scale > 20) /* at least 10^20 > SIZE_MAX */
        return HSIO_COUNT_RANGE;
    uint64_t x = 0;
    size_t taken = 0;
    for (const char *q = first; taken < sig; q++) {
        if (*q == '.')
            continue;
        const unsigned d = (unsigned)(*q - '0');
        if (x > (UINT64_MAX - d) / 10)
            return HSIO_COUNT_RANGE;
        x = x * 10 + d;
        taken++;
    }
    for (long long k = 0; k < scale; k++) {
        if (x > UINT64_MAX / 10)
            return HSIO_COUNT_RANGE;
        x *= 10;
    }
    if (x > (uint64_t)max)
        return HSIO_COUNT_RANGE;
    *v = (size_t)x;
    return HSIO_COUNT_OK;
}

int hsio_parse_numbers(const char *s, double *v, int k)
{
    for (int i = 0; i < k; i++) {
        char *end;
        errno = 0;
        v[i] = strtod(s, &end);
        if (end == s || errno || !isfinite(v[i]) || *end != (i + 1 < k ? ',' : '\0'))
            return 0;
        s = end + 1;
    }
    return 1;
}
