//===- ResultCache.cpp - Content-addressed on-disk result cache -----------===//
//
// One file per entry, named by SHA-256(version "\n" key) and sharded by its
// first two hex digits. The entry repeats what addresses it (version and
// key) so that a collision or a misplaced file is detected by comparison,
// and ends in the SHA-256 of everything before it so that corruption and
// truncation are detected too (docs/cache.md shows the layout).
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/ResultCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mirage::search;
using llvm::StringRef;

namespace {

constexpr llvm::StringLiteral kMagic = "mirage-result-cache ";
constexpr llvm::StringLiteral kKeyTag = "key ";
constexpr llvm::StringLiteral kPayloadTag = "payload ";
constexpr llvm::StringLiteral kChecksumTag = "sha256 ";
/// Hex digits of a SHA-256.
constexpr size_t kChecksumDigits = 64;

std::string sha256Hex(StringRef bytes) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes)),
                     /*LowerCase=*/true);
}

/// Consumes a line `<tag><decimal>\n` from the front of `rest`. The number
/// is canonical (no sign, no leading zero) so that an entry has exactly one
/// spelling, and short enough not to overflow.
bool consumeLength(StringRef &rest, StringRef tag, uint64_t &value) {
  StringRef line = rest;
  if (!line.consume_front(tag))
    return false;
  size_t eol = line.find('\n');
  if (eol == StringRef::npos)
    return false;
  StringRef digits = line.take_front(eol);
  if (digits.empty() || digits.size() > 18 ||
      (digits.size() > 1 && digits.front() == '0') ||
      !llvm::all_of(digits, llvm::isDigit))
    return false;
  value = 0;
  for (char c : digits)
    value = value * 10 + static_cast<uint64_t>(c - '0');
  rest = line.drop_front(eol + 1);
  return true;
}

/// Consumes `size` bytes followed by a newline from the front of `rest`.
bool consumeBlock(StringRef &rest, uint64_t size, StringRef &block) {
  if (size >= rest.size() || rest[size] != '\n')
    return false;
  block = rest.take_front(size);
  rest = rest.drop_front(size + 1);
  return true;
}

/// `text` for a message, cut short and with control bytes escaped.
std::string quoted(StringRef text) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '\'';
  os.write_escaped(text.take_front(48));
  if (text.size() > 48)
    os << "...";
  os << '\'';
  return out;
}

} // namespace

StringRef mirage::search::cacheFormatVersion() { return "mirage-search-6"; }

std::string mirage::search::formatCacheEntry(StringRef version, StringRef key,
                                             StringRef payload) {
  std::string entry;
  entry.reserve(kMagic.size() + version.size() + key.size() + payload.size() +
                kChecksumTag.size() + kChecksumDigits + 64);
  llvm::raw_string_ostream os(entry);
  os << kMagic << version << '\n';
  os << kKeyTag << key.size() << '\n' << key << '\n';
  os << kPayloadTag << payload.size() << '\n' << payload << '\n';
  std::string checksum = sha256Hex(entry);
  os << kChecksumTag << checksum << '\n';
  return entry;
}

std::optional<std::string>
mirage::search::parseCacheEntry(StringRef bytes, StringRef key,
                                std::string &problem) {
  auto fail = [&](const llvm::Twine &why) -> std::optional<std::string> {
    problem = why.str();
    return std::nullopt;
  };
  problem.clear();
  StringRef rest = bytes;
  if (!rest.consume_front(kMagic))
    return fail("bad header (not a result-cache entry)");
  size_t eol = rest.find('\n');
  if (eol == StringRef::npos)
    return fail("truncated header");
  StringRef version = rest.take_front(eol);
  rest = rest.drop_front(eol + 1);

  uint64_t keySize = 0, payloadSize = 0;
  StringRef storedKey, payload;
  if (!consumeLength(rest, kKeyTag, keySize))
    return fail("bad or truncated key length");
  if (!consumeBlock(rest, keySize, storedKey))
    return fail("truncated key");
  if (!consumeLength(rest, kPayloadTag, payloadSize))
    return fail("bad or truncated payload length");
  if (!consumeBlock(rest, payloadSize, payload))
    return fail("truncated payload");

  StringRef covered = bytes.drop_back(rest.size());
  if (!rest.consume_front(kChecksumTag))
    return fail("bad or truncated checksum line");
  if (rest.size() <= kChecksumDigits || rest[kChecksumDigits] != '\n')
    return fail("bad or truncated checksum");
  StringRef checksum = rest.take_front(kChecksumDigits);
  rest = rest.drop_front(kChecksumDigits + 1);
  if (!rest.empty())
    return fail(llvm::Twine(rest.size()) +
                " trailing bytes after the checksum");
  if (checksum != sha256Hex(covered))
    return fail("checksum mismatch (corrupted entry)");

  // Intact from here on: what remains is whether it answers this question.
  if (version != cacheFormatVersion())
    return fail("written by format version " + quoted(version) + ", expected " +
                quoted(cacheFormatVersion()));
  if (storedKey != key)
    return fail("holds another key (a hash collision or a misplaced file)");
  return payload.str();
}

