// gotrace convert: between the binary trace format and Go's raw text format.
#include <cstring>
#include <stdexcept>
#include <string>

#include "command.h"
#include "file_io.h"
#include "gotrace/raw_format.h"

namespace gotrace::cli {
namespace {

bool looks_binary(const std::vector<uint8_t>& b) { return b.size() >= 3 && std::memcmp(b.data(), "go ", 3) == 0; }

int run_convert(const Args& args) {
  if (args.positional().size() != 2) throw std::runtime_error("expected IN and OUT (see --help)");
  std::string to = args.value("to");
  if (to != "text" && to != "binary") throw std::runtime_error("--to must be text or binary");
  std::vector<uint8_t> in = read_file(args.positional()[0]);
  const std::string& out = args.positional()[1];
  bool binary_in = looks_binary(in);
  std::string_view text(reinterpret_cast<const char*>(in.data()), in.size());
  if (to == "text") {
    std::string t = binary_in ? binary_to_text(in) : binary_to_text(text_to_binary(text));
    write_file(out, t.data(), t.size());
  } else {
    std::vector<uint8_t> b = binary_in ? text_to_binary(binary_to_text(in)) : text_to_binary(text);
    write_file(out, b.data(), b.size());
  }
  return 0;
}

Register reg({
    "convert",
    "convert a v2 trace between the binary format and Go's raw text format",
    "Usage: gotrace convert --to=text|binary IN OUT\n\n"
    "Converts a Go 1.22+ trace between the binary format and Go's raw text format (the\n"
    "format of Go's golden tests and of `go tool trace -d=2`: one wire event per line,\n"
    "`Trace Go1.N` first). The input's format is detected; \"-\" is standard input or\n"
    "output. Events are converted as they are on the wire: nothing is ordered or checked,\n"
    "so a broken trace converts too (and `gotrace dump` then tells what is wrong).\n",
    {"to"},
    {"to"},
    run_convert,
});

}  // namespace
}  // namespace gotrace::cli
