// The API calls gcushare-dra-driver makes (kube/api_permissions.h); the
// chart's ClusterRole grants exactly these (tests/helm checks it).
#ifndef GCUSHARE_DRA_DRIVER_API_PERMISSIONS_H_
#define GCUSHARE_DRA_DRIVER_API_PERMISSIONS_H_

#include "kube/api_permissions.h"

namespace gcushare::dra {

kube::ApiPermissions DraDriverApiPermissions();

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_API_PERMISSIONS_H_
