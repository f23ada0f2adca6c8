// A stand-in for the scheduler extender's inspect endpoints, for the
// plugin's tests: a real HTTP server (cpp-httplib) on 127.0.0.1 that
// answers GET <prefix>/inspect and <prefix>/inspect/<node> from a body
// set by the test, with the extender's status codes (404 for an unknown
// node, 404 with the extender's text otherwise), and records request paths.
//
// Thread-safety: setters and requests() may be called while it serves.
#ifndef GCUSHARE_KUBECTL_PLUGIN_TESTING_FAKE_EXTENDER_H_
#define GCUSHARE_KUBECTL_PLUGIN_TESTING_FAKE_EXTENDER_H_

#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "status/status.h"

namespace httplib {
class Server;
}

namespace gcushare::kubectl_plugin {

class FakeExtender {
 public:
  // `prefix`: the path the endpoints live under ("/gcushare-scheduler", or
  // a proxy path in front of it).
  explicit FakeExtender(std::string prefix = "/gcushare-scheduler");
  ~FakeExtender();

  Status Start();
  std::string base_url() const;  // "http://127.0.0.1:<port>"

  // The body of /inspect; /inspect/<node> answers each node's object.
  void SetNodes(std::string all_json);
  // Every request answers this status and body instead.
  void FailWith(int status, std::string body);
  std::vector<std::string> requests() const;

 private:
  std::string prefix_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  mutable base::Mutex mu_;
  std::string all_ GUARDED_BY(mu_);
  int fail_status_ GUARDED_BY(mu_) = 0;
  std::string fail_body_ GUARDED_BY(mu_);
  std::vector<std::string> requests_ GUARDED_BY(mu_);
};

}  // namespace gcushare::kubectl_plugin

#endif  // GCUSHARE_KUBECTL_PLUGIN_TESTING_FAKE_EXTENDER_H_
