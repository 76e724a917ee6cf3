/* SPDX-License-Identifier: MIT */
// hitscan for C++ (hitscan/hitscan.hpp): spans, errors, result<T> and the owners' plumbing.
#ifndef HITSCAN_CPP_BASE_HPP
#define HITSCAN_CPP_BASE_HPP

#include "hitscan/hitscan.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#if defined(__has_include)
#if __has_include(<version>)
#include <version>
#endif
#endif

// std::span where the standard library has it (C++20), else hitscan::span below.
#if defined(__cpp_lib_span) && __cplusplus >= 202002L
#include <span>
#define HS_CPP_STD_SPAN 1
#else
#define HS_CPP_STD_SPAN 0
#endif

// The throwing calls exist only when exceptions do (-fno-exceptions: the try_ calls alone).
#ifndef HS_CPP_EXCEPTIONS
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define HS_CPP_EXCEPTIONS 1
#else
#define HS_CPP_EXCEPTIONS 0
#endif
#endif
#if HS_CPP_EXCEPTIONS
#include <stdexcept>
#endif

namespace hitscan
{

// "No element named": the index of errors that name none.
constexpr std::size_t npos = static_cast<std::size_t>(-1);

using status = hs_status;
inline const char *status_string(hs_status s) noexcept { return hs_status_string(s); }
// The linked library's "MAJOR.MINOR.PATCH" (HS_VERSION_STRING is the headers').
inline const char *version() noexcept { return hs_version(); }

#if HS_CPP_STD_SPAN
template <class T> using span = std::span<T>;
#else
// A pointer and a count: what std::span<T> (dynamic extent) is, for C++17. Made from a pointer
// and a count, an array, or a contiguous container (std::vector, std::array) of T.
template <class T> class span
{
  public:
    using element_type = T;
    using value_type = std::remove_cv_t<T>;
    using size_type = std::size_t;
    using pointer = T *;
    using reference = T &;
    using iterator = T *;

    constexpr span() noexcept = default;
    constexpr span(T *data, std::size_t size) noexcept : data_(data), size_(size) {}
    template <std::size_t N> constexpr span(T (&a)[N]) noexcept : data_(a), size_(N) {}
    template <class C, class P = decltype(std::declval<C &>().data()),
              class = std::enable_if_t<
                  !std::is_same_v<std::remove_cv_t<std::remove_reference_t<C>>, span> &&
                  std::is_convertible_v<std::remove_pointer_t<P> (*)[], T (*)[]>>>
    constexpr span(C &&c) noexcept : data_(c.data()), size_(c.size())
    {
    }

    constexpr T *data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr T &operator[](std::size_t i) const noexcept { return data_[i]; }
    constexpr T *begin() const noexcept { return data_; }
    constexpr T *end() const noexcept { return data_ + size_; }

  private:
    T *data_ = nullptr;
    std::size_t size_ = 0;
};
#endif

#if HS_CPP_EXCEPTIONS
// What every throwing call throws: the C API's status and, where it names one, the bad
// element's index (a circle, a wall, a query, a disc), else npos.
class error : public std::runtime_error
{
  public:
    explicit error(hs_status s, std::size_t index = npos)
        : std::runtime_error(message(s, index)), status_(s), index_(index)
    {
    }
    hs_status status() const noexcept { return status_; }
    std::size_t index() const noexcept { return index_; }

