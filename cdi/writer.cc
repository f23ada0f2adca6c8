#include "cdi/writer.h"

#include <unistd.h>

#include <cerrno>

#include "cdi/key_order.h"
#include "cdi/parser.h"
#include "cdi/validator.h"
#include "contract/names.h"
#include "fs/atomic_file.h"
#include "fs/make_dirs.h"

namespace gcushare::cdi {

StatusOr<Format> ParseFormat(std::string_view name) {
  if (name == "json") return Format::kJson;
  if (name == "yaml") return Format::kYaml;
  return InvalidArgumentError("unknown spec format \"" + std::string(name) +
                              "\" (json or yaml)");
}

std::string_view FormatExtension(Format format) {
  return format == Format::kYaml ? "yaml" : "json";
}

std::string SpecPath(std::string_view dir, Format format) {
  std::string path(dir);
  if (path.empty()) path = ".";
  if (path.back() != '/') path += '/';
  path += contract::kCdiSpecBaseName;
  path += '.';
  path += FormatExtension(format);
  return path;
}

std::string SerializeSpec(const Spec& spec, Format format) {
  nlohmann::json json = ToJson(spec);
  if (format == Format::kYaml) return ToYaml(json);
  return InWritingOrder(json).dump(
             2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

StatusOr<WriteResult> WriteSpec(const Spec& spec, std::string_view dir,
                                Format format) {
  const nlohmann::json json = ToJson(spec);
  GCUSHARE_RETURN_IF_ERROR(
      ValidateSpec(json).WithContext("refusing to write an invalid CDI spec"));
  const std::string path = SpecPath(dir, format);
  const std::string contents = SerializeSpec(spec, format);
  // Belt and braces: what we write must read back as the validated spec.
  StatusOr<nlohmann::json> reread = ParseSpecText(contents, path);
  if (!reread.ok() || *reread != json) {
    return InternalError("serialized CDI spec for " + path +
                         " does not read back as the spec built");
  }
  GCUSHARE_RETURN_IF_ERROR(fs::MakeDirectories(std::string(dir)));
  GCUSHARE_ASSIGN_OR_RETURN(fs::WriteOutcome outcome,
                            fs::WriteFileAtomically(path, contents));
  WriteResult result;
  result.path = path;
  result.written = outcome == fs::WriteOutcome::kWritten;
  const std::string other =
      SpecPath(dir, format == Format::kJson ? Format::kYaml : Format::kJson);
  if (::unlink(other.c_str()) == 0) {
    result.removed_path = other;
  } else if (errno != ENOENT) {
    return ErrnoToStatus(errno, "wrote " + path + " but cannot remove " +
                                    other +
                                    ", which declares the same devices");
  }
  return result;
}

}  // namespace gcushare::cdi
