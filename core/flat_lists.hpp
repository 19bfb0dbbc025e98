#pragma once
// A list per index (a node's radios, a radio's links), all in one array: the
// lists' items side by side and, per list, where it starts (compressed sparse
// rows). 4 B per list instead of a std::vector's 24 and its own heap block
// (issue 43 §3). The lists are built once, in list order (add_list, then
// push_back onto the last list) or from (list, item) pairs (from_pairs); after
// that an item may change, but no list grows.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace wmnsim {

template <class T>
class FlatLists {
 public:
  FlatLists() = default;

  // Lists of items `pairs` assigns them to (first: the list, below `lists`), each
  // list in the pairs' order.
  static FlatLists from_pairs(std::size_t lists, std::span<const std::pair<std::uint32_t, T>> pairs) {
    check_size(pairs.size());
    FlatLists out;
    out.starts_.assign(lists + 1, 0);
    for (const auto& [list, item] : pairs) {
      if (list >= lists) throw std::out_of_range("FlatLists::from_pairs: list " + std::to_string(list) + " of " +
                                                 std::to_string(lists));
      ++out.starts_[list + 1];
    }
    for (std::size_t i = 0; i < lists; ++i) out.starts_[i + 1] += out.starts_[i];
    out.items_.resize(pairs.size());
    std::vector<std::uint32_t> next(out.starts_.begin(), out.starts_.end() - 1);
    for (const auto& [list, item] : pairs) out.items_[next[list]++] = item;
    return out;
  }

  // Appends an empty list; push_back adds to it.
  void add_list() {
    if (starts_.empty()) starts_.push_back(0);
    starts_.push_back(starts_.back());
  }
  // Adds `item` to the last list (add_list first).
  void push_back(T item) {
    if (starts_.empty()) throw std::logic_error("FlatLists::push_back before add_list");
    check_size(items_.size() + 1);
    items_.push_back(std::move(item));
    ++starts_.back();
  }
  // Room for `lists` lists of `items` items in all, built list by list without
  // the spare capacity of growing (set-up's peak memory).
  void reserve(std::size_t lists, std::size_t items) {
    starts_.reserve(lists + 1);
    items_.reserve(items);
  }
  // Gives back the spare capacity of building list by list.
  void shrink_to_fit() {
    starts_.shrink_to_fit();
    items_.shrink_to_fit();
  }

  std::size_t size() const { return starts_.empty() ? 0 : starts_.size() - 1; }
  bool empty() const { return size() == 0; }
  std::span<const T> operator[](std::size_t i) const {
    return {items_.data() + starts_[i], items_.data() + starts_[i + 1]};
  }
  std::span<T> operator[](std::size_t i) { return {items_.data() + starts_[i], items_.data() + starts_[i + 1]}; }
  std::span<const T> at(std::size_t i) const {
    check_index(i);
    return (*this)[i];
  }
  std::span<T> at(std::size_t i) {
    check_index(i);
    return (*this)[i];
  }
  // Item `index` of list `list` (a span has no at() before C++26).
  const T& at(std::size_t list, std::size_t index) const { return at(list)[checked(index, at(list).size())]; }
  T& at(std::size_t list, std::size_t index) { return at(list)[checked(index, at(list).size())]; }
  // Every list's items, list after list.
  std::span<const T> items() const { return items_; }

 private:
  void check_index(std::size_t i) const {
    if (i >= size()) {
      throw std::out_of_range("FlatLists::at: list " + std::to_string(i) + " of " + std::to_string(size()));
    }
  }
  static std::size_t checked(std::size_t index, std::size_t size) {
    if (index >= size) {
      throw std::out_of_range("FlatLists::at: item " + std::to_string(index) + " of " + std::to_string(size));
    }
    return index;
  }
  // The starts are 32-bit: at most 2^32 - 1 items in all.
  static void check_size(std::size_t items) {
    if (items > std::numeric_limits<std::uint32_t>::max()) throw std::length_error("FlatLists: over 2^32 - 1 items");
  }

  std::vector<std::uint32_t> starts_;  // list i is items_[starts_[i], starts_[i + 1]); empty, or size() + 1
  std::vector<T> items_;
};

}  // namespace wmnsim
