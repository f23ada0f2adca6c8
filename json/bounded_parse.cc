#include "json/bounded_parse.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <sstream>
#include <string>

namespace gcushare::json {
namespace {

// Thrown out of yaml-cpp's parser by RunawayGuard once the parse has
// produced more events than the text can hold.
struct Runaway {
  YAML::Mark mark;
};

// Counts yaml-cpp's parse events and stops the parse (throws Runaway) past
// `limit`. Builds nothing. Not thread-safe; one per parse.
class RunawayGuard : public YAML::EventHandler {
 public:
  explicit RunawayGuard(size_t limit) : limit_(limit) {}

  void OnDocumentStart(const YAML::Mark& mark) override { Count(mark); }
  void OnDocumentEnd() override { Count(last_); }
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { Count(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { Count(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string&) override {
    Count(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&,
                       YAML::anchor_t, YAML::EmitterStyle::value) override {
    Count(mark);
  }
  void OnSequenceEnd() override { Count(last_); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    Count(mark);
  }
  void OnMapEnd() override { Count(last_); }

 private:
  void Count(const YAML::Mark& mark) {
    last_ = mark;
    if (++events_ > limit_) throw Runaway{mark};
  }

  const size_t limit_;
  size_t events_ = 0;
  YAML::Mark last_ = YAML::Mark::null_mark();
};

// A set of bytes, for NextStop.
class ByteSet {
 public:
  constexpr explicit ByteSet(std::string_view bytes) {
    for (char c : bytes) in_[static_cast<unsigned char>(c)] = true;
  }
  constexpr bool contains(char c) const {
    return in_[static_cast<unsigned char>(c)];
  }

 private:
  bool in_[256] = {};
};

// The index of the first byte of `text` at or after `from` in `stop`;
// text.size() when there is none. The YAML scans below skip with it the
// runs of bytes that cannot change their state (most of a file: the rest of
// a word, a quoted scalar, a comment), one table look-up a byte.
size_t NextStop(std::string_view text, size_t from, const ByteSet& stop) {
  while (from < text.size() && !stop.contains(text[from])) ++from;
  return from;
}

// JsonNestingDepth: what matters outside strings.
constexpr ByteSet kJsonToken("\"[]{}");
// CheckYamlDepth: what ends a comment, a quoted scalar, and what matters
// between tokens (as a string_view so that '\0' may be one of them).
constexpr ByteSet kDepthComment(std::string_view("\n", 1));
constexpr ByteSet kDepthSingleQuoted(std::string_view("'\n", 2));
constexpr ByteSet kDepthDoubleQuoted(std::string_view("\"\\\n", 3));
constexpr ByteSet kDepthToken(std::string_view("\n#\"'[]{}", 8));
// CheckNoYamlCppLoop: the same (a NUL byte always stops), and what ends an
// anchor or tag.
constexpr ByteSet kLoopComment(std::string_view("\n\0", 2));
constexpr ByteSet kLoopSingleQuoted(std::string_view("'\n\0", 3));
constexpr ByteSet kLoopDoubleQuoted(std::string_view("\"\\\n\0", 4));
constexpr ByteSet kLoopProperty(std::string_view(" \t\r\n\0,[]{}", 10));
constexpr ByteSet kLoopToken(std::string_view(" \t\r\n\0#&!\"',[]{}:", 16));

}  // namespace

#if defined(__SSE2__)

namespace {

// The bytes of the 64 in `v` that equal `c`, one bit each (bit i: byte i).
inline uint64_t Mask64(const __m128i (&v)[4], __m128i c) {
  uint64_t mask = 0;
  for (int i = 0; i < 4; ++i) {
    mask |= static_cast<uint64_t>(static_cast<uint32_t>(
                _mm_movemask_epi8(_mm_cmpeq_epi8(v[i], c))))
            << (16 * i);
  }
  return mask;
}

// Bit i of the result: the parity of bits 0..i of `x`.
inline uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

}  // namespace

int JsonNestingDepth(std::string_view text, int stop_after) {
  // 64 bytes at a time (SSE2, part of x86-64): masks of the quotes,
  // backslashes and brackets. A block without a backslash (nearly all of
  // them in JSON from the API server), not starting on an escaped byte,
  // needs no byte-by-byte state: each quote opens or closes a string, so
  // the bytes inside strings are a prefix XOR of the quotes, and the
  // brackets outside them move the depth by their counts (walked one by
  // one only when they might set a new deepest or meet depth 0). Any
  // other block is walked bit by bit with the state of the byte-by-byte
  // reading: inside a string a backslash escapes the next byte and a quote
  // ends it; outside, brackets count and a quote opens a string. An
  // escaped byte is skipped by position (`skip`), across blocks too.
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  size_t skip = 0;  // A byte at this position is escaped (0: none yet).
  const char* const data = text.data();
  const size_t size = text.size();
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  // '[' | 0x20 == '{' and ']' | 0x20 == '}': one compare for each pair.
  const __m128i case_bit = _mm_set1_epi8(0x20);
  const __m128i open_curly = _mm_set1_epi8('{');
  const __m128i close_curly = _mm_set1_epi8('}');
  for (size_t base = 0; base < size; base += 64) {
    __m128i v[4];
    if (size - base >= 64) {
      for (int i = 0; i < 4; ++i) {
        v[i] = _mm_loadu_si128(
            reinterpret_cast<const __m128i*>(data + base + 16 * i));
      }
    } else {
      // The tail, padded with bytes that do not matter.
      alignas(16) char tail[64] = {};
      std::memcpy(tail, data + base, size - base);
      for (int i = 0; i < 4; ++i) {
        v[i] = _mm_load_si128(reinterpret_cast<const __m128i*>(tail + 16 * i));
      }
    }
    __m128i folded[4];
    for (int i = 0; i < 4; ++i) folded[i] = _mm_or_si128(v[i], case_bit);
    const uint64_t quotes = Mask64(v, quote);
    const uint64_t backslashes = Mask64(v, backslash);
    const uint64_t opens = Mask64(folded, open_curly);
    const uint64_t closes = Mask64(folded, close_curly);
    if (backslashes == 0 && !(skip == base && base != 0)) {
      // Bit i set: byte i is inside a string (an opening quote counts as
      // inside, a closing one as outside; brackets are neither).
      const uint64_t inside = PrefixXor(quotes) ^ (in_string ? ~0ull : 0);
      in_string = (inside >> 63) != 0;
      const uint64_t open_out = opens & ~inside;
      const uint64_t close_out = closes & ~inside;
      const int opened = __builtin_popcountll(open_out);
      const int closed = __builtin_popcountll(close_out);
      if (closed <= depth && depth + opened <= deepest) {
        // Never below 0 nor above `deepest` within the block.
        depth += opened - closed;
        continue;
      }
      for (uint64_t mask = open_out | close_out; mask != 0; mask &= mask - 1) {
        if ((open_out >> __builtin_ctzll(mask)) & 1) {
          deepest = std::max(deepest, ++depth);
          if (deepest > stop_after) return deepest;
        } else if (depth > 0) {
          --depth;
        }
      }
      continue;
    }
    for (uint64_t mask = quotes | backslashes | opens | closes; mask != 0;
         mask &= mask - 1) {
      const size_t at = base + static_cast<size_t>(__builtin_ctzll(mask));
      if (at == skip && at != 0) continue;  // Escaped.
      const char c = data[at];
      if (in_string) {
        if (c == '\\') {
          skip = at + 1;
        } else if (c == '"') {
          in_string = false;
        }
      } else if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        deepest = std::max(deepest, ++depth);
        if (deepest > stop_after) return deepest;
      } else if (c == ']' || c == '}') {
        if (depth > 0) --depth;
      }
    }
  }
  return deepest;  // An unterminated string ends the text.
}

#else  // !defined(__SSE2__)

int JsonNestingDepth(std::string_view text, int stop_after) {
  int depth = 0;
  int deepest = 0;
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    // Only quotes and brackets matter outside strings.
    while (p < end && !kJsonToken.contains(*p)) ++p;
    if (p == end) break;
    const char c = *p++;
    if (c == '"') {
      // Most of an object's bytes are inside strings: jump from quote to
      // quote (memchr) instead of stepping through each byte. A quote ends
      // the string unless an odd run of backslashes precedes it (a run
      // cannot start before `p`: that byte follows a quote).
      for (;;) {
        const char* quote =
            static_cast<const char*>(std::memchr(p, '"', end - p));
        if (quote == nullptr) return deepest;  // Unterminated string.
        const char* run = quote;
        while (run > p && run[-1] == '\\') --run;
        p = quote + 1;
        if ((quote - run) % 2 == 0) break;
      }
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > stop_after) return deepest;
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    }
  }
  return deepest;
}

#endif  // defined(__SSE2__)

StatusOr<nlohmann::json> ParseJson(std::string_view text, std::string_view what,
                                   int max_depth) {
  if (JsonNestingDepth(text, max_depth) > max_depth) {
    return InvalidArgumentError(std::string(what) + ": nested deeper than " +
                                std::to_string(max_depth) + " levels");
  }
  nlohmann::json parsed =
      nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return InvalidArgumentError(std::string(what) + ": malformed JSON");
  }
  return parsed;
}

Status CheckYamlDepth(std::string_view text, std::string_view what,
                      int max_depth) {
  int flow = 0;  // Open [ and { (they may span lines).
  bool at_line_start = true;
  int line_depth = 0;  // Indentation plus compact "- " / "? " entries.
  char quote = 0;      // Inside a quoted scalar: its quote character.
  bool comment = false;
  auto too_deep = [&] {
    return InvalidArgumentError(std::string(what) +
                                ": YAML nested deeper than " +
                                std::to_string(max_depth) + " levels");
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      at_line_start = true;
      line_depth = 0;
      comment = false;
      continue;
    }
    if (comment) {
      i = NextStop(text, i + 1, kDepthComment) - 1;
      continue;
    }
    if (quote != 0) {
      if (quote == '"' && c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      } else {
        i = NextStop(text, i + 1,
                     quote == '"' ? kDepthDoubleQuoted : kDepthSingleQuoted) -
            1;
      }
      continue;
    }
    if (at_line_start) {
      if (c == ' ' || c == '\t') {
        ++line_depth;
      } else if ((c == '-' || c == '?') && i + 1 < text.size() &&
                 (text[i + 1] == ' ' || text[i + 1] == '\t')) {
        ++line_depth;
      } else {
        at_line_start = false;
      }
      if (line_depth + flow > max_depth) return too_deep();
      if (at_line_start) continue;
    }
    // A quote opens a quoted scalar, and # a comment, only where a token
    // starts; elsewhere they are part of a plain scalar (over-counting the
    // brackets that follow is safe, under-counting is not).
    const char prev = i == 0 ? ' ' : text[i - 1];
    const bool token_start = prev == ' ' || prev == '\t' || prev == '[' ||
                             prev == '{' || prev == ',' || prev == ':' ||
                             prev == '-' || prev == '?' || prev == '\n';
    if (c == '#' && (prev == ' ' || prev == '\t' || prev == '\n')) {
      comment = true;
    } else if ((c == '"' || c == '\'') && token_start) {
      quote = c;
    } else if (c == '[' || c == '{') {
      if (++flow + line_depth > max_depth) return too_deep();
    } else if ((c == ']' || c == '}') && flow > 0) {
      --flow;
    }
    // The rest of a word changes nothing.
    if (quote == 0 && !comment) i = NextStop(text, i + 1, kDepthToken) - 1;
  }
  return CheckNoYamlCppLoop(text, what);
}

