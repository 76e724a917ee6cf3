/* SPDX-License-Identifier: MIT */
/* cmocka's tests include <setjmp.h>, which wasi-libc lacks; the stand-in cmocka.h needs none. */
