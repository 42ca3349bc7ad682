// gzip (RFC 1952) around DEFLATE (RFC 1951), written here because the core links no
// zlib and must build to WebAssembly as it is. The compressor is LZ77 with hash chains
// and DEFLATE's fixed Huffman codes; input that would not shrink goes into stored
// blocks. pprof files are small and repetitive (string tables), so this is plenty.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace gotrace::analysis {

// CRC-32 (IEEE, as gzip and zlib compute it), continuing from `crc`.
uint32_t crc32(std::span<const uint8_t> data, uint32_t crc = 0);

// A raw DEFLATE stream (no zlib or gzip framing).
std::vector<uint8_t> deflate(std::span<const uint8_t> data);

// A gzip member: header, DEFLATE stream, CRC-32 and length.
std::vector<uint8_t> gzip(std::span<const uint8_t> data);

}  // namespace gotrace::analysis
