#include "mac/saturation_testbed.hpp"

#include <cmath>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "core/simulation.hpp"
#include "mac/mac.hpp"
#include "phy/medium.hpp"

namespace wmnsim::mac {
namespace {

// Keeps one MAC backlogged and counts what the receiver gets.
class Station final : public MacUser, public DropSink {
 public:
  Station(Simulation& sim, PacketPool& pool, std::uint32_t to, std::uint32_t bytes)
      : sim_(sim), pool_(pool), to_(to), bytes_(bytes) {}
  void attach(Mac& mac) {
    mac_ = &mac;
    for (int i = 0; i < 2; ++i) refill();
  }
  void on_mac_receive(PacketPtr, std::uint32_t) override {}
  void on_queue_space(AccessCategory, const Packet&) override { refill(); }
  void on_drop(PacketPtr, DropCause cause, Time) override {
    if (cause == DropCause::retry_limit) ++retry_drops;
  }
  std::uint64_t retry_drops = 0;

 private:
  void refill() {
    PacketPtr p = pool_.make(sim_.now());
    p->size_bytes = bytes_;
    p->next_hop_radio = to_;
    mac_->enqueue(std::move(p));
  }
  Simulation& sim_;
  PacketPool& pool_;
  Mac* mac_ = nullptr;
  std::uint32_t to_;
  std::uint32_t bytes_;
};

// The receiver counts delivered bytes after the warm-up.
class Receiver final : public MacUser, public DropSink {
 public:
  Receiver(Simulation& sim, Time from) : sim_(sim), from_(from) {}
  void on_mac_receive(PacketPtr p, std::uint32_t) override {
    if (sim_.now() >= from_) bytes += p->size_bytes;
  }
  void on_drop(PacketPtr, DropCause, Time) override {}
  std::uint64_t bytes = 0;

 private:
  Simulation& sim_;
  Time from_;
};

}  // namespace

SaturationResult run_saturation(const SaturationSetup& s) {
  if (s.stations < 1) throw std::invalid_argument("saturation testbed: at least one station");
  Simulation sim(s.seed, "saturation");
  PacketPool pool;
  phy::ReceptionConfig rc;
  rc.kind = s.reception;
  rc.capture_threshold = phy::Db(10.0);
  rc.noise = phy::PowerDbm(-93.5);
  rc.sensitivity = phy::PowerDbm(-93.5);
  rc.cca_threshold = phy::PowerDbm(-82.0);
  phy::Medium medium(sim, rc);
  // Radio 0 is the receiver at the centre; stations on a circle around it.
  medium.add_radio(phy::RadioSpec{0, phy::Point{}, 1, phy::PowerDbm(20.0), s.profile}, sim.random().stream("node", 0, "rx_error"));
  for (int i = 0; i < s.stations; ++i) {
    const double angle = 2.0 * std::numbers::pi * i / s.stations;
    const auto id = static_cast<std::uint32_t>(i + 1);
    medium.add_radio(phy::RadioSpec{id, phy::Point{s.radius_m * std::cos(angle), s.radius_m * std::sin(angle), 0}, 1,
                                    phy::PowerDbm(20.0), s.profile},
                     sim.random().stream("node", id, "rx_error"));
  }
  // One collision domain: every pair at -60 dB, 56 dB above the noise.
  medium.connect([](phy::RadioId, phy::RadioId, double) { return phy::Db(-60.0); });

  const phy::Mcs* data = phy::find_mcs(s.profile.family, static_cast<std::int64_t>(s.data_rate_bps));
  const phy::Mcs* control = phy::find_mcs(s.profile.family, static_cast<std::int64_t>(s.control_rate_bps));
  if (data == nullptr || control == nullptr) throw std::invalid_argument("saturation testbed: rate not in the PHY profile");
  MacConfig config;
  config.type = s.type;
  config.params = s.params;
  config.control_rate = control;
  config.data_rate = [data](std::uint32_t) { return data; };

  Receiver receiver(sim, s.warmup);
  std::vector<std::unique_ptr<Station>> stations;
  std::vector<std::unique_ptr<Mac>> macs;
  macs.push_back(std::make_unique<Mac>(sim, medium.radio(0), config, pool, receiver, sim.random().stream("node", 0, "backoff")));
  macs[0]->set_user(&receiver);
  for (int i = 0; i < s.stations; ++i) {
    const auto id = static_cast<std::uint32_t>(i + 1);
    stations.push_back(std::make_unique<Station>(sim, pool, 0, s.ip_bytes));
    macs.push_back(std::make_unique<Mac>(sim, medium.radio(id), config, pool, *stations.back(),
                                         sim.random().stream("node", id, "backoff")));
    macs.back()->set_user(stations.back().get());
    stations.back()->attach(*macs.back());
  }

  const auto wall_start = std::chrono::steady_clock::now();
  sim.run_until(s.warmup + s.duration);
  const auto wall_end = std::chrono::steady_clock::now();

  SaturationResult r;
  r.simulated = s.warmup + s.duration;
  r.throughput_bps = static_cast<double>(receiver.bytes) * 8.0 / s.duration.to_seconds();
  std::uint64_t retry_drops = 0;
  for (std::size_t i = 1; i < macs.size(); ++i) {
    const MacStats& m = macs[i]->stats();
    r.totals.data_attempts += m.data_attempts;
    r.totals.data_retries += m.data_retries;
    r.totals.rts_attempts += m.rts_attempts;
    r.totals.tx_success += m.tx_success;
    r.totals.failed_attempts += m.failed_attempts;
    r.totals.drops_retry_limit += m.drops_retry_limit;
    r.totals.txops += m.txops;
    retry_drops += stations[i - 1]->retry_drops;
  }
  const std::uint64_t attempts = r.totals.rts_attempts + (r.totals.rts_attempts > 0 ? 0 : r.totals.data_attempts);
  r.collision_probability = attempts > 0 ? static_cast<double>(r.totals.failed_attempts) / static_cast<double>(attempts) : 0.0;
  const std::uint64_t finished = r.totals.tx_success + retry_drops;
  r.drop_ratio = finished > 0 ? static_cast<double>(retry_drops) / static_cast<double>(finished) : 0.0;
  r.events = sim.scheduler().executed();
  r.wall_time_s = std::chrono::duration<double>(wall_end - wall_start).count();
  return r;
}

}  // namespace wmnsim::mac
