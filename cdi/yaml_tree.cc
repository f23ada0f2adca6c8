#include "cdi/yaml_tree.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "cdi/key_order.h"
#include "cdi/yaml_scalar.h"
#include "json/bounded_parse.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;

// Aliases can make a small file denote a huge tree ("billion laughs").
constexpr size_t kMaxNodes = 100'000;

int LineOf(const YAML::Mark& mark) {
  return mark.is_null() || mark.line < 0 ? 1 : mark.line + 1;
}

class Converter {
 public:
  explicit Converter(std::string_view file_name) : file_name_(file_name) {}

  Status At(const YAML::Mark& mark, const std::string& problem) const {
    return InvalidArgumentError(file_name_ + " line " +
                                std::to_string(LineOf(mark)) + ": " + problem);
  }

  StatusOr<Json> Convert(const YAML::Node& node) {
    if (++nodes_ > kMaxNodes) {
      return At(node.Mark(), "the document expands to more than " +
                                 std::to_string(kMaxNodes) +
                                 " nodes (aliases?)");
    }
    switch (node.Type()) {
      case YAML::NodeType::Undefined:
        return Json(nullptr);
      case YAML::NodeType::Null:
        return ConvertNull(node);
      case YAML::NodeType::Scalar:
        return ConvertScalar(node);
      case YAML::NodeType::Sequence:
        return ConvertSequence(node);
      case YAML::NodeType::Map:
        return ConvertMap(node);
    }
    return At(node.Mark(), "unknown YAML node type");
  }

 private:
  StatusOr<Json> ConvertNull(const YAML::Node& node) {
    const std::string& tag = node.Tag();
    if (tag.empty() || tag == "?" || tag == "!") return Json(nullptr);
    StatusOr<Json> value = ResolveTaggedScalar(tag, "");
    if (!value.ok()) return At(node.Mark(), value.status().message());
    return value;
  }

  StatusOr<Json> ConvertScalar(const YAML::Node& node) {
    const std::string& tag = node.Tag();
    StatusOr<Json> value = tag == "!" ? StatusOr<Json>(Json(node.Scalar()))
                           : tag == "?"
                               ? ResolvePlainScalar(node.Scalar())
                               : ResolveTaggedScalar(tag, node.Scalar());
    if (!value.ok()) return At(node.Mark(), value.status().message());
    return value;
  }

  StatusOr<Json> ConvertSequence(const YAML::Node& node) {
    Json array = Json::array();
    for (YAML::const_iterator it = node.begin(); it != node.end(); ++it) {
      GCUSHARE_ASSIGN_OR_RETURN(Json item, Convert(*it));
      array.push_back(std::move(item));
    }
    return array;
  }

  StatusOr<Json> ConvertMap(const YAML::Node& node) {
    Json object = Json::object();
    std::map<std::string, int> lines;
    for (YAML::const_iterator it = node.begin(); it != node.end(); ++it) {
      // A copy: it-> yields a temporary proxy, so a reference to its
      // member would dangle (ASan stack-use-after-scope, cdi_spec fuzzer).
      const YAML::Node key = it->first;
      if (!key.IsScalar()) {
        return At(key.Mark(), "map keys must be plain strings");
      }
      const std::string& name = key.Scalar();
      auto [previous, inserted] = lines.emplace(name, LineOf(key.Mark()));
      if (!inserted) {
        return At(key.Mark(), "duplicate key \"" + name + "\" (first at line " +
                                  std::to_string(previous->second) + ")");
      }
      GCUSHARE_ASSIGN_OR_RETURN(Json value, Convert(it->second));
      object[name] = std::move(value);
    }
    return object;
  }

  std::string file_name_;
  size_t nodes_ = 0;
};

StatusOr<Json> Load(std::string_view text, std::string_view file_name) {
  GCUSHARE_RETURN_IF_ERROR(json::CheckYamlDepth(text, file_name));
  Converter converter(file_name);
  std::vector<YAML::Node> documents = YAML::LoadAll(std::string(text));
  if (documents.empty()) {
    return InvalidArgumentError(std::string(file_name) +
                                " line 1: the file is empty");
  }
  if (documents.size() > 1) {
    return converter.At(documents[1].Mark(),
                        "more than one YAML document; a spec file holds one");
  }
  return converter.Convert(documents[0]);
}

void EmitString(YAML::Emitter& out, const std::string& text) {
  if (NeedsQuoting(text)) out << YAML::DoubleQuoted;
  out << text;
}

void Emit(YAML::Emitter& out, const Json& value) {
  switch (value.type()) {
    case Json::value_t::object:
      if (value.empty()) out << YAML::Flow;
      out << YAML::BeginMap;
      for (const std::string& key : OrderedKeys(value)) {
        out << YAML::Key;
        EmitString(out, key);
        out << YAML::Value;
        Emit(out, value.at(key));
      }
      out << YAML::EndMap;
      break;
    case Json::value_t::array:
      if (value.empty()) out << YAML::Flow;
      out << YAML::BeginSeq;
      for (const Json& item : value) Emit(out, item);
      out << YAML::EndSeq;
      break;
    case Json::value_t::string:
      EmitString(out, value.get_ref<const std::string&>());
      break;
    case Json::value_t::boolean:
      out << value.get<bool>();
      break;
    case Json::value_t::number_integer:
      out << value.get<int64_t>();
      break;
    case Json::value_t::number_unsigned:
      out << value.get<uint64_t>();
      break;
    case Json::value_t::number_float:
      out << value.get<double>();
      break;
    default:  // null, binary, discarded
      out << YAML::Null;
      break;
  }
}

}  // namespace

StatusOr<Json> YamlToJson(std::string_view text, std::string_view file_name) {
  try {
    return Load(text, file_name);
  } catch (const YAML::Exception& e) {
    return InvalidArgumentError(std::string(file_name) + " line " +
                                std::to_string(LineOf(e.mark)) +
                                ": invalid YAML: " + e.msg);
  } catch (const std::exception& e) {
    return InvalidArgumentError(std::string(file_name) +
                                ": invalid YAML: " + e.what());
  }
}

std::string JsonToYaml(const Json& tree) {
  try {
    YAML::Emitter out;
    out.SetDoublePrecision(17);
    Emit(out, tree);
    if (!out.good()) return "";
    std::string text = out.c_str();
    if (text.empty() || text.back() != '\n') text += '\n';
    return text;
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace gcushare::cdi
