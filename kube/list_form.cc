#include "kube/list_form.h"

#include <string>

namespace gcushare::kube {

std::string_view ListFormName(ListForm form) {
  switch (form) {
    case ListForm::kWatchCache:
      return "watch-cache";
    case ListForm::kConsistentPaged:
      return "consistent-paged";
  }
  return "?";
}

StatusOr<ListForm> ParseListForm(std::string_view text) {
  for (ListForm form : {ListForm::kWatchCache, ListForm::kConsistentPaged}) {
    if (text == ListFormName(form)) return form;
  }
  return InvalidArgumentError("unknown list form \"" + std::string(text) +
                              "\" (watch-cache or consistent-paged)");
}

ListForm ChooseListForm(const ServerVersion& /*version*/) {
  // The watch cache serves resourceVersion=0 (and a resourceVersion
  // without limit) on every supported version, and is never dearer than
  // a consistent list (see the header).
  return ListForm::kWatchCache;
}

}  // namespace gcushare::kube
