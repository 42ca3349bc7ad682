// Test helpers over the test corpus (tests/corpus: real traces, Go's reference outputs,
// Go's golden tests and fuzz seeds; see its README.md), and the canonical form of dumps
// (tools/canon_dump.py).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gotrace/event_format.h"
#include "gotrace/reader.h"

namespace gotrace::test {

std::string corpus_dir();                          // GOTRACE_CORPUS_DIR (tests/corpus)
std::string corpus_path(const std::string& name);  // corpus/go/NAME
std::string newest_path(const std::string& name);  // corpus/newest/NAME
std::string golden_dir();                          // corpus/golden: Go's reader golden tests
std::string fuzz_dir();                            // corpus/fuzz: Go's fuzz seeds

// The 94 MB trace (zstd) of the shared corpus beside the checkout (GOTRACE_SHARED_DIR),
// for the tests that read it; nullopt when it is not there, or under GOTRACE_CORPUS_SAMPLE.
std::optional<std::string> large_trace_path();

bool file_exists(const std::string& path);
std::vector<uint8_t> read_bytes(const std::string& path);
std::string read_text(const std::string& path);
std::string read_zstd(const std::string& path);  // decompresses a .zst file

// Names (without .trace) of corpus traces whose name matches any of the globs.
std::vector<std::string> corpus_traces(const std::vector<std::string>& globs);
// Whether those give the sample (GOTRACE_CORPUS_SAMPLE=1), for tests that count what they saw.
bool corpus_sampled();
// Every trace of the corpus that Go 1.23 or 1.27 reads: "NAME" in corpus/go, then
// "newest/NAME" in corpus/newest; sorted. With GOTRACE_CORPUS_SAMPLE=1 (the sanitized
// run), corpus_traces and every_trace give a sample: every program and mode, under half
// the bytes.
std::vector<std::string> every_trace();
// Whether such a name is of corpus/newest ("newest/NAME").
bool is_newest(const std::string& name);
// The path of such a name.
std::string trace_path(const std::string& name);
// The paths of every_trace()'s traces, or of those in corpus/DIR ("go" or "newest") alone.
std::vector<std::string> every_trace_path(const std::string& dir = "");
// Calls f(name, bytes, whole) for each Go 1.22+ trace of every_trace() read without a
// problem, read with resume points (ReadOptions::resume_points: its generations can be
// read again from `bytes`).
void for_each_v2_trace_with_resume_points(
    const std::function<void(const std::string& name, const std::vector<uint8_t>& bytes, const ReadResult& whole)>& f);

// Go's listing of a trace as the corpus keeps it: BASE.zst, the listing itself, or where
// that is large BASE.canon.sha256, `SHA lines=N exit=RC`: the sha256 of its canonical
// form, its line count and Go's exit status.
struct ReferenceListing {
  bool found = false;
  std::optional<std::string> text;  // the listing (no exit line), where kept whole
  std::string canon_sha256;
  size_t lines = 0;
  int exit_code = 0;
};
ReferenceListing reference_listing(const std::string& base);
// The same from BASE.canon.sha256 alone (not found if there is none).
ReferenceListing reference_hash(const std::string& base);

// Empty when `ours` equals the reference up to the order of tied events; otherwise what
// differs (the first differing line of the canonical forms, or the hashes).
std::string canonical_difference(const std::string& ours, const ReferenceListing& ref);

// The text `gotrace dump` prints for a result read_go127 gave, without the exit line
// (with GoListing::Go123, of a result read_go123 gave: what `gotrace dump --go=1.23` prints).
std::string dump_text(const ReadResult& r, GoListing listing = GoListing::Go127);

// Reads a trace with its Syncs where Go 1.23 placed them (for Go 1.23's references),
// or where Go 1.27 places them (for Go 1.27's).
ReadResult read_go123(std::span<const uint8_t> bytes);
ReadResult read_go127(std::span<const uint8_t> bytes);

// The canonical form of a dump (clusters of events < 8 ns apart as sorted sets).
std::string canon_dump(const std::string& dump);

// Drops the last line if it starts with "exit=".
std::string strip_exit_line(std::string text);

// Runs a shell command; returns its exit status and captures stdout.
int run_command(const std::string& cmd, std::string* out = nullptr);

// The path of the built gotrace CLI.
std::string cli_path();

}  // namespace gotrace::test
