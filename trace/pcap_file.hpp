#pragma once
// One pcap file written while a run goes on: the classic libpcap format with
// nanosecond timestamps (magic 0xA1B23C4D; the format of
// draft-ietf-opsawg-pcap, "PCAP Capture File Format", sections 4 and 5), link
// type LINKTYPE_IEEE802_11_RADIOTAP (127).
//
//   file header   magic u32, version 2.4, reserved u32 x 2, SnapLen u32, LinkType u32
//   each record   seconds u32, nanoseconds u32, captured length u32 (at most
//                 SnapLen), original length u32, then the captured octets
//
// Written little-endian (the magic number tells a reader the order). Timestamps
// are simulated time from 0 (so the epoch, 1970-01-01, is the start of the run).
//
// The records stream through a buffer into a temporary file beside the target
// (".<name>.tmp-<pid>-<n>"); commit() renames it into place, so a reader never sees
// half a trace. Destroyed without commit() (an interrupted or failed run), the
// temporary file is removed.

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "core/time.hpp"

namespace wmnsim::trace {

inline constexpr std::uint32_t kPcapMagicNanoseconds = 0xa1b23c4d;
inline constexpr std::uint32_t kLinkTypeRadiotap = 127;
inline constexpr std::uint32_t kPcapFileHeaderBytes = 24;
inline constexpr std::uint32_t kPcapRecordHeaderBytes = 16;

class PcapFile {
 public:
  // Creates the temporary file and writes the file header. Throws
  // std::runtime_error naming `path` when the folder does not take the file.
  PcapFile(std::filesystem::path path, std::uint32_t snap_length);
  ~PcapFile();
  PcapFile(const PcapFile&) = delete;
  PcapFile& operator=(const PcapFile&) = delete;

  // One record at `at`: `packet` cut to the snap length, its whole size as the
  // original length.
  void write(Time at, std::span<const std::uint8_t> packet);
  // Flushes, closes and renames the file into place. Throws std::runtime_error.
  void commit();

  const std::filesystem::path& path() const { return path_; }
  std::uint64_t records() const { return records_; }

 private:
  void flush();
  [[noreturn]] void fail(int error);

  std::filesystem::path path_;
  std::filesystem::path temporary_;
  std::uint32_t snap_length_;
  int fd_ = -1;
  std::vector<std::uint8_t> buffer_;
  std::uint64_t records_ = 0;
};

}  // namespace wmnsim::trace
