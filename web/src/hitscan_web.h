/* SPDX-License-Identifier: MIT */
/* Shared by the files the JavaScript package calls: how a function is exported from the
 * WebAssembly module, and the words a call answers beyond its status. */
#ifndef HITSCAN_WEB_H
#define HITSCAN_WEB_H

#include <stdint.h>

#define HS_WEB(name) __attribute__((export_name(#name))) name

/* Answers beyond a status, read by JavaScript right after the call (16 words). */
uint32_t *hs_web_ret(void);

#endif