namespace {

// CheckNoYamlCppLoop's step inside a quoted scalar quoted by `quote`, at
// text[i]: returns the index of the last byte it consumed, and sets quote
// to 0 when the scalar closes there.
size_t StepInLoopQuoted(std::string_view text, size_t i, char& quote) {
  const char c = text[i];
  if (quote == '"' && c == '\\') return i + 1;
  if (quote == '\'' && c == '\'' && i + 1 < text.size() &&
      text[i + 1] == '\'') {
    return i + 1;  // '' is a quote inside a single-quoted scalar.
  }
  if (c == quote) {
    quote = 0;
    return i;
  }
  return NextStop(text, i + 1,
                  quote == '"' ? kLoopDoubleQuoted : kLoopSingleQuoted) -
         1;
}

// Whether a "---" or "..." document marker starts at text[i] (a line start).
bool DocumentMarkerAt(std::string_view text, size_t i) {
  return (text.substr(i, 3) == "---" || text.substr(i, 3) == "...") &&
         (i + 3 == text.size() || text[i + 3] == ' ' || text[i + 3] == '\n' ||
          text[i + 3] == '\t' || text[i + 3] == '\r');
}

// Whether text[j] exists and is not a space, tab or line break.
bool NonBlankAt(std::string_view text, size_t j) {
  return j < text.size() &&
         std::string_view(" \t\r\n").find(text[j]) == std::string_view::npos;
}

// "<what>: <problem> (line <line>)<after>".
Status LoopError(std::string_view what, std::string_view problem, size_t line,
                 std::string_view after = "") {
  return InvalidArgumentError(std::string(what) + ": " + std::string(problem) +
                              " (line " + std::to_string(line) + ")" +
                              std::string(after));
}

Status NulByteError(std::string_view what, size_t line) {
  return LoopError(what, "NUL byte", line, "; YAML must be UTF-8");
}

}  // namespace

