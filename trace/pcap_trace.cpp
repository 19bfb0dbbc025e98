#include "trace/pcap_trace.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "mac/frame.hpp"
#include "phy/channel.hpp"
#include "core/enum_names.hpp"
#include "trace/addresses.hpp"
#include "trace/mpdu.hpp"
#include "trace/radiotap.hpp"

namespace wmnsim::trace {
namespace {

constexpr std::uint32_t kNoFile = 0xffffffffu;  // a radio whose frames are not traced
constexpr std::string_view kSyntheticComment = "synthetic: not simulated, no airtime";

// The packets of a synthetic SYN or FIN exchange (steps 0-2: the data sender's
// SYN or FIN, the receiver's SYN-ACK or FIN-ACK, the sender's ACK), with the
// numbers the simulated handshake gives them (transport/reliable_sender.hpp
// send_control, transport/tcp_receiver.cpp send_control): both initial sequence
// numbers 2^32 - 1 (seq 0 with SYN), data from 0 to data_end, the FIN at data_end;
// the receiver's window and both ends' user priorities; with timestamps, TSval
// `ts` on all three and TS.Recent echoed only by the receiver's (the sender's
// control segments echo none).
Packet synthetic_packet(std::uint32_t flow, const FlowTrace& f, bool closing, int step, std::uint64_t data_end,
                        bool timestamps, Time ts) {
  Packet p;
  p.flow = flow;
  const bool from_sender = step != 1;
  p.src = from_sender ? f.data_src_node : f.data_dst_node;
  p.dst = from_sender ? f.data_dst_node : f.data_src_node;
  // size_bytes 0: written at the headers' size.
  p.user_priority = from_sender ? f.sender_user_priority : f.receiver_user_priority;
  TransportHeader& t = p.transport;
  if (from_sender) {
    t.seq = closing ? data_end + (step == 2 ? 1 : 0) : 0;
    t.ack = closing && step == 2 ? 1 : 0;  // the receiver's FIN takes its number 0
  } else {
    t.seq = 0;
    t.ack = closing ? data_end + 1 : 0;
    t.ack_valid = true;
    t.window_bytes = f.receiver_window_bytes;
  }
  t.syn = !closing && step < 2;
  t.fin = closing && step < 2;
  if (timestamps) {
    t.timestamps = true;
    t.ts_val = ts;
    if (!from_sender) t.ts_ecr = ts;
  }
  return p;
}

bool traced(const PcapTraceOptions& options, std::uint32_t node) {
  return options.nodes.empty() || (node < options.nodes.size() && options.nodes[node]);
}

// One file per channel or per node, and which file each radio's frames go to.
struct FilePlan {
  std::vector<std::filesystem::path> paths;
  std::vector<std::string> owners;  // by file: "node A", "channel 6", "the wired links"
  std::vector<std::vector<std::string>> interfaces;           // by file: the node ids, pcapng's interfaces
  std::vector<std::uint32_t> tx_file, rx_file, failed_file;  // by radio; kNoFile: not traced
  std::vector<std::uint32_t> interface;                      // by radio: its node's interface in its file
  std::vector<std::string> wired_interfaces;                 // the wired file's, "<from>-><to>"
  std::vector<std::uint32_t> wire_interface;                 // by wire; kNoFile: not traced
};

FilePlan plan_files(const phy::Medium& medium, const PcapTraceOptions& options, const TracedNetwork& network) {
  FilePlan plan;
  const std::size_t radios = medium.radio_count();
  plan.tx_file.assign(radios, kNoFile);
  plan.rx_file.assign(radios, kNoFile);
  plan.failed_file.assign(radios, kNoFile);
  plan.interface.assign(radios, 0);
  std::map<std::uint32_t, std::uint32_t> file_of;  // channel or node -> file
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> interface_of;  // (file, node) -> interface
  for (phy::RadioId r = 0; r < radios; ++r) {
    const phy::RadioSpec& spec = medium.spec(r);
    if (!traced(options, spec.node)) continue;
    const bool per_channel = options.per == TraceSplit::channel;
    const auto key = per_channel ? static_cast<std::uint32_t>(spec.channel) : spec.node;
    auto [it, added] = file_of.try_emplace(key, static_cast<std::uint32_t>(plan.paths.size()));
    if (added) {
      plan.paths.push_back(per_channel ? channel_trace_path(options.path, spec.channel, options.format)
                                       : node_trace_path(options.path, network.node_ids.at(spec.node), options.format));
      plan.owners.push_back(per_channel ? "channel " + std::to_string(spec.channel)
                                        : "node " + network.node_ids.at(spec.node));
      plan.interfaces.emplace_back();
    }
    const std::uint32_t file = it->second;
    auto [at, new_interface] =
        interface_of.try_emplace({file, spec.node}, static_cast<std::uint32_t>(plan.interfaces[file].size()));
    if (new_interface) plan.interfaces[file].push_back(network.node_ids.at(spec.node));
    plan.interface[r] = at->second;
    plan.tx_file[r] = it->second;
    if (!per_channel) plan.rx_file[r] = it->second;
    if (options.failed != FailedFrames::none) plan.failed_file[r] = it->second;
  }
  // The wired file comes last, so the radio files keep their order with or without it.
  plan.wire_interface.assign(network.wires.size(), kNoFile);
  for (std::size_t w = 0; w < network.wires.size(); ++w) {
    const TracedWire& wire = network.wires[w];
    if (!traced(options, wire.from_node) && !traced(options, wire.to_node)) continue;
    plan.wire_interface[w] = static_cast<std::uint32_t>(plan.wired_interfaces.size());
    plan.wired_interfaces.push_back(network.node_ids.at(wire.from_node) + "->" + network.node_ids.at(wire.to_node));
  }
  if (!plan.wired_interfaces.empty()) {
    plan.paths.push_back(wired_trace_path(options.path, options.format));
    plan.owners.push_back("the wired links");
  }
  return plan;
}

std::uint64_t microseconds(Time t) { return static_cast<std::uint64_t>(t.picoseconds() / 1'000'000); }

// Every node's IPv4 address and every radio's MAC address with the node's id (a
// radio of a node with several: "<id>:<k>", as the results name radios), for
// pcapng's Name Resolution Block.
std::vector<NameRecord> address_names(const phy::Medium& medium, const TracedNetwork& network) {
  std::vector<NameRecord> names;
  for (std::uint32_t n = 0; n < network.node_ids.size(); ++n) {
    const std::uint32_t ip = node_ipv4(n);
    names.push_back({NameRecord::Kind::ipv4,
                     {static_cast<std::uint8_t>(ip >> 24), static_cast<std::uint8_t>(ip >> 16),
                      static_cast<std::uint8_t>(ip >> 8), static_cast<std::uint8_t>(ip), 0, 0},
                     network.node_ids[n]});
  }
  std::vector<std::uint32_t> radios_of(network.node_ids.size(), 0);
  for (phy::RadioId r = 0; r < medium.radio_count(); ++r) ++radios_of.at(medium.node_of(r));
  std::vector<std::uint32_t> index(network.node_ids.size(), 0);
  for (phy::RadioId r = 0; r < medium.radio_count(); ++r) {
    const auto node = medium.node_of(r);
    const std::string& id = network.node_ids[node];
    const std::uint32_t k = index[node]++;
    names.push_back({NameRecord::Kind::eui48, radio_mac(r), radios_of[node] == 1 ? id : id + ":" + std::to_string(k)});
  }
  return names;
}

std::string_view extension(CaptureFormat format) { return format == CaptureFormat::pcapng ? ".pcapng" : ".pcap"; }

}  // namespace

std::filesystem::path channel_trace_path(const std::string& prefix, int channel, CaptureFormat format) {
  return prefix + "-ch" + std::to_string(channel) + std::string(extension(format));
}

std::filesystem::path node_trace_path(const std::string& prefix, const std::string& node_id, CaptureFormat format) {
  return prefix + "-" + node_id + std::string(extension(format));
}

std::filesystem::path wired_trace_path(const std::string& prefix, CaptureFormat format) {
  return prefix + "-wired" + std::string(extension(format));
}

std::string failure_comment(bool locked, const phy::RxFailureInfo& why, const std::string* interferer) {
  std::string text = locked ? "failed: " : "not locked: ";
  text += enum_name(names(phy::kRxFailureNames), why.cause);
  if (interferer != nullptr) text += ", interferer " + *interferer;
  return text;
}

std::vector<std::filesystem::path> trace_files(const phy::Medium& medium, const PcapTraceOptions& options,
                                               const TracedNetwork& network) {
  return plan_files(medium, options, network).paths;
}

std::vector<std::string> trace_file_owners(const phy::Medium& medium, const PcapTraceOptions& options,
                                           const TracedNetwork& network) {
  return plan_files(medium, options, network).owners;
}

PcapTrace::PcapTrace(phy::Medium& medium, PcapTraceOptions options, TracedNetwork network)
    : medium_(medium), options_(std::move(options)), network_(std::move(network)) {
  FilePlan plan = plan_files(medium_, options_, network_);
  CaptureLayout layout;
  layout.format = options_.format;
  if (layout.format == CaptureFormat::pcapng) layout.names = address_names(medium_, network_);
  for (std::size_t f = 0; f < plan.interfaces.size(); ++f) {
    if (layout.format == CaptureFormat::pcapng) layout.interfaces = plan.interfaces[f];
    files_.push_back(std::make_unique<PcapFile>(plan.paths[f], options_.snap_length, layout));
    written_ += files_.back()->bytes();
  }
  if (!plan.wired_interfaces.empty()) {
    layout.link_type = kLinkTypeRaw;
    if (layout.format == CaptureFormat::pcapng) layout.interfaces = plan.wired_interfaces;
    wired_file_ = static_cast<std::uint32_t>(files_.size());
    files_.push_back(std::make_unique<PcapFile>(plan.paths.back(), options_.snap_length, layout));
    written_ += files_.back()->bytes();
  }
  wire_interface_ = std::move(plan.wire_interface);
  interface_ = std::move(plan.interface);
  tx_file_ = std::move(plan.tx_file);
  rx_file_ = std::move(plan.rx_file);
  failed_file_ = std::move(plan.failed_file);
  if (options_.synthetic_handshake) {
    if (options_.format != CaptureFormat::pcapng) {
      throw std::invalid_argument("a synthetic handshake needs pcapng (its records are marked by a comment)");
    }
    synthetic_.resize(network_.flows.size());
  }
  pending_closes_.resize(files_.size());
  medium_.set_air_observer(this);
}

PcapTrace::~PcapTrace() {
  if (medium_.air_observer() == this) medium_.set_air_observer(nullptr);
}

void PcapTrace::on_transmit(phy::RadioId from, const phy::PhyFrame& frame) {
  if (tx_file_[from] == kNoFile) return;
  record(tx_file_[from], from, frame, medium_.simulation().now(), nullptr);
}

void PcapTrace::on_decoded(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxInfo& info, Time first_bit) {
  if (rx_file_[to] == kNoFile) return;
  const phy::PowerDbm power = info.power_dbm();
  record(rx_file_[to], to, frame, first_bit, &power);
}

void PcapTrace::on_failed(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                          Time first_bit) {
  record_failure(true, to, frame, why, first_bit);
}

void PcapTrace::on_missed(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                          Time first_bit) {
  if (options_.failed != FailedFrames::all) return;
  record_failure(false, to, frame, why, first_bit);
}

void PcapTrace::record_failure(bool locked, phy::RadioId to, const phy::PhyFrame& frame,
                               const phy::RxFailureInfo& why, Time first_bit) {
  if (failed_file_[to] == kNoFile) return;
  const std::string* interferer =
      why.interferer == phy::kNoRadio ? nullptr : &network_.node_ids.at(medium_.node_of(why.interferer));
  comment_ = failure_comment(locked, why, interferer);
  const phy::PowerDbm power = why.power.to_dbm();
  record(failed_file_[to], to, frame, first_bit, &power, comment_);
}

void PcapTrace::record(std::uint32_t file, phy::RadioId radio, const phy::PhyFrame& frame, Time at,
                       const phy::PowerDbm* received, std::string_view failure) {
  // Every payload on a MAC's medium is a mac::Frame (mac/mac.cpp send_frame).
  const auto* mpdu = static_cast<const mac::Frame*>(frame.payload.get());
  if (mpdu == nullptr || frame.mcs == nullptr) return;
  if (full(at)) return;
  if (!pending_closes_[file].empty()) write_closes(file, at);
  if (mpdu->packet && wants_synthetic(*mpdu->packet)) {
    const Packet& packet = *mpdu->packet;
    const bool forward = packet.src == flow_of(packet).data_src_node;
    SyntheticHop hop;
    // A node's file puts all its records on its interface; a channel's, each on the
    // transmitter's (when that node is traced there).
    const auto interface_in_file = [&](std::uint32_t r) {
      return options_.per == TraceSplit::channel && tx_file_[r] == file ? interface_[r] : interface_[radio];
    };
    hop.radio = radio;
    hop.mcs = frame.mcs;
    hop.kind = mpdu->kind;
    hop.access_category = mpdu->access_category;
    hop.sequence = mpdu->sequence;
    hop.data_transmitter = forward ? mpdu->transmitter.radio() : mpdu->receiver.radio();
    hop.data_receiver = forward ? mpdu->receiver.radio() : mpdu->transmitter.radio();
    hop.sender_interface = interface_in_file(hop.data_transmitter);
    hop.receiver_interface = interface_in_file(hop.data_receiver);
    open_synthetic(file, packet, hop, at);
  }
  RadiotapInfo info = radiotap(radio, *frame.mcs, at);
  // What a monitor-mode capture gives for a frame that failed its FCS check.
  if (!failure.empty()) info.flags |= kRadiotapBadFcs;
  if (received != nullptr) {
    // A reception model without powers (the range model) leaves the fields out
    // rather than write a made-up 0 dBm.
    if (std::isfinite(received->dbm())) info.antenna_signal_dbm = dbm_s8(received->dbm());
    if (std::isfinite(medium_.reception().noise.dbm())) {
      info.antenna_noise_dbm = dbm_s8(medium_.reception().noise.dbm());
    }
  } else {
    info.tx_power_dbm = dbm_s8(medium_.radio(radio).tx_power().dbm());
  }
  bytes_.clear();
  append_radiotap(bytes_, info);
  append_mpdu(bytes_, *mpdu, network_.flows);
  if (!failure.empty()) {
    // The frame as sent, with an FCS that does not match it: its bits did not
    // arrive intact, so a checksum check must fail as the flag says.
    for (std::size_t i = bytes_.size() - 4; i < bytes_.size(); ++i) bytes_[i] ^= 0xff;
  }
  write_record(file, at, interface_[radio], failure);
}

RadiotapInfo PcapTrace::radiotap(phy::RadioId radio, const phy::Mcs& mcs, Time at) const {
  const phy::Radio& r = medium_.radio(radio);
  const bool dsss = mcs.family == phy::PhyFamily::Dsss;
  RadiotapInfo info;
  info.tsft_us = microseconds(at);
  info.flags = kRadiotapFcsAtEnd;
  if (dsss && r.profile().preamble == phy::Preamble::Short) info.flags |= kRadiotapShortPreamble;
  info.rate_500kbps = static_cast<std::uint8_t>(mcs.rate_bps / 500'000);
  info.frequency_mhz = static_cast<std::uint16_t>(phy::channel_frequency_hz(r.channel()) / 1e6);
  info.channel_flags = static_cast<std::uint16_t>((dsss ? kChannelCck : kChannelOfdm) |
                                                  (phy::is_2ghz_channel(r.channel()) ? kChannel2Ghz : kChannel5Ghz));
  return info;
}

void PcapTrace::on_wire(std::size_t wire, const Packet& packet, Time start) {
  if (wire_interface_.at(wire) == kNoFile || full(start)) return;
  if (!pending_closes_[wired_file_].empty()) write_closes(wired_file_, start);
  if (wants_synthetic(packet)) {
    // Both directions of a link are traced together (plan_files): the data's
    // direction for the sender's segments, the other for the receiver's.
    const bool forward = packet.src == flow_of(packet).data_src_node;
    const std::uint32_t here = wire_interface_[wire];
    const std::uint32_t back = wire_interface_.at(wire ^ 1) == kNoFile ? here : wire_interface_[wire ^ 1];
    SyntheticHop hop;
    hop.wired = true;
    hop.sender_interface = forward ? here : back;
    hop.receiver_interface = forward ? back : here;
    open_synthetic(wired_file_, packet, hop, start);
  }
  bytes_.clear();
  append_ip_datagram(bytes_, packet, flow_of(packet));
  write_record(wired_file_, start, wire_interface_[wire], {});
}

const FlowTrace& PcapTrace::flow_of(const Packet& packet) const {
  static const FlowTrace kNone{};
  return packet.flow < network_.flows.size() ? network_.flows[packet.flow] : kNone;
}

bool PcapTrace::wants_synthetic(const Packet& packet) const {
  return options_.synthetic_handshake && packet.flow < network_.flows.size() &&
         network_.flows[packet.flow].synthetic_handshake;
}

void PcapTrace::open_synthetic(std::uint32_t file, const Packet& packet, SyntheticHop hop, Time at) {
  Synthetic& s = synthetic_[packet.flow];
  // A file that first sees the flow after its close (a retransmission still
  // queued, a new route) gets no opening: its records follow no SYN.
  if (s.completed) return;
  for (const SyntheticHop& h : s.hops) {
    if (h.file == file) return;
  }
  hop.file = file;
  hop.timestamps = packet.transport.timestamps;
  // The data sender's clock at its first segment (its TSval, or the receiver's echo
  // of it), so that no later segment has an older TSval than the SYN (RFC 7323 5.3).
  const bool forward = packet.src == flow_of(packet).data_src_node;
  hop.open_ts = forward ? packet.transport.ts_val : packet.transport.ts_ecr;
  s.hops.push_back(hop);
  write_synthetic(packet.flow, hop, false, 0, at);
}

void PcapTrace::on_flow_completed(std::uint32_t flow, std::uint64_t data_end, Time at) {
  if (flow >= synthetic_.size()) return;
  Synthetic& s = synthetic_[flow];
  if (s.completed) return;
  s.completed = true;
  // Each file's close waits for that file's first record at or after `at`: a node
  // that overheard the last ACK writes it when its own reception ends, after this
  // call, with its first bit before `at`.
  for (const SyntheticHop& hop : s.hops) pending_closes_[hop.file].push_back({hop.file, flow, data_end, at, closes_queued_++});
}

void PcapTrace::write_closes(std::uint32_t file, Time before) {
  // Taken out before writing, in completion order; the later ones stay.
  std::vector<PendingClose>& pending = pending_closes_[file];
  std::vector<PendingClose> due;
  std::erase_if(pending, [&](const PendingClose& close) {
    if (close.at > before) return false;
    due.push_back(close);
    return true;
  });
  for (const PendingClose& close : due) write_close(close);
}

void PcapTrace::write_close(const PendingClose& close) {
  if (full(close.at)) return;
  for (const SyntheticHop& hop : synthetic_[close.flow].hops) {
    if (hop.file == close.file) write_synthetic(close.flow, hop, true, close.data_end, close.at);
  }
}

void PcapTrace::write_synthetic(std::uint32_t flow, const SyntheticHop& hop, bool closing, std::uint64_t data_end,
                                Time at) {
  const FlowTrace& f = network_.flows[flow];
  for (int step = 0; step < 3; ++step) {
    const Packet p = synthetic_packet(flow, f, closing, step, data_end, hop.timestamps, closing ? at : hop.open_ts);
    bytes_.clear();
    if (hop.wired) {
      append_ip_datagram(bytes_, p, f);
    } else {
      // Never on the air: no power, and a Duration of 0 (no NAV was set by it).
      append_radiotap(bytes_, radiotap(hop.radio, *hop.mcs, at));
      mac::Frame frame;
      frame.kind = hop.kind;
      const bool forward = step != 1;
      frame.transmitter = mac::MacAddress(forward ? hop.data_transmitter : hop.data_receiver);
      frame.receiver = mac::MacAddress(forward ? hop.data_receiver : hop.data_transmitter);
      frame.sequence = hop.sequence;
      frame.access_category = hop.access_category;
      append_mpdu(bytes_, frame, network_.flows, &p);
    }
    write_record(hop.file, at, step == 1 ? hop.receiver_interface : hop.sender_interface, kSyntheticComment);
  }
}

bool PcapTrace::full(Time at) {
  // Bounded as the time series are (docs/scenario.md, Limits): once the files hold
  // max_bytes, no more records (the last write may pass it by a record's size, or by
  // a frame's record and a synthetic opening's three).
  if (written_ < options_.max_bytes) return false;
  if (!cut_at_) cut_at_ = at;
  return true;
}

void PcapTrace::write_record(std::uint32_t file, Time at, std::uint32_t interface, std::string_view comment) {
  PcapFile& f = *files_[file];
  const std::uint64_t before = f.bytes();
  f.write(at, bytes_, interface, comment);
  written_ += f.bytes() - before;
}

void PcapTrace::commit() {
  // The closes no later record has written yet, in completion order (which decides
  // which are cut when the files reach max_bytes).
  std::vector<PendingClose> left;
  for (std::vector<PendingClose>& pending : pending_closes_) {
    left.insert(left.end(), pending.begin(), pending.end());
    pending.clear();
  }
  std::ranges::sort(left, {}, &PendingClose::order);
  for (const PendingClose& close : left) write_close(close);
  for (auto& f : files_) f->commit();
}

}  // namespace wmnsim::trace
