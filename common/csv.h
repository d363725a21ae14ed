// CSV rows with named columns, appended to a file; the header is written when the file is
// new or empty, and an existing file must have the same header (else a UsageError: mixing
// two layouts in one file would break every plot that reads it).
#pragma once

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "options.h"

namespace cw {

class CsvRow {
  public:
    CsvRow& add(const std::string& column, const std::string& value) {
        cells_.emplace_back(column, quote(value));
        return *this;
    }
    CsvRow& add(const std::string& column, const char* value) { return add(column, std::string(value)); }
    CsvRow& add(const std::string& column, long long value) {
        cells_.emplace_back(column, std::to_string(value));
        return *this;
    }
    CsvRow& add(const std::string& column, int value) { return add(column, static_cast<long long>(value)); }
    CsvRow& add(const std::string& column, unsigned long long value) {
        cells_.emplace_back(column, std::to_string(value));
        return *this;
    }
    CsvRow& add(const std::string& column, unsigned long value) {
        return add(column, static_cast<unsigned long long>(value));
    }
    CsvRow& add(const std::string& column, bool value) { return add(column, value ? 1LL : 0LL); }
    // Doubles with `digits` significant digits; NaN and infinities as nan/inf/-inf, and an
    // unavailable measurement (pass NAN) as an empty cell when empty_if_nan is set.
    CsvRow& add(const std::string& column, double value, int digits = 6, bool empty_if_nan = false) {
        std::string text;
        if (std::isnan(value)) {
            text = empty_if_nan ? "" : "nan";
        } else if (std::isinf(value)) {
            text = value > 0 ? "inf" : "-inf";
        } else {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.*g", digits, value);
            text = buf;
        }
        cells_.emplace_back(column, text);
        return *this;
    }

    std::string header() const { return join(true); }
    std::string values() const { return join(false); }

  private:
    static std::string quote(const std::string& v) {
        if (v.find_first_of(",\"\n") == std::string::npos) return v;
        std::string q = "\"";
        for (char c : v) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    }
    std::string join(bool names) const {
        std::string line;
        for (std::size_t i = 0; i < cells_.size(); ++i) {
            if (i) line += ',';
            line += names ? cells_[i].first : cells_[i].second;
        }
        return line;
    }
    std::vector<std::pair<std::string, std::string>> cells_;
};

// The first line of `path` ("" when the file is missing or empty).
inline std::string csv_file_header(const std::string& path) {
    std::ifstream in(path);
    std::string header;
    if (in) std::getline(in, header);
    return header;
}

inline void check_same_columns(const std::string& path, const std::string& existing, const std::string& ours) {
    if (!existing.empty() && existing != ours)
        throw UsageError("CSV file '" + path + "' has different columns; use a new file");
}

// Appends the row to `path`, writing the header first when the file is new or empty.
inline void csv_append(const std::string& path, const CsvRow& row) {
    const std::string existing_header = csv_file_header(path);
    check_same_columns(path, existing_header, row.header());
    std::ofstream out(path, std::ios::app);
    if (!out) throw UsageError("cannot write CSV file '" + path + "'");
    if (existing_header.empty()) out << row.header() << '\n';
    out << row.values() << '\n';
    if (!out) throw UsageError("cannot write CSV file '" + path + "'");
}

// Checked before any GPU work: the CSV file can be opened for appending.
inline void check_csv_writable(const std::string& path) {
    std::ofstream out(path, std::ios::app);
    if (!out) throw UsageError("cannot write CSV file '" + path + "'");
}

// Checked before any GPU work (csv_append checks again, but only after the runs): the file
// can be appended to, and if it already has a header, it is `header` (the program's columns,
// e.g. an empty row's header()).
inline void check_csv_file(const std::string& path, const std::string& header) {
    check_same_columns(path, csv_file_header(path), header);
    check_csv_writable(path);
}

}  // namespace cw
