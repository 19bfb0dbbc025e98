#pragma once
// A controller that lives in the test tree only, to prove that adding one takes one
// file pair and one registration line, with nothing edited in core/, config/,
// control/ or scenario/: "cw_pin" pins the minimum contention window of its `nodes`
// to `cw_min` from start_s to stop_s (then puts it back).

#include <vector>

#include "control/controller.hpp"
#include "control/controller_entry.hpp"

namespace wmnsim::test {

struct CwPinParams {
  int cw_min = 0;  // required: a window in slots (a power of two)
};

class CwPin final : public control::Controller {
 public:
  CwPin(const ControllerConfig& config, control::ControlContext& context);
  void start() override;
  nlohmann::ordered_json statistics() const override;

 private:
  void on_stop() override;
  struct Pinned {
    mac::Mac* mac;
    int cw_min_before;
  };
  const CwPinParams& params_;
  std::vector<Pinned> pinned_;
};

// Its registry entry: registry.add(cw_pin_entry()).
control::ControllerEntry cw_pin_entry();

}  // namespace wmnsim::test
