// Command-line options: a table of long options (--name=value), optional positional forms,
// a --help generated from the table, and a one-line error with exit status 2 for anything
// wrong, before any GPU work. Header-only; every function is inline.
//
// The command-line contract every program follows (README.md, "One command line") is
// enforced here and in registry.h: the shared options and their ranges (SharedOptions), the
// integer grammar (parse_integer), the --sizes grammar (parse_size_list), and the message
// shape ("program: error: ...", one line, control characters escaped).
#pragma once

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "exit_codes.h"

namespace cw {

namespace detail {

// The length (2 to 4) of the well-formed UTF-8 sequence that starts at text[i], a byte of 0x80 or
// more; 0 where none does (a stray continuation byte, an overlong form, a surrogate, a code
// point past U+10FFFF, a sequence cut short): the table of well-formed sequences of Unicode's
// chapter 3, whose second byte alone has a narrower range after E0, ED, F0 and F4.
inline std::size_t utf8_sequence(const std::string& text, std::size_t i) {
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    unsigned lo = 0x80, hi = 0xbf;  // the second byte's range
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) length = 3;
    else if (lead >= 0xf0 && lead <= 0xf4) length = 4;
    if (lead == 0xe0) lo = 0xa0;
    if (lead == 0xed) hi = 0x9f;
    if (lead == 0xf0) lo = 0x90;
    if (lead == 0xf4) hi = 0x8f;
    if (length == 0 || text.size() - i < length) return 0;
    for (std::size_t k = 1; k < length; ++k) {
        const unsigned char b = static_cast<unsigned char>(text[i + k]);
        if (b < (k == 1 ? lo : 0x80u) || b > (k == 1 ? hi : 0xbfu)) return 0;
    }
    return length;
}

inline void append_hex_bytes(std::string& out, const std::string& text, std::size_t i, std::size_t count) {
    static const char* const kHex = "0123456789abcdef";
    for (std::size_t k = i; k < i + count; ++k) {
        const unsigned char c = static_cast<unsigned char>(text[k]);
        out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
    }
}

}  // namespace detail

// User text in a message, safe to print on a terminal and on one line: the C0 controls and DEL
// (a newline in a value, say) are written as \n, \t, \r or \xNN; the C1 controls U+0080 to
// U+009F (UTF-8 C2 80 to C2 9F: U+009B is a terminal's CSI, U+0085 a line break) and every byte
// that is not part of well-formed UTF-8 as \xNN per byte, as a shell's $'...' would type them.
// Well-formed UTF-8 above U+009F (a name with an accent) is kept as it is.
inline std::string printable(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const std::size_t length = c < 0x80 ? 1 : detail::utf8_sequence(text, i);
        const bool c1 = length == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0;
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if (c < 0x20 || c == 0x7f || length == 0 || c1) detail::append_hex_bytes(out, text, i, c1 ? 2 : 1);
        else out.append(text, i, length);
        i += length == 0 ? 1 : length;
    }
    return out;
}

// Thrown for every user error (options, sizes, input files). cw::run_main turns it into
// "program: error: message" (one line) and exit status 2.
struct UsageError : std::runtime_error {
    explicit UsageError(const std::string& what) : std::runtime_error(printable(what)) {}
};

