#include "testing/scratch_dir.h"

#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace gcushare::testing {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "ScratchDir: %s\n", what.c_str());
  std::abort();
}

}  // namespace

ScratchDir::ScratchDir() {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string pattern =
      std::string(base != nullptr ? base : "/tmp") + "/efml_test.XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) Die("mkdtemp " + pattern);
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string ScratchDir::Path(const std::string& relative) const {
  return path_ + "/" + relative;
}

void ScratchDir::WriteFile(const std::string& relative,
                           const std::string& contents) {
  fs::path file = Path(relative);
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) Die("mkdir " + file.parent_path().string() + ": " + ec.message());
  std::ofstream out(file, std::ios::trunc);
  out << contents;
  out.close();
  if (!out) Die("write " + file.string());
}

void ScratchDir::MakeDir(const std::string& relative) {
  std::error_code ec;
  fs::create_directories(Path(relative), ec);
  if (ec) Die("mkdir " + Path(relative) + ": " + ec.message());
}

void ScratchDir::Remove(const std::string& relative) {
  std::error_code ec;
  fs::remove_all(Path(relative), ec);
  if (ec) Die("remove " + Path(relative) + ": " + ec.message());
}

}  // namespace gcushare::testing
