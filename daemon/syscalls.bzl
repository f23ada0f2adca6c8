"""The per-daemon seccomp allow-list targets, one macro for every daemon."""

load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")

def gcushare_syscalls(visibility = None):
    """A daemon's own seccomp allow-list and its test.

    Declares, in the calling package:
      :syscalls       cc_library of syscalls.{h,cc}, composed from
                      //daemon:syscall_groups;
      :syscalls_test  cc_test of syscalls_test.cc, with the expectations of
                      //daemon/testing:syscall_expectations.

    Args:
      visibility: of :syscalls (private to the package when None).
    """
    cc_library(
        name = "syscalls",
        srcs = ["syscalls.cc"],
        hdrs = ["syscalls.h"],
        visibility = visibility,
        deps = [
            "//daemon:seccomp",
            "//daemon:syscall_groups",
        ],
    )
    cc_test(
        name = "syscalls_test",
        size = "small",
        srcs = ["syscalls_test.cc"],
        deps = [
            ":syscalls",
            "//daemon:seccomp",
            "//daemon/testing:syscall_expectations",
            "//third_party:gtest_main",
        ],
    )
