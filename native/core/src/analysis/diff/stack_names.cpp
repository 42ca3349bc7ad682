#include "gotrace/analysis/stack_names.h"

#include <optional>
#include <string_view>

#include "gotrace/analysis/own_frame.h"

namespace gotrace::analysis {

std::vector<std::string> stack_names(const std::vector<std::string>& folded) {
  constexpr size_t kMaxCallers = 4;
  std::vector<std::vector<std::string_view>> all;  // every frame, leaf first
  std::vector<size_t> own;                          // the own frame's index in it
  for (const std::string& f : folded) {
    std::vector<std::string_view> list;
    const std::string_view o = own_frame_of_folded(f);
    size_t at_own = 0;
    for (size_t at = 0; at < f.size();) {
      size_t end = f.find(';', at);
      if (end == std::string::npos) end = f.size();
      if (f.data() + at == o.data()) at_own = list.size();
      list.push_back(std::string_view(f).substr(at, end - at));
      at = end + 1;
    }
    all.push_back(std::move(list));
    own.push_back(at_own);
  }
  auto name = [&](size_t k, size_t callers) {
    if (all[k].empty()) return std::string("(no stack)");
    std::string out(all[k][own[k]]);
    for (size_t c = own[k] + 1; c <= own[k] + callers && c < all[k].size(); c++) out += " \u2190 " + std::string(all[k][c]);
    return out;
  };
  auto alike = [&](size_t k, size_t callers) {
    std::vector<size_t> same;
    for (size_t j = 0; j < folded.size(); j++)
      if (j != k && name(j, callers) == name(k, callers)) same.push_back(j);
    return same;
  };
  std::vector<std::string> out;
  for (size_t k = 0; k < folded.size(); k++) {
    size_t callers = 0;
    while (callers < kMaxCallers && !alike(k, callers).empty()) callers++;
    std::string n = name(k, callers);
    // Still alike: the frame where this stack parts from the others (the first that differs).
    std::optional<size_t> parts;
    bool ends = false;
    for (size_t j : alike(k, callers)) {
      size_t d = 0;
      while (d < all[k].size() && d < all[j].size() && all[k][d] == all[j][d]) d++;
      if (d >= all[k].size()) ends = true;
      else if (!parts || d > *parts) parts = d;
    }
    if (parts) {
      n += *parts < own[k] ? " (in " + std::string(all[k][*parts]) + ")"
                           : " \u2190 \u2026 \u2190 " + std::string(all[k][*parts]);
    } else if (ends) {
      n += " (its root)";
    }
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace gotrace::analysis
