#pragma once
// A small world for MAC tests: radios on a shared medium with hand-set path
// gains (so reach, hidden pairs and weak links are explicit), one Mac per radio,
// and a tap per node that records every frame sent, received, delivered and
// dropped, and can keep the MAC saturated.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/simulation.hpp"
#include "mac/frame.hpp"
#include "mac/mac.hpp"
#include "phy/airtime.hpp"
#include "phy/medium.hpp"

namespace wmnsim::mac::testing {

struct SentFrame {
  Time at;
  FrameKind kind;
  std::uint32_t receiver;
  std::uint16_t sequence;
  bool retry;
  Time airtime;
  AccessCategory ac;
};

class NodeTap : public MacUser, public MacObserver, public DropSink {
 public:
  NodeTap(Simulation& sim, PacketPool& pool) : sim_(sim), pool_(pool) {}

  void on_mac_receive(PacketPtr packet, std::uint32_t /*from*/) override {
    delivered.push_back({sim_.now(), packet->id});
    // As a TCP receiver or a relay: a packet queued the instant one is delivered.
    if (reply_on_delivery && mac != nullptr) mac->enqueue(make(reply_on_delivery->first, reply_on_delivery->second));
  }
  bool on_management_receive(const ManagementBody& body, std::uint32_t from) override {
    management.push_back({sim_.now(), from, body.category(), body.action()});
    return take_management;
  }
  void on_queue_space(AccessCategory ac, const Packet& /*departed*/) override {
    if (saturate_to && mac != nullptr) {
      refills++;
      mac->enqueue(make(*saturate_to, saturate_bytes, ac));
    }
  }
  void on_frame_sent(std::uint32_t, const Frame& f, Time airtime) override {
    sent.push_back({sim_.now(), f.kind, f.receiver.radio(), f.sequence, f.retry, airtime, f.access_category});
  }
  void on_drop(PacketPtr packet, DropCause cause, Time now) override { drops.push_back({now, cause}); (void)packet; }
  void on_retry(std::uint32_t, const Packet*, std::uint16_t, int) override { retries.push_back(sim_.now()); }
  void on_backoff(std::uint32_t, AccessCategory, int slots, int cw) override {
    backoffs.push_back({sim_.now(), slots, cw});
  }

  PacketPtr make(std::uint32_t to, std::uint32_t bytes, std::optional<AccessCategory> ac = std::nullopt) {
    PacketPtr p = pool_.make(sim_.now());
    p->size_bytes = bytes;
    p->next_hop_radio = to;
    if (ac) p->user_priority = user_priority_of(*ac);
    return p;
  }

  // Keeps the MAC's queue non-empty with `bytes`-byte packets to `to`.
  void saturate(std::uint32_t to, std::uint32_t bytes, int initial = 2) {
    saturate_to = to;
    saturate_bytes = bytes;
    for (int i = 0; i < initial; ++i) mac->enqueue(make(to, bytes));
  }

  std::vector<SentFrame> sent_of(FrameKind kind) const {
    std::vector<SentFrame> out;
    for (const auto& s : sent) {
      if (s.kind == kind) out.push_back(s);
    }
    return out;
  }

  Mac* mac = nullptr;
  std::vector<SentFrame> sent;
  std::vector<std::pair<Time, PacketId>> delivered;
  std::vector<std::pair<Time, DropCause>> drops;
  std::vector<Time> retries;  // when an exchange failed and the frame was kept for a retry
  struct Backoff {
    Time at;
    int slots, cw;
  };
  std::vector<Backoff> backoffs;  // every backoff drawn
  struct ManagementReceived {
    Time at;
    std::uint32_t from;
    std::uint8_t category, action;
  };
  std::vector<ManagementReceived> management;  // management frames handed up
  bool take_management = true;                  // what on_management_receive answers
  std::optional<std::uint32_t> saturate_to;
  std::optional<std::pair<std::uint32_t, std::uint32_t>> reply_on_delivery;  // (to, bytes)
  std::uint32_t saturate_bytes = 1500;
  std::uint64_t refills = 0;

 private:
  Simulation& sim_;
  PacketPool& pool_;
};

class MacWorld {
 public:
  MacWorld(phy::PhyProfile profile, double data_rate_bps, double control_rate_bps, MacType type = MacType::dcf,
           std::uint64_t seed = 1, const phy::ReceptionConfig& rc = reception())
      : sim(seed), medium(sim, rc), profile_(profile), type_(type) {
    data_rate_ = phy::find_mcs(profile.family, static_cast<std::int64_t>(data_rate_bps));
    control_rate_ = phy::find_mcs(profile.family, static_cast<std::int64_t>(control_rate_bps));
    const auto edca = default_edca_params(profile);
    params_.access_categories = edca;
    params_.cw_min = phy_cw_bounds(profile).cw_min;
    params_.cw_max = phy_cw_bounds(profile).cw_max;
  }

  static phy::ReceptionConfig reception() {
    phy::ReceptionConfig rc;
    rc.noise = phy::PowerDbm(-93.5);
    rc.sensitivity = phy::PowerDbm(-93.5);
    rc.cca_threshold = phy::PowerDbm(-82.0);
    return rc;
  }

  // ns-2's reception model with its thresholds (docs/phy.md, the ns-2 preset):
  // RXThresh -64.37 dBm, CSThresh -78.07 dBm.
  static phy::ReceptionConfig ns2_reception() {
    phy::ReceptionConfig rc;
    rc.kind = phy::ReceptionKind::ns2;
    rc.noise = phy::PowerDbm(-101.0);
    rc.sensitivity = phy::PowerDbm(-64.37);
    rc.cca_threshold = phy::PowerDbm(-78.07);
    return rc;
  }

