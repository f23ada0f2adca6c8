// EfmlCardSource: cards as reported by Enflame's management library,
// libefml.so, loaded at run time with dlopen (no vendor header or link-time
// dependency; see efml_card_source.cc for the declared ABI).
//
// Per card (dev_idx i): UUID from EfmlGetDevUuid, memory from EfmlGetDevMem,
// health from EfmlGetDevHealth, NUMA node from EfmlGetNumaNode and PCI
// address from EfmlGetDevInfo. The last two are optional: libraries without
// them leave the fields unknown. The device node is /dev/gcu<i>, with
// major:minor from stat() of <root>/dev/gcu<i> when that is a char device.
// <root>/dev/gcuctl, when present, is reported as the control node
// /dev/gcuctl.
//
// Ownership: owns the dlopen handle and the library's initialised state;
// the destructor calls EfmlShutdown() and dlclose(). EfmlInit/EfmlShutdown
// are process-wide in the vendor library, so keep at most one instance per
// process. Not copyable or movable.
// Thread-safety: Discover() is not thread-safe (the vendor library does not
// document its own); callers serialise, as HealthMonitor does.
// Failure: Create() returns Unavailable when the library cannot be loaded
// ("cannot load libefml.so: <dlerror>"), lacks a required function
// ("libefml.so at <path> lacks EfmlGetDevMem") or EfmlInit fails ("EfmlInit
// failed: EFML_ERROR_DRIVER_NOT_LOADED (6)"). Discover() returns Unavailable
// naming the failing call, its device index and return code
// ("EfmlGetDevMem(2) failed: EFML_ERROR_DRIVER_NOT_LOADED (6)"), except that
// a failing EfmlGetDevHealth marks that card unhealthy (with a warning)
// rather than failing the whole inventory. Never throws.
#ifndef GCUSHARE_EFML_EFML_CARD_SOURCE_H_
#define GCUSHARE_EFML_EFML_CARD_SOURCE_H_

#include <memory>
#include <string>

#include "efml/card.h"
#include "efml/card_source.h"
#include "status/status.h"

namespace gcushare::efml {

// "EFML_ERROR_DRIVER_NOT_LOADED (6)"; unknown codes give "EFML_UNKNOWN (n)".
std::string EfmlReturnCodeName(int code);

class EfmlCardSource : public CardSource {
 public:
  // Loads `library_path` (a file name is searched like any dlopen name) and
  // initialises it. `root` prefixes the /dev paths that are stat()ed ("/" on
  // a real host).
  static StatusOr<std::unique_ptr<EfmlCardSource>> Create(
      const std::string& library_path, const std::string& root = "/");

  ~EfmlCardSource() override;
  EfmlCardSource(const EfmlCardSource&) = delete;
  EfmlCardSource& operator=(const EfmlCardSource&) = delete;

  std::string Name() const override { return "efml"; }
  StatusOr<Inventory> Discover() override;

 private:
  struct Library;  // The dlopen handle and resolved functions.

  EfmlCardSource(std::unique_ptr<Library> library, std::string root);

  std::unique_ptr<Library> library_;
  std::string root_;
};

}  // namespace gcushare::efml

#endif  // GCUSHARE_EFML_EFML_CARD_SOURCE_H_
