#include "tests/peers/apiserver/lease_kind.h"

#include <string>

#include "tests/peers/apiserver/object_meta.h"

namespace gcushare::apiserver {
namespace {

FieldSet LeaseFields(const Json& lease) {
  FieldSet f;
  f["metadata.name"] = MetaString(lease, "name");
  f["metadata.namespace"] = MetaString(lease, "namespace");
  return f;
}

// The integer at spec.<field>, when present and an integer.
const Json* SpecInt(const Json& lease, const char* field) {
  auto spec = lease.find("spec");
  if (spec == lease.end() || !spec->is_object()) return nullptr;
  auto it = spec->find(field);
  if (it == spec->end() || !it->is_number_integer()) return nullptr;
  return &*it;
}

}  // namespace

std::vector<FieldError> ValidateLease(const Json& lease) {
  std::vector<FieldError> errors;
  if (const Json* d = SpecInt(lease, "leaseDurationSeconds");
      d != nullptr && d->get<int64_t>() <= 0) {
    FieldError e;
    e.field = "spec.leaseDurationSeconds";
    e.value = std::to_string(d->get<int64_t>());
    e.detail = "must be greater than 0";
    errors.push_back(e);
  }
  if (const Json* t = SpecInt(lease, "leaseTransitions");
      t != nullptr && t->get<int64_t>() < 0) {
    FieldError e;
    e.field = "spec.leaseTransitions";
    e.value = std::to_string(t->get<int64_t>());
    e.detail = "must be greater than or equal to 0";
    errors.push_back(e);
  }
  return errors;
}

ResourceKind LeaseKind() {
  ResourceKind k;
  k.group = "coordination.k8s.io";
  k.version = "v1";
  k.resource = "leases";
  k.kind = "Lease";
  k.list_kind = "LeaseList";
  k.namespaced = true;
  k.selectable_fields = LeaseFields;
  k.merge_schema["metadata/finalizers"] = ListStrategy{};
  k.merge_schema["metadata/ownerReferences"] = ListStrategy{"uid"};
  k.zero_value = Json::object();
  k.zero_value["metadata"] = {{"creationTimestamp", nullptr}};
  k.zero_value["spec"] = Json::object();
  k.validate_create = ValidateLease;
  k.validate_update = [](const Json&, std::string_view, const Json& updated) {
    return ValidateLease(updated);
  };
  return k;
}

}  // namespace gcushare::apiserver
