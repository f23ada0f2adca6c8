#include "tests/peers/apiserver/crud_handler.h"

#include <string>
#include <utility>

#include "tests/peers/apiserver/body_decoder.h"
#include "tests/peers/apiserver/guaranteed_update.h"
#include "tests/peers/apiserver/object_meta.h"
#include "tests/peers/apiserver/request_checks.h"
#include "tests/peers/apiserver/resource_strategy.h"
#include "tests/peers/apiserver/response_writer.h"

namespace gcushare::apiserver {

void CrudHandler::Get(const ApiPath& path, httplib::Response& res) {
  const ResourceKind& kind = *path.kind;
  auto found = ctx_.store->Get(kind.resource, StoreKey(path.ns, path.name));
  if (!found.ok()) {
    WriteStatus(res, NotFoundStatus(kind.qualified_resource(), path.name));
    return;
  }
  WriteJsonText(res, 200, (*found)->json + "\n");
}

void CrudHandler::Create(const ApiPath& path, const httplib::Request& req,
                         httplib::Response& res) {
  const ResourceKind& kind = *path.kind;
  ApiResult<Json> decoded =
      DecodeObjectBody(req.body, req.get_header_value("Content-Type"),
                       kind.kind, kind.api_version());
  if (!decoded.ok()) {
    WriteStatus(res, decoded.error());
    return;
  }
  Json object = std::move(decoded).value();
  if (auto err = EnsureNamespace(object, path.ns)) {
    WriteStatus(res, *err);
    return;
  }
  const std::string client_rv = MetaString(object, "resourceVersion");
  PrepareForCreate(kind, *ctx_.ids, object);
  std::string name = MetaString(object, "name");
  std::vector<FieldError> errors = ValidateForCreate(kind, object);
  if (!errors.empty()) {
    WriteStatus(res, InvalidStatus(kind.group, kind.kind, name, errors));
    return;
  }
  if (!client_rv.empty() && client_rv != "0") {
    WriteStatus(res, UnknownErrorStatus(
                         "resourceVersion should not be set on objects to be "
                         "created"));
    return;
  }
  auto created = ctx_.store->Create(kind.resource, StoreKey(path.ns, name),
                                    std::move(object));
  if (!created.ok()) {
    if (created.status().code() == StatusCode::kAlreadyExists) {
      WriteStatus(res, AlreadyExistsStatus(kind.qualified_resource(), name));
    } else {
      WriteStatus(res, ApiStatus::Failure(500, "InternalError",
                                          "Internal error occurred: " +
                                              created.status().message()));
    }
    return;
  }
  WriteJsonText(res, 201, (*created)->json + "\n");
}

void CrudHandler::Update(const ApiPath& path, const httplib::Request& req,
                         httplib::Response& res) {
  const ResourceKind& kind = *path.kind;
  ApiResult<Json> decoded =
      DecodeObjectBody(req.body, req.get_header_value("Content-Type"),
                       kind.kind, kind.api_version());
  if (!decoded.ok()) {
    WriteStatus(res, decoded.error());
    return;
  }
  Json body = std::move(decoded).value();
  if (auto err = CheckName(body, path.name, path.ns)) {
    WriteStatus(res, *err);
    return;
  }
  if (auto err = EnsureNamespace(body, path.ns)) {
    WriteStatus(res, *err);
    return;
  }
  const std::string precondition = MetaString(body, "resourceVersion");
  auto written = GuaranteedUpdate(
      *ctx_.store, kind, StoreKey(path.ns, path.name), path.name,
      [&](const StoredObject& current) -> ApiResult<Json> {
        if (!precondition.empty() &&
            ParseResourceVersion(precondition) != current.rv) {
          return ConflictStatus(kind.qualified_resource(), path.name,
                                kOptimisticLockMessage);
        }
        Json updated = body;
        std::vector<FieldError> errors =
            PrepareForUpdate(kind, path.subresource, current.object, updated);
        if (!errors.empty()) {
          return InvalidStatus(kind.group, kind.kind, path.name, errors);
        }
        return updated;
      });
  if (!written.ok()) {
    WriteStatus(res, written.error());
    return;
  }
  WriteJsonText(res, 200, written.value()->json + "\n");
}

void CrudHandler::Delete(const ApiPath& path, const httplib::Request& req,
                         httplib::Response& res) {
  const ResourceKind& kind = *path.kind;
  std::string uid_precondition;
  std::string rv_precondition;
  bool has_uid = false;
  bool has_rv = false;
  if (!req.body.empty()) {
    auto options = ParseJson(req.body);
    if (!options.ok() || !options->is_object()) {
      WriteStatus(res, BadRequestStatus(
                           "the object provided is unrecognized (must be of "
                           "type DeleteOptions)"));
      return;
    }
    auto pre = options->find("preconditions");
    if (pre != options->end() && pre->is_object()) {
      if (pre->contains("uid") && (*pre)["uid"].is_string()) {
        has_uid = true;
        uid_precondition = (*pre)["uid"].get<std::string>();
      }
      if (pre->contains("resourceVersion") &&
          (*pre)["resourceVersion"].is_string()) {
        has_rv = true;
        rv_precondition = (*pre)["resourceVersion"].get<std::string>();
      }
    }
  }
  const std::string key = StoreKey(path.ns, path.name);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    auto current = ctx_.store->Get(kind.resource, key);
    if (!current.ok()) {
      WriteStatus(res, NotFoundStatus(kind.qualified_resource(), path.name));
      return;
    }
    const Json& object = (*current)->object;
    // rest.BeforeDelete names the kind (not the resource) in these.
    if (has_uid && uid_precondition != MetaString(object, "uid")) {
      ApiStatus s = ConflictStatus(
          kind.qualified_kind(), path.name,
          "the UID in the precondition (" + uid_precondition +
              ") does not match the UID in record (" +
              MetaString(object, "uid") +
              "). The object might have been deleted and then recreated");
      WriteStatus(res, s);
      return;
    }
    if (has_rv && rv_precondition != MetaString(object, "resourceVersion")) {
      WriteStatus(res,
                  ConflictStatus(kind.qualified_kind(), path.name,
                                 "the ResourceVersion in the precondition (" +
                                     rv_precondition +
                                     ") does not match the ResourceVersion in "
                                     "record (" +
                                     MetaString(object, "resourceVersion") +
                                     "). The object might have been modified"));
      return;
    }
    auto deleted = ctx_.store->Delete(kind.resource, key, (*current)->rv);
    if (!deleted.ok()) {
      if (deleted.status().code() == StatusCode::kAborted) continue;
      if (deleted.status().code() == StatusCode::kNotFound) {
        WriteStatus(res, NotFoundStatus(kind.qualified_resource(), path.name));
        return;
      }
      WriteStatus(res, ApiStatus::Failure(500, "InternalError",
                                          "Internal error occurred: " +
                                              deleted.status().message()));
      return;
    }
    if (kind.return_deleted_object) {
      WriteJsonText(res, 200, (*deleted)->json + "\n");
    } else {
      StatusDetails d;
      d.name = path.name;
      d.kind = kind.resource;
      d.group = kind.group;
      d.uid = MetaString((*deleted)->object, "uid");
      ApiStatus s = ApiStatus::Success(0, d);
      WriteStatus(res, s.WithoutCode());
    }
    return;
  }
  WriteStatus(res, ApiStatus::Failure(500, "InternalError",
                                      "Internal error occurred: too many "
                                      "concurrent updates"));
}

}  // namespace gcushare::apiserver
