// SqlParquetWriter: the SQL tables as Parquet files (gotrace/analysis/sql_parquet.h).
// Layout: "PAR1", then per row group and column a data page (v1) preceded by a
// dictionary page for VARCHARs, then the footer (FileMetaData in Thrift's compact
// protocol), its length and "PAR1". Every column is OPTIONAL: a NULL is a definition
// level of 0 and no value.
#include "gotrace/analysis/sql_parquet.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "analysis/sql/delta_binary_packed.h"
#include "analysis/sql/rle_hybrid.h"
#include "analysis/sql/thrift_compact.h"

namespace gotrace::analysis {

namespace {

using detail::RleHybridEncoder;
using detail::ThriftWriter;

constexpr std::string_view kMagic = "PAR1";

// parquet.thrift's numbers.
enum PhysicalType : int32_t { Boolean = 0, Int32 = 1, Int64 = 2, Double = 5, ByteArray = 6 };
enum Encoding : int32_t { Plain = 0, Rle = 3, DeltaBinaryPacked = 5, RleDictionary = 8 };
enum PageType : int32_t { DataPage = 0, DictionaryPage = 2 };
constexpr int32_t kOptional = 1;
constexpr int32_t kConvertedUtf8 = 0;

PhysicalType physical(SqlType t) {
  switch (t) {
    case SqlType::BigInt: return Int64;
    case SqlType::Integer: return Int32;
    case SqlType::Double: return Double;
    case SqlType::Boolean: return Boolean;
    case SqlType::Varchar: return ByteArray;
  }
  return Int64;
}

template <class T>
void put(std::string& out, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));  // little-endian, as every machine the core runs on
  out.append(b, sizeof(T));
}

void page_header(std::string& out, PageType type, size_t size, int32_t values, Encoding encoding) {
  if (size > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw std::length_error("a Parquet page over 2 GiB (make the row groups smaller)");
  ThriftWriter w(out);
  w.i32(1, type);
  w.i32(2, static_cast<int32_t>(size));  // uncompressed
  w.i32(3, static_cast<int32_t>(size));  // compressed: the same
  if (type == DataPage) {
    w.begin(5);
    w.i32(1, values);
    w.i32(2, encoding);
    w.i32(3, Rle);  // definition levels
    w.i32(4, Rle);  // repetition levels (none: a flat schema)
    w.end();
  } else {
    w.begin(7);
    w.i32(1, values);
    w.i32(2, Plain);
    w.end();
  }
  w.end();
}

}  // namespace

// Buffers kept from one column chunk to the next: in WebAssembly a fresh large buffer
// costs a copy at each growth, through JavaScript.
struct SqlParquetWriter::Scratch {
  std::string group, page, dictionary;
  std::vector<int64_t> gathered;
  std::vector<uint32_t> indices;
  std::vector<int32_t> local;
};

namespace {

// One column chunk of rows [from, to): its pages, appended to `out`.
class ChunkEncoder {
 public:
  ChunkEncoder(const SqlColumn& c, size_t from, size_t to, SqlParquetWriter::Scratch& scratch)
      : c_(c), from_(from), to_(to), x_(scratch) {}

