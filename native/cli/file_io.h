// Reading and writing whole files for the CLI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gotrace::cli {

// Reads a file ("-" is standard input); throws std::runtime_error with the OS's reason.
std::vector<uint8_t> read_file(const std::string& path);
void write_file(const std::string& path, const void* data, size_t size);

}  // namespace gotrace::cli
