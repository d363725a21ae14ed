// The version registry: each assignment lists its versions once, in one table of entries
// (Entry derives from VersionInfo and adds what running it takes: its runner's factory, which
// holds the launcher of its kernels, and what the program's rows say of it; cw::Version in
// run_loop.cuh, one expression per entry). Dispatch, --only, the version list of --help, the CSV's
// version/validated/is_baseline columns and the tests all come from that table, so a label
// that is not in it cannot reach any kernel, and adding a version is one kernel plus one
// entry (README.md, "Adding a version").
#pragma once

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "options.h"

namespace cw {

struct VersionInfo {
    std::string label;        // the report's label (version=1, kernel=2, high1) or ours
    std::string kernel;       // the C++ kernel(s) or library call it runs
    std::string summary;      // one line for --help
    bool validated = true;    // false: a labelled demonstration (a racy or buggy original), never PASS/FAIL
    bool is_baseline = false; // the library baseline (CUB, Thrust, cuBLAS): speed-ups are against it
    bool by_default = true;   // false: runs only when --only names it
    bool on_host = false;     // a CPU version: timed by the host clock; a run of these alone needs no GPU
    // The experiments, figures and tests that are about some versions only find them here, never
    // in a list of their own: comma-separated words (no spaces), e.g. "per_thread,profile_two_kernels".
    std::string tags;
    // The kernels that do the version's work, as a regular expression for Nsight Compute's
    // --kernel-name (make profile); empty: every kernel the version launches (a library call).
    std::string profile_kernels;
};

// The labels of a registry, comma-separated.
template <typename Entry>
std::string version_labels(const std::vector<Entry>& registry) {
    std::string all;
    for (const Entry& e : registry) all += (all.empty() ? "" : ",") + e.label;
    return all;
}

// The registry entry of `label`, or nullptr (for tools that look versions up by name).
template <typename Entry>
const Entry* find_version(const std::vector<Entry>& registry, const std::string& label) {
    for (const Entry& e : registry)
        if (e.label == label) return &e;
    return nullptr;
}

// The versions selected by --only, in registry order. No --only: every by_default entry.
// An item is a label, or @TAG: every entry whose tags name TAG (an experiment about some
// versions runs --only=@TAG, so that its list is the registry's). An unknown label or tag, an
// empty item or a label or tag named twice is a usage error; so is a selection that ends up
// empty. A label and a tag that select the same version are a union, not a repetition.
template <typename Entry>
std::vector<const Entry*> select_versions(const std::vector<Entry>& registry, const std::string& only, bool given) {
    std::set<std::string> named;
    std::set<const Entry*> tagged;
    if (given) {
        for (const std::string& item : split_list("only", only)) {
            if (item[0] == '@') {
                const std::string tag = item.substr(1);
                if (!named.insert(item).second) throw UsageError("option --only names tag '" + item + "' twice");
                bool found = false;
                for (const Entry& e : registry)
                    if (!tag.empty() && ("," + e.tags + ",").find("," + tag + ",") != std::string::npos) {
                        tagged.insert(&e);
                        found = true;
                    }
                if (!found) throw UsageError("option --only: no version has the tag '" + tag + "' (" + item + ")");
                continue;
            }
            if (find_version(registry, item) == nullptr)
                throw UsageError("option --only: unknown version '" + item + "' (known: " + version_labels(registry) + ")");
            if (!named.insert(item).second) throw UsageError("option --only names version '" + item + "' twice");
        }
    }
    std::vector<const Entry*> chosen;
    for (const Entry& e : registry)
        if (given ? (named.count(e.label) != 0 || tagged.count(&e) != 0) : e.by_default) chosen.push_back(&e);
    if (chosen.empty()) throw UsageError("option --only selects no version");
    return chosen;
}

// The "Versions" block of --help: one line per entry, with its kind.
template <typename Entry>
std::string versions_help(const std::vector<Entry>& registry) {
    std::string out = "Versions (--only=LIST; all marked * run by default):\n";
    for (const Entry& e : registry) {
        std::string left = "  " + std::string(e.by_default ? "* " : "  ") + e.label;
        left += std::string(left.size() < 22 ? 22 - left.size() : 1, ' ');
        std::string kind = e.is_baseline ? " [library baseline]" : (!e.validated ? " [demonstration, not validated]" : "");
        out += left + e.summary + kind + "\n";
    }
    return out;
}

// --list-versions: one line per entry, in registry order, for Makefiles, scripts and tests
// (the one place a list of labels comes from):
//   LABEL validated|demonstration baseline|kernel default|opt-in gpu|host TAGS|- KERNELS|-
// TAGS: the entry's tags (comma-separated), KERNELS: its profile_kernels regex; "-" when empty.
// e.g. `awk '$3 == "kernel" && $4 == "default" { print $1 }'`. Called after every other
// option was checked, as --print-csv-header is (cw::run_program). Returns true when it printed
// (the program then exits 0; run_main checks that standard output was written).
template <typename Entry>
bool list_versions_if_asked(const SharedOptions& options, const std::vector<Entry>& registry) {
    if (!options.list_versions) return false;
    for (const Entry& e : registry)
        std::printf("%s %s %s %s %s %s %s\n", e.label.c_str(), e.validated ? "validated" : "demonstration",
                    e.is_baseline ? "baseline" : "kernel", e.by_default ? "default" : "opt-in",
                    e.on_host ? "host" : "gpu", e.tags.empty() ? "-" : e.tags.c_str(),
                    e.profile_kernels.empty() ? "-" : e.profile_kernels.c_str());
    return true;
}

}  // namespace cw