namespace detail {

// Digits only, no sign, no blanks, any length: leading zeros are read as such
// (0001000 is 1000) and a value past unsigned long long saturates at ULLONG_MAX, which the
// caller reports as out of range (45 digits get the same message as 20).
inline bool parse_digits(const std::string& text, unsigned long long* out) {
    if (text.empty()) return false;
    unsigned long long v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        const unsigned d = static_cast<unsigned>(c - '0');
        if (v > (ULLONG_MAX - d) / 10) {
            v = ULLONG_MAX;  // saturate: out of range, reported as such
            continue;
        }
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

inline unsigned long long saturating_pow(unsigned long long base, unsigned long long exponent) {
    unsigned long long v = 1;
    for (unsigned long long i = 0; i < exponent; ++i) {
        if (base != 0 && v > ULLONG_MAX / base) return ULLONG_MAX;
        v *= base;
        if (v == 0) return 0;
    }
    return v;
}

}  // namespace detail

inline std::string range_text(long long lo, long long hi) {
    return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

// Strict integer parsing. Accepted forms, with nothing around them (no blanks): decimal
// digits with an optional leading '-' (1250000, -3), a power B^E (2^28), and a decimal
// exponent M e E with integer M (1e6, 5e7, 1E6). Every value outside [lo, hi], however it is
// spelled (2^63, 1e19, twenty digits), gets the same message: "... is out of range [lo, hi]".
inline long long parse_integer(const std::string& name, const std::string& text, long long lo, long long hi) {
    const std::string shown = "option --" + name + "=" + text;
    if (text.empty()) throw UsageError("option --" + name + " needs a value");
    const bool negative = text[0] == '-';
    const std::string body = negative ? text.substr(1) : text;
    unsigned long long magnitude = 0;
    const std::size_t caret = body.find('^');
    const std::size_t e = body.find_first_of("eE");
    const auto not_integer = [&]() {
        return UsageError("option --" + name + " expects an integer (e.g. 1000, 1e6, 2^20), got '" + text + "'");
    };
    if (caret != std::string::npos) {
        unsigned long long base = 0, exponent = 0;
        if (!detail::parse_digits(body.substr(0, caret), &base) ||
            !detail::parse_digits(body.substr(caret + 1), &exponent))
            throw not_integer();
        magnitude = detail::saturating_pow(base, exponent > 200 ? 200 : exponent);
        if (base > 1 && exponent > 200) magnitude = ULLONG_MAX;
    } else if (e != std::string::npos) {
        unsigned long long mantissa = 0, exponent = 0;
        if (!detail::parse_digits(body.substr(0, e), &mantissa) || !detail::parse_digits(body.substr(e + 1), &exponent))
            throw not_integer();
        const unsigned long long scale = detail::saturating_pow(10, exponent > 40 ? 40 : exponent);
        magnitude = (mantissa != 0 && scale > ULLONG_MAX / mantissa) ? ULLONG_MAX : mantissa * scale;
    } else if (!detail::parse_digits(body, &magnitude)) {
        throw not_integer();
    }
    const bool fits = negative ? magnitude <= static_cast<unsigned long long>(LLONG_MAX) + 1ULL
                               : magnitude <= static_cast<unsigned long long>(LLONG_MAX);
    long long value = 0;
    if (fits) value = negative ? static_cast<long long>(0ULL - magnitude) : static_cast<long long>(magnitude);
    if (!fits || value < lo || value > hi) throw UsageError(shown + " is out of range " + range_text(lo, hi));
    return value;
}

inline double parse_real(const std::string& name, const std::string& text, double lo, double hi) {
    if (text.empty()) throw UsageError("option --" + name + " needs a value");
    if (std::string(" \t\n\r\f\v").find(text[0]) != std::string::npos)
        throw UsageError("option --" + name + " expects a number, got '" + text + "'");
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || errno == ERANGE || !(value == value) || value > 1e308 || value < -1e308)
        throw UsageError("option --" + name + " expects a number, got '" + text + "'");
    if (value < lo || value > hi) {
        std::ostringstream msg;
        msg << "option --" << name << "=" << text << " is out of range [" << lo << ", " << hi << "]";
        throw UsageError(msg.str());
    }
    return value;
}

// Splits "a,b,c" into its items. An empty item ("a,,b", a trailing comma, or an empty
// text) is a usage error naming the option: the same answer in every program.
inline std::vector<std::string> split_list(const std::string& name, const std::string& text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty()) throw UsageError("option --" + name + "='" + text + "' has an empty item");
        items.push_back(item);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return items;
}

// The one --sizes grammar: a comma list of items, each an integer in parse_integer's forms
// (1250000, 1e6, 2^20) or an inclusive range A..B of every integer between (at most
// kMaxSizes sizes in all). Every size must lie in [lo, hi]. Duplicates are kept (a size
// given twice runs twice, in the order given).
constexpr std::size_t kMaxSizes = 100000;