  SqlParquetWriter::ColumnChunk encode(std::string& out, uint64_t base) {
    SqlParquetWriter::ColumnChunk meta;
    meta.start = base + out.size();
    const size_t n = to_ - from_;
    if (!c_.nulls.empty())
      meta.nulls = static_cast<uint64_t>(std::count(c_.nulls.begin() + static_cast<ptrdiff_t>(from_),
                                                    c_.nulls.begin() + static_cast<ptrdiff_t>(to_), uint8_t{1}));
    std::string& page = x_.page;
    page.clear();
    levels(page, n, meta.nulls);
    Encoding encoding = Plain;
    switch (c_.type) {
      case SqlType::BigInt:
        meta.min_max = deltas(page, n - meta.nulls);
        if (meta.nulls < n) encoding = DeltaBinaryPacked;
        break;
      case SqlType::Integer: meta.min_max = plain_numbers(page, c_.int32s); break;
      case SqlType::Double: plain_numbers(page, c_.doubles); break;
      case SqlType::Boolean: plain_bools(page); break;
      case SqlType::Varchar:
        if (meta.nulls < n) {
          std::string& dictionary = x_.dictionary;
          dictionary.clear();
          const int32_t words = dictionary_indices(page, dictionary);
          meta.dictionary_page = base + out.size();
          page_header(out, DictionaryPage, dictionary.size(), words, Plain);
          out += dictionary;
          encoding = RleDictionary;
          meta.dictionary = true;
        }
        break;
    }
    meta.encodings = {Rle, encoding};
    if (meta.dictionary) meta.encodings.push_back(Plain);
    meta.data_page = base + out.size();
    page_header(out, DataPage, page.size(), static_cast<int32_t>(n), encoding);
    out += page;
    meta.size = base + out.size() - meta.start;
    return meta;
  }

 private:
  bool present(size_t row) const { return c_.nulls.empty() || !c_.nulls[row]; }

  // Definition levels, prefixed by their length: 1 for a value, 0 for NULL.
  void levels(std::string& page, size_t n, uint64_t nulls) {
    const size_t at = page.size();
    put<uint32_t>(page, 0);
    RleHybridEncoder e(page, 1);
    if (nulls == 0 || nulls == n) {
      e.run(nulls == 0 ? 1 : 0, n);
      e.finish();
    } else {
      e.packed_levels(c_.nulls.data() + from_, n);
    }
    const auto size = static_cast<uint32_t>(page.size() - at - 4);
    std::memcpy(page.data() + at, &size, 4);
  }

  // The present values of a BIGINT column, delta-encoded; their minimum and maximum.
  std::optional<std::pair<int64_t, int64_t>> deltas(std::string& page, size_t present_count) {
    if (present_count == 0) return std::nullopt;
    const int64_t* v = c_.ints.data() + from_;
    const size_t n = to_ - from_;
    std::vector<int64_t>& gathered = x_.gathered;
    if (present_count < n) {
      // Branch-free: every value is stored, the cursor moves past the present ones.
      gathered.resize(n + 1);
      int64_t* out = gathered.data();
      const uint8_t* null = c_.nulls.data() + from_;
      size_t k = 0;
      for (size_t i = 0; i < n; i++) {
        out[k] = v[i];
        k += null[i] ^ 1u;
      }
      v = out;
    }
    return detail::delta_binary_packed(page, present_count, [v](size_t i) { return v[i]; });
  }

  // The present values, plain; the integers' minimum and maximum.
  template <class T>
  std::optional<std::pair<int64_t, int64_t>> plain_numbers(std::string& page, const std::vector<T>& v) {
    std::optional<std::pair<int64_t, int64_t>> mm;
    const size_t at = page.size();
    if (c_.nulls.empty()) {
      page.append(reinterpret_cast<const char*>(v.data() + from_), (to_ - from_) * sizeof(T));
    } else {
      page.resize(at + (to_ - from_) * sizeof(T));
      char* p = page.data() + at;
      for (size_t i = from_; i < to_; i++) {
        if (!c_.nulls[i]) {
          std::memcpy(p, &v[i], sizeof(T));
          p += sizeof(T);
        }
      }
      page.resize(static_cast<size_t>(p - page.data()));
    }
    if constexpr (std::is_integral_v<T>) {
      for (size_t i = from_; i < to_; i++) {
        if (!present(i)) continue;
        const auto x = static_cast<int64_t>(v[i]);
        if (!mm) mm.emplace(x, x);
        mm->first = std::min(mm->first, x);
        mm->second = std::max(mm->second, x);
      }
    }
    return mm;
  }