std::string ResultCache::defaultDirectory() {
  // MIRAGE_CACHE_DIR overrides the XDG location; "none" turns the default
  // cache off (the test suite does so, so that tests do not share results).
  if (const char *own = std::getenv("MIRAGE_CACHE_DIR"); own && *own)
    return StringRef(own) == "none" ? std::string() : std::string(own);
  llvm::SmallString<256> path;
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  const char *home = std::getenv("HOME");
  if (xdg && *xdg && llvm::sys::path::is_absolute(xdg))
    llvm::sys::path::append(path, xdg, "mirage");
  else if (home && *home)
    llvm::sys::path::append(path, home, ".cache", "mirage");
  return std::string(path);
}

ResultCache::ResultCache(std::string directory) : dir(std::move(directory)) {}

std::string ResultCache::entryPath(StringRef key) const {
  llvm::SHA256 hasher;
  hasher.update(cacheFormatVersion());
  hasher.update("\n");
  hasher.update(key);
  std::string hex = llvm::toHex(hasher.final(), /*LowerCase=*/true);
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, StringRef(hex).take_front(2), hex);
  return std::string(path);
}

std::optional<std::string> ResultCache::lookup(StringRef key,
                                               std::string &problem) const {
  problem.clear();
  // No directory: a disabled cache, where every entry is missing.
  if (dir.empty())
    return std::nullopt;
  std::string path = entryPath(key);
  // Volatile: read the bytes instead of mapping them, so that a file
  // truncated in place by someone else cannot fault a mapped read.
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false,
                                            /*IsVolatile=*/true);
  if (!buffer) {
    std::error_code ec = buffer.getError();
    if (ec != std::errc::no_such_file_or_directory)
      problem =
          "result-cache entry " + path + " is unreadable: " + ec.message();
    return std::nullopt;
  }
  std::string why;
  std::optional<std::string> payload =
      parseCacheEntry((*buffer)->getBuffer(), key, why);
  if (!payload)
    problem = "result-cache entry " + path + ": " + why;
  return payload;
}

bool ResultCache::store(StringRef key, StringRef payload,
                        std::string &error) const {
  namespace fs = llvm::sys::fs;
  error.clear();
  if (dir.empty()) {
    error = "no result-cache directory";
    return false;
  }
  std::string path = entryPath(key);
  StringRef shard = llvm::sys::path::parent_path(path);
  if (std::error_code ec = fs::create_directories(shard)) {
    error =
        ("cannot create result-cache directory " + shard + ": " + ec.message())
            .str();
    return false;
  }

  // A unique temporary file next to the entry, renamed over it once
  // complete: a reader sees the old file or the new one, never a mix, and
  // of concurrent writers the last rename wins with a whole entry.
  int fd = -1;
  llvm::SmallString<256> tmp;
  if (std::error_code ec =
          fs::createUniqueFile(path + ".tmp-%%%%%%%%%%%%", fd, tmp)) {
    error = "cannot create a temporary file in " + shard.str() + ": " +
            ec.message();
    return false;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << formatCacheEntry(cacheFormatVersion(), key, payload);
    os.close();
    if (os.has_error()) {
      error = "cannot write " + std::string(tmp) + ": " + os.error().message();
      // Reported here; clear it so the stream does not abort on destruction.
      os.clear_error();
      fs::remove(tmp);
      return false;
    }
  }
  if (std::error_code ec = fs::rename(tmp, path)) {
    error = "cannot rename " + std::string(tmp) + " to " + path + ": " +
            ec.message();
    fs::remove(tmp);
    return false;
  }
  return true;
}