// One item of that grammar (N or A..B), appended to `sizes`. `shown` is the item as the
// user wrote it, for the messages (the whole MxN for one side of a shape).
inline void append_size_item(const std::string& name, const std::string& item, const std::string& shown,
                             long long lo, long long hi, std::vector<long long>* sizes) {
    const std::size_t dots = item.find("..");
    if (dots == std::string::npos) {
        sizes->push_back(parse_integer(name, item, lo, hi));
    } else {
        const long long a = parse_integer(name, item.substr(0, dots), lo, hi);
        const long long b = parse_integer(name, item.substr(dots + 2), lo, hi);
        if (b < a) throw UsageError("option --" + name + ": empty range '" + shown + "'");
        if (static_cast<unsigned long long>(b - a) >= kMaxSizes)
            throw UsageError("option --" + name + ": range '" + shown + "' has more than " +
                             std::to_string(kMaxSizes) + " sizes");
        for (long long v = a; v <= b; ++v) sizes->push_back(v);
    }
    if (sizes->size() > kMaxSizes)
        throw UsageError("option --" + name + " lists more than " + std::to_string(kMaxSizes) + " sizes");
}

inline std::vector<long long> parse_size_list(const std::string& name, const std::string& text, long long lo,
                                              long long hi) {
    std::vector<long long> sizes;
    for (const std::string& item : split_list(name, text)) append_size_item(name, item, item, lo, hi, &sizes);
    return sizes;
}

// The same grammar for shapes (colreduce's --sizes=MxN,...): each item is M x N (the x in
// either case), and each side is an item of the size grammar, so 160000x8, 1e6x2^5, 1..3x8
// and 8x1..3 are all shapes; a range on both sides gives every pair, M varying slowest. At
// most kMaxSizes shapes in all; M in [m_lo, m_hi], N in [n_lo, n_hi].
inline std::vector<std::pair<long long, long long>> parse_shape_list(const std::string& name, const std::string& text,
                                                                     long long m_lo, long long m_hi, long long n_lo,
                                                                     long long n_hi) {
    std::vector<std::pair<long long, long long>> shapes;
    for (const std::string& item : split_list(name, text)) {
        const std::size_t x = item.find_first_of("xX");
        if (x == std::string::npos || x == 0 || x + 1 == item.size() || item.find_first_of("xX", x + 1) != std::string::npos)
            throw UsageError("option --" + name + ": '" + item + "' is not of the form MxN (e.g. 160000x8)");
        std::vector<long long> ms, ns;
        append_size_item(name + " (M of " + item + ")", item.substr(0, x), item, m_lo, m_hi, &ms);
        append_size_item(name + " (N of " + item + ")", item.substr(x + 1), item, n_lo, n_hi, &ns);
        if (ms.size() * ns.size() + shapes.size() > kMaxSizes)
            throw UsageError("option --" + name + " lists more than " + std::to_string(kMaxSizes) + " shapes");
        for (long long m : ms)
            for (long long n : ns) shapes.emplace_back(m, n);
    }
    return shapes;
}

class Options {
  public:
    Options(std::string program, std::string summary)
        : program_(std::move(program)), summary_(std::move(summary)) {}

