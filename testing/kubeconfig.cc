#include "testing/kubeconfig.h"

#include "testing/files.h"

namespace gcushare::testing {

std::string WriteKubeconfig(const std::string& dir, int port) {
  std::string path = dir + "/kubeconfig";
  WriteFileOrDie(path,
                 "apiVersion: v1\nkind: Config\n"
                 "clusters:\n- name: standin\n  cluster:\n    server: "
                 "http://127.0.0.1:" +
                     std::to_string(port) +
                     "\n"
                     "users:\n- name: tester\n  user: {}\n"
                     "contexts:\n- name: standin\n  context:\n    cluster: "
                     "standin\n    user: tester\ncurrent-context: standin\n");
  return path;
}

}  // namespace gcushare::testing
