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
// Cost: nothing when off (the medium's observer pointer stays null). When on, per
// traced frame the bytes of the frame are built (O(frame size)) and appended to a
// buffer; files are written 256 KiB at a time.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "phy/air_observer.hpp"
#include "phy/medium.hpp"
#include "trace/byte_writer.hpp"
#include "trace/ip_datagram.hpp"
#include "trace/pcap_file.hpp"

namespace wmnsim::trace {

enum class TraceSplit { channel, node };

struct PcapTraceOptions {
  std::string path;                       // file name prefix
  TraceSplit per = TraceSplit::channel;
  std::uint32_t snap_length = 65535;
  // By node index: the nodes traced (per node: those with a file; per channel: the
  // transmitters listed). Empty: every node.
  std::vector<bool> nodes;
};

// What the trace needs to know of the network beyond the medium.
struct TracedNetwork {
  std::vector<std::string> node_ids;  // by node index
  std::vector<FlowTrace> flows;       // by flow index
};

// The file names (docs/traces.md "Files").
std::filesystem::path channel_trace_path(const std::string& prefix, int channel);
std::filesystem::path node_trace_path(const std::string& prefix, const std::string& node_id);

// The files a trace of `medium`'s radios writes, in creation order.
std::vector<std::filesystem::path> trace_files(const phy::Medium& medium, const PcapTraceOptions& options,
                                               const TracedNetwork& network);

class PcapTrace final : public phy::AirObserver {
 public:
  // Opens the files (std::runtime_error when a folder does not take them) and
  // registers itself as `medium`'s air observer until destroyed.
  PcapTrace(phy::Medium& medium, PcapTraceOptions options, TracedNetwork network);
  ~PcapTrace() override;
  PcapTrace(const PcapTrace&) = delete;
  PcapTrace& operator=(const PcapTrace&) = delete;

  void on_transmit(phy::RadioId from, const phy::PhyFrame& frame) override;
  void on_decoded(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxInfo& info, Time first_bit) override;

  // Renames every file into place (after a run that finished). Throws std::runtime_error.
  void commit();
  std::size_t file_count() const { return files_.size(); }
  const PcapFile& file(std::size_t i) const { return *files_[i]; }

 private:
  void record(std::uint32_t file, phy::RadioId radio, const phy::PhyFrame& frame, Time at,
              const phy::RxInfo* received);

  phy::Medium& medium_;
  PcapTraceOptions options_;
  TracedNetwork network_;
  std::vector<std::unique_ptr<PcapFile>> files_;
  std::vector<std::uint32_t> tx_file_;  // by radio: where its transmissions go
  std::vector<std::uint32_t> rx_file_;  // by radio: where what it decodes goes (per node only)
  Bytes bytes_;                         // one record's octets, reused
};

}  // namespace wmnsim::trace