    Options& add_int(const std::string& name, long long* target, long long lo, long long hi,
                     const std::string& help) {
        return add(name, Kind::kInt, target, help, lo, hi);
    }
    Options& add_int(const std::string& name, int* target, int lo, int hi, const std::string& help) {
        return add(name, Kind::kInt32, target, help, lo, hi);
    }
    Options& add_real(const std::string& name, double* target, double lo, double hi,
                      const std::string& help) {
        Spec& s = add_spec(name, Kind::kReal, target, help);
        s.real_lo = lo;
        s.real_hi = hi;
        return *this;
    }
    Options& add_string(const std::string& name, std::string* target, const std::string& help) {
        return add(name, Kind::kString, target, help, 0, 0);
    }
    // A choice among fixed words, e.g. --precision=float|double.
    Options& add_choice(const std::string& name, std::string* target,
                        const std::vector<std::string>& choices, const std::string& help) {
        Spec& s = add_spec(name, Kind::kChoice, target, help);
        s.choices = choices;
        return *this;
    }
    Options& add_flag(const std::string& name, bool* target, const std::string& help) {
        return add(name, Kind::kFlag, target, help, 0, 0);
    }
    // Positional arguments fill these options in order (the reports' own command lines,
    // e.g. `colreduce M N`).
    Options& positional(const std::vector<std::string>& names) {
        for (const std::string& n : names) find_or_throw(n);
        positional_ = names;
        return *this;
    }
    // Text printed after the option list (the version list, say).
    Options& epilog(const std::string& text) {
        epilog_ = text;
        return *this;
    }

    // True once the option was given on the command line.
    bool given(const std::string& name) const { return given_.count(name) != 0; }
    bool has(const std::string& name) const {
        for (const Spec& s : specs_)
            if (s.name == name) return true;
        return false;
    }

    std::string help_text() const {
        std::ostringstream out;
        out << "Usage: " << program_ << " [options]";
        for (const std::string& p : positional_) out << " [" << upper(p) << "]";
        out << "\n" << summary_ << "\n\nOptions:\n";
        for (const Spec& s : specs_) {
            std::string left = "  --" + s.name;
            if (s.kind != Kind::kFlag) left += "=" + value_word(s);
            out << left;
            out << std::string(left.size() < 26 ? 26 - left.size() : 1, ' ') << s.help;
            out << " (default: " << default_text(s) << ")\n";
        }
        out << "  --help                  print this help and exit\n";
        if (!positional_.empty()) {
            out << "\nPositional arguments, in order:";
            for (const std::string& p : positional_) out << " " << upper(p) << " (= --" << p << ")";
            out << "\n";
        }
        if (!epilog_.empty()) out << "\n" << epilog_ << "\n";
        out << "\nIntegers: 1000, 1e6, 2^20 (no blanks). Lists: comma-separated, no empty items.\n"
            << exit_text_ << "\n";
        return out.str();
    }

    // The help's closing line on exit statuses (a program other than the assignments' says its own).
    Options& exit_text(const std::string& text) {
        exit_text_ = text;
        return *this;
    }

