// Go's strconv.Quote (the %q verb), byte for byte.
#pragma once

#include <string>
#include <string_view>

namespace gotrace {

void append_go_quoted(std::string& out, std::string_view s);
std::string go_quote(std::string_view s);

// Appends a rune as UTF-8 (Go's utf8.AppendRune for a valid rune).
void append_utf8(std::string& out, char32_t r);

// Go's strconv.IsPrint for one rune.
bool go_is_print(char32_t r);

}  // namespace gotrace
