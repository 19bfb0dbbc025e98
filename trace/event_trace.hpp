#pragma once
// A run's event trace (docs/traces.md "Event trace"): one typed record per event of
// interest on the air, in the MACs and at the nodes, written into one compact file
// (trace/event_record.hpp) that wmnsim.trace.load() reads into a pandas DataFrame.
//
// What it watches, and through which hook (each an observer that only reads):
//   the air     phy::AirObserver (through the medium, trace/air_observer_fanout.hpp
//               when a pcap trace watches too): tx start and end, rx lock, rx ok,
//               rx fail and rx missed with the cause and interferer
//   the MACs    mac::MacObserver (Mac::subscribe): enqueue and dequeue with the
//               queue's length, backoff drawn, NAV set, retry
//   the nodes   NodeSubscriber (Node::subscribe): drop with the cause, deliver
//   decisions   mac::MacObserver::on_params (each access category's CW and AIFSN
//               when the trace starts, then each change), and DecisionObserver (core/decision_observer.hpp):
//               a routing protocol's route found, changed or lost (AODV), a
//               controller's action (004's notifications and D, 001's rates). The
//               runner makes the trace the observer of both.
//
// Filters (EventTraceOptions): nodes, kinds, a time window; records past
// max_records are not written (the run goes on; cut_at() says when it stopped).
//
// Cost: off, nothing is subscribed: the medium's observer pointer stays null, each
// MAC's and node's observer list empty (one test each per event). On, one record
// (64 octets) per event that passes the filters, copied into a 256 KiB buffer.
// The trace schedules no event and draws no random number: a traced run executes
// the events of an untraced one (docs/fingerprints.md).

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/decision_observer.hpp"
#include "core/node.hpp"
#include "core/node_signals.hpp"
#include "core/scheduler.hpp"
#include "mac/mac.hpp"
#include "mac/mac_user.hpp"
#include "phy/air_observer.hpp"
#include "phy/medium.hpp"
#include "trace/event_record.hpp"
#include "trace/pcap_file.hpp"  // CaptureWriteError

namespace wmnsim::trace {

// The event trace's file cannot be written (CaptureWriteError, at the trace's path).
class EventTraceWriteError : public CaptureWriteError {
 public:
  using CaptureWriteError::CaptureWriteError;
};

struct EventTraceOptions {
  std::filesystem::path path;
  std::vector<bool> nodes;                // by node index: the nodes whose events are written; empty: every node
  std::uint32_t kinds = kAllEventKinds;   // a set of kind_bit()
  Time start = Time::zero();              // records from `start` to `end` inclusive
  Time end = Time::max();
  std::uint64_t max_records = std::uint64_t{1} << 24;
};

class EventTrace final : public phy::AirObserver,
                         public mac::MacObserver,
                         public NodeSubscriber,
                         public DecisionObserver {
 public:
  // Opens the file (a temporary name in its folder: CaptureWriteError when the
  // folder does not take it: EventTraceWriteError) and subscribes to every MAC in `macs` (by radio id)
  // and every node in `nodes` (by node index) until destroyed. The caller makes it
  // the medium's air observer (alone, or beside a pcap trace through a fanout).
  EventTrace(EventTraceOptions options, phy::Medium& medium, const std::vector<mac::Mac*>& macs,
             const std::vector<Node*>& nodes, const std::vector<std::string>& node_ids);
  ~EventTrace() override;
  EventTrace(const EventTrace&) = delete;
  EventTrace& operator=(const EventTrace&) = delete;

  // phy::AirObserver
  void on_transmit(phy::RadioId from, const phy::PhyFrame& frame) override;
  void on_locked(phy::RadioId to, const phy::PhyFrame& frame, phy::PowerMw power) override;
  void on_decoded(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxInfo& info, Time first_bit) override;
  void on_failed(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                 Time first_bit) override;
  void on_missed(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                 Time first_bit) override;
  // mac::MacObserver
  void on_enqueue(std::uint32_t radio, const Packet& packet, AccessCategory ac,
                  std::size_t queue_length) override;
  void on_dequeue(std::uint32_t radio, const Packet& packet, AccessCategory ac,
                  std::size_t queue_length) override;
  void on_backoff(std::uint32_t radio, AccessCategory ac, int slots, int cw) override;
  void on_nav(std::uint32_t radio, Time until) override;
  void on_retry(std::uint32_t radio, const Packet* packet, std::uint16_t sequence, int retries) override;
  void on_params(std::uint32_t radio, AccessCategory ac, const EdcaParams& params) override;
  // DecisionObserver
  void on_route(std::uint32_t node, std::uint32_t dst, std::uint32_t next_hop, std::uint32_t interface) override;
  void on_controller(const ControllerDecision& decision) override;
  // NodeSubscriber
  void on_delivered(std::uint32_t node, Packet& packet, const PrevHop& from) override;
  void on_dropped(std::uint32_t node, const Packet& packet, DropCause cause) override;

  // Writes the header's count and renames the file into place. Throws EventTraceWriteError.
  void commit();
  std::uint64_t records() const { return records_; }
  // When the records reached max_records and stopped being written.
  std::optional<Time> cut_at() const { return cut_at_; }

 private:
  // A record of `kind` at `at` on `radio`'s node, with the frame's fields.
  EventRecord on_radio(EventKind kind, Time at, phy::RadioId radio) const;
  void frame_fields(EventRecord& r, const phy::PhyFrame& frame) const;
  // An enqueue or dequeue record: the packet, its category, the queue's length after.
  void queue_record(EventKind kind, std::uint32_t radio, const Packet& packet, AccessCategory ac,
                    std::size_t queue_length);
  void rx_failure(EventKind kind, phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                  Time first_bit);
  bool wanted(EventKind kind, std::uint32_t node, Time at) const;
  void write(const EventRecord& r);
  void flush();
  [[noreturn]] void fail(int error);

  EventTraceOptions options_;
  const phy::Medium& medium_;
  const Scheduler& scheduler_;
  std::vector<mac::Mac*> macs_;
  std::vector<Node*> nodes_;
  std::vector<std::uint32_t> node_of_radio_;
  std::vector<std::vector<std::uint32_t>> radios_of_node_;  // each node's radios, ascending
  std::filesystem::path temporary_;
  int fd_ = -1;
  std::vector<std::uint8_t> buffer_;
  std::uint64_t header_bytes_ = 0;
  std::uint64_t records_ = 0;
  std::optional<Time> cut_at_;
  // By radio and access category: the CWmin, CWmax and AIFSN last written.
  std::vector<std::array<int, 3>> params_told_;
};

}  // namespace wmnsim::trace