    // Parses argv; throws UsageError. Returns false when --help was asked for. An option
    // given twice is an error (which of the two was meant?).
    bool parse(int argc, const char* const* argv) {
        std::size_t next_positional = 0;
        bool help = false;
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == "--help" || arg == "-h") {
                help = true;
                continue;
            }
            if (arg.compare(0, 7, "--help=") == 0) throw UsageError("option --help takes no value");
            if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
                const std::size_t eq = arg.find('=');
                const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
                Spec& s = find_or_throw(name);
                if (given_.count(name)) throw UsageError("option --" + name + " is given twice");
                if (s.kind == Kind::kFlag) {
                    if (eq != std::string::npos) throw UsageError("option --" + name + " takes no value");
                    *static_cast<bool*>(s.target) = true;
                } else {
                    if (eq == std::string::npos)
                        throw UsageError("option --" + name + " needs a value (--" + name + "=" + value_word(s) + ")");
                    set_value(s, arg.substr(eq + 1));
                }
                given_.insert(name);
            } else if (arg.size() > 1 && arg[0] == '-' && !(arg[1] >= '0' && arg[1] <= '9')) {
                throw UsageError("unknown option '" + arg + "' (try --help)");
            } else {
                if (next_positional >= positional_.size())
                    throw UsageError("unexpected argument '" + arg + "' (try --help)");
                Spec& s = find_or_throw(positional_[next_positional++]);
                if (given_.count(s.name))
                    throw UsageError("option --" + s.name + " is given twice (as --" + s.name + " and positionally)");
                set_value(s, arg);
                given_.insert(s.name);
            }
        }
        return !help;
    }

    const std::string& program() const { return program_; }

  private:
    enum class Kind { kInt, kInt32, kReal, kString, kChoice, kFlag };
    struct Spec {
        std::string name;
        Kind kind;
        void* target;
        std::string help;
        long long lo = 0, hi = 0;
        double real_lo = 0, real_hi = 0;
        std::vector<std::string> choices;
        std::string default_value;
    };

    Spec& add_spec(const std::string& name, Kind kind, void* target, const std::string& help) {
        for (const Spec& s : specs_)
            if (s.name == name) throw std::logic_error("option --" + name + " defined twice");
        Spec s;
        s.name = name;
        s.kind = kind;
        s.target = target;
        s.help = help;
        specs_.push_back(s);
        specs_.back().default_value = current_text(specs_.back());
        return specs_.back();
    }
    Options& add(const std::string& name, Kind kind, void* target, const std::string& help, long long lo,
                 long long hi) {
        Spec& s = add_spec(name, kind, target, help);
        s.lo = lo;
        s.hi = hi;
        return *this;
    }
    Spec& find_or_throw(const std::string& name) {
        for (Spec& s : specs_)
            if (s.name == name) return s;
        throw UsageError("unknown option '--" + name + "' (try --help)");
    }
    void set_value(Spec& s, const std::string& text) {
        switch (s.kind) {
            case Kind::kInt: *static_cast<long long*>(s.target) = parse_integer(s.name, text, s.lo, s.hi); break;
            case Kind::kInt32:
                *static_cast<int*>(s.target) = static_cast<int>(parse_integer(s.name, text, s.lo, s.hi));
                break;
            case Kind::kReal: *static_cast<double*>(s.target) = parse_real(s.name, text, s.real_lo, s.real_hi); break;
            case Kind::kString:
                if (text.empty()) throw UsageError("option --" + s.name + " needs a value");
                *static_cast<std::string*>(s.target) = text;
                break;
            case Kind::kChoice: {
                for (const std::string& c : s.choices)
                    if (c == text) {
                        *static_cast<std::string*>(s.target) = text;
                        return;
                    }
                throw UsageError("option --" + s.name + " must be one of " + value_word(s) + ", got '" + text + "'");
            }
            case Kind::kFlag: *static_cast<bool*>(s.target) = true; break;
        }
    }
    static std::string upper(std::string s) {
        for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
        return s;
    }
    static std::string value_word(const Spec& s) {
        switch (s.kind) {
            case Kind::kInt:
            case Kind::kInt32: return "N";
            case Kind::kReal: return "X";
            case Kind::kChoice: {
                std::string w;
                for (const std::string& c : s.choices) w += (w.empty() ? "" : "|") + c;
                return w;
            }
            default: return "VALUE";
        }
    }
    static std::string current_text(const Spec& s) {
        std::ostringstream out;
        switch (s.kind) {
            case Kind::kInt: out << *static_cast<long long*>(s.target); break;
            case Kind::kInt32: out << *static_cast<int*>(s.target); break;
            case Kind::kReal: out << *static_cast<double*>(s.target); break;
            case Kind::kString:
            case Kind::kChoice: out << *static_cast<std::string*>(s.target); break;
            case Kind::kFlag: out << (*static_cast<bool*>(s.target) ? "on" : "off"); break;
        }
        return out.str();
    }
    static std::string default_text(const Spec& s) { return s.default_value.empty() ? "none" : s.default_value; }

    std::string program_, summary_, epilog_;
    std::string exit_text_ =
        "Exit status: 0 all versions passed, 1 a result was wrong, 2 bad usage or input,\n"
        "3 no usable CUDA GPU or a CUDA error.";
    std::vector<Spec> specs_;
    std::vector<std::string> positional_;
    std::set<std::string> given_;
};