Status CheckNoYamlCppLoop(std::string_view text, std::string_view what) {
  int flow = 0;    // Open [ and {.
  char quote = 0;  // Inside a quoted scalar: its quote character.
  bool comment = false;
  bool expect_node = true;   // Nothing of the document's root node yet.
  bool node_ended = false;   // Just after a quoted scalar or a collection.
  bool in_property = false;  // Inside an &anchor or !tag.
  // A plain scalar begun right after a node ended ("'a'x", "[] x"): yaml-cpp
  // takes it for a new document's root, which ends with its line, so a line
  // after it that starts in column 0 begins yet another root.
  bool plain_after_node = false;
  size_t line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool line_start = i == 0 || text[i - 1] == '\n';
    if (c == '\0') return NulByteError(what, line);
    if (c == '\n') {
      ++line;
      comment = false;
      in_property = false;
      if (plain_after_node && quote == 0 && NonBlankAt(text, i + 1)) {
        node_ended = true;
      }
      plain_after_node = false;
      continue;
    }
    if (comment) {
      i = NextStop(text, i + 1, kLoopComment) - 1;
      continue;
    }
    if (quote != 0) {
      i = StepInLoopQuoted(text, i, quote);
      if (quote == 0 && flow == 0) node_ended = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      in_property = false;
      continue;
    }
    const char prev = i == 0 ? ' ' : text[i - 1];
    const bool token_start =
        prev == ' ' || prev == '\t' || prev == '\n' || prev == '\r';
    // A comment, or a directive: the rest of the line. (Never inside an
    // anchor or tag: a blank or a line break ended that.)
    if ((c == '#' && token_start) || (line_start && c == '%')) {
      comment = true;
      continue;
    }
    // Anchors and tags end at a flow indicator ("!," is "!" then ",").
    if (in_property &&
        std::string_view(",[]{}").find(c) == std::string_view::npos) {
      i = NextStop(text, i + 1, kLoopProperty) - 1;
      continue;
    }
    in_property = false;
    if (line_start && DocumentMarkerAt(text, i)) {
      expect_node = true;
      node_ended = false;
      i += 2;
      continue;
    }
    // The rest of such a plain scalar's line is its text ("'a'x{',\n,").
    if (plain_after_node) {
      i = NextStop(text, i + 1, kLoopComment) - 1;
      continue;
    }
    if (c == ',' && flow == 0 && (expect_node || node_ended)) {
      return LoopError(what, "',' outside a flow collection", line);
    }
    // After the root node, yaml-cpp starts a new document: an anchor, tag
    // or quoted scalar there is a root again.
    if ((c == '&' || c == '!') && flow == 0 && (token_start || node_ended)) {
      in_property = true;
      expect_node = expect_node || node_ended;
      node_ended = false;
      continue;
    }
    if ((c == '"' || c == '\'') &&
        ((flow == 0 && node_ended) || token_start || prev == '[' ||
         prev == '{' || prev == ',' || prev == ':')) {
      quote = c;
      expect_node = false;
      node_ended = false;
      continue;
    }
    if (flow == 0 && node_ended && c != '[' && c != '{' && c != ':') {
      plain_after_node = true;
    }
    expect_node = false;
    node_ended = false;
    if (c == '[' || c == '{') {
      ++flow;
    } else if ((c == ']' || c == '}') && flow > 0) {
      if (--flow == 0) node_ended = true;
    }
    // The rest of a word changes nothing (once no node has just ended).
    if (!node_ended) i = NextStop(text, i + 1, kLoopToken) - 1;
  }
  return CheckYamlCppEnds(text, what);
}

Status CheckYamlCppEnds(std::string_view text, std::string_view what) {
  // Real YAML yields at most about 1.5 events per byte ("{a}": map start,
  // key, null value, map end); the loops yield documents without reading.
  RunawayGuard guard(4 * text.size() + 16);
  std::istringstream input{std::string(text)};
  try {
    YAML::Parser parser(input);
    while (parser.HandleNextDocument(guard)) {
    }
  } catch (const Runaway& runaway) {
    return InvalidArgumentError(
        std::string(what) +
        ": yaml-cpp does not finish parsing this text (endless documents "
        "from line " +
        std::to_string(runaway.mark.is_null() ? 1 : runaway.mark.line + 1) +
        ")");
  } catch (const YAML::Exception&) {
    // Malformed YAML: the caller's own load reports it with its context.
  }
  return OkStatus();
}

}  // namespace gcushare::json
