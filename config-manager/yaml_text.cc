#include "config-manager/yaml_text.h"

#include <exception>
#include <vector>

#include "json/bounded_parse.h"

namespace gcushare::config_manager {
namespace {

// Longest key scalar written as a simple key (see Emit).
constexpr size_t kMaxSimpleKey = 200;

void Emit(YAML::Emitter& out, const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      out << YAML::Null;
      return;
    case YAML::NodeType::Scalar:
      if (node.Tag() == "!") {
        out << YAML::DoubleQuoted << node.Scalar();
      } else {
        out << node.Scalar();
      }
      return;
    case YAML::NodeType::Sequence:
      if (node.size() == 0) {
        out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
        return;
      }
      out << YAML::BeginSeq;
      for (const YAML::Node& item : node) Emit(out, item);
      out << YAML::EndSeq;
      return;
    case YAML::NodeType::Map:
      if (node.size() == 0) {
        out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        return;
      }
      out << YAML::BeginMap;
      for (const auto& kv : node) {
        // A simple key is at most 1024 characters (YAML 1.2, 7.4.2), which
        // yaml-cpp's emitter ignores; written escaped a key may grow 4x.
        // Longer ones go out as explicit "? key" (found by
        // //fuzz:scheduler_manifest_fuzzer: the edited manifest did not
        // parse back). So do keys that are not scalars: yaml-cpp writes an
        // empty flow sequence or map as the first simple key of the
        // document indented ("  []: null"), which parses back as a second
        // document (found by //fuzz:scheduler_config_fuzzer).
        if (!kv.first.IsScalar() || kv.first.Scalar().size() > kMaxSimpleKey) {
          out << YAML::LongKey;
        }
        out << YAML::Key;
        Emit(out, kv.first);
        out << YAML::Value;
        Emit(out, kv.second);
      }
      out << YAML::EndMap;
      return;
  }
}

}  // namespace

StatusOr<YAML::Node> ParseYamlMap(std::string_view text,
                                  std::string_view what) {
  GCUSHARE_RETURN_IF_ERROR(json::CheckYamlDepth(text, what));
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(std::string(text));
  } catch (const std::exception& e) {
    return InvalidArgumentError(std::string(what) + ": " + e.what());
  }
  if (docs.size() != 1) {
    return InvalidArgumentError(std::string(what) +
                                ": want one YAML document, found " +
                                std::to_string(docs.size()));
  }
  if (!docs[0].IsMap()) {
    return InvalidArgumentError(std::string(what) + ": not a YAML map");
  }
  return docs[0];
}

std::string EmitYaml(const YAML::Node& node) {
  YAML::Emitter out;
  out.SetNullFormat(YAML::LowerNull);
  out.SetIndent(2);
  Emit(out, node);
  std::string text = out.c_str();
  if (text.empty() || text.back() != '\n') text += '\n';
  // yaml-cpp reads the first bytes of a stream as its encoding mark: a key
  // written first that begins "\xff\xfe" turns the file into UTF-16, one
  // that begins with UTF-8's mark loses it (found by
  // //fuzz:scheduler_config_fuzzer: the input had comment lines before it).
  // A document start marker first keeps every byte of the key.
  if (static_cast<unsigned char>(text.front()) >= 0x80) text.insert(0, "---\n");
  return text;
}

StatusOr<std::string> EmitYamlToWrite(const YAML::Node& node,
                                      std::string_view what) {
  std::string text = EmitYaml(node);
  if (Status readable =
          json::CheckYamlDepth(text, std::string(what) + " as edited");
      !readable.ok()) {
    return InvalidArgumentError(
        readable.message() +
        " (block style); not written, it would not read back");
  }
  return text;
}

YAML::Node StringNode(const std::string& value) {
  YAML::Node node(value);
  node.SetTag("!");
  return node;
}

}  // namespace gcushare::config_manager
