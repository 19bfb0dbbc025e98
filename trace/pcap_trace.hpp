#pragma once
// A run's pcap trace (docs/traces.md): watches the air through the medium's
// AirObserver and writes each frame as radiotap + 802.11 MPDU + LLC/SNAP + IP
// (trace/radiotap.hpp, trace/mpdu.hpp) into one file per channel or per node.
//
//   per channel  <path>-ch<channel>.pcap: every frame transmitted on the channel,
//                as a monitor hearing everything would list it, with the
//                transmitter's power (radiotap dBm TX Power)
//   per node     <path>-<node id>.pcap: every frame the node's radios transmit, and
//                every frame they decode (addressed to them or not), with its
//                received power (dBm Antenna Signal) and the noise power
//
// pcapng files (extension .pcapng) name things: an interface per node (if_name:
// the node id; a record is on the interface of the node whose radio sent or
// received it) and a Name Resolution Block giving each node's IPv4 address and
// each radio's MAC address the node's id.
//
// Wired links (docs/traces.md "Wired links") go to one more file, <path>-wired.pcap,
// of link type LINKTYPE_RAW (bare IP datagrams): each packet a link direction
// serializes, once, timed at the start of its serialization, for every direction
// with a traced node at either end; pcapng gives each direction an interface named
// "<from>-><to>".
//
// With `synthetic_handshake` (pcapng files), a TCP flow that opens without a
// handshake on the air (`handshake` false: the simulation sends none) gets one in
// the trace: before the flow's first record in each file, a SYN, a SYN-ACK and an
// ACK, and when its transfer completes (on_flow_completed; written before the
// file's first record at or after that time, or at commit), a FIN, a FIN-ACK and
// an ACK, each with the comment "synthetic: not simulated, no airtime". They copy
// the hop, the interface and the 802.11 header of the file's first record of the
// flow (addresses swapped against the data), carry no radiotap power (they were
// never on the air), and have the numbers the simulated handshake would have, so
// Wireshark's TCP analysis starts and ends a conversation as with a real one.
//
// With `failed` (pcapng files), the frames a traced node's
// radios failed to decode too, in its node file or its channel's file: radiotap's
// bad-FCS flag, and the cause and interferer as the record's comment.
//
// Cost: nothing when off (the medium's observer pointer stays null). When on, per
// traced frame the bytes of the frame are built (O(frame size)) and appended to a
// buffer; files are written 256 KiB at a time.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mac/frame.hpp"
#include "phy/air_observer.hpp"
#include "phy/medium.hpp"
#include "trace/byte_writer.hpp"
#include "trace/ip_datagram.hpp"
#include "trace/pcap_file.hpp"
#include "trace/radiotap.hpp"

namespace wmnsim::trace {

enum class TraceSplit { channel, node };

// Which frames a radio did not decode are written (docs/traces.md "Failed receptions").
enum class FailedFrames {
  none,            // only decoded frames
  decoded_header,  // also the frames it locked onto (detected their preamble and header) and lost
  all,             // also every frame that reached it and was never locked onto
};

struct PcapTraceOptions {
  std::string path;                       // file name prefix
  TraceSplit per = TraceSplit::channel;
  std::uint32_t snap_length = 65535;
  // By node index: the nodes traced (per node: those with a file; per channel: the
  // transmitters listed, and the receivers whose failed frames are written). Empty:
  // every node.
  std::vector<bool> nodes;
  CaptureFormat format = CaptureFormat::pcap;
  FailedFrames failed = FailedFrames::none;  // anything but none needs pcapng (comments)
  // Synthetic SYN and FIN exchanges for the flows that ask (FlowTrace); needs pcapng.
  bool synthetic_handshake = false;
  // The most bytes the files hold together: records after that are not written.
  std::uint64_t max_bytes = std::uint64_t{1} << 30;
};

// One direction of a wired link.
struct TracedWire {
  std::uint32_t from_node = 0;
  std::uint32_t to_node = 0;
};

// What the trace needs to know of the network beyond the medium.
struct TracedNetwork {
  std::vector<std::string> node_ids;  // by node index
  std::vector<FlowTrace> flows;       // by flow index
  std::vector<TracedWire> wires;      // the wired link directions, numbered as on_wire's `wire`
};

// The file names (docs/traces.md "Files").
std::filesystem::path channel_trace_path(const std::string& prefix, int channel,
                                         CaptureFormat format = CaptureFormat::pcap);
std::filesystem::path node_trace_path(const std::string& prefix, const std::string& node_id,
                                      CaptureFormat format = CaptureFormat::pcap);
std::filesystem::path wired_trace_path(const std::string& prefix, CaptureFormat format = CaptureFormat::pcap);

// A failed frame's record comment: "failed: collision, interferer GW" (locked onto,
// then lost) or "not locked: below sensitivity" (never locked onto).
std::string failure_comment(bool locked, const phy::RxFailureInfo& why, const std::string* interferer);

// The files a trace of `medium`'s radios writes, in creation order.
std::vector<std::filesystem::path> trace_files(const phy::Medium& medium, const PcapTraceOptions& options,
                                               const TracedNetwork& network);
// Whose records each of those files holds: "node A", "channel 6", "the wired links"
// (for messages: a node named "wired" and the wired links write one file).
std::vector<std::string> trace_file_owners(const phy::Medium& medium, const PcapTraceOptions& options,
                                           const TracedNetwork& network);

class PcapTrace final : public phy::AirObserver {
 public:
  // Opens the files (CaptureWriteError when a folder does not take them) and
  // registers itself as `medium`'s air observer until destroyed.
  PcapTrace(phy::Medium& medium, PcapTraceOptions options, TracedNetwork network);
  ~PcapTrace() override;
  PcapTrace(const PcapTrace&) = delete;
  PcapTrace& operator=(const PcapTrace&) = delete;

