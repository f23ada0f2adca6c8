#include "binpack/trace.h"

#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

namespace gcushare::binpack {
namespace {

std::vector<std::string_view> SplitCsv(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      out.push_back(line.substr(start));
      return out;
    }
    out.push_back(line.substr(start, comma - start));
    start = comma + 1;
  }
}

// The rows of a CSV text as maps from the wanted column to its cell.
class CsvReader {
 public:
  CsvReader(std::string_view text, std::string_view file)
      : text_(text), file_(file) {}

  // Reads the header; every column in `wanted` must be present.
  Status Header(const std::vector<std::string>& wanted) {
    std::string_view line;
    if (!NextLine(&line)) return Error("empty file, no header");
    auto cells = SplitCsv(line);
    for (const std::string& name : wanted) {
      bool found = false;
      for (size_t i = 0; i < cells.size(); ++i) {
        if (cells[i] == name) {
          columns_.push_back(i);
          found = true;
        }
      }
      if (!found) return Error("no column \"" + name + "\"");
    }
    return OkStatus();
  }

  // The wanted cells of the next non-empty row; false at the end.
  StatusOr<bool> Row(std::vector<std::string_view>* cells) {
    std::string_view line;
    do {
      if (!NextLine(&line)) return false;
    } while (line.empty());
    auto all = SplitCsv(line);
    cells->clear();
    for (size_t column : columns_) {
      if (column >= all.size()) return Error("too few cells");
      cells->push_back(all[column]);
    }
    return true;
  }

  // An integer cell; empty counts as 0.
  StatusOr<int64_t> Int(std::string_view cell, std::string_view column) {
    if (cell.empty()) return int64_t{0};
    int64_t value = 0;
    auto [end, error] =
        std::from_chars(cell.data(), cell.data() + cell.size(), value);
    if (error != std::errc() || end != cell.data() + cell.size() || value < 0) {
      return Error(std::string(column) + " is \"" + std::string(cell) +
                   "\", not a non-negative integer");
    }
    return value;
  }

  Status Error(const std::string& what) const {
    return InvalidArgumentError(std::string(file_) + ":" +
                                std::to_string(line_number_) + ": " + what);
  }

 private:
  bool NextLine(std::string_view* line) {
    if (position_ >= text_.size()) return false;
    size_t end = text_.find('\n', position_);
    if (end == std::string_view::npos) end = text_.size();
    *line = text_.substr(position_, end - position_);
    if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
    position_ = end + 1;
    ++line_number_;
    return true;
  }

  std::string_view text_;
  std::string_view file_;
  size_t position_ = 0;
  int line_number_ = 0;
  std::vector<size_t> columns_;
};

StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFoundError("cannot open " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

StatusOr<std::vector<TraceNode>> ParseNodeList(std::string_view text,
                                               std::string_view file) {
  CsvReader reader(text, file);
  if (Status s =
          reader.Header({"sn", "cpu_milli", "memory_mib", "gpu", "model"});
      !s.ok()) {
    return s;
  }
  std::vector<TraceNode> nodes;
  std::vector<std::string_view> cells;
  while (true) {
    auto more = reader.Row(&cells);
    if (!more.ok()) return more.status();
    if (!*more) break;
    TraceNode node;
    node.name = std::string(cells[0]);
    auto cpu = reader.Int(cells[1], "cpu_milli");
    auto memory = reader.Int(cells[2], "memory_mib");
    auto gpus = reader.Int(cells[3], "gpu");
    if (!cpu.ok()) return cpu.status();
    if (!memory.ok()) return memory.status();
    if (!gpus.ok()) return gpus.status();
    if (*gpus > 64) return reader.Error("gpu is more than 64");
    node.cpu_milli = *cpu;
    node.memory_mib = *memory;
    node.gpus = static_cast<uint32_t>(*gpus);
    node.model = std::string(cells[4]);
    if (node.gpus > 0 && node.model.empty()) {
      return reader.Error("a node with GPUs has no model");
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

StatusOr<std::vector<TraceTask>> ParseTaskList(std::string_view text,
                                               std::string_view file) {
  CsvReader reader(text, file);
  if (Status s =
          reader.Header({"cpu_milli", "memory_mib", "num_gpu", "gpu_milli"});
      !s.ok()) {
    return s;
  }
  std::vector<TraceTask> tasks;
  std::vector<std::string_view> cells;
  while (true) {
    auto more = reader.Row(&cells);
    if (!more.ok()) return more.status();
    if (!*more) break;
    int64_t values[4];
    const char* names[4] = {"cpu_milli", "memory_mib", "num_gpu", "gpu_milli"};
    for (int i = 0; i < 4; ++i) {
      auto value = reader.Int(cells[i], names[i]);
      if (!value.ok()) return value.status();
      values[i] = *value;
    }
    TraceTask task{values[0], values[1], static_cast<uint32_t>(values[2]),
                   static_cast<uint32_t>(values[3])};
    if (values[2] > 64) return reader.Error("num_gpu is more than 64");
    if (values[3] > 1000) return reader.Error("gpu_milli is more than 1000");
    if ((task.num_gpu == 0) != (task.gpu_milli == 0)) {
      return reader.Error("num_gpu and gpu_milli disagree on GPU use");
    }
    if (task.num_gpu > 1 && task.gpu_milli < 1000) {
      return reader.Error("a multi-GPU task shares cards");
    }
    tasks.push_back(task);
  }
  return tasks;
}

StatusOr<std::vector<TraceNode>> ReadNodeList(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseNodeList(*text, path);
}

StatusOr<std::vector<TraceTask>> ReadTaskList(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseTaskList(*text, path);
}

}  // namespace gcushare::binpack
