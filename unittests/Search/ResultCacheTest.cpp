//===- ResultCacheTest.cpp - Unit tests of the on-disk result cache -------===//
//
// Round trips (empty, binary, large payloads), every way an entry can be
// damaged or foreign (truncation at every length, every flipped byte,
// trailing bytes, another key, another version, an unreadable entry), I/O
// failures of a store, concurrent stores from several threads, and the
// default directory. Each test works in a fresh temporary directory.
//
//===----------------------------------------------------------------------===//

#include "Mirage/Search/ResultCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cstdlib>
#include <random>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace mirage::search;
namespace fs = llvm::sys::fs;

namespace {

class ResultCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> path;
    ASSERT_FALSE(fs::createUniqueDirectory("mirage-result-cache-test", path));
    root = std::string(path);
  }
  void TearDown() override {
    // A test may have left a directory read-only; make it removable.
    for (const std::string &dir : readOnly)
      fs::setPermissions(dir, fs::all_all);
    EXPECT_FALSE(fs::remove_directories(root));
  }

  /// `root/<name>`.
  std::string sub(llvm::StringRef name) const {
    llvm::SmallString<128> path(root);
    llvm::sys::path::append(path, name);
    return std::string(path);
  }

  /// The bytes of the file at `path` ("" if unreadable).
  static std::string readFile(llvm::StringRef path) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  }

  /// Replaces the file at `path` by `bytes`, creating its directory.
  static void writeFile(llvm::StringRef path, llvm::StringRef bytes) {
    ASSERT_FALSE(fs::create_directories(llvm::sys::path::parent_path(path)));
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec) << ec.message();
    os << bytes;
  }

  /// Expects `key` to be present in `cache` but rejected, with a problem
  /// containing `what`.
  static void expectProblem(const ResultCache &cache, llvm::StringRef key,
                            llvm::StringRef what) {
    std::string problem;
    EXPECT_FALSE(cache.lookup(key, problem).has_value());
    EXPECT_NE(problem.find(what.str()), std::string::npos) << problem;
  }

  /// Files under root whose name holds a temporary suffix.
  unsigned countTemporaries() const {
    unsigned count = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::StringRef(it->path()).contains(".tmp-"))
        ++count;
    return count;
  }

  std::string root;
  std::vector<std::string> readOnly;
};

/// Bytes of every value, newlines and NULs included, from a fixed seed.
std::string randomBytes(size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  std::string bytes(size, '\0');
  for (char &c : bytes)
    c = static_cast<char>(rng() & 0xff);
  return bytes;
}

TEST_F(ResultCacheTest, RoundTrip) {
  ResultCache cache(root);
  EXPECT_EQ(cache.directory(), root);
  std::string error, problem;
  ASSERT_TRUE(cache.store("func @f\nthreads=2", "program A", error)) << error;
  ASSERT_TRUE(cache.store("func @g\nthreads=2", "program B", error)) << error;
  EXPECT_EQ(cache.lookup("func @f\nthreads=2", problem), "program A");
  EXPECT_EQ(problem, "");
  EXPECT_EQ(cache.lookup("func @g\nthreads=2", problem), "program B");
  EXPECT_EQ(problem, "");
  // A second store of a key replaces its entry.
  ASSERT_TRUE(cache.store("func @f\nthreads=2", "program C", error)) << error;
  EXPECT_EQ(cache.lookup("func @f\nthreads=2", problem), "program C");
  // Another object over the same directory sees the same entries.
  EXPECT_EQ(ResultCache(root).lookup("func @g\nthreads=2", problem),
            "program B");
  EXPECT_EQ(countTemporaries(), 0u);
}

TEST_F(ResultCacheTest, EntryPathIsShardedHexOfVersionAndKey) {
  ResultCache cache(root);
  std::string path = cache.entryPath("k");
  llvm::StringRef name = llvm::sys::path::filename(path);
  llvm::StringRef shard =
      llvm::sys::path::filename(llvm::sys::path::parent_path(path));
  EXPECT_EQ(name.size(), 64u);
  EXPECT_EQ(shard, name.take_front(2));
  EXPECT_EQ(llvm::sys::path::parent_path(llvm::sys::path::parent_path(path)),
            root);
  EXPECT_EQ(name.find_first_not_of("0123456789abcdef"), llvm::StringRef::npos);
  EXPECT_NE(cache.entryPath("k2"), path);
  EXPECT_EQ(ResultCache(root).entryPath("k"), path);
}

