/* SPDX-License-Identifier: MIT */
/* The tests' scale: quick under sanitizers or when HS_TEST_QUICK is set (to anything). Apart
 * from test_util.h, which needs cmocka, so the tests built without it (the WebAssembly
 * package's) can ask too. */
#ifndef HS_TEST_SCALE_H
#define HS_TEST_SCALE_H

#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__)
#define HS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HS_SANITIZED 1
#endif
#endif
#ifndef HS_SANITIZED
#define HS_SANITIZED 0
#endif

/* Scale down under sanitizers or when HS_TEST_QUICK is set (to anything): CI runs the whole
 * suite under ASan+UBSan on a 2-core box. */
static inline int test_quick(void) { return HS_SANITIZED || getenv("HS_TEST_QUICK") != NULL; }

#endif
