#include "metrics/registry.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <variant>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::metrics {
namespace {

void AtomicAdd(std::atomic<double>& target, double by) {
  double current = target.load(std::memory_order_relaxed);
  while (!target.compare_exchange_weak(current, current + by,
                                       std::memory_order_relaxed)) {
  }
}

void AppendLabels(std::string& out,
                  const std::vector<std::pair<std::string, std::string>>& kv) {
  if (kv.empty()) return;
  out += '{';
  bool first = true;
  for (const auto& [name, value] : kv) {
    if (!first) out += ',';
    first = false;
    out += name;
    out += "=\"";
    out += EscapeLabelValue(value);
    out += '"';
  }
  out += '}';
}

std::vector<std::pair<std::string, std::string>> Zip(
    const std::vector<std::string>& names, const LabelValues& values) {
  std::vector<std::pair<std::string, std::string>> kv;
  kv.reserve(names.size() + 1);
  for (size_t i = 0; i < names.size(); ++i)
    kv.emplace_back(names[i], values[i]);
  return kv;
}

void AppendHeader(std::string& out, std::string_view name,
                  std::string_view help, std::string_view type) {
  out += "# HELP ";
  out += name;
  out += ' ';
  for (char c : help) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

class StringSampleWriter : public SampleWriter {
 public:
  explicit StringSampleWriter(std::string& out) : out_(out) {}
  void Family(std::string_view name, std::string_view help,
              std::string_view type) override {
    name_ = std::string(name);
    AppendHeader(out_, name, help, type);
  }
  void Sample(const std::vector<std::pair<std::string, std::string>>& labels,
              double value) override {
    out_ += name_;
    AppendLabels(out_, labels);
    out_ += ' ';
    out_ += FormatValue(value);
    out_ += '\n';
  }
  void Reserve(size_t bytes) override {
    if (out_.capacity() < out_.size() + bytes)
      out_.reserve(out_.size() + bytes);
  }

 private:
  std::string& out_;
  std::string name_;
};

}  // namespace

void Counter::Increment(double by) { AtomicAdd(value_, by); }

void Gauge::Add(double by) { AtomicAdd(value_, by); }

Histogram::Histogram(const std::vector<double>* bounds)
    : bounds_(bounds), buckets_(new std::atomic<uint64_t>[bounds->size()]()) {}

void Histogram::Observe(double value) {
  auto it = std::lower_bound(bounds_->begin(), bounds_->end(), value);
  if (it != bounds_->end()) {
    buckets_[it - bounds_->begin()].fetch_add(1, std::memory_order_relaxed);
  }
  AtomicAdd(sum_, value);
  count_.fetch_add(1, std::memory_order_relaxed);
}

uint64_t Histogram::CumulativeCount(size_t i) const {
  uint64_t total = 0;
  for (size_t b = 0; b <= i && b < bounds_->size(); ++b) {
    total += buckets_[b].load(std::memory_order_relaxed);
  }
  return total;
}

std::vector<double> ExponentialBuckets(double start, double factor, int count) {
  std::vector<double> bounds;
  double bound = start;
  for (int i = 0; i < count; ++i, bound *= factor) bounds.push_back(bound);
  return bounds;
}

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string FormatValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  // The shortest text that reads back as the same double.
  char buf[64];
  auto result = std::to_chars(buf, buf + sizeof(buf), value);
  return std::string(buf, result.ptr);
}

template <typename T>
Family<T>::Family(std::string name, std::string help,
                  std::vector<std::string> labels, std::vector<double> bounds)
    : name_(std::move(name)),
      help_(std::move(help)),
      label_names_(std::move(labels)),
      bounds_(std::move(bounds)) {}

template <typename T>
T& Family<T>::WithLabels(const LabelValues& values) {
  if (values.size() != label_names_.size()) {
    std::fprintf(stderr, "metric %s: %zu label values for %zu labels\n",
                 name_.c_str(), values.size(), label_names_.size());
    std::abort();
  }
  base::MutexLock lock(mu_);
  auto it = children_.find(values);
  if (it != children_.end()) return *it->second;
  std::unique_ptr<T> child;
  if constexpr (std::is_same_v<T, Histogram>) {
    child = std::make_unique<Histogram>(&bounds_);
  } else {
    child = std::make_unique<T>();
  }
  T& ref = *child;
  children_.emplace(values, std::move(child));
  return ref;
}