TEST_F(ResultCacheTest, MissingEntry) {
  std::string problem = "stale";
  EXPECT_FALSE(ResultCache(root).lookup("absent", problem).has_value());
  EXPECT_EQ(problem, "");
  // A directory that does not exist yet holds no entries either.
  problem = "stale";
  EXPECT_FALSE(
      ResultCache(sub("not/there")).lookup("absent", problem).has_value());
  EXPECT_EQ(problem, "");
}

TEST_F(ResultCacheTest, EmptyPayloadAndBinaryKey) {
  ResultCache cache(root);
  std::string error, problem;
  ASSERT_TRUE(cache.store("empty", "", error)) << error;
  std::optional<std::string> payload = cache.lookup("empty", problem);
  ASSERT_TRUE(payload.has_value()) << problem;
  EXPECT_EQ(*payload, "");
  // An empty key, and a key and payload with NULs and newlines.
  ASSERT_TRUE(cache.store("", "for the empty key", error)) << error;
  EXPECT_EQ(cache.lookup("", problem), "for the empty key");
  std::string key("a\0b\nkey 3\n", 10), bytes("\n\0\npayload 1\n", 13);
  ASSERT_TRUE(cache.store(key, bytes, error)) << error;
  EXPECT_EQ(cache.lookup(key, problem), bytes);
  EXPECT_EQ(problem, "");
}

TEST_F(ResultCacheTest, LargePayload) {
  ResultCache cache(root);
  std::string key = randomBytes(100000, 1);
  std::string payload = randomBytes(5 << 20, 2);
  std::string error, problem;
  ASSERT_TRUE(cache.store(key, payload, error)) << error;
  std::optional<std::string> found = cache.lookup(key, problem);
  ASSERT_TRUE(found.has_value()) << problem;
  EXPECT_TRUE(*found == payload);
  // Truncated by a byte, or by half: detected without reading past the end.
  std::string path = cache.entryPath(key);
  std::string entry = readFile(path);
  for (size_t size : {entry.size() - 1, entry.size() / 2, key.size()}) {
    writeFile(path, llvm::StringRef(entry).take_front(size));
    expectProblem(cache, key, "truncated");
  }
}

TEST_F(ResultCacheTest, TruncatedAtEveryLength) {
  ResultCache cache(root);
  std::string error;
  ASSERT_TRUE(cache.store("the key", "the payload", error)) << error;
  std::string path = cache.entryPath("the key");
  std::string entry = readFile(path);
  ASSERT_GT(entry.size(), 100u);
  for (size_t size = 0; size < entry.size(); ++size) {
    SCOPED_TRACE("size " + std::to_string(size));
    writeFile(path, llvm::StringRef(entry).take_front(size));
    std::string problem;
    EXPECT_FALSE(cache.lookup("the key", problem).has_value());
    EXPECT_NE(problem, "");
    EXPECT_NE(problem.find(path), std::string::npos) << problem;
  }
  // The whole entry again is intact.
  writeFile(path, entry);
  std::string problem;
  EXPECT_EQ(cache.lookup("the key", problem), "the payload");
}

TEST_F(ResultCacheTest, FlippedPayloadByte) {
  ResultCache cache(root);
  std::string error;
  ASSERT_TRUE(cache.store("key", "payload bytes", error)) << error;
  std::string path = cache.entryPath("key");
  std::string entry = readFile(path);
  size_t at = entry.find("payload bytes");
  ASSERT_NE(at, std::string::npos);
  entry[at + 3] ^= 0x20;
  writeFile(path, entry);
  expectProblem(cache, "key", "checksum mismatch");
}

