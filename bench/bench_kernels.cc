/* SPDX-License-Identifier: MIT */
// Kernel benchmarks: BM_Kernel[Closest]/<isa>/<N>, BM_KernelRun (short runs), the textbook
// quadratic loop BM_SeedQuadratic/<N>, stream bandwidth, core clock; pairs_per_second counters.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "hitscan/batch.h"
#include "hitscan/scene.h"
// kernels.h / core.h are internal C11 headers: no extern "C" of their own, and a compound
// literal that is an extension in C++
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
extern "C" {
#include "kernels/kernels.h"
}
#pragma GCC diagnostic pop

namespace
{

constexpr size_t kQueries = 64; // cycled per iteration, so no single query's answer is cached

struct FreeDeleter {
    void operator()(void *p) const { std::free(p); }
};
template <class T> using Buf = std::unique_ptr<T[], FreeDeleter>;

template <class T> Buf<T> alloc(size_t n)
{
    size_t bytes = (n * sizeof(T) + 63) / 64 * 64 + 64;
    return Buf<T>(static_cast<T *>(std::aligned_alloc(64, bytes)));
}

// The shared `uniform` scene (hs_scene_*): side 4000 sqrt(N / 1e6), r in [0.5, 1.5],
// segments of length [5, 50]; about 3 hits per query at any N.
struct Scene {
    size_t n;
    Buf<float> x, y, r;
    hs_kq kq[kQueries];
    bool ok = false;

