#pragma once

#include <stdexcept>

namespace wmnsim {

// The scenario is valid but asks for something this build cannot simulate yet.
// The message starts with the JSON path of the offending key and names what is
// missing. The command line reports it like invalid input (exit code 2).
class NotSupportedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace wmnsim