template <typename T>
void Family<T>::Render(std::string& out) const {
  std::string_view type = std::is_same_v<T, Counter> ? "counter"
                          : std::is_same_v<T, Gauge> ? "gauge"
                                                     : "histogram";
  AppendHeader(out, name_, help_, type);
  base::MutexLock lock(mu_);
  for (const auto& [values, child] : children_) {
    auto labels = Zip(label_names_, values);
    if constexpr (std::is_same_v<T, Histogram>) {
      for (size_t i = 0; i <= bounds_.size(); ++i) {
        auto with_le = labels;
        bool inf = i == bounds_.size();
        with_le.emplace_back(
            "le", inf ? std::string("+Inf") : FormatValue(bounds_[i]));
        out += name_;
        out += "_bucket";
        AppendLabels(out, with_le);
        out += ' ';
        out += std::to_string(inf ? child->count() : child->CumulativeCount(i));
        out += '\n';
      }
      out += name_ + "_sum";
      AppendLabels(out, labels);
      out += ' ' + FormatValue(child->sum()) + '\n';
      out += name_ + "_count";
      AppendLabels(out, labels);
      out += ' ' + std::to_string(child->count()) + '\n';
    } else {
      out += name_;
      AppendLabels(out, labels);
      out += ' ' + FormatValue(child->value()) + '\n';
    }
  }
}

template class Family<Counter>;
template class Family<Gauge>;
template class Family<Histogram>;

struct Registry::Impl {
  base::Mutex mu;
  std::vector<std::string> names GUARDED_BY(mu);
  std::vector<std::variant<std::unique_ptr<Family<Counter>>,
                           std::unique_ptr<Family<Gauge>>,
                           std::unique_ptr<Family<Histogram>>>>
      families GUARDED_BY(mu);
  std::vector<std::function<void(SampleWriter&)>> collectors GUARDED_BY(mu);

  void Claim(const std::string& name) REQUIRES(mu) {
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      std::fprintf(stderr, "metric %s registered twice\n", name.c_str());
      std::abort();
    }
    names.push_back(name);
  }
};

Registry::Registry() : impl_(std::make_unique<Impl>()) {}
Registry::~Registry() = default;

Family<Counter>& Registry::AddCounter(std::string name, std::string help,
                                      std::vector<std::string> label_names) {
  base::MutexLock lock(impl_->mu);
  impl_->Claim(name);
  auto* family = new Family<Counter>(std::move(name), std::move(help),
                                     std::move(label_names), {});
  impl_->families.emplace_back(std::unique_ptr<Family<Counter>>(family));
  return *family;
}

Family<Gauge>& Registry::AddGauge(std::string name, std::string help,
                                  std::vector<std::string> label_names) {
  base::MutexLock lock(impl_->mu);
  impl_->Claim(name);
  auto* family = new Family<Gauge>(std::move(name), std::move(help),
                                   std::move(label_names), {});
  impl_->families.emplace_back(std::unique_ptr<Family<Gauge>>(family));
  return *family;
}

Family<Histogram>& Registry::AddHistogram(std::string name, std::string help,
                                          std::vector<std::string> label_names,
                                          std::vector<double> bounds) {
  std::sort(bounds.begin(), bounds.end());
  base::MutexLock lock(impl_->mu);
  impl_->Claim(name);
  auto* family =
      new Family<Histogram>(std::move(name), std::move(help),
                            std::move(label_names), std::move(bounds));
  impl_->families.emplace_back(std::unique_ptr<Family<Histogram>>(family));
  return *family;
}

void Registry::AddCollector(std::function<void(SampleWriter&)> collect) {
  base::MutexLock lock(impl_->mu);
  impl_->collectors.push_back(std::move(collect));
}

std::string Registry::Render() const {
  std::string out;
  base::MutexLock lock(impl_->mu);
  for (const auto& family : impl_->families) {
    std::visit([&out](const auto& f) { f->Render(out); }, family);
  }
  StringSampleWriter writer(out);
  for (const auto& collect : impl_->collectors) collect(writer);
  return out;
}

}  // namespace gcushare::metrics
