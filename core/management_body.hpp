#pragma once
// The typed body of a management frame between neighbours (an 802.11 Action
// frame: IEEE 802.11-2012 8.3.3.14, 8.5), and who receives it at a node.
//
// A MAC sends it as a management frame (mac/mac.hpp Mac::send_management: at the
// basic rate, around the data queues, AC_VO under EDCA); the receiving MAC hands it
// to its node, which dispatches it to the handlers subscribed to its category
// (Node::subscribe_management). It never reaches a flow endpoint and is no packet:
// the packet ledger and the data counters never see it (MacStats counts it apart).
//
// The body is immutable and shared: every receiver of a broadcast reads the same
// one. A concrete body (mac/congestion_notification.hpp: 802.11s Congestion
// Control Notification) gives its category and action (8.4.1.11, Table 8-38) and
// its size on the air, which drives the frame's airtime. core/ knows no frame
// format; it only carries and dispatches.

#include <cstdint>

namespace wmnsim {

// The first two octets of every Action frame body: Category and Action (8.5.1).
class ManagementBody {
 public:
  virtual ~ManagementBody() = default;
  virtual std::uint8_t category() const = 0;
  virtual std::uint8_t action() const = 0;
  // The frame body in octets (Category and Action fields included); the MAC adds
  // its header and FCS.
  virtual std::uint32_t size_bytes() const = 0;
};

struct PrevHop;

// Receives the management frames of one category that reach a node.
class ManagementHandler {
 public:
  virtual ~ManagementHandler() = default;
  // `node` received `body` on interface from.interface from the radio at
  // from.address. The body outlives the call only if the handler keeps a copy.
  virtual void on_management(std::uint32_t node, const ManagementBody& body, const PrevHop& from) = 0;
};

}  // namespace wmnsim