TEST_F(ResultCacheTest, FlippedHeaderByte) {
  ResultCache cache(root);
  std::string error;
  ASSERT_TRUE(cache.store("key", "payload", error)) << error;
  std::string path = cache.entryPath("key");
  std::string entry = readFile(path);
  // The magic word, then the version within the header line.
  std::string badMagic = entry;
  badMagic[0] ^= 0x01;
  writeFile(path, badMagic);
  expectProblem(cache, "key", "bad header");
  std::string badVersion = entry;
  badVersion[entry.find('\n') - 1] ^= 0x01;
  writeFile(path, badVersion);
  expectProblem(cache, "key", "checksum mismatch");
}

TEST_F(ResultCacheTest, EveryFlippedByteIsDetected) {
  ResultCache cache(root);
  std::string error;
  ASSERT_TRUE(cache.store("k\ney", "pay\nload", error)) << error;
  std::string path = cache.entryPath("k\ney");
  std::string entry = readFile(path);
  for (size_t at = 0; at < entry.size(); ++at) {
    for (unsigned char mask : {0x01, 0x80, 0xff}) {
      SCOPED_TRACE("byte " + std::to_string(at) + " mask " +
                   std::to_string(mask));
      std::string bad = entry;
      bad[at] ^= static_cast<char>(mask);
      writeFile(path, bad);
      std::string problem;
      EXPECT_FALSE(cache.lookup("k\ney", problem).has_value());
      EXPECT_NE(problem, "");
    }
  }
}

TEST_F(ResultCacheTest, TrailingBytes) {
  ResultCache cache(root);
  std::string error;
  ASSERT_TRUE(cache.store("key", "payload", error)) << error;
  std::string path = cache.entryPath("key");
  writeFile(path, readFile(path) + "x");
  expectProblem(cache, "key", "trailing bytes");
}

TEST_F(ResultCacheTest, ForeignEntry) {
  // An intact entry of another key at this key's path (what a hash collision
  // or a misplaced file looks like) is not taken for this key's.
  ResultCache cache(root);
  writeFile(cache.entryPath("mine"),
            formatCacheEntry(cacheFormatVersion(), "theirs", "their payload"));
  expectProblem(cache, "mine", "another key");
  // A key differing only by a prefix or suffix is foreign as well.
  writeFile(cache.entryPath("mine"),
            formatCacheEntry(cacheFormatVersion(), "mine2", "payload"));
  expectProblem(cache, "mine", "another key");
}

TEST_F(ResultCacheTest, OtherVersion) {
  ResultCache cache(root);
  writeFile(cache.entryPath("key"),
            formatCacheEntry("mirage-search-0", "key", "old payload"));
  expectProblem(cache, "key", "format version 'mirage-search-0'");
  // A store replaces it.
  std::string error, problem;
  ASSERT_TRUE(cache.store("key", "new payload", error)) << error;
  EXPECT_EQ(cache.lookup("key", problem), "new payload");
}

TEST_F(ResultCacheTest, ParseRejectsNonCanonicalLengths) {
  std::string problem;
  std::string entry = formatCacheEntry(cacheFormatVersion(), "key", "p");
  EXPECT_EQ(parseCacheEntry(entry, "key", problem), "p");
  EXPECT_EQ(problem, "");
  const std::pair<const char *, const char *> edits[] = {
      {"key 3\n", "key 03\n"},
      {"key 3\n", "key +3\n"},
      {"payload 1\n", "payload \n"},
      {"payload 1\n", "payload 1 \n"}};
  for (auto [from, to] : edits) {
    std::string bad = entry;
    bad.replace(bad.find(from), llvm::StringRef(from).size(), to);
    EXPECT_FALSE(parseCacheEntry(bad, "key", problem).has_value()) << bad;
    EXPECT_NE(problem, "");
  }
  // A length beyond the end of the entry.
  std::string huge = entry;
  huge.replace(huge.find("key 3\n"), 6, "key 999999999999999999\n");
  EXPECT_FALSE(parseCacheEntry(huge, "key", problem).has_value());
  EXPECT_NE(problem.find("truncated key"), std::string::npos) << problem;
}

