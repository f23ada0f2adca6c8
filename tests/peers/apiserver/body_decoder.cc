#include "tests/peers/apiserver/body_decoder.h"

#include <cstdio>
#include <string>

#include "tests/peers/apiserver/object_meta.h"
#include "tests/peers/apiserver/yaml_to_json.h"

namespace gcushare::apiserver {
namespace {

// The real decoder's summary of an unrecognized body.
std::string Summarize(std::string_view body) {
  constexpr size_t kMax = 30;
  if (body.empty()) return "<empty>";
  std::string_view head = body.substr(0, kMax);
  std::string out;
  if (body[0] == '{') {
    out = std::string(head);
  } else {
    char buf[4];
    for (unsigned char c : head) {
      std::snprintf(buf, sizeof(buf), "%02x", c);
      out += buf;
    }
  }
  if (body.size() > kMax) out += " ...";
  return out;
}

std::string GoTypeName(const Json& v) {
  if (v.is_string()) return "string";
  if (v.is_number()) return "number";
  if (v.is_boolean()) return "bool";
  if (v.is_array()) return "array";
  if (v.is_object()) return "object";
  return "null";
}

ApiStatus Unrecognized(std::string_view kind, const std::string& why,
                       std::string_view body) {
  return BadRequestStatus(
      "the object provided is unrecognized (must be of type " +
      std::string(kind) + "): couldn't get version/kind; json parse error: " +
      why + " (" + Summarize(body) + ")");
}

ApiStatus CannotHandle(std::string_view kind, const std::string& why) {
  return BadRequestStatus(std::string(kind) +
                          " in version \"v1\" cannot be handled as a " +
                          std::string(kind) + ": " + why);
}

}  // namespace

ApiResult<Json> DecodeObjectBody(std::string_view body,
                                 std::string_view content_type,
                                 std::string_view expected_kind,
                                 std::string_view expected_api_version) {
  const size_t slash = expected_api_version.find('/');
  const std::string group(slash == std::string_view::npos
                              ? std::string_view()
                              : expected_api_version.substr(0, slash));
  const std::string internal_package =
      group.empty() ? "core" : group.substr(0, group.find('.'));
  bool yaml = content_type.rfind("application/yaml", 0) == 0;
  auto parsed = yaml ? YamlToJson(body) : ParseJson(body);
  if (!parsed.ok()) {
    return Unrecognized(expected_kind, parsed.status().message(), body);
  }
  Json object = std::move(*parsed);
  if (!object.is_object()) {
    return Unrecognized(
        expected_kind,
        "json: cannot unmarshal " + GoTypeName(object) +
            " into Go value of type struct { APIVersion string "
            "\"json:\\\"apiVersion,omitempty\\\"\"; Kind string "
            "\"json:\\\"kind,omitempty\\\"\" }",
        body);
  }
  std::string api_version = object.value("apiVersion", "");
  std::string kind = object.value("kind", "");
  if (!api_version.empty() && api_version != expected_api_version) {
    return BadRequestStatus("the API version in the data (" + api_version +
                            ") does not match the expected API version (" +
                            std::string(expected_api_version) + ")");
  }
  if (!kind.empty() && kind != expected_kind) {
    return BadRequestStatus(
        kind + " in version \"v1\" cannot be handled as a " +
        std::string(expected_kind) + ": converting (v1." + kind + ") to (" +
        internal_package + "." + std::string(expected_kind) +
        "): unknown conversion");
  }
  auto meta = object.find("metadata");
  if (meta != object.end() && !meta->is_null()) {
    if (!meta->is_object()) {
      return CannotHandle(expected_kind, "json: cannot unmarshal " +
                                             GoTypeName(*meta) +
                                             " into Go struct field " +
                                             std::string(expected_kind) +
                                             ".metadata of type v1.ObjectMeta");
    }
    for (const char* field : {"labels", "annotations"}) {
      auto map = meta->find(field);
      if (map == meta->end() || map->is_null()) continue;
      bool ok = map->is_object();
      if (ok) {
        for (const Json& v : *map) ok = ok && v.is_string();
      }
      if (!ok) {
        return CannotHandle(expected_kind,
                            std::string("json: cannot unmarshal into Go "
                                        "struct field ObjectMeta.metadata.") +
                                field + " of type map[string]string");
      }
    }
    for (const char* field :
         {"name", "namespace", "generateName", "uid", "resourceVersion"}) {
      auto v = meta->find(field);
      if (v != meta->end() && !v->is_string() && !v->is_null()) {
        return CannotHandle(expected_kind,
                            "json: cannot unmarshal " + GoTypeName(*v) +
                                " into Go struct field ObjectMeta.metadata." +
                                field + " of type string");
      }
    }
  } else {
    object["metadata"] = Json::object();
  }
  object["kind"] = std::string(expected_kind);
  object["apiVersion"] = std::string(expected_api_version);
  CanonicalizeObject(object);
  return object;
}

}  // namespace gcushare::apiserver
