#pragma once
// 002 Sec. III, TCP ACK prioritisation: "by increasing the AIFS of data packets by 4
// slots and decreasing the CWmin of TCP ACKs to 2^2 we can effectively give ACKs
// priority over data packets" (after Leith et al., "TCP fairness in 802.11e WLANs",
// 2005). On every radio of the chosen nodes:
//  - the data category (AC_BE) gets AIFSN + data_aifsn_increase;
//  - pure TCP ACKs go to their own category (AC_VO) through the MAC's classifier
//    (mac/access_classifier.hpp), whose parameters become the data category's
//    AIFSN and CWmax from before the change, CWmin ack_cw_min, one frame per access.
// A flow whose scenario names its categories keeps them (the tag decides). At stop
// the parameters and the classifier go back to what they were.

#include <optional>
#include <vector>

#include "control/controller.hpp"
#include "control/edca_policy_params.hpp"

namespace wmnsim::control {

class EdcaAckPriority final : public Controller {
 public:
  EdcaAckPriority(const ControllerConfig& config, ControlContext& context);

  void start() override;
  nlohmann::ordered_json statistics() const override;

  // What it changed on one radio.
  struct Change {
    std::size_t node = 0;
    std::size_t radio = 0;
    EdcaParams data_before, data_after;
    EdcaParams ack_before, ack_after;
    std::optional<AccessCategory> pure_ack_category_before;
  };
  const std::vector<Change>& changes() const { return changes_; }

 private:
  void on_stop() override;

  const EdcaAckPriorityParams& params_;
  std::vector<Change> changes_;
};

}  // namespace wmnsim::control
