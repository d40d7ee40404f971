//===- ResultCache.h - Content-addressed on-disk result cache ---*- C++ -*-===//
//
// A cache of search results on disk, addressed by the SHA-256 of a key the
// caller composes (canonical program text plus every option that changes the
// result). Each entry is one self-checking file: it repeats the format
// version and the full key and ends in a checksum, so a lookup detects a
// corrupted, truncated or foreign entry and reports it instead of trusting
// it. Stores are atomic (a unique temporary file renamed into place), so
// concurrent writers never leave a torn entry. docs/cache.md describes the
// layout and the guarantees; a hit is a hint that the caller re-verifies.
//
//===----------------------------------------------------------------------===//

#ifndef MIRAGE_SEARCH_RESULTCACHE_H
#define MIRAGE_SEARCH_RESULTCACHE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mirage::search {

/// The tool version that is part of every key (bump when results change
/// meaning).
llvm::StringRef cacheFormatVersion();

/// The bytes of one cache entry for `key` and `payload`, as written by
/// ResultCache::store, under format version `version` (no newline in it).
/// Exposed so that tests and tools can write entries of other versions or
/// with other keys.
std::string formatCacheEntry(llvm::StringRef version, llvm::StringRef key,
                             llvm::StringRef payload);

/// Parses the bytes of an entry expected to hold `key` under
/// cacheFormatVersion(). Returns the payload, or nullopt with `problem` set
/// (bad header, truncation, trailing bytes, bad checksum, another version,
/// another key).
std::optional<std::string> parseCacheEntry(llvm::StringRef bytes,
                                           llvm::StringRef key,
                                           std::string &problem);

/// A directory of cache entries. Holds no state besides the directory, so
/// one object (or several, in several processes) may be used from any number
/// of threads at once.
class ResultCache {
public:
  /// `$MIRAGE_CACHE_DIR` if set (empty when it is "none"), else
  /// `$XDG_CACHE_HOME/mirage`, else `$HOME/.cache/mirage`; empty if neither
  /// is set. An empty or relative XDG_CACHE_HOME counts as unset (as the XDG
  /// base directory specification asks), and so does an empty HOME.
  static std::string defaultDirectory();

  explicit ResultCache(std::string directory);

  llvm::StringRef directory() const { return dir; }

  /// The file that holds (or would hold) the entry of `key`:
  /// `<directory>/<first 2 hex>/<64 hex>` of SHA-256(version "\n" key).
  std::string entryPath(llvm::StringRef key) const;

  /// The payload stored under `key` if there is an intact entry. A missing
  /// entry: nullopt, `problem` empty. A corrupted, truncated, or foreign
  /// entry (another key whose hash collides, another format version, bad
  /// checksum, bad header, unreadable): nullopt with `problem` describing it
  /// (for a remark); never crashes, never trusts it.
  std::optional<std::string> lookup(llvm::StringRef key,
                                    std::string &problem) const;

  /// Stores atomically (write to a unique temporary file in the same
  /// directory, then rename), creating the directory if needed; concurrent
  /// writers of the same or different keys in one directory never leave a
  /// torn entry. Returns false with `error` on I/O failure.
  bool store(llvm::StringRef key, llvm::StringRef payload,
             std::string &error) const;

private:
  std::string dir;
};

} // namespace mirage::search

#endif // MIRAGE_SEARCH_RESULTCACHE_H
