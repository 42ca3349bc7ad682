#include "emit.h"

namespace gotrace::v2 {

std::array<TypePlan, 256> make_type_plans(int go_minor) {
  std::array<TypePlan, 256> plans{};
  for (int t = 0; t < kGo123TableSize; t++) {
    const EventSpec& sp = spec(static_cast<uint8_t>(t));
    TypePlan& p = plans[t];
    p.timed = sp.timed && sp.nargs > 0 && (sp.since <= 23 || go_minor >= sp.since);
    p.nargs = sp.nargs ? static_cast<uint8_t>(sp.nargs - 1) : 0;
    for (int k = 0; k < 2; k++) {
      p.stack[k] = sp.stack_ids[k];
      p.str[k] = sp.string_ids[k];
    }
    p.refs = p.stack[0] || p.str[0];
  }
  return plans;
}

}  // namespace gotrace::v2
