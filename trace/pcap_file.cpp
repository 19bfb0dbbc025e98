#include "trace/pcap_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
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

}  // namespace

PcapFile::PcapFile(std::filesystem::path path, std::uint32_t snap_length)
    : path_(std::move(path)), snap_length_(snap_length) {
  const std::filesystem::path dir = path_.has_parent_path() ? path_.parent_path() : std::filesystem::path(".");
  temporary_ = dir / ("." + path_.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                      std::to_string(g_temporary_files.fetch_add(1)));
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0) fail(errno);
  buffer_.reserve(kBufferBytes);
  put_le32(buffer_, kPcapMagicNanoseconds);
  put_le16(buffer_, 2);  // version 2.4
  put_le16(buffer_, 4);
  put_le32(buffer_, 0);  // reserved (formerly thiszone)
  put_le32(buffer_, 0);  // reserved (formerly sigfigs)
  put_le32(buffer_, snap_length_);
  put_le32(buffer_, kLinkTypeRadiotap);
}

PcapFile::~PcapFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(temporary_.c_str());
  }
}

void PcapFile::write(Time at, std::span<const std::uint8_t> packet) {
  const auto length = static_cast<std::uint32_t>(packet.size());
  const std::uint32_t captured = std::min(length, snap_length_);
  if (buffer_.size() + kPcapRecordHeaderBytes + captured > kBufferBytes) flush();
  const std::int64_t ns = at.picoseconds() / 1000;
  put_le32(buffer_, static_cast<std::uint32_t>(ns / 1'000'000'000));
  put_le32(buffer_, static_cast<std::uint32_t>(ns % 1'000'000'000));
  put_le32(buffer_, captured);
  put_le32(buffer_, length);
  buffer_.insert(buffer_.end(), packet.begin(), packet.begin() + captured);
  ++records_;
}

void PcapFile::flush() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
}

void PcapFile::commit() {
  flush();
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
    ::unlink(temporary_.c_str());
  }
  throw std::runtime_error("cannot write the trace " + path_.string() + ": " + std::strerror(error != 0 ? error : EIO));
}

}  // namespace wmnsim::trace