    explicit Scene(size_t n_) : n(n_), x(alloc<float>(n_)), y(alloc<float>(n_)), r(alloc<float>(n_))
    {
        float ax[kQueries], ay[kQueries], dx[kQueries], dy[kQueries];
        ok = hs_scene_circles(HS_SCENE_UNIFORM, n, 1, x.get(), y.get(), r.get()) == HS_OK &&
             hs_scene_segments(HS_SCENE_UNIFORM, n, kQueries, 2, ax, ay, dx, dy) == HS_OK;
        for (size_t i = 0; i < kQueries; i++) {
            hs_query q = {{ax[i], ay[i]}, {dx[i], dy[i]}, 0.0f, 1.0f, 0.0f};
            kq[i] = hs_kq_make(q, HS_SOLID, ~0u);
        }
    }
    hs_run run() const { return hs_run{x.get(), y.get(), r.get(), nullptr, nullptr, n, 0}; }
};

// One scene per N for the whole binary: the 4M one takes a while to generate.
const Scene &scene(size_t n)
{
    static std::unique_ptr<Scene> cache[3];
    int k = n == 1024 ? 0 : n == 65536 ? 1 : 2;
    if (!cache[k] || cache[k]->n != n)
        cache[k] = std::make_unique<Scene>(n);
    return *cache[k];
}

void SetPairs(benchmark::State &state, size_t n)
{
    state.counters["pairs_per_second"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(n),
                           benchmark::Counter::kIsRate);
}

// The kernel table and the scene for state.range(0) circles; false (benchmark skipped) if either
// is unavailable.
static bool KernelSetup(benchmark::State &state, hs_isa isa, const hs_kernel_set **ks,
                        const Scene **sc)
{
    *ks = hs_kernels_get(isa);
    if (!*ks) {
        state.SkipWithError("ISA level not supported on this CPU / build");
        return false;
    }
    *sc = &scene(static_cast<size_t>(state.range(0)));
    if (!(*sc)->ok) {
        state.SkipWithError("scene setup failed");
        return false;
    }
    return true;
}

// Count tests every pair (no early exit): one query against all N circles per iteration.
void BM_Kernel(benchmark::State &state, hs_isa isa)
{
    const hs_kernel_set *ks = nullptr;
    const Scene *scp = nullptr;
    if (!KernelSetup(state, isa, &ks, &scp))
        return;
    const Scene &sc = *scp;
    hs_run run = sc.run();
    size_t qi = 0, hits = 0;
    for (auto _ : state) {
        hits += ks->count(&sc.kq[qi], &run);
        qi = (qi + 1) % kQueries;
    }
    benchmark::DoNotOptimize(hits);
    SetPairs(state, sc.n);
    state.counters["hits_per_query"] =
        static_cast<double>(hits) / static_cast<double>(state.iterations());
}

void BM_KernelClosest(benchmark::State &state, hs_isa isa)
{
    const hs_kernel_set *ks = nullptr;
    const Scene *scp = nullptr;
    if (!KernelSetup(state, isa, &ks, &scp))
        return;
    const Scene &sc = *scp;
    hs_run run = sc.run();
    size_t qi = 0, found = 0;
    for (auto _ : state) {
        float t = INFINITY;
        uint32_t id = HS_NONE, pos = 0;
        found += static_cast<size_t>(ks->closest(&sc.kq[qi], &run, &t, &id, &pos));
        benchmark::DoNotOptimize(t);
        benchmark::DoNotOptimize(id);
        qi = (qi + 1) % kQueries;
    }
    benchmark::DoNotOptimize(found);
    SetPairs(state, sc.n);
}

// Short runs, as a grid cell hands them over: the fixed cost per call (query broadcast,
// dispatch on q / semantics / mask, the partial tail vector) matters more than the loop.
void BM_KernelRun(benchmark::State &state, hs_isa isa)
{
    const hs_kernel_set *ks = hs_kernels_get(isa);
    if (!ks) {
        state.SkipWithError("ISA level not supported on this CPU / build");
        return;
    }
    const Scene &sc = scene(65536);
    size_t n = static_cast<size_t>(state.range(0)), qi = 0, off = 0, found = 0;
    for (auto _ : state) {
        hs_run run{sc.x.get() + off, sc.y.get() + off, sc.r.get() + off, nullptr, nullptr, n, 0};
        float t = INFINITY;
        uint32_t id = HS_NONE, pos = 0;
        found += static_cast<size_t>(ks->closest(&sc.kq[qi], &run, &t, &id, &pos));
        benchmark::DoNotOptimize(t);
        qi = (qi + 1) % kQueries;
        off = (off + 4099) % (sc.n - 64);
    }
    benchmark::DoNotOptimize(found);
    SetPairs(state, n);
}

// The textbook loop hitscan replaces (the baseline), over SoA arrays: a = d.d, b = 2 f.d,
// c = f.f - r^2, the textbook discriminant, hit iff t1 or t2 lies in [0, 1]. Same compiler
// flags as everything else in the binary; the compiler may vectorise it if it can.
__attribute__((noinline)) size_t seed_quadratic(const float *cx, const float *cy, const float *cr,
                                                size_t n, float ex, float ey, float dx, float dy)
{
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        float fx = ex - cx[i], fy = ey - cy[i];
        float a = dx * dx + dy * dy;
        float b = 2 * (fx * dx + fy * dy);
        float c = fx * fx + fy * fy - cr[i] * cr[i];
        float discriminant = b * b - 4 * a * c;
        if (discriminant >= 0) {
            discriminant = std::sqrt(discriminant);
            float t1 = (-b - discriminant) / (2 * a);
            float t2 = (-b + discriminant) / (2 * a);
            if ((t1 >= 0 && t1 <= 1) || (t2 >= 0 && t2 <= 1))
                hits++;
        }
    }
    return hits;
}

void BM_SeedQuadratic(benchmark::State &state)
{
    const Scene &sc = scene(static_cast<size_t>(state.range(0)));
    if (!sc.ok) {
        state.SkipWithError("scene setup failed");
        return;
    }
    size_t qi = 0, hits = 0;
    for (auto _ : state) {
        const hs_kq &k = sc.kq[qi];
        hits += seed_quadratic(sc.x.get(), sc.y.get(), sc.r.get(), sc.n, k.ax, k.ay, k.dx, k.dy);
        qi = (qi + 1) % kQueries;
    }
    benchmark::DoNotOptimize(hits);
    SetPairs(state, sc.n);
    state.counters["hits_per_query"] =
        static_cast<double>(hits) / static_cast<double>(state.iterations());
}