TEST_F(ResultCacheTest, UnreadableEntry) {
  // A directory where the entry's file should be.
  ResultCache cache(root);
  ASSERT_FALSE(fs::create_directories(cache.entryPath("key")));
  expectProblem(cache, "key", "unreadable");
}

TEST_F(ResultCacheTest, StoreCreatesNestedDirectory) {
  ResultCache cache(sub("a/b/c"));
  std::string error, problem;
  ASSERT_TRUE(cache.store("key", "payload", error)) << error;
  EXPECT_EQ(cache.lookup("key", problem), "payload");
}

TEST_F(ResultCacheTest, StoreUnderARegularFileFails) {
  // The cache directory's parent is a file: the store fails with an error.
  writeFile(sub("file"), "not a directory");
  ResultCache cache(sub("file/cache"));
  std::string error, problem;
  EXPECT_FALSE(cache.store("key", "payload", error));
  EXPECT_NE(error.find("cannot create"), std::string::npos) << error;
  // A lookup there fails softly.
  EXPECT_FALSE(cache.lookup("key", problem).has_value());
}

TEST_F(ResultCacheTest, StoreIntoReadOnlyDirectoryFails) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "root writes into read-only directories";
  ResultCache cache(sub("ro"));
  std::string error, problem;
  // Create the shard first, then take away write permission from it.
  ASSERT_TRUE(cache.store("key", "payload", error)) << error;
  std::string shard(llvm::sys::path::parent_path(cache.entryPath("key")));
  readOnly.push_back(shard);
  ASSERT_FALSE(fs::setPermissions(shard, fs::all_read | fs::all_exe));
  EXPECT_FALSE(cache.store("key", "other payload", error));
  EXPECT_NE(error.find("temporary file"), std::string::npos) << error;
  // The old entry is untouched.
  EXPECT_EQ(cache.lookup("key", problem), "payload");
}

TEST_F(ResultCacheTest, EmptyDirectoryIsADisabledCache) {
  ResultCache cache("");
  std::string error, problem = "stale";
  EXPECT_FALSE(cache.store("key", "payload", error));
  EXPECT_NE(error, "");
  EXPECT_FALSE(cache.lookup("key", problem).has_value());
  EXPECT_EQ(problem, "");
}

TEST_F(ResultCacheTest, ConcurrentStoresOfOneKey) {
  // Writers race to replace one entry while a reader looks it up: every
  // lookup sees nothing yet or a whole payload of one writer.
  constexpr unsigned kWriters = 6, kRounds = 30;
  ResultCache cache(root);
  std::vector<std::string> payloads;
  for (unsigned i = 0; i < kWriters; ++i)
    payloads.push_back(randomBytes(200000 + i * 1000, 10 + i));
  std::atomic<unsigned> storeFailures{0}, badLookups{0}, hits{0};
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < kWriters; ++i)
    threads.emplace_back([&, i] {
      std::string error;
      for (unsigned round = 0; round < kRounds; ++round)
        if (!cache.store("shared key", payloads[i], error))
          ++storeFailures;
    });
  std::thread reader([&] {
    while (!done) {
      std::string problem;
      std::optional<std::string> found = cache.lookup("shared key", problem);
      if (!problem.empty() ||
          (found && llvm::find(payloads, *found) == payloads.end()))
        ++badLookups;
      else if (found)
        ++hits;
    }
  });
  for (std::thread &thread : threads)
    thread.join();
  done = true;
  reader.join();
  EXPECT_EQ(storeFailures, 0u);
  EXPECT_EQ(badLookups, 0u);
  std::string problem;
  std::optional<std::string> found = cache.lookup("shared key", problem);
  ASSERT_TRUE(found.has_value()) << problem;
  EXPECT_NE(llvm::find(payloads, *found), payloads.end());
  EXPECT_EQ(countTemporaries(), 0u);
}

