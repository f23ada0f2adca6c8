#include "efml/card_table.h"

#include <gtest/gtest.h>

namespace gcushare::efml {
namespace {

TEST(CardTableTest, AlignsColumnsAndMarksUnknowns) {
  Inventory inventory;
  Card a;
  a.index = 0;
  a.uuid = "GCU-U0000000001";
  a.memory_mib = 16384;
  a.device = {"/dev/gcu0", 238, 0};
  a.numa_node = 0;
  a.pci_address = "0000:01:00.0";
  Card b;
  b.index = 1;
  b.uuid = "GCU-2";
  b.memory_mib = 512;
  b.device = {"/dev/gcu1", std::nullopt, std::nullopt};
  b.healthy = false;
  inventory.cards = {a, b};
  inventory.control_nodes = {{"/dev/gcuctl", 238, 255}};
  EXPECT_EQ(FormatCardTable(inventory),
            "INDEX  UUID             MEMORY     NUMA  PCI           DEVICE     "
            "        HEALTH\n"
            "0      GCU-U0000000001  16384 MiB  0     0000:01:00.0  /dev/gcu0 "
            "(238:0)  healthy\n"
            "1      GCU-2            512 MiB    -     -             /dev/gcu1 "
            "         UNHEALTHY\n"
            "control node: /dev/gcuctl (238:255)\n");
}

}  // namespace
}  // namespace gcushare::efml
