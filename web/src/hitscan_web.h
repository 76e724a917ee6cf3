/* SPDX-License-Identifier: MIT */
/* Shared by the files the JavaScript package calls: how a function is exported from the
 * WebAssembly module, and the words a call answers beyond its status. */
#ifndef HITSCAN_WEB_H
#define HITSCAN_WEB_H

#include <stddef.h>
#include <stdint.h>

#define HS_WEB(name) __attribute__((export_name(#name))) name

/* Answers beyond a status, read by JavaScript right after the call (16 words). */
uint32_t *hs_web_ret(void);

/* n rows of `width` floats into `width` arrays of n, one after the other, at out. */
void hs_web_split(const float *rows, size_t n, size_t width, float *out);

#endif
