#pragma once
// A list of named entries of one kind of plug-in (transports, queue disciplines),
// in registration order: the order of names in messages, in the composed JSON
// Schema and in docs/scenario.md. A value, not a global: a program may parse and run
// one scenario with the built-ins and another with its own entries added.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wmnsim {

template <typename Entry>  // Entry has a std::string `name`
class Registry {
 public:
  // Replaces an entry of the same name in place, else appends.
  void add(Entry entry) {
    for (Entry& e : entries_) {
      if (e.name == entry.name) {
        e = std::move(entry);
        return;
      }
    }
    entries_.push_back(std::move(entry));
  }
  const Entry* find(std::string_view name) const {
    for (const Entry& e : entries_) {
      if (e.name == name) return &e;
    }
    return nullptr;
  }
  bool has(std::string_view name) const { return find(name) != nullptr; }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry& e : entries_) out.push_back(e.name);
    return out;
  }
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

}  // namespace wmnsim