// Memory bandwidth for the DRAM-resident case: the count kernel reads three float arrays
// and writes nothing, so StreamRead3 (sum of three arrays) is its ceiling; Triad
// (a = b + s c, the STREAM kernel) is given for reference. Counters in bytes per second.
void BM_StreamRead3(benchmark::State &state)
{
    size_t n = static_cast<size_t>(state.range(0));
    Buf<uint32_t> a = alloc<uint32_t>(n), b = alloc<uint32_t>(n), c = alloc<uint32_t>(n);
    for (size_t i = 0; i < n; i++)
        a[i] = static_cast<uint32_t>(i), b[i] = 2u * static_cast<uint32_t>(i), c[i] = 7u;
    for (auto _ : state) {
        uint32_t s = 0; // integer xor: the compiler vectorises it, so only memory limits it
        for (size_t i = 0; i < n; i++)
            s ^= a[i] ^ b[i] ^ c[i];
        benchmark::DoNotOptimize(s);
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(n) *
                            12);
}

void BM_StreamTriad(benchmark::State &state)
{
    size_t n = static_cast<size_t>(state.range(0));
    Buf<float> a = alloc<float>(n), b = alloc<float>(n), c = alloc<float>(n);
    for (size_t i = 0; i < n; i++)
        a[i] = 0.0f, b[i] = 2.0f, c[i] = static_cast<float>(i & 7);
    for (auto _ : state) {
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] + 3.0f * c[i];
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(n) *
                            12);
}

// Core clock under load, for pairs per cycle: a chain of dependent integer adds retires
// one per cycle, so adds / CPU second = cycles / second (counter "GHz").
void BM_CpuClock(benchmark::State &state)
{
    constexpr int64_t kAdds = 1 << 24;
    uint64_t x = 0;
    for (auto _ : state) {
        for (int64_t i = 0; i < kAdds / 8; i++) {
#if defined(__x86_64__)
            __asm__ volatile("add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\t"
                             "add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0"
                             : "+r"(x));
#elif defined(__aarch64__)
            __asm__ volatile("add %0,%0,#1\n\tadd %0,%0,#1\n\tadd %0,%0,#1\n\tadd %0,%0,#1\n\t"
                             "add %0,%0,#1\n\tadd %0,%0,#1\n\tadd %0,%0,#1\n\tadd %0,%0,#1"
                             : "+r"(x));
#else
            state.SkipWithError("no clock probe for this architecture");
            return;
#endif
        }
    }
    benchmark::DoNotOptimize(x);
    state.counters["GHz"] = benchmark::Counter(
        static_cast<double>(state.iterations()) * kAdds * 1e-9, benchmark::Counter::kIsRate);
}

#if defined(__x86_64__)
// Port probes for bench/README.md's inner-loop limit: throughput of independent vector
// ops of one class (or two classes mixed), as ops per second; divided by BM_CpuClock's GHz
// they give ops per cycle, i.e. how many pipes serve that class. Inline asm, so the ISA is
// checked at run time like the kernels'.
#define HS_X8(ins, r)                                                                              \
    ins " %%" r "0,%%" r "0,%%" r "1\n\t" ins " %%" r "0,%%" r "0,%%" r "2\n\t" ins " %%" r        \
        "0,%%" r "0,%%" r "3\n\t" ins " %%" r "0,%%" r "0,%%" r "4\n\t" ins " %%" r "0,%%" r       \
        "0,%%" r "5\n\t" ins " %%" r "0,%%" r "0,%%" r "6\n\t" ins " %%" r "0,%%" r "0,%%" r       \
        "7\n\t" ins " %%" r "0,%%" r "0,%%" r "8\n\t"
#define HS_CLOBBER "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8"

template <int K> void PortBody();
template <> void PortBody<0>() { __asm__ volatile(HS_X8("vmulps", "ymm")::: HS_CLOBBER); }
template <> void PortBody<1>() { __asm__ volatile(HS_X8("vaddps", "ymm")::: HS_CLOBBER); }
template <> void PortBody<2>()
{
    __asm__ volatile(HS_X8("vmulps", "ymm") HS_X8("vaddps", "ymm")::: HS_CLOBBER);
}
template <> void PortBody<3>()
{
    __asm__ volatile(HS_X8("vaddps", "ymm") HS_X8("vmaxps", "ymm")::: HS_CLOBBER);
}
template <> void PortBody<4>()
{
    __asm__ volatile(HS_X8("vaddps", "ymm") HS_X8("vcmpleps", "ymm")::: HS_CLOBBER);
}
template <> void PortBody<5>()
{
    __asm__ volatile(HS_X8("vmulps", "ymm") HS_X8("vmaxps", "ymm")::: HS_CLOBBER);
}
template <> void PortBody<6>() { __asm__ volatile(HS_X8("vmulps", "zmm")::: HS_CLOBBER); }
template <> void PortBody<7>()
{
    __asm__ volatile(HS_X8("vmulps", "zmm") HS_X8("vaddps", "zmm")::: HS_CLOBBER);
}
template <> void PortBody<8>()
{
    __asm__ volatile(HS_X8("vaddps", "zmm") HS_X8("vmaxps", "zmm")::: HS_CLOBBER);
}
constexpr int kPortOps[] = {8, 8, 16, 16, 16, 16, 8, 16, 16};

