// ScratchDir: a temporary directory tree for tests, removed on destruction.
#ifndef GCUSHARE_TESTING_SCRATCH_DIR_H_
#define GCUSHARE_TESTING_SCRATCH_DIR_H_

#include <string>

namespace gcushare::testing {

// Created under $TEST_TMPDIR (or /tmp) with mkdtemp. Helpers take paths
// relative to the directory and create missing parent directories. They
// abort the test process on failure (test-only code, where a broken fixture
// must not pass silently). Not thread-safe.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + relative.
  std::string Path(const std::string& relative) const;

  // Writes `contents` to the file, replacing it.
  void WriteFile(const std::string& relative, const std::string& contents);
  void MakeDir(const std::string& relative);
  // Removes a file or a whole subtree.
  void Remove(const std::string& relative);

 private:
  std::string path_;
};

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTING_SCRATCH_DIR_H_
