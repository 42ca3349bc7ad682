#include "symbolizer.h"

#include <cxxabi.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "code_module.h"
#include "labels.h"

#ifdef GOTRACE_TRACER_LIBBACKTRACE
#include <backtrace.h>
#endif

namespace gotrace::tracer::detail {

namespace {

std::string demangle(const char* name) {
  if (!name) return {};
  int status = 0;
  char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !d) return name;
  std::string s(d);
  std::free(d);
  return s;
}

#ifdef GOTRACE_TRACER_LIBBACKTRACE
void on_error(void*, const char*, int) {}

int on_pcinfo(void* data, uintptr_t pc, const char* file, int line, const char* function) {
  if (!function && !file) return 0;
  auto* out = static_cast<std::vector<SymbolFrame>*>(data);
  out->push_back({pc, demangle(function), file ? file : "", uint64_t(line > 0 ? line : 0)});
  return 0;
}

void on_syminfo(void* data, uintptr_t, const char* name, uintptr_t, uintptr_t) {
  if (name) *static_cast<std::string*>(data) = demangle(name);
}
#endif

// Go's validator wants every frame to have a function, a file, a PC and a line; what is
// not known gets a stand-in (docs/tracer.md): "?" as Go's runtime writes for an unknown
// function or file, and line 1 for a frame with no line.
void complete(std::vector<SymbolFrame>& frames) {
  for (SymbolFrame& f : frames) {
    if (f.func.empty()) f.func = "?";
    if (f.file.empty()) f.file = "?";
    if (f.line == 0) f.line = 1;
    if (f.pc == 0) f.pc = 1;
  }
}

}  // namespace

const std::vector<SymbolFrame>& Symbolizer::frames(uint64_t pc) {
  std::lock_guard lock(mu_);
  auto it = cache_.find(pc);
  if (it == cache_.end()) it = cache_.emplace(pc, resolve(pc)).first;
  return it->second;
}

void Symbolizer::warm_up() {
  std::call_once(warm_up_, [this] {
    // The runtime lives as long as the process, so the thread may outlive any trace.
    std::thread([this] { frames(uint64_t(reinterpret_cast<uintptr_t>(&demangle))); }).detach();
  });
}

std::vector<SymbolFrame> Symbolizer::resolve(uint64_t pc) {
  std::vector<SymbolFrame> out;
  if (LabelRegistry::is_label(pc)) {
    out.push_back({pc, labels_.name(pc), kLabelFile, 1});
    complete(out);
    return out;
  }
  // `symbol`: the physical function's name from the symbol tables, which have every
  // function with its full name, where DWARF leaves the scope or parameters out of some
  // (internal functions, coroutine bodies).
  std::string symbol;
  bool have_libbacktrace = false;
#ifdef GOTRACE_TRACER_LIBBACKTRACE
  if (!state_tried_) {
    state_tried_ = true;
    state_ = backtrace_create_state(nullptr, 1, on_error, nullptr);
  }
  if (state_) {
    have_libbacktrace = true;
    auto* st = static_cast<backtrace_state*>(state_);
    backtrace_pcinfo(st, uintptr_t(pc), on_pcinfo, on_error, &out);
    backtrace_syminfo(st, uintptr_t(pc), on_syminfo, on_error, &symbol);
  }
#endif
  // The module: its path names code that nothing else names. dladdr also searches the
  // module's exported symbols, which only a build without libbacktrace needs.
  std::string module;
  uint64_t module_base = 0;
  bool have_module = false;
  if (have_libbacktrace) {
    have_module = code_module_of(pc, module, module_base);
  } else {
    Dl_info info{};
    have_module = dladdr(reinterpret_cast<void*>(pc), &info) != 0 && info.dli_fname;
    if (have_module) {
      module = info.dli_fname;
      module_base = uint64_t(uintptr_t(info.dli_fbase));
      // dladdr knows only exported symbols and cannot tell whether the PC is inside the
      // one it names: a last resort.
      if (symbol.empty() && info.dli_sname) symbol = demangle(info.dli_sname);
    }
  }
  if (symbol.empty() && have_module) {
    // Nothing names this code: name it by module and offset, which tools can resolve later.
    char buf[64];
    std::snprintf(buf, sizeof buf, "+0x%llx", (unsigned long long)(pc - module_base));
    const size_t slash = module.rfind('/');
    symbol = (slash == std::string::npos ? module : module.substr(slash + 1)) + buf;
  }
  if (out.empty()) out.push_back({pc, symbol, module, 0});
  SymbolFrame& physical = out.back();
  if (physical.func.empty() || (physical.func.find('(') == std::string::npos && symbol.find('(') != std::string::npos))
    physical.func = symbol;
  if (physical.file.empty() && have_module) physical.file = module;
  // The reader keys frames by PC (FORMAT.md §2.4), so the outer frames of an inlined call
  // chain get PCs of their own: the real PC with the depth in the top byte, above any
  // user address.
  if (out.size() > 64) out.resize(64);
  for (size_t i = 0; i < out.size(); i++) out[i].pc = i == 0 ? pc : (pc | (uint64_t(i) << 56));
  complete(out);
  return out;
}

}  // namespace gotrace::tracer::detail
