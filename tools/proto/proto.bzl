"""cc_grpc_library: C++ protobuf and gRPC code from a .proto, offline.

Calls Debian's /usr/bin/protoc with /usr/bin/grpc_cpp_plugin in a genrule
and wraps the generated files in a cc_library. The .proto must sit in the
calling package; generated headers are included as "<package>/<name>.pb.h".
"""

load("@rules_cc//cc:defs.bzl", "cc_library")

def cc_grpc_library(name, src, grpc = True, deps = [], visibility = None):
    base = src[:-len(".proto")]
    outs = [base + ".pb.h", base + ".pb.cc"]
    if grpc:
        outs += [base + ".grpc.pb.h", base + ".grpc.pb.cc"]
    plugin = " --plugin=protoc-gen-grpc=/usr/bin/grpc_cpp_plugin --grpc_out=$(GENDIR)" if grpc else ""
    native.genrule(
        name = name + "_gen",
        srcs = [src],
        outs = outs,
        cmd = "/usr/bin/protoc --proto_path=. --cpp_out=$(GENDIR)" + plugin +
              " $(location " + src + ")",
        visibility = ["//visibility:private"],
    )
    cc_library(
        name = name,
        srcs = [o for o in outs if o.endswith(".cc")],
        hdrs = [o for o in outs if o.endswith(".h")],
        deps = deps + (["//third_party:grpc"] if grpc else ["//third_party:protobuf"]),
        visibility = visibility,
    )
