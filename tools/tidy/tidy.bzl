"""clang-tidy as a Bazel aspect: one cached action per C++ source of ours.

`bazel build --config=tidy -- //... -//third_party/...` (.bazelrc) applies
`clang_tidy` to every target the patterns name. For each .cc file a target
lists in `srcs` (ours: not generated, not in an external repository, not in
third_party/), one action runs tools/tidy/run_tidy.sh: clang-tidy-14 with the
root .clang-tidy over that file, with the target's own include paths and
defines. The action's inputs are the file, the headers the target can see
and the config, so Bazel (and its disk cache) re-runs it only when one of
them changes. The action fails, printing the findings, on any finding; on
none it writes `_clang_tidy/<target>/<src>.ok` in the target's package
(output group `clang_tidy`); scripts/test.sh checks that every .cc file of
the tree got one.

Diagnostics are reported for the file and for headers found through the
source tree ("-iquote ."); protoc's output and every other include path are
passed as system headers, which clang-tidy leaves out.
"""

def _compile_args(target, rule_ctx):
    """Returns (headers depset, argument list) for compiling `target`'s srcs."""
    infos = [d[CcInfo] for d in getattr(rule_ctx.attr, "deps", []) if CcInfo in d]
    if CcInfo in target:
        infos.append(target[CcInfo])
    cc = cc_common.merge_cc_infos(cc_infos = infos).compilation_context
    args = ["-x", "c++", "-std=c++20", "-iquote", "."]
    for d in cc.defines.to_list():
        args.append("-D" + d)
    for d in getattr(rule_ctx.attr, "local_defines", []):
        args.append("-D" + d)
    for c in getattr(rule_ctx.attr, "copts", []):
        if c.startswith("-D"):
            args.append(c)
    for paths in [cc.quote_includes, cc.includes, cc.system_includes]:
        for p in paths.to_list():
            if p != ".":
                args += ["-isystem", p]
    return cc.headers, args

def _is_ours(label):
    return label.workspace_name == "" and not label.package.startswith("third_party")

def _clang_tidy_impl(target, ctx):
    srcs = getattr(ctx.rule.files, "srcs", [])
    checked = [
        f
        for f in srcs
        if f.is_source and f.extension == "cc"
    ]
    if not _is_ours(target.label) or not checked:
        return [OutputGroupInfo(clang_tidy = depset())]
    headers, args = _compile_args(target, ctx.rule)
    outputs = []
    for src in checked:
        # A file two targets list is checked once for each (their flags
        # may differ), so the output is named by target and file.
        out = ctx.actions.declare_file(
            "_clang_tidy/%s/%s.ok" % (target.label.name, src.short_path),
        )
        ctx.actions.run(
            executable = ctx.executable._runner,
            arguments = [out.path, ctx.file._config.path, src.path, "--"] + args,
            inputs = depset(
                direct = [src, ctx.file._config] + [f for f in srcs if f.is_source],
                transitive = [headers],
            ),
            outputs = [out],
            mnemonic = "ClangTidy",
            progress_message = "clang-tidy " + src.short_path,
        )
        outputs.append(out)
    return [OutputGroupInfo(clang_tidy = depset(outputs))]

clang_tidy = aspect(
    implementation = _clang_tidy_impl,
    attrs = {
        "_config": attr.label(
            default = Label("//:.clang-tidy"),
            allow_single_file = True,
        ),
        "_runner": attr.label(
            default = Label("//tools/tidy:run_tidy"),
            executable = True,
            cfg = "exec",
        ),
    },
)
