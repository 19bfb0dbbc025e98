#pragma once
// A move-only type-erased callable stored inline in a fixed buffer.
//
// Events must not allocate: std::function may heap-allocate its target, so the
// scheduler stores callbacks in this instead. A callable that does not fit in
// `Capacity` bytes is a compile error, not a silent allocation; capture a pointer
// to a long-lived component rather than large state.

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace wmnsim {

template <typename Signature, std::size_t Capacity = 48>
class InlineFunction;

template <typename R, typename... Args, std::size_t Capacity>
class InlineFunction<R(Args...), Capacity> {
 public:
  InlineFunction() = default;

  template <typename F, typename D = std::decay_t<F>,
            typename = std::enable_if_t<!std::is_same_v<D, InlineFunction> &&
                                        std::is_invocable_r_v<R, D&, Args...>>>
  InlineFunction(F&& f) {  // NOLINT(google-explicit-constructor): used like std::function
    static_assert(sizeof(D) <= Capacity, "callable too large for InlineFunction: capture less");
    static_assert(alignof(D) <= alignof(std::max_align_t), "callable over-aligned");
    static_assert(std::is_nothrow_move_constructible_v<D>, "callable must be nothrow-movable");
    construct<D>(std::forward<F>(f));
  }

  // Replaces the target with `f`, constructed in place (no temporary
  // InlineFunction to move through). An InlineFunction argument is moved in.
  // Like std::optional::emplace, the old target is destroyed first: `f` must
  // not refer to it.
  template <typename F, typename D = std::decay_t<F>>
  void emplace(F&& f) {
    if constexpr (std::is_same_v<D, InlineFunction>) {
      *this = std::forward<F>(f);
    } else {
      static_assert(std::is_invocable_r_v<R, D&, Args...>, "not callable with this signature");
      static_assert(sizeof(D) <= Capacity, "callable too large for InlineFunction: capture less");
      static_assert(alignof(D) <= alignof(std::max_align_t), "callable over-aligned");
      static_assert(std::is_nothrow_move_constructible_v<D>, "callable must be nothrow-movable");
      reset();
      construct<D>(std::forward<F>(f));
    }
  }

  InlineFunction(InlineFunction&& other) noexcept { take(other); }
  InlineFunction& operator=(InlineFunction&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  InlineFunction(const InlineFunction&) = delete;
  InlineFunction& operator=(const InlineFunction&) = delete;
  ~InlineFunction() { reset(); }

  explicit operator bool() const { return ops_ != nullptr; }

  R operator()(Args... args) { return ops_->invoke(buffer_, std::forward<Args>(args)...); }

  void reset() {
    if (ops_ != nullptr) {
      if (!ops_->trivial) ops_->destroy(buffer_);
      ops_ = nullptr;
    }
  }

 private:
  struct Ops {
    R (*invoke)(void*, Args&&...);
    void (*move_to)(void* from, void* to) noexcept;
    void (*destroy)(void*) noexcept;
    // Trivially copyable callables (a `this` pointer and a few values: the common
    // case) are moved with a memcpy and need no destructor call.
    bool trivial;
  };

  template <typename D>
  static constexpr Ops ops_for{
      [](void* p, Args&&... args) -> R { return (*static_cast<D*>(p))(std::forward<Args>(args)...); },
      [](void* from, void* to) noexcept {
        ::new (to) D(std::move(*static_cast<D*>(from)));
        static_cast<D*>(from)->~D();
      },
      [](void* p) noexcept { static_cast<D*>(p)->~D(); },
      std::is_trivially_copyable_v<D>};

  template <typename D, typename F>
  void construct(F&& f) {
    // A trivially copyable target is later moved as all `Capacity` bytes; clear
    // them first so that no byte the target leaves unwritten is ever copied
    // (three stores; an empty lambda writes none at all).
    if constexpr (std::is_trivially_copyable_v<D>) std::memset(buffer_, 0, Capacity);
    ::new (static_cast<void*>(buffer_)) D(std::forward<F>(f));
    ops_ = &ops_for<D>;
  }

  void take(InlineFunction& other) noexcept {
    if (other.ops_ != nullptr) {
      if (other.ops_->trivial) {
        std::memcpy(buffer_, other.buffer_, Capacity);
      } else {
        other.ops_->move_to(other.buffer_, buffer_);
      }
      ops_ = other.ops_;
      other.ops_ = nullptr;
    }
  }

  alignas(std::max_align_t) unsigned char buffer_[Capacity];
  const Ops* ops_ = nullptr;
};

}  // namespace wmnsim
