// Command-line options: a table of long options (--name=value), optional positional forms,
// a --help generated from the table, and a one-line error with exit status 2 for anything
// wrong, before any GPU work. Header-only; every function is inline.
#pragma once

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "exit_codes.h"

namespace cw {

// Thrown for every user error (options, sizes, input files). Programs let cw::run_main
// (or Options::parse_or_exit) turn it into "program: error: message" and exit status 2.
struct UsageError : std::runtime_error {
    explicit UsageError(const std::string& what) : std::runtime_error(what) {}
};

// Strict integer parsing: the whole string must be a base-10 integer (an optional exponent
// form like 1e6 or a power like 2^28 is accepted for sizes), within [lo, hi].
inline long long parse_integer(const std::string& name, const std::string& text, long long lo,
                               long long hi) {
    if (text.empty()) throw UsageError("option --" + name + " needs a value");
    long long value = 0;
    const std::size_t caret = text.find('^');
    if (caret != std::string::npos) {  // 2^28
        const long long base = parse_integer(name, text.substr(0, caret), 0, 1LL << 31);
        const long long exponent = parse_integer(name, text.substr(caret + 1), 0, 62);
        long double v = std::pow(static_cast<long double>(base), static_cast<long double>(exponent));
        if (v > static_cast<long double>(std::numeric_limits<long long>::max()))
            throw UsageError("option --" + name + "=" + text + " is out of range");
        value = static_cast<long long>(v);
    } else {
        errno = 0;
        char* end = nullptr;
        value = std::strtoll(text.c_str(), &end, 10);
        if (end != nullptr && (*end == 'e' || *end == 'E') && end != text.c_str()) {  // 1e6
            char* end2 = nullptr;
            const double d = std::strtod(text.c_str(), &end2);
            if (*end2 != '\0' || d != std::floor(d) || std::fabs(d) > 9.0e18)
                throw UsageError("option --" + name + " expects an integer, got '" + text + "'");
            value = static_cast<long long>(d);
        } else if (end == text.c_str() || *end != '\0') {
            throw UsageError("option --" + name + " expects an integer, got '" + text + "'");
        } else if (errno == ERANGE) {
            throw UsageError("option --" + name + "=" + text + " is out of range");
        }
    }
    if (value < lo || value > hi) {
        std::ostringstream msg;
        msg << "option --" << name << "=" << text << " is out of range [" << lo << ", " << hi << "]";
        throw UsageError(msg.str());
    }
    return value;
}

inline double parse_real(const std::string& name, const std::string& text, double lo, double hi) {
    if (text.empty()) throw UsageError("option --" + name + " needs a value");
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(value))
        throw UsageError("option --" + name + " expects a number, got '" + text + "'");
    if (value < lo || value > hi) {
        std::ostringstream msg;
        msg << "option --" << name << "=" << text << " is out of range [" << lo << ", " << hi << "]";
        throw UsageError(msg.str());
    }
    return value;
}

// Splits "a,b,c" into its non-empty items.
inline std::vector<std::string> split_list(const std::string& text, char sep = ',') {
    std::vector<std::string> items;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, sep))
        if (!item.empty()) items.push_back(item);
    return items;
}

// --only=LIST against the versions a program has: unknown labels are a usage error.
// An empty LIST selects every version.
class VersionFilter {
  public:
    VersionFilter() = default;
    VersionFilter(const std::string& list, const std::vector<std::string>& known) {
        for (const std::string& label : split_list(list)) {
            bool found = false;
            for (const std::string& k : known) found = found || (k == label);
            if (!found) {
                std::string all;
                for (const std::string& k : known) all += (all.empty() ? "" : ",") + k;
                throw UsageError("option --only: unknown version '" + label + "' (known: " + all + ")");
            }
            selected_.insert(label);
        }
    }
    bool wants(const std::string& label) const { return selected_.empty() || selected_.count(label) != 0; }

  private:
    std::set<std::string> selected_;
};

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

    // True once the option was given on the command line.
    bool given(const std::string& name) const { return given_.count(name) != 0; }

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
        out << "\nExit status: 0 all versions passed, 1 a result was wrong, 2 bad usage or input,\n"
               "3 no usable CUDA device or a CUDA error.\n";
        return out.str();
    }

    // Parses argv; throws UsageError. Returns false when --help was asked for.
    bool parse(int argc, const char* const* argv) {
        std::size_t next_positional = 0;
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == "--help" || arg == "-h") return false;
            if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
                const std::size_t eq = arg.find('=');
                const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
                Spec& s = find_or_throw(name);
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
                set_value(s, arg);
                given_.insert(s.name);
            }
        }
        return true;
    }

    // parse() for programs: prints help and exits 0, or prints the error and exits 2.
    void parse_or_exit(int argc, const char* const* argv) {
        try {
            if (!parse(argc, argv)) {
                std::fputs(help_text().c_str(), stdout);
                std::exit(kExitOk);
            }
        } catch (const UsageError& e) {
            std::fprintf(stderr, "%s: error: %s\n", program_.c_str(), e.what());
            std::exit(kExitUsage);
        }
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

    std::string program_, summary_;
    std::vector<Spec> specs_;
    std::vector<std::string> positional_;
    std::set<std::string> given_;
};

// The options every program of the repository takes, with one meaning everywhere (SPEC.md,
// "Common conventions"). A program's Config derives from it, sets its own defaults in its
// constructor, and declares them with add_shared_options() after its own options.
struct SharedOptions {
    int repeat = 20;  // timed runs, median reported
    int warmup = 3;   // untimed runs before them
    long long seed = 1;
    int device = 0;
    std::string csv, input, output, only;
    bool pinned = false;
};

// What the shared options mean for one program: the rows of its CSV, the contents of its
// input and output files, its version labels. Empty texts get a generic one.
struct SharedOptionsHelp {
    std::string csv, input, output, only;
    std::string seed = "seed of the random data";
    long long seed_max = LLONG_MAX;
    std::string repeat = "timed runs per version (median reported)";
    std::string pinned = "page-locked host buffers (cudaMallocHost) for the host-device copies";
};

inline Options& add_shared_options(Options& options, SharedOptions& values, const SharedOptionsHelp& help) {
    auto or_default = [](const std::string& text, const char* fallback) { return text.empty() ? fallback : text; };
    return options.add_int("repeat", &values.repeat, 1, 100000, help.repeat)
        .add_int("warmup", &values.warmup, 0, 100000, "untimed runs before timing")
        .add_int("seed", &values.seed, 0, help.seed_max, help.seed)
        .add_int("device", &values.device, 0, 1023, "CUDA device")
        .add_string("csv", &values.csv, or_default(help.csv, "append one row per version to this CSV file"))
        .add_string("input", &values.input, or_default(help.input, "read the input from this raw little-endian file"))
        .add_string("output", &values.output, or_default(help.output, "write the result to this raw little-endian file"))
        .add_flag("pinned", &values.pinned, help.pinned)
        .add_string("only", &values.only, or_default(help.only, "run only these versions (comma-separated labels)"));
}

}  // namespace cw