  // Adds a radio at (x, y); positions only set propagation delays here.
  std::uint32_t add(double x = 0.0, double y = 0.0) {
    const auto id = medium.add_radio(
        phy::RadioSpec{static_cast<ContextId>(medium.radio_count()), phy::Point{x, y, 0}, 1, phy::PowerDbm(20.0), profile_},
        sim.random().stream("node", medium.radio_count(), "rx_error"));
    return id;
  }
  void set_gain(std::uint32_t a, std::uint32_t b, double db) { gains_[key(a, b)] = db; }
  void hide(std::uint32_t a, std::uint32_t b) { set_gain(a, b, -250.0); }

  MacParams& params() { return params_; }

  // Connects the medium and builds one MAC per radio.
  void build() {
    medium.connect([this](phy::RadioId a, phy::RadioId b, double) {
      auto it = gains_.find(key(a, b));
      return phy::Db(it == gains_.end() ? default_gain_db : it->second);
    });
    for (std::uint32_t r = 0; r < medium.radio_count(); ++r) {
      taps.push_back(std::make_unique<NodeTap>(sim, pool));
      MacConfig config;
      config.type = type_;
      config.params = params_;
      config.control_rate = control_rate_;
      const phy::Mcs* data = data_rate_;
      config.data_rate = [data](std::uint32_t, std::uint32_t) { return data; };
      macs.push_back(std::make_unique<Mac>(sim, medium.radio(r), config, pool, *taps.back(),
                                           sim.random().stream("node", r, "backoff")));
      macs.back()->set_user(taps.back().get());
      macs.back()->subscribe(*taps.back());
      taps.back()->mac = macs.back().get();
    }
  }

  void send(std::uint32_t from, std::uint32_t to, std::uint32_t bytes, std::optional<AccessCategory> ac = std::nullopt) {
    macs[from]->enqueue(taps[from]->make(to, bytes, ac));
  }
  void send_at(Time t, std::uint32_t from, std::uint32_t to, std::uint32_t bytes) {
    pending_.push_back({from, to, bytes});
    const std::size_t i = pending_.size() - 1;
    sim.scheduler().schedule_at(t, [this, i] { send(pending_[i].from, pending_[i].to, pending_[i].bytes); });
  }
  void run(Time until) { sim.run_until(until); }

  // The backoff draws a MAC will make, replayed from an identical stream.
  RandomStream backoff_stream(std::uint32_t radio) { return sim.random().stream("node", radio, "backoff"); }

  Time airtime_data(std::uint32_t ip_bytes) const {
    return phy::airtime(profile_, *data_rate_, mpdu_bytes(type_ == MacType::dcf ? FrameKind::data : FrameKind::qos_data, ip_bytes));
  }
  Time airtime_control(std::uint32_t bytes) const { return phy::airtime(profile_, *control_rate_, bytes); }
  MacTiming timing() const { return mac_timing(profile_, *control_rate_); }

  double default_gain_db = -60.0;  // 20 dBm in, -40 dBm out: far above the noise
  Simulation sim;
  PacketPool pool;
  phy::Medium medium;
  std::vector<std::unique_ptr<NodeTap>> taps;
  std::vector<std::unique_ptr<Mac>> macs;

 private:
  struct Pending {
    std::uint32_t from, to, bytes;
  };
  static std::pair<std::uint32_t, std::uint32_t> key(std::uint32_t a, std::uint32_t b) {
    return a < b ? std::pair{a, b} : std::pair{b, a};
  }
  phy::PhyProfile profile_;
  MacType type_;
  const phy::Mcs* data_rate_ = nullptr;
  const phy::Mcs* control_rate_ = nullptr;
  MacParams params_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, double> gains_;
  std::vector<Pending> pending_;
};

// The false-duplicate set-up (802.11-2012 9.3.2.10): radios A, B, C and J, where J
// is a bare radio (no MAC listens to it) that B hears 20 dB above A's frames and
// that A and C do not hear at all.
struct WrapRadios {
  std::uint32_t a, b, c, j;
};
inline WrapRadios build_wrap_world(MacWorld& w) {
  const WrapRadios r{w.add(), w.add(), w.add(), w.add()};
  w.hide(r.a, r.j);
  w.hide(r.c, r.j);
  w.set_gain(r.b, r.j, -40.0);
  w.build();
  w.macs[r.j]->radio().set_listener(nullptr);
  return r;
}
// A's single counter (9.3.2.11) goes round once: 4,095 small frames to C, each
// exchange ending well within its 5 ms.
inline void wrap_counter(MacWorld& w, const WrapRadios& r) {
  for (int i = 0; i < 4095; ++i) {
    w.send(r.a, r.c, 100);
    w.run(w.sim.now() + Time::ms(5));
  }
}
// J jams B from now for longer than A's first attempt at a `frame` can take
// wherever its backoff puts it (DIFS, at most 31 slots, the frame). Returns now.
inline Time jam_first_attempt(MacWorld& w, const WrapRadios& r, Time frame) {
  const MacTiming t = w.timing();
  const Time start = w.sim.now();
  const phy::Mcs* one = phy::find_mcs(phy::PhyFamily::Dsss, 1'000'000);
  auto jam = std::make_shared<const phy::PhyFrame>(200, one, phy::airtime(phy::profile_80211b(), *one, 200), nullptr);
  EXPECT_GT(jam->duration, t.difs + 31 * t.slot + frame);
  phy::Radio& jammer = w.medium.radio(r.j);
  w.sim.scheduler().schedule_at(start, [&jammer, jam] { jammer.transmit(*jam); });
  return start;
}

}  // namespace wmnsim::mac::testing
