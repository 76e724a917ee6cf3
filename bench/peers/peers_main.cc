/* SPDX-License-Identifier: MIT */
// hitscan_peers entry point: registers BM_Peer<Lib><Mode>/<scene>/<N>[/<M>] for every scene of
// hitscan/scene.h (by name, so new scenes join), N = M = 10^4 and 10^6, in the order scene,
// size, mode, library: each peer runs right after hitscan on the same work. The distribution
// suite's scenes (from outlier on) run at 10^4 and 10^5 instead, as do uniform and clustered,
// their twins, besides their own sizes; point at 10^4 only and only closest and build (its all
// hits and pairs grow as N^2, and so do the peers' closest: every circle's box holds the point).
// Then the maze of walls (BM_Peer<Lib>Closest/maze/<K>/<M>, K = M = 10^4, 10^5), closest only.
#include "peers.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
    using namespace peers;
    // --peers_order=zorder|given (ours, taken out before Google Benchmark reads the rest)
    int kept = 1;
    for (int a = 1; a < argc; a++) {
        const char *v = argv[a];
        if (std::strncmp(v, "--peers_order=", 14) != 0) {
            argv[kept++] = argv[a];
            continue;
        }
        if (std::strcmp(v + 14, "zorder") == 0) {
            SetQueryOrder(Order::ZOrder);
        } else if (std::strcmp(v + 14, "given") == 0) {
            SetQueryOrder(Order::Given);
        } else {
            std::fprintf(stderr, "hitscan_peers: --peers_order=zorder|given, not %s\n", v + 14);
            return 1;
        }
    }
    argc = kept;
    benchmark::AddCustomContext("peers_order", OrderName(QueryOrder()));
    const Library *libs[] = {
        &kHitscan,
#ifdef HS_PEERS_EMBREE
        &kEmbree,
#endif
#ifdef HS_PEERS_BOX2D
        &kBox2d,
#endif
    };
    const Mode modes[] = {Mode::Closest, Mode::Closest16, Mode::All, Mode::Pairs, Mode::Build};
    for (int k = 0; k < (int)HS_SCENE_COUNT_; k++) {
        const hs_scene_kind kind = (hs_scene_kind)k;
        std::vector<size_t> sizes = {10000, 1000000};
        if (kind == HS_SCENE_POINT)
            sizes = {10000};
        else if (k >= (int)HS_SCENE_OUTLIER)
            sizes = {10000, 100000};
        else if (kind == HS_SCENE_UNIFORM || kind == HS_SCENE_CLUSTERED)
            sizes.push_back(100000);
        for (size_t n : sizes)
            for (Mode mode : modes)
                for (const Library *lib : libs) {
                    if (!lib->has(mode))
                        continue;
                    if (kind == HS_SCENE_POINT && (mode == Mode::All || mode == Mode::Pairs))
                        continue;
                    const size_t m = ModeUsesQueries(mode) ? n : 0;
                    std::string name = std::string("BM_Peer") + lib->name + ModeName(mode) + "/" +
                                       hs_scene_kind_name(kind) + "/" + std::to_string(n);
                    if (m)
                        name += "/" + std::to_string(m);
                    auto run = lib->run;
                    benchmark::RegisterBenchmark(
                        name.c_str(), [=](benchmark::State &st) { run(st, mode, kind, n, m); })
                        ->UseRealTime()
                        ->Unit(benchmark::kMillisecond);
                }
    }
    // The walls benchmark's maze, closest only (BM_GridClosestWalls/maze's walls and segments).
    for (size_t k : {size_t{10000}, size_t{100000}})
        for (const Library *lib : libs) {
            if (!lib->maze)
                continue;
            const std::string name = std::string("BM_Peer") + lib->name + "Closest/maze/" +
                                     std::to_string(k) + "/" + std::to_string(k);
            auto maze = lib->maze;
            benchmark::RegisterBenchmark(name.c_str(),
                                         [=](benchmark::State &st) { maze(st, k, k); })
                ->UseRealTime()
                ->Unit(benchmark::kMillisecond);
        }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
