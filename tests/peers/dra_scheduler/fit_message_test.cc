#include "tests/peers/dra_scheduler/fit_message.h"

#include <gtest/gtest.h>

namespace gcushare::dra_scheduler {
namespace {

TEST(FitMessageTest, HistogramSortedAndPostFilterParts) {
  EXPECT_EQ(
      FilterFailureMessage(3, {{kCannotAllocate, 2}, {kNotAvailableOnNode, 1}}),
      "0/3 nodes are available: 1 resourceclaim not available on the "
      "node, 2 cannot allocate all claims. still not schedulable, "
      "preemption: 0/3 nodes are available: 3 Preemption is not helpful "
      "for scheduling.");
  EXPECT_EQ(PreFilterFailureMessage(2, "resourceclaim \"c\" is being deleted"),
            "0/2 nodes are available: resourceclaim \"c\" is being deleted. "
            "no new claims to deallocate, preemption: 0/2 nodes are "
            "available: 2 Preemption is not helpful for scheduling.");
}

}  // namespace
}  // namespace gcushare::dra_scheduler
