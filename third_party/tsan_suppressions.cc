// ThreadSanitizer suppressions for races reported inside the system
// libraries we link but do not build (Debian's uninstrumented .so files),
// handed to the TSan runtime through its __tsan_default_suppressions hook.
//
// Only a race whose missing happens-before edge is provably inside such a
// library belongs here, each with why; a race in GCUShare's own code is
// fixed, never suppressed. The hook must be defined in the executable (the
// runtime's weak default in libtsan.so would win over a shared library's),
// so //third_party:tsan_suppressions is linkstatic and alwayslink, and
// //third_party:spdlog (which every binary that logs links) depends on it.
//
// Only TSan builds define the hook (.bazelrc's tsan config defines
// GCUSHARE_SANITIZE_THREAD: it hides gcc's __SANITIZE_THREAD__ from the
// system libraries' headers); other builds compile to nothing.
// Thread-safety: the runtime reads the string once, before main().

#if defined(__SANITIZE_THREAD__) || defined(GCUSHARE_SANITIZE_THREAD)

extern "C" const char* __tsan_default_suppressions() {
  return
      // libspdlog.so's registry is a function-local static: the thread
      // that logs first constructs it (the default logger included), and
      // every later spdlog::info() reaches it through the static's guard,
      // whose fast path (an acquire load of the guard byte) is compiled
      // into the uninstrumented libspdlog.so, so TSan never sees that edge
      // and reports the default logger's level, read by an instrumented
      // inline spdlog::logger::log_ on another thread, as racing with its
      // construction.
      "race:spdlog::details::registry::registry\n"
      // libcpp-httplib.so ends each chunked response (the stand-in API
      // server's watch streams) by sending a function-local static string
      // (its "0\r\n" done marker): the worker thread that ends the first
      // one constructs it, the others read it through the same kind of
      // uninstrumented guard, so TSan reports httplib's send() of it as
      // racing with its construction (both stacks are inside httplib).
      // Caveat: this also hides a race on a buffer our code hands to
      // httplib for sending; our content providers hand it only their own
      // local strings.
      "race:httplib::detail::send_socket\n";
}

#endif  // __SANITIZE_THREAD__ || GCUSHARE_SANITIZE_THREAD