  private:
    static std::string message(hs_status s, std::size_t index)
    {
        std::string m = std::string("hitscan: ") + hs_status_string(s);
        if (index != npos)
            m += " (index " + std::to_string(index) + ")";
        return m;
    }
    hs_status status_;
    std::size_t index_;
};
#endif

namespace detail
{
// A failed call's status and the index it names (npos: none).
struct failed {
    hs_status status;
    std::size_t index = npos;
};

[[noreturn]] inline void raise(hs_status s, std::size_t index)
{
#if HS_CPP_EXCEPTIONS
    throw error(s, index);
#else
    (void)s;
    (void)index;
    std::abort();
#endif
}
} // namespace detail

// What the try_ calls return: a value, or the status and bad index that kept it from being made.
// ok(): HS_OK. has_value(): the value is there, which batch calls also say for
// HS_E_INVALID_QUERY (the invalid queries were answered as misses; index() names the first).
// value() gives it when has_value(), and otherwise throws hitscan::error (aborts without
// exceptions).
template <class T> class [[nodiscard]] result
{
  public:
    result(T &&value) noexcept(std::is_nothrow_move_constructible_v<T>)
        : value_(std::move(value)), has_(true)
    {
    }
    result(const T &value) : value_(value), has_(true) {}
    result(T &&value, hs_status s,
           std::size_t index) noexcept(std::is_nothrow_move_constructible_v<T>)
        : value_(std::move(value)), status_(s), index_(index), has_(true)
    {
    }
    result(detail::failed f) noexcept : status_(f.status), index_(f.index) {}

    bool ok() const noexcept { return status_ == HS_OK; }
    explicit operator bool() const noexcept { return ok(); }
    bool has_value() const noexcept { return has_; }
    hs_status status() const noexcept { return status_; }
    std::size_t index() const noexcept { return index_; }

    T &value() &
    {
        check();
        return value_;
    }
    const T &value() const &
    {
        check();
        return value_;
    }
    T &&value() &&
    {
        check();
        return std::move(value_);
    }

  private:
    void check() const
    {
        if (!has_)
            detail::raise(status_, index_);
    }
    T value_{};
    hs_status status_ = HS_OK;
    std::size_t index_ = npos;
    bool has_ = false;
};

template <> class [[nodiscard]] result<void>
{
  public:
    result() noexcept = default;
    result(hs_status s, std::size_t index = npos) noexcept : status_(s), index_(index) {}
    result(detail::failed f) noexcept : status_(f.status), index_(f.index) {}

    bool ok() const noexcept { return status_ == HS_OK; }
    explicit operator bool() const noexcept { return ok(); }
    hs_status status() const noexcept { return status_; }
    std::size_t index() const noexcept { return index_; }
    void value() const
    {
        if (!ok())
            detail::raise(status_, index_);
    }

  private:
    hs_status status_ = HS_OK;
    std::size_t index_ = npos;
};

namespace detail
{
// The throwing calls: the value when the call succeeded in full, hitscan::error otherwise.
template <class T> T take(result<T> &&r)
{
    if (!r.ok())
        raise(r.status(), r.index());
    return std::move(r).value();
}
inline void take(result<void> &&r) { r.value(); }

// Runs a try_ call's body; the allocations of C++ containers become HS_E_NOMEM.
template <class F> auto guard(F &&f) noexcept -> decltype(f())
{
#if HS_CPP_EXCEPTIONS
    try {
        return f();
    } catch (...) {
        return failed{HS_E_NOMEM};
    }
#else
    return f();
#endif
}

template <class T, void (*Free)(T *)> struct deleter {
    void operator()(T *p) const noexcept { Free(p); }
};
template <class T, void (*Free)(T *)> using handle = std::unique_ptr<T, deleter<T, Free>>;

// A C result struct (hs_hits, hs_pairs, ...) owned: freed once, moved, never copied.
template <class T, void (*Free)(T *)> class owned
{
  public:
    owned() noexcept : v_{} {}
    owned(owned &&o) noexcept : v_(o.v_) { o.v_ = T{}; }
    owned &operator=(owned &&o) noexcept
    {
        if (this != &o) {
            Free(&v_);
            v_ = o.v_;
            o.v_ = T{};
        }
        return *this;
    }
    owned(const owned &) = delete;
    owned &operator=(const owned &) = delete;
    ~owned() { Free(&v_); }
    const T &c() const noexcept { return v_; }
    // Frees what it holds and hands the emptied struct to a C call that fills it.
    T *refill() noexcept
    {
        Free(&v_);
        v_ = T{};
        return &v_;
    }

  protected:
    T v_;
};

template <class T> span<const T> view(const T *p, std::size_t n) noexcept
{
    return p ? span<const T>(p, n) : span<const T>();
}
// A span's pointer for a C call: NULL when it is empty.
template <class T> T *ptr(span<T> s) noexcept { return s.empty() ? nullptr : s.data(); }
} // namespace detail
} // namespace hitscan

#endif
