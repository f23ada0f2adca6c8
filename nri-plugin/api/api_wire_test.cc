// Checks our transcription of the NRI and ttrpc messages against bytes from
// the containerd 1.7.13 capture (tests/conformance/CAPTURES.md): the same
// messages must serialize to the same bytes.
#include <gtest/gtest.h>

#include <string>

#include "nri-plugin/api/api.pb.h"
#include "nri-plugin/api/ttrpc.pb.h"

namespace {

namespace nri = ::nri::pkg::api::v1alpha1;

std::string Hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

TEST(NriApiWireTest, ConfigureResponseIsFieldTwo) {
  nri::ConfigureResponse r;
  r.set_events(41);
  EXPECT_EQ(Hex(r.SerializeAsString()), "1029");
}

TEST(NriApiWireTest, ConfigureRequestMatchesCapture) {
  nri::ConfigureRequest r;
  r.set_runtime_name("containerd");
  r.set_runtime_version("v1.7.13");
  EXPECT_EQ(Hex(r.SerializeAsString()),
            "120a636f6e7461696e657264"
            "1a0776312e372e3133");
}

TEST(NriApiWireTest, CreateContainerResponseMatchesCapture) {
  nri::CreateContainerResponse r;
  nri::KeyValue* env = r.mutable_adjust()->add_env();
  env->set_key("NRI_EXAMPLE01");
  env->set_value("injected-by-nri-logger");
  nri::LinuxDevice* d = r.mutable_adjust()->mutable_linux()->add_devices();
  d->set_path("/dev/gcu1");
  d->set_type("c");
  d->set_major(1);
  d->set_minor(3);
  d->mutable_file_mode()->set_value(0666);
  // MSG 9 of the capture (plugin-to-runtime.bin bytes).
  EXPECT_EQ(Hex(r.SerializeAsString()),
            "0a4422270a0d4e52495f4558414d504c45303112"
            "16696e6a65637465642d62792d6e72692d6c6f6767657232190a170a092f6465"
            "762f67637531120163180120032a0308b603");
}

TEST(NriApiWireTest, RegisterPluginRequest) {
  nri::RegisterPluginRequest r;
  r.set_plugin_name("gcushare");
  r.set_plugin_idx("10");
  EXPECT_EQ(Hex(r.SerializeAsString()), "0a08676375736861726512023130");
}

TEST(TtrpcWireTest, EmptyResponseHasNoBytes) {
  ttrpc::Response r;
  EXPECT_EQ(r.SerializeAsString(), "");
  r.set_payload(std::string("\x10\x29", 2));
  EXPECT_EQ(Hex(r.SerializeAsString()), "12021029");
}

TEST(TtrpcWireTest, StatusFieldNumbers) {
  ttrpc::Response r;
  r.mutable_status()->set_code(12);
  r.mutable_status()->set_message("x");
  EXPECT_EQ(Hex(r.SerializeAsString()), "0a05080c120178");
}

}  // namespace
