#pragma once
// One capture file written while a run goes on, of one link type
// (LINKTYPE_IEEE802_11_RADIOTAP, 127, for the air; LINKTYPE_RAW, 101, for the wired
// links), in one of two formats:
//
// pcap: the classic libpcap format with nanosecond timestamps (magic 0xA1B23C4D;
// draft-ietf-opsawg-pcap, "PCAP Capture File Format", sections 4 and 5):
//   file header   magic u32, version 2.4, reserved u32 x 2, SnapLen u32, LinkType u32
//   each record   seconds u32, nanoseconds u32, captured length u32 (at most
//                 SnapLen), original length u32, then the captured octets
//
// pcapng (draft-ietf-opsawg-pcapng, "PCAP Now Generic"): blocks of type u32,
// total length u32, body, total length u32 again, each a multiple of 4 octets:
//   Section Header Block (4.1)      byte-order magic 0x1A2B3C4D, version 1.0,
//                                   section length -1 (unknown), shb_userappl
//   Interface Description Blocks (4.2), one per interface: LinkType, SnapLen,
//                                   if_name, if_tsresol 9 (nanoseconds)
//   Name Resolution Block (4.5), when there are names: IPv4 and EUI-48
//                                   addresses, each with its name
//   each record: an Enhanced Packet Block (4.3): interface id, timestamp (u64
//                                   nanoseconds, high then low half), captured
//                                   and original length, the octets padded to
//                                   4, and opt_comment when the record has one
// A record's interface and comment exist in pcapng only: pcap drops them.
//
// Written little-endian (the magic numbers tell a reader the order). Timestamps
// are simulated time from 0 (so the epoch, 1970-01-01, is the start of the run).
//
// The records stream through a buffer into an unnamed file in the target's folder
// (O_TMPFILE); commit() names it (".<name>.tmp-<pid>-<n>") and renames it into
// place, so a reader never sees half a trace, and a run killed before (SIGKILL, out
// of memory) leaves no file at all: the kernel discards an unnamed one with its
// process. On a file system without O_TMPFILE the temporary file is named from the
// start; destroyed without commit() (an interrupted or failed run) it is removed.

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/time.hpp"

namespace wmnsim::trace {

inline constexpr std::uint32_t kPcapMagicNanoseconds = 0xa1b23c4d;
inline constexpr std::uint32_t kLinkTypeRadiotap = 127;
// LINKTYPE_RAW: a bare IP datagram, its version in the first nibble (the wired links).
inline constexpr std::uint32_t kLinkTypeRaw = 101;
inline constexpr std::uint32_t kPcapFileHeaderBytes = 24;
inline constexpr std::uint32_t kPcapRecordHeaderBytes = 16;

enum class CaptureFormat { pcap, pcapng };

// A capture file that cannot be written (a full disk, a quota, permissions): the
// user's to fix, as for the results file, so the run reports it as an input error
// at /outputs/pcap/path (exit 2), never as an internal one. Thrown at creation, by
// a write during the run and by commit(); the temporary file is gone by then and
// an earlier file at the path is left as it was.
class CaptureWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A pcapng Name Resolution Block entry: an address and the name Wireshark shows
// for it (nrb_record_ipv4, 4 octets; nrb_record_eui48, 6 octets).
struct NameRecord {
  enum class Kind : std::uint16_t { ipv4 = 1, eui48 = 3 } kind;
  std::array<std::uint8_t, 6> address{};  // ipv4: the first 4 octets
  std::string name;
};

// What a capture file holds besides its records.
struct CaptureLayout {
  CaptureFormat format = CaptureFormat::pcap;
  std::uint32_t link_type = kLinkTypeRadiotap;  // every interface's
  std::vector<std::string> interfaces{""};  // pcapng: one IDB each, if_name when not empty
  std::vector<NameRecord> names;            // pcapng: the NRB, when not empty
};

class PcapFile {
 public:
  // Creates the temporary file and writes the file header (pcapng: the section
  // header, the interfaces and the names). Throws CaptureWriteError naming `path`
  // when the folder does not take the file.
  PcapFile(std::filesystem::path path, std::uint32_t snap_length, CaptureLayout layout = {});
  ~PcapFile();
  PcapFile(const PcapFile&) = delete;
  PcapFile& operator=(const PcapFile&) = delete;

  // One record at `at`: `packet` cut to the snap length, its whole size as the
  // original length; pcapng: on `interface` (an index into the layout's), with
  // `comment` as its opt_comment when not empty. Throws CaptureWriteError when
  // the full buffer cannot be written out.
  void write(Time at, std::span<const std::uint8_t> packet, std::uint32_t interface = 0,
             std::string_view comment = {});
  // Flushes, closes and renames the file into place. Throws CaptureWriteError.
  void commit();

  const std::filesystem::path& path() const { return path_; }
  std::uint64_t records() const { return records_; }
  // The file's size so far: written out and buffered.
  std::uint64_t bytes() const { return flushed_ + buffer_.size(); }

 private:
  void flush();
  void name_unnamed();
  void write_pcapng_header(const CaptureLayout& layout);
  [[noreturn]] void fail(int error);

  std::filesystem::path path_;
  std::filesystem::path temporary_;
  std::uint32_t snap_length_;
  CaptureFormat format_;
  std::uint32_t link_type_;
  int fd_ = -1;
  bool unnamed_ = false;  // fd_ is an O_TMPFILE file, not yet linked
  std::vector<std::uint8_t> buffer_;
  std::uint64_t records_ = 0;
  std::uint64_t flushed_ = 0;
};

}  // namespace wmnsim::trace
