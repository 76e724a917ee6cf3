/* SPDX-License-Identifier: MIT */
/* hitscan tool: escaping of untrusted bytes for one-line messages (see escape.h). */
#include <string.h>

#include "escape.h"

/* Length of the well-formed, printable UTF-8 sequence at s[0..len) (1..4), or 0 when s[0] must
 * be escaped. The ranges are those of the Unicode standard's table of well-formed byte
 * sequences (no overlongs, no surrogates, nothing above U+10FFFF). */
static size_t printable_run(const unsigned char *s, size_t len)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return c >= 0x20 && c != 0x7f;
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf; /* allowed range of the second byte */
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (len < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xbf)
            return 0;
    if (c == 0xc2 && s[1] <= 0x9f) /* C1 controls */
        return 0;
    if (c == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9)) /* U+2028, U+2029 */
        return 0;
    return n;
}

size_t hsio_escape(char *dst, size_t cap, const char *src, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)src;
    size_t out = 0;
    int copying = cap > 0; /* once a piece does not fit, nothing later is copied either */
    if (cap > 0)
        dst[0] = '\0';
    for (size_t i = 0; i < len;) {
        size_t run = printable_run(s + i, len - i);
        char esc[4];
        const char *piece = (const char *)s + i;
        size_t plen = run;
        if (run == 0) {
            esc[0] = '\\';
            esc[1] = 'x';
            esc[2] = hex[s[i] >> 4];
            esc[3] = hex[s[i] & 15];
            piece = esc;
            plen = 4;
            run = 1;
        }
        if (copying && out + plen < cap) {
            memcpy(dst + out, piece, plen);
            dst[out + plen] = '\0';
        } else {
            copying = 0;
        }
        out += plen;
        i += run;
    }
    return out;
}

int hsio_fputs_escaped(const char *s, FILE *f)
{
    char buf[256];
    size_t len = strlen(s);
    /* in slices that end on a whole UTF-8 sequence, so no valid character is split */
    while (len > 0) {
        size_t take = len < 48 ? len : 48;
        while (take < len && take < 52 && ((unsigned char)s[take] & 0xc0) == 0x80)
            take++;
        hsio_escape(buf, sizeof buf, s, take);
        if (fputs(buf, f) == EOF)
            return EOF;
        s += take;
        len -= take;
    }
    return 0;
}
