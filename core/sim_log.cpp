#include "core/sim_log.hpp"

namespace wmnsim {

void SimLog::vwrite(Level level, std::uint32_t node, fmt::string_view format, fmt::format_args args) const {
  logger_->log(level, "{} {}", node_label(node), fmt::vformat(format, args));
}

}  // namespace wmnsim
