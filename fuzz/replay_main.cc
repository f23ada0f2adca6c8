// Replay driver for the fuzz targets in the default (gcc) build: runs each
// file of a corpus directory through LLVMFuzzerTestOneInput, then a bounded
// number of deterministic pseudo-random mutations of those inputs, so that
// every target keeps compiling and its corpus (regression inputs included)
// keeps passing in CI. Real campaigns use libFuzzer (scripts/fuzz.sh).
//
// Usage: <test> CORPUS_DIR [--dict=FILE] [--runs=N] [--seed=S]
// Fails (exit 1) when the corpus directory is missing or empty; a crash in
// the target crashes the test, after saving the input to
// $TEST_UNDECLARED_OUTPUTS_DIR/crash-input (bazel-testlogs/.../outputs).
// Single-threaded; owns every buffer it passes.

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/dictionary.h"
#include "fuzz/mutator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

// Longest one input may run (libFuzzer's -timeout in scripts/fuzz.sh).
constexpr unsigned kTimeoutSeconds = 10;

// The input being run, for the crash handler (set before each run).
const uint8_t* g_current = nullptr;
size_t g_current_size = 0;
char g_crash_path[4096] = "";

// On a crash: writes the input that caused it to g_crash_path (or says it
// could not), using only async-signal-safe calls, then dies of the signal.
void OnCrash(int signal) {
  const char kSaved[] = "\nreplay: crashing input saved to ";
  const char kNotSaved[] = "\nreplay: could not save the crashing input\n";
  const int fd = g_crash_path[0] == '\0'
                     ? -1
                     : open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0 && g_current != nullptr) {
    (void)!write(fd, g_current, g_current_size);
    close(fd);
    (void)!write(STDERR_FILENO, kSaved, sizeof(kSaved) - 1);
    (void)!write(STDERR_FILENO, g_crash_path, std::strlen(g_crash_path));
    (void)!write(STDERR_FILENO, "\n", 1);
  } else {
    (void)!write(STDERR_FILENO, kNotSaved, sizeof(kNotSaved) - 1);
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void InstallCrashHandler() {
  const char* dir = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  std::snprintf(g_crash_path, sizeof(g_crash_path), "%s/crash-input",
                dir != nullptr ? dir : ".");
  for (int signal :
       {SIGABRT, SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGALRM}) {
    std::signal(signal, OnCrash);
  }
}

// Runs one input from a heap buffer of exactly its size, so that ASan
// builds see any read past its end.
void RunOne(const std::string& input) {
  std::unique_ptr<uint8_t[]> copy(new uint8_t[input.size() + 1]);
  std::memcpy(copy.get(), input.data(), input.size());
  g_current = copy.get();
  g_current_size = input.size();
  alarm(kTimeoutSeconds);  // A hang is a finding too (SIGALRM, saved).
  LLVMFuzzerTestOneInput(copy.get(), input.size());
  alarm(0);
}

bool ReadFile(const std::filesystem::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in),
              std::istreambuf_iterator<char>());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR [--dict=FILE] [--runs=N]\n",
                 argv[0]);
    return 2;
  }
  InstallCrashHandler();
  const std::filesystem::path dir = argv[1];
  std::string dict_path;
  uint64_t runs = 2000;
  uint64_t seed = 0x6763757368617265;  // "gcushare"
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--dict=", 0) == 0) {
      dict_path = arg.substr(7);
    } else if (arg.rfind("--runs=", 0) == 0) {
      runs = std::strtoull(arg.c_str() + 7, nullptr, 10);
    } else if (arg.rfind("--seed=", 0) == 0) {
      seed = std::strtoull(arg.c_str() + 7, nullptr, 10);
    } else {
      std::fprintf(stderr, "unknown argument %s\n", arg.c_str());
      return 2;
    }
  }

  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  if (error) {
    std::fprintf(stderr, "corpus %s: %s\n", dir.c_str(),
                 error.message().c_str());
    return 1;
  }
  if (files.empty()) {
    std::fprintf(stderr, "corpus %s: no inputs\n", dir.c_str());
    return 1;
  }
  std::sort(files.begin(), files.end());  // Same order on every run.

  std::vector<std::string> corpus;
  for (const auto& path : files) {
    std::string input;
    if (!ReadFile(path, &input)) {
      std::fprintf(stderr, "cannot read %s\n", path.c_str());
      return 1;
    }
    RunOne(input);
    corpus.push_back(std::move(input));
  }

  std::vector<std::string> tokens;
  if (!dict_path.empty()) {
    std::string text;
    if (!ReadFile(dict_path, &text)) {
      std::fprintf(stderr, "cannot read dictionary %s\n", dict_path.c_str());
      return 1;
    }
    gcushare::StatusOr<std::vector<std::string>> parsed =
        gcushare::fuzz::ParseDictionary(text);
    if (!parsed.ok()) {
      std::fprintf(stderr, "dictionary %s: %s\n", dict_path.c_str(),
                   parsed.status().ToString().c_str());
      return 1;
    }
    tokens = *std::move(parsed);
  }

  gcushare::fuzz::Mutator mutator(seed, std::move(tokens));
  for (uint64_t i = 0; i < runs; ++i) {
    RunOne(mutator.Mutate(corpus));
  }
  std::printf("%s: replayed %zu corpus inputs and %llu mutations\n",
              dir.c_str(), corpus.size(),
              static_cast<unsigned long long>(runs));
  return 0;
}
