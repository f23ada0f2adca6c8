// Scrape-time metrics of a CardCache: cached nodes and pods, and used and
// total card memory (in each node's unit) per node and per card.
//
// Ownership: the cache is borrowed and must outlive the registry's use.
#ifndef GCUSHARE_EXTENDER_CACHE_METRICS_H_
#define GCUSHARE_EXTENDER_CACHE_METRICS_H_

#include "extender/card_cache.h"
#include "metrics/registry.h"

namespace gcushare::extender {

void RegisterCacheMetrics(const CardCache* cache, metrics::Registry* registry);

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_CACHE_METRICS_H_
