#include "trace/pcap_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>

#include "trace/byte_writer.hpp"

namespace wmnsim::trace {
namespace {

// Records gather here before one write(2): a few hundred frames per system call.
constexpr std::size_t kBufferBytes = 1 << 18;

// Tells apart the temporary files of traces written at once by one process (two
// runs in two threads of a Python program, in one folder).
std::atomic<std::uint64_t> g_temporary_files{0};


// pcapng block types and option codes (draft-ietf-opsawg-pcapng 4, 3.5).
constexpr std::uint32_t kSectionHeaderBlock = 0x0a0d0d0a;
constexpr std::uint32_t kInterfaceDescriptionBlock = 1;
constexpr std::uint32_t kNameResolutionBlock = 4;
constexpr std::uint32_t kEnhancedPacketBlock = 6;
constexpr std::uint32_t kByteOrderMagic = 0x1a2b3c4d;
constexpr std::uint16_t kOptEndOfOpt = 0;
constexpr std::uint16_t kOptComment = 1;
constexpr std::uint16_t kShbUserAppl = 4;
constexpr std::uint16_t kIfName = 2;
constexpr std::uint16_t kIfTsresol = 9;

void pad4(Bytes& b) {
  while (b.size() % 4 != 0) b.push_back(0);
}

void put_option(Bytes& b, std::uint16_t code, std::span<const std::uint8_t> value) {
  put_le16(b, code);
  put_le16(b, static_cast<std::uint16_t>(value.size()));
  b.insert(b.end(), value.begin(), value.end());
  pad4(b);
}

void put_text_option(Bytes& b, std::uint16_t code, std::string_view text) {
  // An option's length is a u16: a longer text is cut (none that wmnsim writes is).
  const std::size_t n = std::min<std::size_t>(text.size(), 0xfff0);
  put_option(b, code, {reinterpret_cast<const std::uint8_t*>(text.data()), n});
}

// Starts a block in `b` (which holds only whole blocks); end_block fills in the length.
std::size_t begin_block(Bytes& b, std::uint32_t type) {
  const std::size_t start = b.size();
  put_le32(b, type);
  put_le32(b, 0);
  return start;
}

void end_block(Bytes& b, std::size_t start) {
  pad4(b);
  const auto total = static_cast<std::uint32_t>(b.size() - start + 4);
  put_le32(b, total);
  for (int i = 0; i < 4; ++i) b[start + 4 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(total >> (8 * i));
}

// Writes all `size` bytes (a write may take part of them); false with errno set.
bool write_all(int fd, const std::uint8_t* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

PcapFile::PcapFile(std::filesystem::path path, std::uint32_t snap_length, CaptureLayout layout)
    : path_(std::move(path)), snap_length_(snap_length), format_(layout.format), link_type_(layout.link_type) {
  const std::filesystem::path dir = path_.has_parent_path() ? path_.parent_path() : std::filesystem::path(".");
  temporary_ = dir / ("." + path_.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                      std::to_string(g_temporary_files.fetch_add(1)));
#ifdef O_TMPFILE
  // Read back only if /proc is missing at commit (name_unnamed): O_RDWR.
  fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
  unnamed_ = fd_ >= 0;
  if (!unnamed_ && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) fail(errno);
#endif
  if (!unnamed_) {  // a file system without O_TMPFILE: a named temporary file
    fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0) fail(errno);
  }
  buffer_.reserve(kBufferBytes);
  if (format_ == CaptureFormat::pcapng) {
    write_pcapng_header(layout);
    return;
  }
  put_le32(buffer_, kPcapMagicNanoseconds);
  put_le16(buffer_, 2);  // version 2.4
  put_le16(buffer_, 4);
  put_le32(buffer_, 0);  // reserved (formerly thiszone)
  put_le32(buffer_, 0);  // reserved (formerly sigfigs)
  put_le32(buffer_, snap_length_);
  put_le32(buffer_, link_type_);
}

void PcapFile::write_pcapng_header(const CaptureLayout& layout) {
  std::size_t block = begin_block(buffer_, kSectionHeaderBlock);
  put_le32(buffer_, kByteOrderMagic);
  put_le16(buffer_, 1);  // version 1.0
  put_le16(buffer_, 0);
  put_le64(buffer_, ~std::uint64_t{0});  // section length: not given
  put_text_option(buffer_, kShbUserAppl, "wmnsim");
  put_le32(buffer_, kOptEndOfOpt);
  end_block(buffer_, block);
  for (const std::string& name : layout.interfaces) {
    block = begin_block(buffer_, kInterfaceDescriptionBlock);
    put_le16(buffer_, static_cast<std::uint16_t>(link_type_));
    put_le16(buffer_, 0);  // reserved
    put_le32(buffer_, snap_length_);
    if (!name.empty()) put_text_option(buffer_, kIfName, name);
    const std::uint8_t nanoseconds = 9;  // 10^-9 s
    put_option(buffer_, kIfTsresol, {&nanoseconds, 1});
    put_le32(buffer_, kOptEndOfOpt);
    end_block(buffer_, block);
  }
  if (!layout.names.empty()) {
    block = begin_block(buffer_, kNameResolutionBlock);
    for (const NameRecord& r : layout.names) {
      const std::size_t octets = r.kind == NameRecord::Kind::ipv4 ? 4 : 6;
      put_le16(buffer_, static_cast<std::uint16_t>(r.kind));
      put_le16(buffer_, static_cast<std::uint16_t>(octets + r.name.size() + 1));
      buffer_.insert(buffer_.end(), r.address.begin(), r.address.begin() + static_cast<std::ptrdiff_t>(octets));
      buffer_.insert(buffer_.end(), r.name.begin(), r.name.end());
      buffer_.push_back(0);  // the name's terminating NUL
      pad4(buffer_);
    }
    put_le32(buffer_, 0);  // nrb_record_end
    end_block(buffer_, block);
  }
}

PcapFile::~PcapFile() {
  if (fd_ >= 0) {
    ::close(fd_);  // an unnamed file goes with its last descriptor
    if (!unnamed_) ::unlink(temporary_.c_str());
  }
}

void PcapFile::write(Time at, std::span<const std::uint8_t> packet, std::uint32_t interface,
                     std::string_view comment) {
  const auto length = static_cast<std::uint32_t>(packet.size());
  const std::uint32_t captured = std::min(length, snap_length_);
  const std::int64_t ns = at.picoseconds() / 1000;
  if (format_ == CaptureFormat::pcapng) {
    // Block header 8, EPB fields 20, the octets padded, options, end of options 4, length 4.
    if (buffer_.size() + 40 + captured + comment.size() > kBufferBytes) flush();
    const std::size_t block = begin_block(buffer_, kEnhancedPacketBlock);
    put_le32(buffer_, interface);
    put_le32(buffer_, static_cast<std::uint32_t>(static_cast<std::uint64_t>(ns) >> 32));
    put_le32(buffer_, static_cast<std::uint32_t>(static_cast<std::uint64_t>(ns)));
    put_le32(buffer_, captured);
    put_le32(buffer_, length);
    buffer_.insert(buffer_.end(), packet.begin(), packet.begin() + captured);
    pad4(buffer_);
    if (!comment.empty()) {
      put_text_option(buffer_, kOptComment, comment);
      put_le32(buffer_, kOptEndOfOpt);
    }
    end_block(buffer_, block);
    ++records_;
    return;
  }
  if (buffer_.size() + kPcapRecordHeaderBytes + captured > kBufferBytes) flush();
  put_le32(buffer_, static_cast<std::uint32_t>(ns / 1'000'000'000));
  put_le32(buffer_, static_cast<std::uint32_t>(ns % 1'000'000'000));
  put_le32(buffer_, captured);
  put_le32(buffer_, length);
  buffer_.insert(buffer_.end(), packet.begin(), packet.begin() + captured);
  ++records_;
}

void PcapFile::flush() {
  if (!write_all(fd_, buffer_.data(), buffer_.size())) fail(errno);
  flushed_ += buffer_.size();
  buffer_.clear();
}

void PcapFile::name_unnamed() {
  // The complete file gets its temporary name (linkat through /proc, as open(2)
  // describes for O_TMPFILE), to be renamed into place.
  const std::string self = "/proc/self/fd/" + std::to_string(fd_);
  if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temporary_.c_str(), AT_SYMLINK_FOLLOW) == 0) {
    unnamed_ = false;
    return;
  }
  if (errno != ENOENT) fail(errno);
  // No /proc mounted: the bytes are copied into a named file.
  const int named = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (named < 0) fail(errno);
  std::vector<std::uint8_t> chunk(kBufferBytes);
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(fd_, chunk.data(), chunk.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) break;
    if (n < 0 || !write_all(named, chunk.data(), static_cast<std::size_t>(n))) {
      const int error = errno;
      ::close(named);
      ::unlink(temporary_.c_str());
      fail(error);
    }
    at += n;
  }
  ::close(fd_);
  fd_ = named;
  unnamed_ = false;
}

void PcapFile::commit() {
  flush();
  if (unnamed_) name_unnamed();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 || ::rename(temporary_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary_.c_str());
    fail(error);
  }
}

void PcapFile::fail(int error) {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
    if (!unnamed_) ::unlink(temporary_.c_str());
  }
  throw CaptureWriteError("cannot write the trace " + path_.string() + ": " + std::strerror(error != 0 ? error : EIO));
}

}  // namespace wmnsim::trace