  void plain_bools(std::string& page) {
    uint8_t byte = 0;
    int bits = 0;
    for (size_t i = from_; i < to_; i++) {
      if (!present(i)) continue;
      byte |= static_cast<uint8_t>((c_.bools[i] & 1) << bits);
      if (++bits == 8) {
        page.push_back(static_cast<char>(byte));
        byte = 0;
        bits = 0;
      }
    }
    if (bits) page.push_back(static_cast<char>(byte));
  }

  // The strings the rows use, in order of first use, as the dictionary page (plain byte
  // arrays); the rows as indices into it. Returns the dictionary's size.
  int32_t dictionary_indices(std::string& page, std::string& dictionary) {
    std::vector<int32_t>& local = x_.local;
    local.assign(c_.dictionary.size(), -1);
    std::vector<uint32_t>& indices = x_.indices;
    indices.resize(to_ - from_ + 1);
    int32_t used = 0;
    const int32_t* codes = c_.int32s.data();
    const uint8_t* null = c_.nulls.empty() ? nullptr : c_.nulls.data();
    uint32_t* out = indices.data();
    size_t k = 0;
    for (size_t i = from_; i < to_; i++) {
      // A NULL row's code (0) is looked up too, branch-free, and its index overwritten.
      const auto code = static_cast<size_t>(codes[i]);
      if (local[code] < 0) [[unlikely]] {
        local[code] = used++;
        const std::string& s = c_.dictionary[code];
        put<uint32_t>(dictionary, static_cast<uint32_t>(s.size()));
        dictionary += s;
      }
      out[k] = static_cast<uint32_t>(local[code]);
      k += null ? null[i] ^ 1u : 1u;
    }
    indices.resize(k);
    const int width = std::max(1, static_cast<int>(std::bit_width(static_cast<uint32_t>(used - 1))));
    page.push_back(static_cast<char>(width));
    RleHybridEncoder e(page, width);
    e.packed(indices.size(), [&](size_t i) { return indices[i]; });
    return used;
  }

  const SqlColumn& c_;
  size_t from_, to_;
  SqlParquetWriter::Scratch& x_;
};

std::string le_bytes(int64_t v, PhysicalType type) {
  std::string s;
  if (type == Int32) put<int32_t>(s, static_cast<int32_t>(v));
  else put<int64_t>(s, v);
  return s;
}

}  // namespace

SqlParquetWriter::SqlParquetWriter(const SqlTableSpec& spec, ParquetSink sink)
    : spec_(spec), sink_(std::move(sink)), scratch_(std::make_unique<Scratch>()) {}

SqlParquetWriter::~SqlParquetWriter() = default;

