// The MMU's flag sets as text (the CLI's --flags, the keys of the analysis references).
#include <array>
#include <utility>

#include "gotrace/analysis/mmu.h"

namespace gotrace::analysis {
namespace {

constexpr std::array<std::pair<std::string_view, unsigned>, 4> kWords = {{
    {"stw", kUtilSTW},
    {"background", kUtilBackground},
    {"assist", kUtilAssist},
    {"sweep", kUtilSweep},
}};

}  // namespace

std::optional<unsigned> parse_util_flags(std::string_view text) {
  unsigned flags = 0;
  while (!text.empty()) {
    size_t end = text.find_first_of("|,+ ");
    std::string_view word = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (word.empty()) continue;
    if (word == "all") {
      flags |= kUtilSTW | kUtilBackground | kUtilAssist | kUtilSweep;
      continue;
    }
    if (word == "perproc" || word == "per-proc" || word == "perProc") {
      flags |= kUtilPerProc;
      continue;
    }
    bool known = false;
    for (auto& [name, bit] : kWords) {
      if (word == name) {
        flags |= bit;
        known = true;
      }
    }
    if (!known) return std::nullopt;
  }
  return flags;
}

std::string util_flags_name(unsigned flags) {
  std::string out;
  for (auto& [name, bit] : kWords) {
    if (!(flags & bit)) continue;
    if (!out.empty()) out += '+';
    out += name;
  }
  if (flags & kUtilPerProc) out += out.empty() ? "per-proc" : " per-proc";
  return out.empty() ? "none" : out;
}

}  // namespace gotrace::analysis
