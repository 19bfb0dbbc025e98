#include "trace/event_trace.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <string_view>

#include "core/packet.hpp"
#include "mac/frame.hpp"
#include "phy/rx_failure.hpp"

namespace wmnsim::trace {

namespace {

constexpr std::size_t kTraceBufferBytes = std::size_t{256} << 10;
constexpr std::size_t kCountOffset = 24;  // the header's record count: after magic, version, lengths, reserved

std::atomic<unsigned> g_trace_temporary_files{0};

constexpr std::array<std::string_view, 6> kFrameKindNames{"data", "qos_data", "ack", "rts", "cts", "action"};

template <class T>
void put(std::vector<std::uint8_t>& out, T value) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(&value);
  out.insert(out.end(), bytes, bytes + sizeof value);
}

template <class Names>
void put_names(std::vector<std::uint8_t>& out, const Names& names) {
  put(out, static_cast<std::uint32_t>(names.size()));
  for (const auto& n : names) {
    const std::string_view s(n);
    put(out, static_cast<std::uint16_t>(s.size()));
    out.insert(out.end(), s.begin(), s.end());
  }
}

std::vector<std::string_view> cause_names() {
  std::vector<std::string_view> names;
  for (const auto& n : phy::kRxFailureNames) names.push_back(n.name);
  for (std::size_t c = 0; c < kDropCauseCount; ++c) names.push_back(to_string(static_cast<DropCause>(c)));
  for (const auto& n : kControllerActions) names.push_back(n.name);
  return names;
}

bool write_all_at(int fd, const std::uint8_t* data, std::size_t size, off_t at) {
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::pwrite(fd, data + done, size - done, at + static_cast<off_t>(done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

EventTrace::EventTrace(EventTraceOptions options, phy::Medium& medium, const std::vector<mac::Mac*>& macs,
                       const std::vector<Node*>& nodes, const std::vector<std::string>& node_ids)
    : options_(std::move(options)), medium_(medium), scheduler_(medium.simulation().scheduler()), macs_(macs),
      nodes_(nodes) {
  static_assert(kDropCauseOffset == phy::kRxFailureNames.size());
  static_assert(kControllerActionOffset == kDropCauseOffset + kDropCauseCount);
  for (phy::RadioId r = 0; r < medium_.radio_count(); ++r) {
    const auto node = static_cast<std::uint32_t>(medium_.node_of(r));
    node_of_radio_.push_back(node);
    if (node >= radios_of_node_.size()) radios_of_node_.resize(node + 1);
    radios_of_node_[node].push_back(static_cast<std::uint32_t>(r));
  }
  const std::filesystem::path dir =
      options_.path.has_parent_path() ? options_.path.parent_path() : std::filesystem::path(".");
  temporary_ = dir / ("." + options_.path.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                      std::to_string(g_trace_temporary_files.fetch_add(1)));
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0) fail(errno);
  buffer_.reserve(kTraceBufferBytes);
  buffer_.insert(buffer_.end(), kEventTraceMagic.begin(), kEventTraceMagic.end());
  put(buffer_, kEventTraceVersion);
  put(buffer_, std::uint32_t{0});  // the header's length, set below
  put(buffer_, static_cast<std::uint32_t>(sizeof(EventRecord)));
  put(buffer_, std::uint32_t{0});
  put(buffer_, std::uint64_t{0});   // the record count, written by commit()
  put(buffer_, std::int64_t{-1});   // the cut time, likewise
  put_names(buffer_, node_ids);
  put_names(buffer_, enum_names(names(kEventKinds)));
  put_names(buffer_, cause_names());
  put_names(buffer_, kFrameKindNames);
  while (buffer_.size() % 8 != 0) buffer_.push_back(0);
  header_bytes_ = buffer_.size();
  const auto header = static_cast<std::uint32_t>(header_bytes_);
  std::memcpy(buffer_.data() + 12, &header, sizeof header);

  // Where the MACs start: each access category's parameters now, as the scenario
  // and the controllers that start at 0 (while the network was built) set them;
  // later changes follow as they happen (on_params). Written before subscribing:
  // a write that fails here throws with nothing subscribed to a half-built trace.
  constexpr AccessCategory kAll[] = {AccessCategory::ac_bk, AccessCategory::ac_be, AccessCategory::ac_vi,
                                     AccessCategory::ac_vo};
  params_told_.assign(medium_.radio_count() * std::size(kAll), {-1, -1, -1});
  for (mac::Mac* m : macs_) {
    for (const AccessCategory ac : kAll) {
      if (m->type() == MacType::dcf && ac != AccessCategory::ac_be) continue;  // one function
      on_params(m->address(), ac, m->params(ac));
    }
  }
  for (mac::Mac* m : macs_) m->subscribe(*this);
  for (Node* n : nodes_) n->subscribe(*this);
}

EventTrace::~EventTrace() {
  for (mac::Mac* m : macs_) m->unsubscribe(*this);
  for (Node* n : nodes_) n->unsubscribe(*this);
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temporary_.c_str());
  }
}

bool EventTrace::wanted(EventKind kind, std::uint32_t node, Time at) const {
  if ((options_.kinds & kind_bit(kind)) == 0) return false;
  if (at < options_.start || at > options_.end) return false;
  return options_.nodes.empty() || (node < options_.nodes.size() && options_.nodes[node]);
}

void EventTrace::write(const EventRecord& r) {
  if (!wanted(static_cast<EventKind>(r.kind), r.node, Time::ps(r.time_ps))) return;
  if (records_ >= options_.max_records) {
    if (!cut_at_) cut_at_ = Time::ps(r.time_ps);
    return;
  }
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(&r);
  buffer_.insert(buffer_.end(), bytes, bytes + sizeof r);
  ++records_;
  if (buffer_.size() >= kTraceBufferBytes) flush();
}

void EventTrace::flush() {
  if (fd_ < 0 || buffer_.empty()) return;
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void EventTrace::commit() {
  flush();
  const std::int64_t cut = cut_at_ ? cut_at_->picoseconds() : -1;
  std::uint8_t tail[16];
  std::memcpy(tail, &records_, 8);
  std::memcpy(tail + 8, &cut, 8);
  if (!write_all_at(fd_, tail, sizeof tail, kCountOffset)) fail(errno);
  if (::fsync(fd_) != 0 && errno != EINVAL) fail(errno);
  if (::close(fd_) != 0) {
    fd_ = -1;
    ::unlink(temporary_.c_str());
    fail(errno);
  }
  fd_ = -1;
  std::error_code ec;
  std::filesystem::rename(temporary_, options_.path, ec);
  if (ec) {
    ::unlink(temporary_.c_str());
    fail(ec.value());
  }
}

void EventTrace::fail(int error) {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
    ::unlink(temporary_.c_str());
  }
  throw EventTraceWriteError("cannot write the event trace " + options_.path.string() + ": " +
                          std::strerror(error != 0 ? error : EIO));
}

// ---- the air ----

EventRecord EventTrace::on_radio(EventKind kind, Time at, phy::RadioId radio) const {
  EventRecord r;
  r.time_ps = at.picoseconds();
  r.kind = static_cast<std::uint8_t>(kind);
  r.radio = radio;
  r.node = node_of_radio_[radio];
  return r;
}

void EventTrace::frame_fields(EventRecord& r, const phy::PhyFrame& frame) const {
  // Every payload on a MAC's medium is a mac::Frame (mac/mac.cpp send_frame).
  const auto* mpdu = static_cast<const mac::Frame*>(frame.payload.get());
  if (mpdu == nullptr) return;
  r.frame = static_cast<std::uint8_t>(mpdu->kind);
  r.retry = mpdu->retry ? 1 : 0;
  if (mac::is_data(mpdu->kind) || mpdu->kind == mac::FrameKind::action) r.sequence = mpdu->sequence;
  if (mpdu->packet) {
    r.packet = mpdu->packet->id;
    r.flow = mpdu->packet->flow;
  }
  // The other end: a transmission's receiver, a reception's transmitter (which the
  // simulator records for ACK and CTS too, for traces).
  const bool transmitted = r.kind == static_cast<std::uint8_t>(EventKind::tx_start) ||
                           r.kind == static_cast<std::uint8_t>(EventKind::tx_end);
  const mac::MacAddress other = transmitted ? mpdu->receiver : mpdu->transmitter;
  if (!other.is_broadcast() && other.radio() < node_of_radio_.size()) r.peer = node_of_radio_[other.radio()];
}

void EventTrace::on_transmit(phy::RadioId from, const phy::PhyFrame& frame) {
  const Time now = scheduler_.now();
  const Time end = now + frame.duration;
  EventRecord r = on_radio(EventKind::tx_start, now, from);
  frame_fields(r, frame);
  r.power_dbm = static_cast<float>(medium_.tx_power_of(from).dbm());
  r.value = end.picoseconds();
  write(r);
  // Its end, written now (the simulator does not tell a trace of it): the file is
  // in time order but for these records.
  r.kind = static_cast<std::uint8_t>(EventKind::tx_end);
  r.time_ps = end.picoseconds();
  r.value = now.picoseconds();
  write(r);
}

void EventTrace::on_locked(phy::RadioId to, const phy::PhyFrame& frame, phy::PowerMw power) {
  EventRecord r = on_radio(EventKind::rx_lock, scheduler_.now(), to);
  frame_fields(r, frame);
  r.power_dbm = static_cast<float>(power.to_dbm().dbm());
  write(r);
}

void EventTrace::on_decoded(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxInfo& info, Time first_bit) {
  EventRecord r = on_radio(EventKind::rx_ok, scheduler_.now(), to);
  frame_fields(r, frame);
  r.value = first_bit.picoseconds();
  r.power_dbm = static_cast<float>(info.power_dbm().dbm());
  // NaN when the radio decided without walking the chunks; +inf under the
  // threshold and range models (phy/phy_listener.hpp RxInfo).
  if (!std::isnan(info.min_sinr)) r.sinr_db = static_cast<float>(info.min_sinr_db());
  write(r);
}

void EventTrace::rx_failure(EventKind kind, phy::RadioId to, const phy::PhyFrame& frame,
                            const phy::RxFailureInfo& why, Time first_bit) {
  // A frame never locked onto is reported when its first bit arrives (or, a faint
  // signal, when it is sent): its time is that first bit.
  EventRecord r = on_radio(kind, kind == EventKind::rx_missed ? first_bit : scheduler_.now(), to);
  frame_fields(r, frame);
  r.value = first_bit.picoseconds();
  r.cause = static_cast<std::uint8_t>(why.cause);
  if (why.interferer != phy::kNoRadio) r.interferer = node_of_radio_[why.interferer];
  r.power_dbm = static_cast<float>(why.power.to_dbm().dbm());
  write(r);
}

void EventTrace::on_failed(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                           Time first_bit) {
  rx_failure(EventKind::rx_fail, to, frame, why, first_bit);
}

void EventTrace::on_missed(phy::RadioId to, const phy::PhyFrame& frame, const phy::RxFailureInfo& why,
                           Time first_bit) {
  rx_failure(EventKind::rx_missed, to, frame, why, first_bit);
}

// ---- the MACs ----

namespace {
void packet_fields(EventRecord& r, const Packet& p) {
  r.packet = p.id;
  r.flow = p.flow;
}
}  // namespace

void EventTrace::queue_record(EventKind kind, std::uint32_t radio, const Packet& packet, AccessCategory ac,
                              std::size_t queue_length) {
  EventRecord r = on_radio(kind, scheduler_.now(), radio);
  packet_fields(r, packet);
  r.access_category = static_cast<std::uint8_t>(ac);
  r.value = static_cast<std::int64_t>(queue_length);
  write(r);
}

void EventTrace::on_enqueue(std::uint32_t radio, const Packet& packet, AccessCategory ac,
                            std::size_t queue_length) {
  queue_record(EventKind::enqueue, radio, packet, ac, queue_length);
}

void EventTrace::on_dequeue(std::uint32_t radio, const Packet& packet, AccessCategory ac,
                            std::size_t queue_length) {
  queue_record(EventKind::dequeue, radio, packet, ac, queue_length);
}

void EventTrace::on_backoff(std::uint32_t radio, AccessCategory ac, int slots, int cw) {
  EventRecord r = on_radio(EventKind::backoff, scheduler_.now(), radio);
  r.access_category = static_cast<std::uint8_t>(ac);
  r.value = slots;
  r.cw = static_cast<std::uint32_t>(cw);
  write(r);
}

void EventTrace::on_nav(std::uint32_t radio, Time until) {
  EventRecord r = on_radio(EventKind::nav, scheduler_.now(), radio);
  r.value = until.picoseconds();
  write(r);
}

void EventTrace::on_retry(std::uint32_t radio, const Packet* packet, std::uint16_t sequence, int retries) {
  EventRecord r = on_radio(EventKind::retry, scheduler_.now(), radio);
  if (packet != nullptr) packet_fields(r, *packet);
  r.sequence = sequence;
  r.value = retries;
  write(r);
}

// ---- the nodes ----

void EventTrace::on_delivered(std::uint32_t node, Packet& packet, const PrevHop& /*from*/) {
  EventRecord r;
  r.time_ps = scheduler_.now().picoseconds();
  r.kind = static_cast<std::uint8_t>(EventKind::deliver);
  r.node = node;
  packet_fields(r, packet);
  write(r);
}

void EventTrace::on_dropped(std::uint32_t node, const Packet& packet, DropCause cause) {
  EventRecord r;
  r.time_ps = scheduler_.now().picoseconds();
  r.kind = static_cast<std::uint8_t>(EventKind::drop);
  r.node = node;
  r.cause = static_cast<std::uint8_t>(kDropCauseOffset + static_cast<std::uint8_t>(cause));
  packet_fields(r, packet);
  write(r);
}

// ---- decisions: the MACs' parameters, the routing protocol, the controllers ----

void EventTrace::on_params(std::uint32_t radio, AccessCategory ac, const EdcaParams& params) {
  // Only what the record holds: a change of the TXOP limit alone writes nothing.
  const std::size_t at = static_cast<std::size_t>(radio) * 4 + static_cast<std::size_t>(ac);
  const std::array<int, 3> now{params.cw_min, params.cw_max, params.aifsn};
  if (at < params_told_.size()) {
    if (params_told_[at] == now) return;
    params_told_[at] = now;
  }
  EventRecord r = on_radio(EventKind::params, scheduler_.now(), radio);
  r.access_category = static_cast<std::uint8_t>(ac);
  r.value = params.cw_min;
  r.cw = static_cast<std::uint32_t>(params.cw_max);
  r.retry = static_cast<std::uint8_t>(params.aifsn);
  write(r);
}

void EventTrace::on_route(std::uint32_t node, std::uint32_t dst, std::uint32_t next_hop, std::uint32_t interface) {
  EventRecord r;
  r.time_ps = scheduler_.now().picoseconds();
  r.kind = static_cast<std::uint8_t>(EventKind::route);
  r.node = node;
  r.peer = next_hop;  // kNoIndex: no route now
  // The interface's radio (interface k of a node is its k-th radio,
  // runner/network_links.hpp); NA for none or a wired interface.
  if (node < radios_of_node_.size() && interface < radios_of_node_[node].size()) {
    r.radio = radios_of_node_[node][interface];
  }
  r.value = dst;
  write(r);
}

void EventTrace::on_controller(const ControllerDecision& d) {
  EventRecord r;
  r.time_ps = scheduler_.now().picoseconds();
  r.kind = static_cast<std::uint8_t>(EventKind::controller);
  r.node = d.node;
  r.radio = d.radio;
  if (d.peer_radio < node_of_radio_.size()) r.peer = node_of_radio_[d.peer_radio];
  r.flow = d.flow;
  r.cause = static_cast<std::uint8_t>(kControllerActionOffset + static_cast<std::uint8_t>(d.action));
  r.value = d.value;
  write(r);
}

}  // namespace wmnsim::trace