void SqlParquetWriter::emit(const std::string& bytes) {
  sink_(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
  offset_ += bytes.size();
}

void SqlParquetWriter::begin() {
  if (begun_) return;
  begun_ = true;
  emit(std::string(kMagic));
}

void SqlParquetWriter::write(const SqlTable& t, size_t group_rows) {
  if (finished_) throw std::logic_error("Parquet file already finished");
  if (t.columns.size() != spec_.columns.size()) throw std::logic_error("Parquet: the table's columns are not the spec's");
  begin();
  group_rows = std::max<size_t>(group_rows, 1);
  for (size_t from = 0; from < t.rows; from += group_rows) write_group(t, from, std::min(t.rows, from + group_rows));
}

void SqlParquetWriter::write_group(const SqlTable& t, size_t from, size_t to) {
  RowGroup g;
  g.rows = to - from;
  std::string& out = scratch_->group;
  out.clear();
  for (const SqlColumn& c : t.columns) g.columns.push_back(ChunkEncoder(c, from, to, *scratch_).encode(out, offset_));
  emit(out);
  rows_ += g.rows;
  groups_.push_back(std::move(g));
}

void SqlParquetWriter::finish() {
  if (finished_) return;
  begin();
  finished_ = true;
  std::string footer;
  ThriftWriter w(footer);
  w.i32(1, 1);  // version
  w.list(2, ThriftWriter::Struct, spec_.columns.size() + 1);
  w.element();  // the root: a group of every column
  w.binary(4, "schema");
  w.i32(5, static_cast<int32_t>(spec_.columns.size()));
  w.end();
  for (const SqlColumnSpec& c : spec_.columns) {
    w.element();
    w.i32(1, physical(c.type));
    w.i32(3, kOptional);
    w.binary(4, c.name);
    if (c.type == SqlType::Varchar) {
      w.i32(6, kConvertedUtf8);
      w.begin(10);  // logicalType: STRING
      w.begin(1);
      w.end();
      w.end();
    }
    w.end();
  }
  w.i64(3, static_cast<int64_t>(rows_));
  w.list(4, ThriftWriter::Struct, groups_.size());
  for (size_t k = 0; k < groups_.size(); k++) {
    const RowGroup& g = groups_[k];
    uint64_t size = 0;
    for (const ColumnChunk& c : g.columns) size += c.size;
    w.element();
    w.list(1, ThriftWriter::Struct, g.columns.size());
    for (size_t col = 0; col < g.columns.size(); col++) {
      const ColumnChunk& c = g.columns[col];
      const SqlColumnSpec& spec = spec_.columns[col];
      const PhysicalType type = physical(spec.type);
      w.element();
      w.i64(2, static_cast<int64_t>(c.start));
      w.begin(3);  // ColumnMetaData
      w.i32(1, type);
      w.list(2, ThriftWriter::I32, c.encodings.size());
      for (int32_t e : c.encodings) w.list_i32(e);
      w.list(3, ThriftWriter::Binary, 1);
      w.list_binary(spec.name);
      w.i32(4, 0);  // uncompressed
      w.i64(5, static_cast<int64_t>(g.rows));
      w.i64(6, static_cast<int64_t>(c.size));
      w.i64(7, static_cast<int64_t>(c.size));
      w.i64(9, static_cast<int64_t>(c.data_page));
      if (c.dictionary_page) w.i64(11, static_cast<int64_t>(*c.dictionary_page));
      w.begin(12);  // Statistics
      w.i64(3, static_cast<int64_t>(c.nulls));
      if (c.min_max) {
        w.binary(5, le_bytes(c.min_max->second, type));
        w.binary(6, le_bytes(c.min_max->first, type));
      }
      w.end();
      w.end();
      w.end();
    }
    w.i64(2, static_cast<int64_t>(size));
    w.i64(3, static_cast<int64_t>(g.rows));
    if (!g.columns.empty()) w.i64(5, static_cast<int64_t>(g.columns.front().start));
    w.i64(6, static_cast<int64_t>(size));
    w.i16(7, static_cast<int16_t>(std::min<size_t>(k, 32767)));  // ordinal
    w.end();
  }
  w.binary(6, "gotrace");
  w.end();
  put<uint32_t>(footer, static_cast<uint32_t>(footer.size()));
  footer += kMagic;
  emit(footer);
}

void write_sql_parquet(const SqlSource& source, std::string_view table, const ParquetSink& sink, size_t from,
                       std::optional<size_t> to, size_t group_rows) {
  const SqlTableSpec* spec = find_sql_table(table);
  if (!spec) throw std::invalid_argument("unknown table " + std::string(table));
  SqlParquetWriter w(*spec, sink);
  if (table == "events" || table == "g_transitions") {
    // Built a row group at a time: the whole table is the trace again.
    const size_t end = std::min(to.value_or(SIZE_MAX), sql_table_rows(source, table));
    for (size_t at = from; at < end; at += group_rows) w.write(sql_table(source, table, at, std::min(group_rows, end - at)), group_rows);
  } else {
    w.write(sql_table(source, table), group_rows);
  }
  w.finish();
}

}  // namespace gotrace::analysis
