// Test helpers over ../shared: the trace corpus, Go's reference outputs (zstd), the
// golden tests, and the canonical form of dumps (../shared/tools/canon-dump).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gotrace/reader.h"

namespace gotrace::test {

std::string shared_dir();                   // GOTRACE_SHARED_DIR
std::string corpus_path(const std::string& name);  // shared/corpus/go/NAME
bool file_exists(const std::string& path);
std::vector<uint8_t> read_bytes(const std::string& path);
std::string read_text(const std::string& path);
std::string read_zstd(const std::string& path);  // decompresses a .zst file

// Names (without .trace) of corpus traces whose name matches any of the globs.
std::vector<std::string> corpus_traces(const std::vector<std::string>& globs);

// The text `gotrace dump` prints for a read result, without the exit line.
std::string dump_text(const ReadResult& r);

// The canonical form of a dump (clusters of events < 8 ns apart as sorted sets).
std::string canon_dump(const std::string& dump);

// Drops the last line if it starts with "exit=".
std::string strip_exit_line(std::string text);

// Runs a shell command; returns its exit status and captures stdout.
int run_command(const std::string& cmd, std::string* out = nullptr);

// The path of the built gotrace CLI.
std::string cli_path();

}  // namespace gotrace::test