TEST_F(ResultCacheTest, ConcurrentStoresOfDifferentKeys) {
  // Keys spread over the shards, and several threads per shard directory
  // creating it at once.
  constexpr unsigned kWriters = 8, kKeysEach = 40;
  ResultCache cache(root);
  auto keyOf = [](unsigned writer, unsigned i) {
    return "key " + std::to_string(writer) + "/" + std::to_string(i);
  };
  auto payloadOf = [](unsigned writer, unsigned i) {
    return randomBytes(1000 + 37 * i, writer * 1000 + i);
  };
  std::atomic<unsigned> storeFailures{0};
  std::vector<std::thread> threads;
  for (unsigned writer = 0; writer < kWriters; ++writer)
    threads.emplace_back([&, writer] {
      std::string error;
      for (unsigned i = 0; i < kKeysEach; ++i)
        if (!cache.store(keyOf(writer, i), payloadOf(writer, i), error))
          ++storeFailures;
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(storeFailures, 0u);
  for (unsigned writer = 0; writer < kWriters; ++writer)
    for (unsigned i = 0; i < kKeysEach; ++i) {
      std::string problem;
      std::optional<std::string> found =
          cache.lookup(keyOf(writer, i), problem);
      ASSERT_TRUE(found.has_value()) << keyOf(writer, i) << ": " << problem;
      EXPECT_TRUE(*found == payloadOf(writer, i)) << keyOf(writer, i);
    }
  EXPECT_EQ(countTemporaries(), 0u);
}

/// Sets or unsets an environment variable for the scope of a test and
/// restores its old value afterwards.
class ScopedEnv {
public:
  explicit ScopedEnv(const char *name) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
  }
  ~ScopedEnv() {
    if (saved)
      ::setenv(name, saved->c_str(), 1);
    else
      ::unsetenv(name);
  }
  void set(const char *value) { ::setenv(name, value, 1); }
  void unset() { ::unsetenv(name); }

private:
  const char *name;
  std::optional<std::string> saved;
};

TEST(ResultCacheDefaultDirectory, FollowsXdgThenHome) {
  auto current = [](const char *name) -> std::optional<std::string> {
    const char *value = std::getenv(name);
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
  std::optional<std::string> oldXdg = current("XDG_CACHE_HOME"),
                             oldHome = current("HOME"),
                             oldOwn = current("MIRAGE_CACHE_DIR");
  {
    ScopedEnv xdg("XDG_CACHE_HOME"), home("HOME"), own("MIRAGE_CACHE_DIR");
    // MIRAGE_CACHE_DIR comes first; "none" means no default cache.
    own.set("/own/cache");
    xdg.set("/xdg/cache");
    home.set("/home/user");
    EXPECT_EQ(ResultCache::defaultDirectory(), "/own/cache");
    own.set("none");
    EXPECT_EQ(ResultCache::defaultDirectory(), "");
    own.set("");
    EXPECT_EQ(ResultCache::defaultDirectory(), "/xdg/cache/mirage");
    own.unset();
    xdg.set("/xdg/cache");
    home.set("/home/user");
    EXPECT_EQ(ResultCache::defaultDirectory(), "/xdg/cache/mirage");
    xdg.unset();
    EXPECT_EQ(ResultCache::defaultDirectory(), "/home/user/.cache/mirage");
    // An empty or relative XDG_CACHE_HOME is ignored (XDG base directories).
    xdg.set("");
    EXPECT_EQ(ResultCache::defaultDirectory(), "/home/user/.cache/mirage");
    xdg.set("relative/cache");
    EXPECT_EQ(ResultCache::defaultDirectory(), "/home/user/.cache/mirage");
    // XDG alone suffices.
    xdg.set("/xdg/cache");
    home.unset();
    EXPECT_EQ(ResultCache::defaultDirectory(), "/xdg/cache/mirage");
    // Neither: no directory.
    xdg.unset();
    EXPECT_EQ(ResultCache::defaultDirectory(), "");
    home.set("");
    EXPECT_EQ(ResultCache::defaultDirectory(), "");
  }
  // The environment is as it was.
  EXPECT_EQ(current("XDG_CACHE_HOME"), oldXdg);
  EXPECT_EQ(current("HOME"), oldHome);
  EXPECT_EQ(current("MIRAGE_CACHE_DIR"), oldOwn);
}

} // namespace
