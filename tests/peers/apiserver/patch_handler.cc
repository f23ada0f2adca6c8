#include "tests/peers/apiserver/patch_handler.h"

#include <string>
#include <utility>
#include <vector>

#include "tests/peers/apiserver/guaranteed_update.h"
#include "tests/peers/apiserver/json_patch.h"
#include "tests/peers/apiserver/merge_patch.h"
#include "tests/peers/apiserver/object_meta.h"
#include "tests/peers/apiserver/request_checks.h"
#include "tests/peers/apiserver/resource_strategy.h"
#include "tests/peers/apiserver/response_writer.h"
#include "tests/peers/apiserver/strategic_merge_patch.h"
#include "tests/peers/apiserver/yaml_to_json.h"

namespace gcushare::apiserver {
namespace {

enum class PatchType { kMerge, kStrategic, kJson, kApply };

std::optional<PatchType> ParsePatchType(std::string content_type) {
  size_t semi = content_type.find(';');
  if (semi != std::string::npos) content_type.resize(semi);
  while (!content_type.empty() && content_type.back() == ' ') {
    content_type.pop_back();
  }
  if (content_type == "application/merge-patch+json") return PatchType::kMerge;
  if (content_type == "application/strategic-merge-patch+json") {
    return PatchType::kStrategic;
  }
  if (content_type == "application/json-patch+json") return PatchType::kJson;
  if (content_type == "application/apply-patch+yaml") return PatchType::kApply;
  return std::nullopt;
}

ApiStatus PatchOptionsInvalid(FieldError error) {
  return InvalidStatus("meta.k8s.io", "PatchOptions", "", {std::move(error)});
}

// Parses the request body as the patch document of `type`.
ApiResult<Json> ParsePatch(PatchType type, const std::string& body) {
  switch (type) {
    case PatchType::kMerge: {
      auto parsed = ParseJson(body);
      if (!parsed.ok() || !parsed->is_object()) {
        return BadRequestStatus("Invalid JSON Patch");
      }
      return std::move(*parsed);
    }
    case PatchType::kStrategic:
    case PatchType::kJson: {
      auto parsed = ParseJson(body);
      if (!parsed.ok()) return BadRequestStatus(parsed.status().message());
      bool want_array = type == PatchType::kJson;
      if (want_array != parsed->is_array()) {
        return BadRequestStatus(
            "json: cannot unmarshal " + std::string(parsed->type_name()) +
            (want_array ? " into Go value of type jsonpatch.Patch"
                        : " into Go value of type map[string]interface {}"));
      }
      return std::move(*parsed);
    }
    case PatchType::kApply: {
      auto parsed = YamlToJson(body);
      if (!parsed.ok()) {
        return BadRequestStatus("error decoding patch: " +
                                parsed.status().message());
      }
      if (!parsed->is_object()) {
        return BadRequestStatus(
            "error decoding patch: json: cannot unmarshal " +
            std::string(parsed->type_name()) +
            " into Go value of type map[string]interface {}");
      }
      return std::move(*parsed);
    }
  }
  return BadRequestStatus("unknown patch type");
}

ApiResult<Json> ApplyPatch(PatchType type, const Json& current,
                           const Json& patch, const ResourceKind& kind) {
  switch (type) {
    case PatchType::kMerge:
      return ApplyMergePatch(current, patch);
    case PatchType::kJson: {
      auto patched = ApplyJsonPatch(current, patch);
      if (patched.ok()) return std::move(*patched);
      if (patched.status().code() == StatusCode::kInvalidArgument) {
        return BadRequestStatus(patched.status().message());
      }
      return GenericResponseStatus(422);
    }
    case PatchType::kStrategic:
    case PatchType::kApply: {
      auto patched =
          ApplyStrategicMergePatch(current, patch, kind.merge_schema);
      if (patched.ok()) return std::move(*patched);
      if (patched.status().code() == StatusCode::kInvalidArgument) {
        return BadRequestStatus(patched.status().message());
      }
      return UnknownErrorStatus(patched.status().message());
    }
  }
  return BadRequestStatus("unknown patch type");
}

}  // namespace

void PatchHandler::Patch(const ApiPath& path, const httplib::Request& req,
                         httplib::Response& res) {
  const ResourceKind& kind = *path.kind;
  std::optional<PatchType> type =
      ParsePatchType(req.get_header_value("Content-Type"));
  if (!type) {
    WriteStatus(res, UnsupportedMediaTypeStatus());
    return;
  }
  if (*type == PatchType::kApply) {
    if (req.get_param_value("fieldManager").empty()) {
      FieldError e;
      e.type = FieldError::Type::kRequired;
      e.field = "fieldManager";
      e.detail = "is required for apply patch";
      WriteStatus(res, PatchOptionsInvalid(e));
      return;
    }
  } else if (req.has_param("force")) {
    FieldError e;
    e.type = FieldError::Type::kForbidden;
    e.field = "force";
    e.detail = "may not be specified for non-apply patch";
    WriteStatus(res, PatchOptionsInvalid(e));
    return;
  }
  ApiResult<Json> patch = ParsePatch(*type, req.body);
  if (!patch.ok()) {
    WriteStatus(res, patch.error());
    return;
  }
  const std::string key = StoreKey(path.ns, path.name);
  if (*type == PatchType::kApply && path.subresource.empty() &&
      !ctx_.store->Get(kind.resource, key).ok()) {
    CreateByApply(path, patch.value(), res);
    return;
  }
  auto written = GuaranteedUpdate(
      *ctx_.store, kind, key, path.name,
      [&](const StoredObject& current) -> ApiResult<Json> {
        ApiResult<Json> patched =
            ApplyPatch(*type, current.object, patch.value(), kind);
        if (!patched.ok()) return patched.error();
        Json updated = std::move(patched).value();
        if (!updated.is_object()) return GenericResponseStatus(422);
        updated["kind"] = kind.kind;
        updated["apiVersion"] = kind.api_version();
        if (!updated["metadata"].is_object()) {
          updated["metadata"] = Json::object();
        }
        const std::string rv = MetaString(updated, "resourceVersion");
        if (!rv.empty() && ParseResourceVersion(rv) != current.rv) {
          return ConflictStatus(kind.qualified_resource(), path.name,
                                kOptimisticLockMessage);
        }
        if (auto err = CheckName(updated, path.name, path.ns)) return *err;
        if (kind.namespaced) updated["metadata"]["namespace"] = path.ns;
        std::vector<FieldError> errors =
            PrepareForUpdate(kind, path.subresource, current.object, updated);
        if (!errors.empty()) {
          return InvalidStatus(kind.group, kind.kind, path.name, errors);
        }
        return updated;
      });
  if (!written.ok()) {
    // An apply racing with a delete creates the object anew.
    if (*type == PatchType::kApply && path.subresource.empty() &&
        written.error().code() == 404) {
      CreateByApply(path, patch.value(), res);
      return;
    }
    WriteStatus(res, written.error());
    return;
  }
  WriteJsonText(res, 200, written.value()->json + "\n");
}

void PatchHandler::CreateByApply(const ApiPath& path, const Json& patch,
                                 httplib::Response& res) {
  const ResourceKind& kind = *path.kind;
  auto applied =
      ApplyStrategicMergePatch(Json::object(), patch, kind.merge_schema);
  if (!applied.ok()) {
    WriteStatus(res, BadRequestStatus(applied.status().message()));
    return;
  }
  Json object = std::move(*applied);
  object["kind"] = kind.kind;
  object["apiVersion"] = kind.api_version();
  if (!object["metadata"].is_object()) object["metadata"] = Json::object();
  if (auto err = CheckName(object, path.name, path.ns)) {
    WriteStatus(res, *err);
    return;
  }
  if (auto err = EnsureNamespace(object, path.ns)) {
    WriteStatus(res, *err);
    return;
  }
  object["metadata"].erase("resourceVersion");
  PrepareForCreate(kind, *ctx_.ids, object);
  std::vector<FieldError> errors = ValidateForCreate(kind, object);
  if (!errors.empty()) {
    WriteStatus(res, InvalidStatus(kind.group, kind.kind, path.name, errors));
    return;
  }
  auto created = ctx_.store->Create(kind.resource, StoreKey(path.ns, path.name),
                                    std::move(object));
  if (!created.ok()) {
    ApiStatus s = created.status().code() == StatusCode::kAlreadyExists
                      ? ConflictStatus(kind.qualified_resource(), path.name,
                                       kOptimisticLockMessage)
                      : ApiStatus::Failure(500, "InternalError",
                                           "Internal error occurred: " +
                                               created.status().message());
    WriteStatus(res, s);
    return;
  }
  WriteJsonText(res, 201, (*created)->json + "\n");
}

}  // namespace gcushare::apiserver