// The options every program of the repository takes, with one meaning, one range and one
// default everywhere (README.md, "One command line"). A program's Config derives from it
// and declares them with add_shared_options() after its own options. A program whose
// problem has no random data (pi) leaves --seed and --data out (SharedOptionsHelp).
struct SharedOptions {
    int repeat = 20;     // timed runs, median reported
    int warmup = 3;      // untimed runs before them
    long long seed = 1;  // seed of the random data, [0, 2^32 - 1]
    int device = 0;
    std::string csv, input, output, only;
    bool pinned = false;
    bool print_csv_header = false;  // print the CSV header and exit 0 (after checking every other option)
    bool list_versions = false;     // print the registry, one line per version, and exit 0 (after the same checks)
    bool inject_fault = false;      // testing aid: every validated version must FAIL (exit 1)
    int vary_input = 0;             // testing aid: more checked launches of each runner on new data
};

constexpr long long kMaxSeed = 4294967295LL;  // 2^32 - 1: every generator, srand() included, takes it

// What the shared options mean for one program: the rows of its CSV, the contents of its
// input and output files, the fault its --inject-fault plants. Empty texts get a generic one.
struct SharedOptionsHelp {
    std::string csv, input, output;
    std::string inject_fault = "testing aid: alter one element of every validated GPU result (each must FAIL, exit 1)";
    std::string seed = "seed of the random data";
    bool has_seed = true;  // false: the program has no random data (pi)
    std::string pinned = "page-locked host buffers (cudaMallocHost) for the host-device copies";
};

inline Options& add_shared_options(Options& options, SharedOptions& values, const SharedOptionsHelp& help) {
    auto or_default = [](const std::string& text, const char* fallback) { return text.empty() ? fallback : text; };
    options.add_int("repeat", &values.repeat, 1, 100000, "timed runs per version (median reported)")
        .add_int("warmup", &values.warmup, 0, 100000, "untimed runs before timing");
    if (help.has_seed) options.add_int("seed", &values.seed, 0, kMaxSeed, help.seed);
    return options.add_int("device", &values.device, 0, 1023, "CUDA device")
        .add_string("csv", &values.csv, or_default(help.csv, "append one row per version to this CSV file"))
        .add_string("input", &values.input, or_default(help.input, "read the input from this raw little-endian file"))
        .add_string("output", &values.output, or_default(help.output, "write the result to this raw little-endian file"))
        .add_flag("pinned", &values.pinned, help.pinned)
        .add_string("only", &values.only, "run only these versions (comma-separated labels, or @TAG for the versions --list-versions tags TAG; see below)")
        .add_flag("print-csv-header", &values.print_csv_header,
                  "print the CSV header line and exit (after checking the other options; no GPU needed)")
        .add_flag("list-versions", &values.list_versions,
                  "print one line per version (label, validated or demonstration, baseline or kernel, "
                  "default or opt-in, gpu or host) and exit (after checking the other options; no GPU needed)")
        .add_flag("inject-fault", &values.inject_fault, help.inject_fault)
        .add_int("vary-input", &values.vary_input, 0, 100,
                 "testing aid: after each validated version's checked run, this many more launches of the "
                 "same runner, each on new seeded data (of the same size, or a smaller one where the program "
                 "says so), each checked (state kept between launches must not leak)");
}

// The one rule for --input with size options: the file gives the element count, so an
// option that would also give it (--n, --sizes, a positional N; listed by the program) is
// refused; so is --data, which the file replaces.
inline void check_input_excludes(const Options& options, const std::vector<std::string>& size_options) {
    if (!options.given("input")) return;
    for (const std::string& name : size_options)
        if (options.given(name))
            throw UsageError("option --input sets the size from the file; do not give --" + name + " with it");
    if (options.given("data")) throw UsageError("options --input and --data exclude each other");
}

// Options that say the same thing two ways (a list of sizes and one size): at most one of
// `option` and each of `others` may be given. One message for every program.
inline void check_excludes(const Options& options, const std::string& option, const std::vector<std::string>& others) {
    if (!options.given(option)) return;
    for (const std::string& other : others)
        if (options.given(other)) throw UsageError("options --" + option + " and --" + other + " exclude each other");
}

// A block size, a group size: the kernels' halving trees need a power of two.
inline bool is_power_of_two(long long v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace cw
