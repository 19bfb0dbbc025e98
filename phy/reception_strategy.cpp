#include "phy/reception_strategy.hpp"

#include <limits>
#include <stdexcept>

namespace wmnsim::phy {

ReceptionStrategy make_reception_strategy(const ReceptionConfig& reception) {
  switch (reception.kind) {
    case ReceptionKind::sinr: return SinrReception{.dsss_gain = reception.dsss_sinr_gain != 1.0};
    case ReceptionKind::threshold:
    case ReceptionKind::range: return ThresholdReception{};
    case ReceptionKind::ns2: return Ns2Reception{};
  }
  throw std::logic_error("unknown reception kind");
}

LinkRules link_rules(const ReceptionConfig& reception) {
  switch (reception.kind) {
    case ReceptionKind::sinr: return {false, false, !reception.faint_signal_events};
    case ReceptionKind::threshold:
    case ReceptionKind::ns2: return {false, true, false};
    case ReceptionKind::range: return {true, false, false};
  }
  throw std::logic_error("unknown reception kind");
}

double capture_ratio(const ReceptionConfig& reception) {
  return reception.kind == ReceptionKind::range ? std::numeric_limits<double>::infinity()
                                                : reception.capture_threshold.linear();
}

}  // namespace wmnsim::phy
