#pragma once
// The reception a radio is locked onto (phy/radio.hpp), and the medium's store of
// them. Only a radio receiving now holds one: an idle radio keeps a null pointer
// instead of the record (issue 43 §3, memory per node: 160 bytes in every radio
// before, when it was a std::optional in place). The store grows to the most
// receptions under way at once and keeps its records for reuse.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <new>
#include <optional>
#include <utility>

#include "core/time.hpp"
#include "phy/mcs.hpp"
#include "phy/phy_frame.hpp"
#include "phy/rx_failure.hpp"
#include "phy/units.hpp"

namespace wmnsim::phy {

// The 4-byte fields first, then the frame and the 8-byte ones, the small ones
// last: no padding but at the end.
struct LockedReception {
  std::uint32_t tx;
  // For a trace only (AirObserver::on_failed), never read by a decision:
  std::uint32_t first_tx;  // the signal locked onto (ns2 moves `tx` to a collided frame's)
  RadioId sender;          // its transmitter (air observer set only)
  RadioId interferer;      // the strongest other signal's transmitter (air observer set only)
  PhyFrame frame;
  PowerMw power;  // ns2: of the frame whose end ends the reception
  Time start;
  Time end;                          // when the reception ends (ns2: the latest of collided frames)
  Time header_start, payload_start;  // PLCP header and PSDU boundaries
  const Mcs* header_mcs;
  Time last_change;  // SINR: start of the stretch not yet recorded
  double min_sinr;   // linear (sinr: computed when the reception is decided)
  PowerMw first_power;  // trace only: the power of the signal locked onto (ns2 moves `power`)
  double interferer_mw;  // trace only: the power of `interferer`
  std::optional<RxFailure> cause;  // trace only: why it is lost, when a model knows it before the end
  bool doomed;     // threshold/range/ns2: already lost (interferer, below RXThresh, own transmission)
  bool evaluated;  // sinr: min_sinr is final
};

// The records of a medium's radios' receptions: a free list over slots that stay
// where they are (a deque), so that a radio keeps a plain pointer to its record.
// A slot is either a record or, once given back, the link to the next free slot:
// the list costs no byte of its own. Radios take and give back in the order
// their receptions begin and end, so the most recently freed record (likely still
// in the cache) is the next one taken.
class ReceptionRecords {
 public:
  ReceptionRecords() = default;
  ReceptionRecords(const ReceptionRecords&) = delete;
  ReceptionRecords& operator=(const ReceptionRecords&) = delete;

  // A record built from `fields` (LockedReception's, in order), held until release().
  template <typename... Fields>
  LockedReception* acquire(Fields&&... fields) {
    // The slot leaves the free list before the record is built over it: safe only
    // because building cannot throw.
    static_assert(noexcept(LockedReception{std::forward<Fields>(fields)...}));
    Slot* slot = first_free_;
    if (slot == nullptr) [[unlikely]] slot = grow();
    first_free_ = slot->next_free;
    return ::new (static_cast<void*>(slot->bytes)) LockedReception{std::forward<Fields>(fields)...};
  }
  // Destroys the record (its frame's payload reference with it) and frees its slot.
  void release(LockedReception* record) {
    record->~LockedReception();
    Slot* slot = ::new (static_cast<void*>(record)) Slot;  // the record was the slot's storage
    slot->next_free = first_free_;
    first_free_ = slot;
  }
  // Slots made so far: the most receptions that were under way at once.
  std::size_t capacity() const { return slots_.size(); }

 private:
  union Slot {
    Slot* next_free;
    alignas(LockedReception) std::byte bytes[sizeof(LockedReception)];
  };
  // A new slot, as if freed (the rare path: out of line, so the common one stays short).
  [[gnu::noinline]] Slot* grow() {
    Slot& slot = slots_.emplace_back();
    slot.next_free = nullptr;
    return &slot;
  }

  std::deque<Slot> slots_;
  Slot* first_free_ = nullptr;
};

}  // namespace wmnsim::phy