template <int K> void BM_PortProbe(benchmark::State &state)
{
    if (!hs_isa_supported(K >= 6 ? HS_ISA_AVX512 : HS_ISA_AVX2)) {
        state.SkipWithError("ISA level not supported on this CPU");
        return;
    }
    __asm__ volatile("vxorps %%xmm0,%%xmm0,%%xmm0" ::: "xmm0");
    constexpr int64_t kReps = 1 << 16;
    for (auto _ : state)
        for (int64_t i = 0; i < kReps; i++)
            PortBody<K>();
    state.counters["ops_per_second"] = benchmark::Counter(
        static_cast<double>(state.iterations()) * kReps * kPortOps[K], benchmark::Counter::kIsRate);
}
#endif

const int kSizes[] = {1024, 65536, 4194304};

int Register()
{
    const hs_isa levels[] = {HS_ISA_SCALAR, HS_ISA_SSE4, HS_ISA_AVX2, HS_ISA_AVX512, HS_ISA_NEON};
    for (hs_isa isa : levels) {
#if defined(__x86_64__) || defined(__i386__)
        if (isa == HS_ISA_NEON)
            continue;
#else
        if (isa == HS_ISA_SSE4 || isa == HS_ISA_AVX2 || isa == HS_ISA_AVX512)
            continue;
#endif
        std::string name = hs_isa_name(isa);
        auto *k = benchmark::RegisterBenchmark(("BM_Kernel/" + name).c_str(), BM_Kernel, isa);
        auto *c = benchmark::RegisterBenchmark(("BM_KernelClosest/" + name).c_str(),
                                               BM_KernelClosest, isa);
        for (int n : kSizes) {
            k->Arg(n);
            c->Arg(n);
        }
        benchmark::RegisterBenchmark(("BM_KernelRun/" + name).c_str(), BM_KernelRun, isa)
            ->Arg(3)
            ->Arg(12)
            ->Arg(40);
    }
    auto *s = benchmark::RegisterBenchmark("BM_SeedQuadratic", BM_SeedQuadratic);
    for (int n : kSizes)
        s->Arg(n);
    benchmark::RegisterBenchmark("BM_StreamRead3", BM_StreamRead3)->Arg(4194304);
    benchmark::RegisterBenchmark("BM_StreamTriad", BM_StreamTriad)->Arg(4194304);
    benchmark::RegisterBenchmark("BM_CpuClock", BM_CpuClock);
#if defined(__x86_64__)
    benchmark::RegisterBenchmark("BM_PortProbe/mul_ymm", BM_PortProbe<0>);
    benchmark::RegisterBenchmark("BM_PortProbe/add_ymm", BM_PortProbe<1>);
    benchmark::RegisterBenchmark("BM_PortProbe/mul+add_ymm", BM_PortProbe<2>);
    benchmark::RegisterBenchmark("BM_PortProbe/add+max_ymm", BM_PortProbe<3>);
    benchmark::RegisterBenchmark("BM_PortProbe/add+cmp_ymm", BM_PortProbe<4>);
    benchmark::RegisterBenchmark("BM_PortProbe/mul+max_ymm", BM_PortProbe<5>);
    benchmark::RegisterBenchmark("BM_PortProbe/mul_zmm", BM_PortProbe<6>);
    benchmark::RegisterBenchmark("BM_PortProbe/mul+add_zmm", BM_PortProbe<7>);
    benchmark::RegisterBenchmark("BM_PortProbe/add+max_zmm", BM_PortProbe<8>);
#endif
    return 0;
}

const int registered = Register();

} // namespace
