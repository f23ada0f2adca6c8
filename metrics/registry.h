// Prometheus metrics: counters, gauges and histograms with labels, and
// collectors that report values computed at scrape time, rendered in the
// Prometheus text exposition format 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/).
//
// Ownership: a Registry owns its families; a family owns its children. The
// references handed out stay valid for the Registry's lifetime, so hot paths
// look a child up once and keep the reference.
// Thread-safety: everything is safe for concurrent use. Counter, Gauge and
// Histogram updates are lock-free (atomics); creating a child or rendering
// takes the family's mutex. Collectors run on the thread calling Render().
// Failure: registering the same name twice, or a label count that does not
// match the family's, is a programming error and aborts (asserted at
// start-up, never from request data).
#ifndef GCUSHARE_METRICS_REGISTRY_H_
#define GCUSHARE_METRICS_REGISTRY_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::metrics {

using LabelValues = std::vector<std::string>;

class Counter {
 public:
  void Increment(double by = 1.0);
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

class Gauge {
 public:
  void Set(double value) { value_.store(value, std::memory_order_relaxed); }
  void Add(double by);
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

class Histogram {
 public:
  // `bounds`: ascending upper bounds, without +Inf.
  explicit Histogram(const std::vector<double>* bounds);
  void Observe(double value);

  uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  double sum() const { return sum_.load(std::memory_order_relaxed); }
  // Observations <= bounds[i] (cumulative), for i < bounds.size().
  uint64_t CumulativeCount(size_t i) const;

 private:
  const std::vector<double>* bounds_;                 // Owned by the family.
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_;  // Not cumulative.
  std::atomic<uint64_t> count_{0};
  std::atomic<double> sum_{0.0};
};

// Exponential buckets: start, start*factor, ... (count bounds).
std::vector<double> ExponentialBuckets(double start, double factor, int count);

// Receives the samples of one collector during Render().
class SampleWriter {
 public:
  virtual ~SampleWriter() = default;
  // Starts a family; `type` is "gauge" or "counter".
  virtual void Family(std::string_view name, std::string_view help,
                      std::string_view type) = 0;
  // One sample of the current family.
  virtual void Sample(
      const std::vector<std::pair<std::string, std::string>>& labels,
      double value) = 0;
  // A hint: about how many bytes of exposition the samples to come take,
  // so that a writer can make room once; no-op by default.
  virtual void Reserve(size_t /*bytes*/) {}
};

template <typename T>
class Family;

class Registry {
 public:
  Registry();
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  Family<Counter>& AddCounter(std::string name, std::string help,
                              std::vector<std::string> label_names = {});
  Family<Gauge>& AddGauge(std::string name, std::string help,
                          std::vector<std::string> label_names = {});
  Family<Histogram>& AddHistogram(std::string name, std::string help,
                                  std::vector<std::string> label_names,
                                  std::vector<double> bounds);
  // `collect` runs at every Render(), after the families above.
  void AddCollector(std::function<void(SampleWriter&)> collect);

  // The whole exposition, families in registration order.
  std::string Render() const;

  // Content-Type of Render()'s output.
  static constexpr std::string_view kContentType =
      "text/plain; version=0.0.4; charset=utf-8";

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A metric with labels; children are created on first use.
template <typename T>
class Family {
 public:
  // The child for `values` (one per label name).
  T& WithLabels(const LabelValues& values);
  // The child without labels (family declared with no label names).
  T& Get() { return WithLabels({}); }

 private:
  friend class Registry;
  Family(std::string name, std::string help, std::vector<std::string> labels,
         std::vector<double> bounds);
  void Render(std::string& out) const;

  const std::string name_;
  const std::string help_;
  const std::vector<std::string> label_names_;
  const std::vector<double> bounds_;  // Histograms only.
  mutable base::Mutex mu_;
  std::map<LabelValues, std::unique_ptr<T>> children_ GUARDED_BY(mu_);
};

// Escapes a label value per the text format (\\, \", \n).
std::string EscapeLabelValue(std::string_view value);
// Formats a sample value: integers without a fraction, +Inf/-Inf/NaN.
std::string FormatValue(double value);

}  // namespace gcushare::metrics

#endif  // GCUSHARE_METRICS_REGISTRY_H_
