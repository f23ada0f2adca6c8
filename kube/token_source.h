// Where the bearer token of each request comes from.
//
// StaticTokenSource holds a fixed token. FileTokenSource reads a token file
// (a service account's projected token, or a kubeconfig tokenFile) and
// re-reads it when it may have rotated: at most once per refresh interval,
// measured on an injected Clock, and on demand after a 401 (Refresh()).
//
// Failure: a re-read that fails keeps the last good token (and logs a
// warning) so that a rotation in progress never breaks requests; only a
// source that never had a token returns an error.
// Thread-safety: implementations are safe to use from any thread.
#ifndef GCUSHARE_KUBE_TOKEN_SOURCE_H_
#define GCUSHARE_KUBE_TOKEN_SOURCE_H_

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "status/status.h"

namespace gcushare::kube {

class TokenSource {
 public:
  virtual ~TokenSource() = default;

  // The token to send now.
  virtual StatusOr<std::string> Token() = 0;

  // Re-reads the token at once (the server said 401). Returns true when the
  // token changed, so that retrying the request may help.
  virtual bool Refresh() = 0;
};

class StaticTokenSource : public TokenSource {
 public:
  explicit StaticTokenSource(std::string token) : token_(std::move(token)) {}
  StatusOr<std::string> Token() override { return token_; }
  bool Refresh() override { return false; }

 private:
  const std::string token_;
};

class FileTokenSource : public TokenSource {
 public:
  // `clock` is not owned and must outlive this. `fallback` (may be empty) is
  // used until the file has been read successfully once.
  FileTokenSource(
      std::string path, base::Clock* clock,
      std::chrono::seconds refresh_interval = std::chrono::seconds(60),
      std::string fallback = "");

  StatusOr<std::string> Token() override;
  bool Refresh() override;

 private:
  // Reads the file into token_.
  Status ReadLocked() REQUIRES(mu_);

  const std::string path_;
  base::Clock* const clock_;
  const std::chrono::seconds refresh_interval_;
  base::Mutex mu_;
  std::string token_ GUARDED_BY(mu_);
  std::optional<std::chrono::steady_clock::time_point> last_read_
      GUARDED_BY(mu_);
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_TOKEN_SOURCE_H_
