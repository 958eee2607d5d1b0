/// \file
/// \brief The checker-runner protocol: framed messages over one socket.
///
/// A lab's checks run in two processes. The checker (the test file and the harness)
/// makes inputs, keeps the expected values and judges; the runner holds the lab's code,
/// the backend runtime and nothing else. The checker sends one request at a time and
/// reads one reply. Every frame is `u32 op, u64 length, length bytes`; the bodies are
/// flat little-endian values written by Writer and read back by Reader, which refuses
/// to read past the end (a runner's reply is untrusted data).
#pragma once
#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace pplab::remote {

/// What a request asks for. Replies carry the request's op back.
enum class Op : std::uint32_t {
  hello = 1,          ///< -> backend name ("emulator" or "gpu")
  malloc_device,      ///< u64 bytes -> i32 error, u64 address
  free_device,        ///< u64 address -> i32 error
  copy_to_device,     ///< u64 address, bytes -> i32 error
  copy_to_host,       ///< u64 address, u64 bytes -> i32 error, bytes
  copy_on_device,     ///< u64 to, u64 from, u64 bytes -> i32 error
  memset_device,      ///< u64 address, i32 value, u64 bytes -> i32 error
  synchronize,        ///< -> i32 error (cudaDeviceSynchronize)
  last_error,         ///< -> i32 error (cudaGetLastError)
  peek_error,         ///< -> i32 error (cudaPeekAtLastError)
  error_name,         ///< i32 error -> text
  error_string,       ///< i32 error -> text
  get_device,         ///< -> i32 error, i32 device
  device_attribute,   ///< i32 attribute, i32 device -> i32 error, i32 value
  /// -> u64 launches, u64 to-host bytes, u64 to-device bytes, u8 counted, [text reason
  /// when not counted], u32 sites, each: text function, text file, u32 line, u64 to-host bytes
  traffic,
  set_schedule,       ///< i32 kind, u32 seed (emulator thread order)
  set_fault_note,     ///< text printed under an emulator fault report
  call,               ///< entry key, arguments -> u8 outcome, result, out-arguments
  /// u32 op, bytes (another request) -> bytes (its reply), i32 error of a device
  /// synchronise made after it: a request and the wait for its work, in one round trip
  synchronized,
};

/// A frame's largest body: big enough for the largest check's arrays.
inline constexpr std::uint64_t kMaxBody = std::uint64_t(1) << 32;

/// Raised when the other side broke the protocol or went away.
struct WireError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Appends flat values to a body.
class Writer {
 public:
  template <class T>
  Writer& put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>, "only flat values travel");
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof(T));
    return *this;
  }
  Writer& put_bytes(const void* data, std::size_t size) {
    put<std::uint64_t>(size);
    bytes_.append(static_cast<const char*>(data), size);
    return *this;
  }
  Writer& put_text(std::string_view text) { return put_bytes(text.data(), text.size()); }
  /// Appends `size` bytes as put_bytes() would and returns where they go, for a caller
  /// that fills them in place (a download copied once, from the device into the reply).
  char* put_space(std::size_t size) {
    put<std::uint64_t>(size);
    bytes_.resize(bytes_.size() + size);
    return bytes_.data() + bytes_.size() - size;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

/// Reads flat values back, in order, never past the end.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  /// Keeps a reply it is handed as a temporary, so `Reader reply(request(...))` is safe.
  explicit Reader(std::string&& bytes) : owned_(std::move(bytes)), bytes_(owned_) {}
  explicit Reader(const char*) = delete;
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>, "only flat values travel");
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  std::string_view get_bytes() {
    const auto size = get<std::uint64_t>();
    return {take(size), std::size_t(size)};
  }
  std::string get_text() { return std::string(get_bytes()); }
  bool at_end() const { return offset_ == bytes_.size(); }

 private:
  const char* take(std::uint64_t size) {
    if (size > bytes_.size() - offset_) throw WireError("a message ended before its contents");
    const char* start = bytes_.data() + offset_;
    offset_ += std::size_t(size);
    return start;
  }
  std::string owned_;
  std::string_view bytes_;
  std::size_t offset_ = 0;
};

/// Sends one frame; throws WireError when the peer is gone.
void send_frame(int fd, Op op, const std::string& body);
/// Reads one frame into `op` and `body`; false at a clean end of stream (the peer
/// closed between frames), WireError for a broken or oversized frame.
bool receive_frame(int fd, Op& op, std::string& body);
/// The two halves of receive_frame, for a reader that puts a large body where it
/// belongs: the header (false at a clean end of stream), then exactly `size` bytes of
/// the body, as many calls as it likes until `length` is read.
bool receive_header(int fd, Op& op, std::uint64_t& length);
void receive_body(int fd, char* data, std::size_t size);

/// Has this process's allocator keep what is freed for the next allocation, rather than
/// map every large block afresh and unmap it when freed: each check at 2^24 allocates
/// its downloads and expected values again (tens of MB each), and fresh pages cost a
/// page fault every 4 KiB, in the time the GPU is held. The checker's first request and
/// the runner's start call it.
void keep_freed_memory();

/// Polls `fd`, without sleeping, until it has something to read or `limit` has passed;
/// the caller's blocking read then finds its data there. Timing needs it: a process
/// asleep on a read whose CPU has gone idle wakes tens of microseconds after the data
/// came, and in a timed request that lateness would count as the lab's time.
void spin_until_readable(int fd, std::chrono::microseconds limit);

}  // namespace pplab::remote
