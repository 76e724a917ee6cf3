/* SPDX-License-Identifier: MIT */
/* hitscan tool: one-line, terminal-safe text from untrusted bytes (file contents, paths, argv). */
#ifndef HITSCAN_TOOL_ESCAPE_H
#define HITSCAN_TOOL_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Copies src[0..len) to dst (capacity cap; always NUL-terminated when cap > 0, cut at a whole
 * escape) with every byte that is not printable text written as \xNN: C0 controls (newline,
 * ESC, NUL, ...), DEL, the C1 controls U+0080..U+009F, the line and paragraph separators
 * U+2028 / U+2029, and every byte that is not part of well-formed UTF-8 (stray continuation
 * bytes, overlong forms, surrogates, values above U+10FFFF, cut sequences). Backslashes are
 * kept as they are, so escaping twice changes nothing. Returns the length of the whole escaped
 * text (as snprintf does: dst was cut when the result is >= cap). */
size_t hsio_escape(char *dst, size_t cap, const char *src, size_t len);

/* fputs of s escaped as above. 0, or EOF on a write error. */
int hsio_fputs_escaped(const char *s, FILE *f);

#endif