  void on_transmit(phy::RadioId from, const phy::PhyFrame& frame) override;
  void on_decoded(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxInfo& info, Time first_bit) override;
  void on_failed(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                 Time first_bit) override;
  void on_missed(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                 Time first_bit) override;

  // Wired link direction `wire` (TracedNetwork::wires) serialized `packet`, starting
  // at `start` (the owner of the links calls it; the medium does not see them).
  void on_wire(std::size_t wire, const Packet& packet, Time start);

  // Flow `flow`'s transfer completed at `at`: every byte up to `data_end` (one past
  // its last) was acknowledged. With synthetic_handshake, writes the flow's
  // synthetic FIN, FIN-ACK and ACK in each file that holds its opening.
  void on_flow_completed(std::uint32_t flow, std::uint64_t data_end, Time at);

  // The nodes, flows and wires the trace was built for.
  const TracedNetwork& network() const { return network_; }

  // Renames every file into place (after a run that finished). Throws CaptureWriteError;
  // so do the on_* calls when a buffer's write to disk fails.
  void commit();
  std::size_t file_count() const { return files_.size(); }
  // When the files reached options.max_bytes and records stopped being written.
  std::optional<Time> cut_at() const { return cut_at_; }
  const PcapFile& file(std::size_t i) const { return *files_[i]; }

 private:
  // `received`: the power at the receiving radio (none: transmitted); `failure`: a
  // frame not decoded, written with the bad-FCS flag and `failure` as its comment.
  void record(std::uint32_t file, phy::RadioId radio, const phy::PhyFrame& frame, Time at,
              const phy::PowerDbm* received, std::string_view failure = {});
  // Whether the files reached options.max_bytes (then cut_at is set).
  bool full(Time at);
  // Appends bytes_ to files_[file] at `at`.
  void write_record(std::uint32_t file, Time at, std::uint32_t interface, std::string_view comment);
  // Where a flow's synthetic handshake goes in one file: the hop of the flow's first
  // record there, in the data direction.
  struct SyntheticHop {
    std::uint32_t file = 0;
    // The interfaces of the data sender's segments and of the receiver's in `file`.
    std::uint32_t sender_interface = 0;
    std::uint32_t receiver_interface = 0;
    bool wired = false;
    // A radio's record (not wired): the radio it was recorded at and the frame's
    // rate, kind, access category and sequence number, and the data direction's
    // transmitter and receiver radios.
    phy::RadioId radio = 0;
    const phy::Mcs* mcs = nullptr;
    mac::FrameKind kind = mac::FrameKind::data;
    AccessCategory access_category = AccessCategory::ac_be;
    std::uint16_t sequence = 0;
    std::uint32_t data_transmitter = 0;
    std::uint32_t data_receiver = 0;
    bool timestamps = false;  // the flow's segments carry them; the opening's TSval:
    Time open_ts;
  };
  struct Synthetic {
    std::vector<SyntheticHop> hops;  // one per file holding the flow's opening
    bool completed = false;          // its close is written or pending
  };
  // A flow's close, waiting for its file's first record at or after `at`.
  struct PendingClose {
    std::uint32_t file = 0;
    std::uint32_t flow = 0;
    std::uint64_t data_end = 0;
    Time at;
    std::uint64_t order = 0;  // completion order over all files (commit writes in it)
  };
  // Writes flow `packet.flow`'s (wants_synthetic) synthetic opening in `file` before
  // its first record there (once).
  void open_synthetic(std::uint32_t file, const Packet& packet, SyntheticHop hop, Time at);
  // Writes the pending closes of `file` due at or before `before`.
  void write_closes(std::uint32_t file, Time before);
  void write_close(const PendingClose& close);
  // The SYN, SYN-ACK, ACK (`closing` false) or FIN, FIN-ACK, ACK of `flow` at `hop`.
  void write_synthetic(std::uint32_t flow, const SyntheticHop& hop, bool closing, std::uint64_t data_end, Time at);
  RadiotapInfo radiotap(phy::RadioId radio, const phy::Mcs& mcs, Time at) const;
  const FlowTrace& flow_of(const Packet& packet) const;
  // Whether packet's flow gets a synthetic handshake in this trace.
  bool wants_synthetic(const Packet& packet) const;
  void record_failure(bool locked, phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                      Time first_bit);

  phy::Medium& medium_;
  PcapTraceOptions options_;
  TracedNetwork network_;
  std::vector<std::unique_ptr<PcapFile>> files_;
  std::vector<std::uint32_t> tx_file_;  // by radio: where its transmissions go
  std::vector<std::uint32_t> rx_file_;  // by radio: where what it decodes goes (per node only)
  std::vector<std::uint32_t> failed_file_;  // by radio: where what it fails to decode goes (with `failed`)
  std::vector<std::uint32_t> interface_;    // by radio: its node's interface in those files (pcapng)
  std::vector<std::uint32_t> wire_interface_;  // by wire: its interface in the wired file, kNoFile: not traced
  std::uint32_t wired_file_ = 0;               // index into files_, when a wire is traced
  std::vector<Synthetic> synthetic_;         // by flow, with synthetic_handshake
  // By file: its completed flows' closes, until the file's next record at or after
  // their time (or commit). Indexed, so that a record looks only at its own file's.
  std::vector<std::vector<PendingClose>> pending_closes_;
  std::uint64_t closes_queued_ = 0;
  std::string comment_;                     // a failed record's comment, reused
  Bytes bytes_;                         // one record's octets, reused
  std::uint64_t written_ = 0;           // bytes the files hold, headers included
  std::optional<Time> cut_at_;
};

}  // namespace wmnsim::trace
