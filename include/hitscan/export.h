/* SPDX-License-Identifier: MIT */
/* HS_API marks the public functions: the shared library exports these and nothing else (it is
 * built with hidden visibility), and a static build or a consumer sees plain declarations. */
#ifndef HITSCAN_EXPORT_H
#define HITSCAN_EXPORT_H

#if defined(_WIN32) && defined(HS_SHARED_BUILD)
#define HS_API __declspec(dllexport)
#elif defined(_WIN32) && defined(HS_SHARED_USE)
#define HS_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define HS_API __attribute__((visibility("default")))
#else
#define HS_API
#endif

#endif
