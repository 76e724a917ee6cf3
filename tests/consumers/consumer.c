/* SPDX-License-Identifier: MIT */
/* A C11 program using the installed hitscan. */
#include "consumer.h"

int main(void) { return hs_consumer_check("C consumer"); }
