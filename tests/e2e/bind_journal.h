// How many times each pod's Binding was committed, read from the stand-in
// API server's journal (its --state-file, JSON lines; see
// tests/peers/apiserver/journal.h). A restarted server compacts its file, so
// the chaos test copies the file before each restart and passes the copies
// and the live file in the order they were written.
//
// A commit is a "put" of a pod whose spec.nodeName is set and differs from
// the pod's previous put: a bound pod that is bound again, or moved to
// another node, counts twice. Unparsable lines (a torn last line left by a
// SIGKILL) are skipped.
//
// Pure function of the files; thread-safe. Failure: NotFound naming a
// missing file.
#ifndef GCUSHARE_TESTS_E2E_BIND_JOURNAL_H_
#define GCUSHARE_TESTS_E2E_BIND_JOURNAL_H_

#include <map>
#include <string>
#include <vector>

#include "status/status.h"

namespace gcushare::e2e {

// Pod key ("namespace/name") -> Binding commits, over `journal_files`
// oldest first.
StatusOr<std::map<std::string, int>> CountBindCommits(
    const std::vector<std::string>& journal_files);

}  // namespace gcushare::e2e

#endif  // GCUSHARE_TESTS_E2E_BIND_JOURNAL_H_
