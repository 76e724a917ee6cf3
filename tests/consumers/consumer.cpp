/* SPDX-License-Identifier: MIT */
// A C++17 program using the installed hitscan: the public headers must compile as C++.
#include "consumer.h"

#include <vector>

int main()
{
    std::vector<float> x{1.0f};
    static_assert(HS_VERSION_MAJOR >= 0, "version macros are integers");
    return hs_consumer_check("C++ consumer") + (x.size() == 1 ? 0 : 1);
}
