"""fuzz_target: one parser fuzz target, built two ways.

<name>_fuzz_test (cc_test, default build): <name>_fuzzer.cc linked with the
replay driver, which runs corpus/<name>/ and a bounded number of mutations.
<name>_fuzzer (cc_binary, tagged manual): the same source linked with
libFuzzer; only `--config=fuzz` (clang-14) can build it, see
scripts/fuzz.sh.

max_len: the longest input scripts/fuzz.sh lets libFuzzer make
(-max_len; read from this BUILD file, default 65536). Set it above the
largest real input of the format: longer inputs only slow a campaign.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")

def fuzz_target(name, deps, dict = None, runs = 2000, max_len = 65536):
    if max_len < 1:
        fail("max_len must be positive")
    cc_library(
        name = name + "_fuzzer_lib",
        srcs = [name + "_fuzzer.cc"],
        deps = deps,
        alwayslink = True,
        visibility = ["//visibility:private"],
    )
    args = ["fuzz/corpus/" + name, "--runs=%d" % runs]
    data = native.glob(["corpus/" + name + "/*"])
    if dict:
        args.append("--dict=$(location " + dict + ")")
        data.append(dict)
    cc_test(
        name = name + "_fuzz_test",
        size = "small",
        args = args,
        data = data,
        deps = [
            ":" + name + "_fuzzer_lib",
            ":replay_main",
        ],
    )
    cc_binary(
        name = name + "_fuzzer",
        linkopts = ["-fsanitize=fuzzer"],
        tags = ["manual"],
        deps = [":" + name + "_fuzzer_lib"],
    )
