// Test support: temporary directories and whole-file reads and writes.
#ifndef GCUSHARE_TESTING_FILES_H_
#define GCUSHARE_TESTING_FILES_H_

#include <string>
#include <string_view>

namespace gcushare::testing {

// A fresh directory under /tmp (short, for unix socket paths); aborts the
// test binary if it cannot be made.
std::string MakeTempDir();

// Whole file contents, or an empty string when unreadable.
std::string ReadFileOrEmpty(const std::string& path);

// Writes (replaces) the file; aborts the test binary on failure.
void WriteFileOrDie(const std::string& path, std::string_view contents);

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTING_FILES_H_
