// SHA-256 (FIPS 180-4), for comparing listings with the hashes of Go's reference
// listings that the corpus keeps in place of the listings themselves.
#pragma once

#include <string>

namespace gotrace::test {

// The digest of `data` as 64 lowercase hex digits, as sha256sum prints it.
std::string sha256_hex(const std::string& data);

}  // namespace gotrace::test
