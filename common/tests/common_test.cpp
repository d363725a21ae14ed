// Unit tests of the host side of common/ (no GPU): options, binary input/output, CSV,
// validation helpers, timing's median and the seeded data.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <climits>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "tests/seeded_data.h"

namespace {

struct Parsed {
    long long n = 1000;
    int threads = 256;
    double tol = 1e-6;
    std::string input;
    std::string precision = "float";
    bool pinned = false;
};

// Builds the table most programs use and parses `args` (program name prepended).
bool parse(Parsed& p, std::vector<const char*> args, cw::Options** keep = nullptr) {
    static cw::Options* last = nullptr;
    delete last;
    last = new cw::Options("prog", "test program");
    last->add_int("n", &p.n, 1, 1LL << 40, "elements")
        .add_int("threads", &p.threads, 32, 1024, "threads per block")
        .add_real("tol", &p.tol, 0.0, 1.0, "tolerance")
        .add_string("input", &p.input, "input file")
        .add_choice("precision", &p.precision, {"float", "double", "both"}, "precision")
        .add_flag("pinned", &p.pinned, "pinned host memory")
        .positional({"n", "threads"});
    if (keep) *keep = last;
    args.insert(args.begin(), "prog");
    return last->parse(static_cast<int>(args.size()), args.data());
}

std::string usage_error(std::vector<const char*> args) {
    Parsed p;
    try {
        parse(p, args);
    } catch (const cw::UsageError& e) {
        return e.what();
    }
    return "";
}

TEST(Options, DefaultsStayWhenNothingIsGiven) {
    Parsed p;
    EXPECT_TRUE(parse(p, {}));
    EXPECT_EQ(p.n, 1000);
    EXPECT_EQ(p.threads, 256);
    EXPECT_FALSE(p.pinned);
}

TEST(Options, LongFormsSetEveryKind) {
    Parsed p;
    cw::Options* o = nullptr;
    EXPECT_TRUE(parse(p, {"--n=4096", "--threads=128", "--tol=0.5", "--input=x.bin", "--precision=double", "--pinned"}, &o));
    EXPECT_EQ(p.n, 4096);
    EXPECT_EQ(p.threads, 128);
    EXPECT_DOUBLE_EQ(p.tol, 0.5);
    EXPECT_EQ(p.input, "x.bin");
    EXPECT_EQ(p.precision, "double");
    EXPECT_TRUE(p.pinned);
    EXPECT_TRUE(o->given("n"));
    EXPECT_FALSE(o->given("seed"));
}

TEST(Options, PositionalFormFillsInOrder) {
    Parsed p;
    EXPECT_TRUE(parse(p, {"160000", "64"}));
    EXPECT_EQ(p.n, 160000);
    EXPECT_EQ(p.threads, 64);
}

TEST(Options, PowersAndExponentsAreIntegers) {
    Parsed p;
    EXPECT_TRUE(parse(p, {"--n=2^28"}));
    EXPECT_EQ(p.n, 1LL << 28);
    EXPECT_TRUE(parse(p, {"--n=4e7"}));
    EXPECT_EQ(p.n, 40000000);
}

TEST(Options, PowersOfTwo) {
    for (long long v : {1LL, 2LL, 32LL, 64LL, 1024LL, 1LL << 40}) EXPECT_TRUE(cw::is_power_of_two(v)) << v;
    for (long long v : {0LL, -2LL, -1024LL, 3LL, 33LL, 48LL, 1000LL, 1023LL}) EXPECT_FALSE(cw::is_power_of_two(v)) << v;
}

TEST(Options, ExcludedPairsHaveOneMessage) {
    Parsed p;
    cw::Options* o = nullptr;
    ASSERT_TRUE(parse(p, {"--n=5", "--input=x"}, &o));
    try {
        cw::check_excludes(*o, "input", {"threads", "n"});
        FAIL() << "no error";
    } catch (const cw::UsageError& e) {
        EXPECT_STREQ(e.what(), "options --input and --n exclude each other");
    }
    EXPECT_NO_THROW(cw::check_excludes(*o, "input", {"threads", "tol"}));
    EXPECT_NO_THROW(cw::check_excludes(*o, "precision", {"n"}));
}

TEST(Options, HelpIsNotAnError) {
    Parsed p;
    EXPECT_FALSE(parse(p, {"--help"}));
}

TEST(Options, HelpListsEveryOptionWithItsDefault) {
    Parsed p;
    cw::Options* o = nullptr;
    parse(p, {}, &o);
    const std::string help = o->help_text();
    for (const char* name : {"--n=N", "--threads=N", "--tol=X", "--input=VALUE", "--precision=float|double|both", "--pinned"})
        EXPECT_NE(help.find(name), std::string::npos) << name;
    EXPECT_NE(help.find("(default: 1000)"), std::string::npos);
    EXPECT_NE(help.find("Exit status"), std::string::npos);
}

TEST(Options, EveryErrorNamesTheOption) {
    EXPECT_NE(usage_error({"--bogus=1"}).find("unknown option '--bogus'"), std::string::npos);
    EXPECT_NE(usage_error({"-x"}).find("unknown option '-x'"), std::string::npos);
    EXPECT_NE(usage_error({"--n"}).find("--n needs a value"), std::string::npos);
    EXPECT_NE(usage_error({"--n="}).find("--n needs a value"), std::string::npos);
    EXPECT_NE(usage_error({"--n=abc"}).find("--n expects an integer"), std::string::npos);
    EXPECT_NE(usage_error({"--n=12x"}).find("--n expects an integer"), std::string::npos);
    EXPECT_NE(usage_error({"--n=1.5e0"}).find("--n expects an integer"), std::string::npos);
    EXPECT_NE(usage_error({"--n=0"}).find("--n=0 is out of range"), std::string::npos);
    EXPECT_NE(usage_error({"--n=-5"}).find("out of range"), std::string::npos);
    EXPECT_NE(usage_error({"--n=99999999999999999999"}).find("out of range"), std::string::npos);
    EXPECT_NE(usage_error({"--threads=2048"}).find("--threads=2048 is out of range [32, 1024]"), std::string::npos);
    EXPECT_NE(usage_error({"--tol=x"}).find("--tol expects a number"), std::string::npos);
    EXPECT_NE(usage_error({"--tol=2"}).find("out of range"), std::string::npos);
    EXPECT_NE(usage_error({"--tol=nan"}).find("expects a number"), std::string::npos);
    EXPECT_NE(usage_error({"--precision=half"}).find("must be one of float|double|both"), std::string::npos);
    EXPECT_NE(usage_error({"--pinned=1"}).find("takes no value"), std::string::npos);
    EXPECT_NE(usage_error({"100", "64", "3"}).find("unexpected argument '3'"), std::string::npos);
    EXPECT_NE(usage_error({"-5"}).find("out of range"), std::string::npos);  // a negative positional is a value
}

TEST(Options, StrictIntegersOneMessageForOutOfRange) {
    // Blanks are never part of a number, whichever side they are on.
    EXPECT_NE(usage_error({"--n= 1000"}).find("expects an integer"), std::string::npos);
    EXPECT_NE(usage_error({"--n=1000 "}).find("expects an integer"), std::string::npos);
    EXPECT_NE(usage_error({"--n=+5"}).find("expects an integer"), std::string::npos);
    // Out of range reads the same whatever the spelling.
    for (const char* big : {"--n=2^63", "--n=1e19", "--n=99999999999999999999", "--n=2^4000", "--n=1e400"})
        EXPECT_NE(usage_error({big}).find(std::string(big) + " is out of range [1, 1099511627776]"), std::string::npos)
            << big << ": " << usage_error({big});
    EXPECT_NE(usage_error({"--n=2^"}).find("expects an integer"), std::string::npos);
    EXPECT_NE(usage_error({"--n=^3"}).find("expects an integer"), std::string::npos);
    EXPECT_NE(usage_error({"--n=e6"}).find("expects an integer"), std::string::npos);
    Parsed p;
    EXPECT_TRUE(parse(p, {"--n=2^40"}));
    EXPECT_EQ(p.n, 1LL << 40);
    EXPECT_TRUE(parse(p, {"--n=1E3"}));
    EXPECT_EQ(p.n, 1000);
    EXPECT_EQ(cw::parse_integer("x", "-9223372036854775808", LLONG_MIN, 0), LLONG_MIN);
}

TEST(Options, MessagesStayOnOneLine) {
    const std::string e = usage_error({"--n=5\n6"});
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_NE(e.find("5\\n6"), std::string::npos) << e;
    EXPECT_EQ(cw::printable(std::string("a\tb\x01")), "a\\tb\\x01");
    // C1 controls (UTF-8 C2 80 to C2 9F) and bytes that are not well-formed UTF-8 as \xNN per
    // byte; U+00A0 and above kept as typed.
    EXPECT_EQ(cw::printable("\xc2\x85\xc2\x9b[2J"), "\\xc2\\x85\\xc2\\x9b[2J");
    EXPECT_EQ(cw::printable("\xff\xc3\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80"),
              "\\xff\\xc3\\xc0\\xaf\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80");
    EXPECT_EQ(cw::printable("\xc2\xa0\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), "\xc2\xa0\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
}

TEST(Options, HelpWithAValueAndRepeatedOptionsAreRefused) {
    EXPECT_NE(usage_error({"--help=1"}).find("--help takes no value"), std::string::npos);
    EXPECT_NE(usage_error({"--n=5", "--n=6"}).find("--n is given twice"), std::string::npos);
    EXPECT_NE(usage_error({"--n=5", "7"}).find("given twice"), std::string::npos);
}

TEST(Options, OneSizesGrammar) {
    EXPECT_EQ(cw::parse_size_list("sizes", "1,2^3,1e2,5..7", 1, 1000),
              (std::vector<long long>{1, 8, 100, 5, 6, 7}));
    EXPECT_THROW(cw::parse_size_list("sizes", "1,,2", 1, 10), cw::UsageError);
    EXPECT_THROW(cw::parse_size_list("sizes", "1,", 1, 10), cw::UsageError);
    EXPECT_THROW(cw::parse_size_list("sizes", "", 1, 10), cw::UsageError);
    EXPECT_THROW(cw::parse_size_list("sizes", "7..5", 1, 10), cw::UsageError);
    EXPECT_THROW(cw::parse_size_list("sizes", "1..2^30", 1, 1LL << 40), cw::UsageError);
    EXPECT_THROW(cw::parse_size_list("sizes", "11", 1, 10), cw::UsageError);
}

TEST(Options, IntegersOfAnyLengthLeadingZerosAreZeros) {
    // Past 40 characters a value is still an integer: out of range when it is large...
    const std::string d41(41, '9');
    for (const std::string& big : {"--n=9999" + d41, "--n=2^" + d41, "--n=1e" + d41})
        EXPECT_NE(usage_error({big.c_str()}).find(big + " is out of range"), std::string::npos) << usage_error({big.c_str()});
    // ... and what it says when its digits start with zeros.
    Parsed p;
    const std::string zeros = "--n=" + std::string(43, '0') + "1000";
    EXPECT_TRUE(parse(p, {zeros.c_str()}));
    EXPECT_EQ(p.n, 1000);
    EXPECT_EQ(cw::parse_integer("x", std::string(60, '0') + "2^0010", 0, 10000), 1024);
}

TEST(Options, ShapesUseTheSizesGrammarOnEachSide) {
    using Shapes = std::vector<std::pair<long long, long long>>;
    EXPECT_EQ(cw::parse_shape_list("sizes", "1..3x8,8X1..2,1e1x2^1", 1, 100, 1, 10),
              (Shapes{{1, 8}, {2, 8}, {3, 8}, {8, 1}, {8, 2}, {10, 2}}));
    EXPECT_EQ(cw::parse_shape_list("sizes", "1..2x3..4", 1, 100, 1, 10), (Shapes{{1, 3}, {1, 4}, {2, 3}, {2, 4}}));
    for (const char* bad : {"8", "x8", "8x", "1x2x3", "3..1x8", "0x8", "8x11", "0..2x1", "8x,", "1x1..", "1..100000x1..2"})
        EXPECT_THROW(cw::parse_shape_list("sizes", bad, 1, 100000, 1, 10), cw::UsageError) << bad;
}

struct SharedConfig : cw::SharedOptions {
    long long n = 5;
    SharedConfig() { seed = 7; }
};

TEST(Options, SharedOptionsKeepTheProgramsDefaultsAndParse) {
    SharedConfig c;
    cw::Options opts("prog", "summary");
    opts.add_int("n", &c.n, 1, 100, "n");
    cw::SharedOptionsHelp help;
    help.csv = "one row per version";
    cw::add_shared_options(opts, c, help);
    const char* argv[] = {"prog", "--repeat=4", "--only=a,b", "--pinned", "--csv=r.csv", "--print-csv-header",
                          "--inject-fault"};
    ASSERT_TRUE(opts.parse(7, argv));
    EXPECT_EQ(c.repeat, 4);
    EXPECT_EQ(c.warmup, 3);
    EXPECT_EQ(c.seed, 7);
    EXPECT_EQ(c.only, "a,b");
    EXPECT_TRUE(c.pinned && c.print_csv_header && c.inject_fault);
    EXPECT_EQ(c.csv, "r.csv");
    const std::string help_text = opts.help_text();
    EXPECT_NE(help_text.find("one row per version"), std::string::npos);
    EXPECT_NE(help_text.find("(default: 7)"), std::string::npos);
    SharedConfig d;
    cw::Options again("prog", "summary");
    cw::add_shared_options(again, d, help);
    const char* too_big[] = {"prog", "--seed=4294967296"};
    EXPECT_THROW(again.parse(2, too_big), cw::UsageError);
    SharedConfig e;
    cw::Options no_seed("prog", "summary");
    help.has_seed = false;
    cw::add_shared_options(no_seed, e, help);
    EXPECT_FALSE(no_seed.has("seed"));
}

TEST(Options, InputExcludesSizeOptionsAndData) {
    long long n = 1;
    std::string input, data = "random";
    cw::Options o("prog", "x");
    o.add_int("n", &n, 1, 10, "n").add_string("input", &input, "in").add_string("data", &data, "d");
    const char* argv[] = {"prog", "--input=f", "--n=3"};
    ASSERT_TRUE(o.parse(3, argv));
    EXPECT_THROW(cw::check_input_excludes(o, {"n"}), cw::UsageError);
    cw::Options o2("prog", "x");
    o2.add_int("n", &n, 1, 10, "n").add_string("input", &input, "in").add_string("data", &data, "d");
    const char* argv2[] = {"prog", "--input=f", "--data=x"};
    ASSERT_TRUE(o2.parse(3, argv2));
    EXPECT_THROW(cw::check_input_excludes(o2, {"n"}), cw::UsageError);
}

TEST(Format, PrintfIntoAString) {
    EXPECT_EQ(cw::format("%.4f ms", 0.125), "0.1250 ms");
    EXPECT_EQ(cw::format("%s=%d", "n", 33), "n=33");
    EXPECT_EQ(cw::format("%s", ""), "");
    const std::string long_text(300, 'x');
    EXPECT_EQ(cw::format("%s!", long_text.c_str()), long_text + "!");
}

struct Entry : cw::VersionInfo {
    int id = 0;
};

std::vector<Entry> test_registry() {
    std::vector<Entry> r(4);
    const char* labels[] = {"1", "2", "cub", "demo"};
    for (int i = 0; i < 4; ++i) r[i].label = labels[i], r[i].id = i;
    r[2].is_baseline = true;
    r[3].validated = false;
    r[3].by_default = false;
    r[1].tags = "fast,wide";
    r[3].tags = "wide";
    return r;
}

std::vector<std::string> chosen(const std::string& only, bool given) {
    const std::vector<Entry> r = test_registry();
    std::vector<std::string> out;
    for (const Entry* e : cw::select_versions(r, only, given)) out.push_back(e->label);
    return out;
}

TEST(Registry, SelectsInRegistryOrderAndDefaultsExcludeOptIns) {
    EXPECT_EQ(chosen("", false), (std::vector<std::string>{"1", "2", "cub"}));
    EXPECT_EQ(chosen("cub,1", true), (std::vector<std::string>{"1", "cub"}));
    EXPECT_EQ(chosen("demo", true), (std::vector<std::string>{"demo"}));
}

TEST(Registry, AtTagSelectsEveryTaggedVersionInRegistryOrder) {
    EXPECT_EQ(chosen("@wide", true), (std::vector<std::string>{"2", "demo"}));  // an opt-in one too
    EXPECT_EQ(chosen("@fast", true), (std::vector<std::string>{"2"}));
    EXPECT_EQ(chosen("cub,@wide", true), (std::vector<std::string>{"2", "cub", "demo"}));
    EXPECT_EQ(chosen("2,@fast", true), (std::vector<std::string>{"2"}));  // a union, not "named twice"
    EXPECT_THROW(chosen("@fas", true), cw::UsageError);                    // whole tags only
    EXPECT_THROW(chosen("@", true), cw::UsageError);
    EXPECT_THROW(chosen("@nope", true), cw::UsageError);
    EXPECT_THROW(chosen("@wide,@nope", true), cw::UsageError);  // each tag must select something itself
    EXPECT_THROW(chosen("@wide,1,@wide", true), cw::UsageError);  // a tag named twice, as a label named twice
}

TEST(Registry, UnknownEmptyAndDuplicateLabelsAreUsageErrors) {
    EXPECT_THROW(chosen("3", true), cw::UsageError);
    EXPECT_THROW(chosen("1,,2", true), cw::UsageError);
    EXPECT_THROW(chosen("", true), cw::UsageError);
    EXPECT_THROW(chosen("1,1", true), cw::UsageError);
    const std::vector<Entry> r = test_registry();
    EXPECT_EQ(cw::version_labels(r), "1,2,cub,demo");
    const std::string help = cw::versions_help(r);
    EXPECT_NE(help.find("[library baseline]"), std::string::npos);
    EXPECT_NE(help.find("[demonstration, not validated]"), std::string::npos);
    EXPECT_EQ(cw::find_version(r, "2")->id, 1);
    EXPECT_EQ(cw::find_version(r, "x"), nullptr);
}

class TempFile : public ::testing::Test {
  protected:
    std::string path = ::testing::TempDir() + "cw_common_test_" +
                       ::testing::UnitTest::GetInstance()->current_test_info()->name();
    // Each test starts with no output checked yet (check_output_path remembers them to
    // refuse --csv and --output naming one file).
    void SetUp() override { cw::detail::checked_outputs().clear(); }
    void TearDown() override { std::remove(path.c_str()); }
    void write_bytes(std::size_t n) {
        std::ofstream f(path, std::ios::binary);
        for (std::size_t i = 0; i < n; ++i) f.put(static_cast<char>(i));
    }
};

std::string slurp(const std::string& path) {
    std::ifstream f(path);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::string input_error(const std::string& path, std::size_t elem) {
    try {
        cw::InputFile f(path, elem);
    } catch (const cw::UsageError& e) {
        return e.what();
    }
    return "";
}

using BinaryIo = TempFile;

TEST_F(BinaryIo, RoundTripsFloats) {
    const std::vector<float> data = {1.5f, -2.25f, 3.0f};
    cw::write_binary(path, data.data(), data.size());
    cw::InputFile f(path, sizeof(float));
    EXPECT_EQ(f.count(), 3u);
    EXPECT_NO_THROW(f.require_exact(3, "test"));
    EXPECT_THROW(f.require_exact(4, "test"), cw::UsageError);
    EXPECT_EQ(f.read_all<float>(), data);
}

TEST_F(BinaryIo, SpecialFilesAreNamedAndRefusedWithoutBlocking) {
    EXPECT_NE(input_error(path + ".missing", 4).find("cannot open input file"), std::string::npos);
    EXPECT_NE(input_error(::testing::TempDir(), 4).find("is a directory"), std::string::npos);
    EXPECT_NE(input_error("/dev/zero", 4).find("is a character device"), std::string::npos);
    EXPECT_NE(input_error("/proc/self/status", 4).find("is empty"), std::string::npos);
    const std::string fifo = path + ".fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(input_error(fifo, 4).find("is a FIFO"), std::string::npos);  // returns: O_NONBLOCK
    std::remove(fifo.c_str());
}

TEST_F(BinaryIo, SizeAndShapeAreCheckedBeforeReading) {
    write_bytes(0);
    EXPECT_NE(input_error(path, 4).find("is empty"), std::string::npos);
    write_bytes(10);
    EXPECT_NE(input_error(path, 8).find("not a whole number of 8-byte elements"), std::string::npos);
    write_bytes(48);
    cw::InputFile f(path, 8);
    EXPECT_THROW(f.require_count(5, "limit"), cw::UsageError);
    EXPECT_THROW(f.require_count(100, "limit", 4, "rows of 4"), cw::UsageError);
    EXPECT_NO_THROW(f.require_count(6, "limit", 3, "rows of 3"));
}

TEST_F(BinaryIo, OutputChecksCreateNothingAndRefuseSpecialPaths) {
    EXPECT_NO_THROW(cw::check_output_path(path, "output file"));
    EXPECT_NE(access(path.c_str(), F_OK), 0);  // nothing created
    EXPECT_THROW(cw::check_output_path("/nonexistent-dir/out.bin", "output file"), cw::UsageError);
    EXPECT_THROW(cw::check_output_path(::testing::TempDir(), "output file"), cw::UsageError);
    EXPECT_THROW(cw::check_output_path("/dev/null", "output file"), cw::UsageError);
    const int x = 1;
    EXPECT_THROW(cw::write_binary("/nonexistent-dir/out.bin", &x, 1), cw::UsageError);
}

TEST_F(BinaryIo, AtomicWriteReplacesWholeFilesAndLeavesNoTemporary) {
    write_bytes(7);
    const int x[2] = {1, 2};
    cw::write_binary(path, x, 2);
    EXPECT_EQ(slurp(path).size(), 8u);
    glob_t found;
    const std::string pattern = path + ".tmp.*";
    EXPECT_EQ(glob(pattern.c_str(), 0, nullptr, &found), GLOB_NOMATCH);  // no temporary left
    globfree(&found);
}

TEST_F(BinaryIo, PseudoFilesAndPseudoFoldersAreRefused) {
    EXPECT_THROW(cw::check_output_path("/proc/x", "output file"), cw::UsageError);
    EXPECT_THROW(cw::check_output_path("/proc/self/status", "output file"), cw::UsageError);
    EXPECT_EQ(cw::pseudo_filesystem(std::string("/proc")), "procfs (/proc)");
    EXPECT_EQ(cw::pseudo_filesystem(::testing::TempDir()), "");
    const char* sysfile = "/sys/kernel/mm/transparent_hugepage/enabled";
    if (access(sysfile, R_OK) != 0) GTEST_SKIP() << sysfile << " does not exist here";
    EXPECT_NE(input_error(sysfile, 1).find("is a pseudo-file of sysfs"), std::string::npos) << input_error(sysfile, 1);
}

TEST_F(BinaryIo, NamesLongerThanTheFolderAllowsAreRefusedLongOnesStillWrite) {
    const std::string dir = ::testing::TempDir();
    try {
        cw::check_output_path(dir + std::string(300, 'a'), "output file");
        ADD_FAILURE() << "a 300-byte name was accepted";
    } catch (const cw::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("300 bytes"), std::string::npos) << e.what();
    }
    // A 255-byte name is allowed, and its temporary file (a shortened name) fits too.
    const std::string longest = dir + std::string(255, 'b');
    EXPECT_NO_THROW(cw::check_output_path(longest, "output file"));
    const float x = 1.5f;
    EXPECT_NO_THROW(cw::write_binary(longest, &x, 1));
    EXPECT_EQ(slurp(longest).size(), sizeof(float));
    std::remove(longest.c_str());
}

TEST_F(BinaryIo, CsvAndOutputMayNotNameOneFile) {
    const std::string dir = ::testing::TempDir();
    const std::string name = path.substr(dir.size());
    EXPECT_NO_THROW(cw::check_output_path(path, "CSV file"));
    EXPECT_NO_THROW(cw::check_output_path(path, "CSV file"));  // the same option checked again
    EXPECT_THROW(cw::check_output_path(dir + "./" + name, "output file"), cw::UsageError);
    // An existing file and a symbolic link to it.
    cw::detail::checked_outputs().clear();
    write_bytes(4);
    const std::string link = path + ".link";
    ASSERT_EQ(symlink(path.c_str(), link.c_str()), 0);
    EXPECT_NO_THROW(cw::check_output_path(path, "output file"));
    EXPECT_THROW(cw::check_output_path(link, "CSV file"), cw::UsageError);
    EXPECT_NO_THROW(cw::check_output_path(path + ".other", "CSV file"));
    std::remove(link.c_str());
}

TEST_F(BinaryIo, ContentsAreCheckedAsTheyAreReadNotBefore) {
    const std::vector<double> bad = {1.0, 2.0, NAN, 4.0};
    cw::write_binary(path, bad.data(), bad.size());
    cw::InputFile f(path, sizeof(double));
    EXPECT_NO_THROW(f.require_finite<double>());  // nothing read yet: a run that will not happen reads nothing
    std::vector<double> got(bad.size());
    try {
        f.read_into(got.data());
        ADD_FAILURE() << "a NaN was accepted";
    } catch (const cw::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("not finite (element 2)"), std::string::npos) << e.what();
    }
    const std::vector<double> good = {1.0, 2.0, 3.0};
    cw::write_binary(path, good.data(), good.size());
    cw::InputFile g(path, sizeof(double));
    g.require_finite<double>();
    EXPECT_EQ(g.read_all<double>(), good);
    // Without require_finite, a NaN is data (vecmax's maximum propagates it).
    cw::write_binary(path, bad.data(), bad.size());
    cw::InputFile h(path, sizeof(double));
    EXPECT_EQ(h.read_all<double>().size(), bad.size());
}

TEST_F(BinaryIo, ANotFiniteValuePastTheFirstPieceIsNamedByItsIndex) {
    const std::size_t n = (64u << 20) / sizeof(double) + 5;  // two pieces of read_into
    std::vector<double> data(n, 1.0);
    data[n - 2] = INFINITY;
    cw::write_binary(path, data.data(), data.size());
    cw::InputFile f(path, sizeof(double));
    f.require_finite<double>();
    try {
        f.read_all<double>();
        ADD_FAILURE() << "an infinity was accepted";
    } catch (const cw::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("(element " + std::to_string(n - 2) + ")"), std::string::npos) << e.what();
    }
}

TEST_F(BinaryIo, AHugeFileIsRefusedByItsSizeAgainstHostMemory) {
    // A sparse file larger than any host memory, within the count limit: refused at once.
    write_bytes(0);
    ASSERT_EQ(truncate(path.c_str(), 1LL << 40), 0);
    cw::InputFile f(path, sizeof(double));
    try {
        f.require_count(1ULL << 40, "limit");
        ADD_FAILURE() << "a 1 TiB input was accepted";
    } catch (const cw::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("needs 1048576 MiB of host memory"), std::string::npos) << e.what();
    }
    EXPECT_THROW(f.require_exact(f.count(), "test"), cw::UsageError);
}

namespace {
bool temporaries_left(const std::string& path) {
    glob_t found;
    const std::string pattern = path + ".*.*";
    const bool any = glob(pattern.c_str(), 0, nullptr, &found) != GLOB_NOMATCH;
    globfree(&found);
    return any;
}
cw::PendingFile pending(const std::string& path, const std::string& what, const std::string& text) {
    cw::PendingFile f;
    f.path = path, f.what = what, f.prefix = text;
    return f;
}
}  // namespace

TEST_F(BinaryIo, ACommitOfSeveralFilesIsAllOrNothing) {
    const std::string csv = path + ".csv", out = path + ".bin";
    std::ofstream(csv) << "old rows\n";
    std::ofstream(out) << "old output";
    // Both written.
    cw::commit_files({pending(csv, "CSV file", "new rows\n"), pending(out, "output file", "new output")});
    EXPECT_EQ(slurp(csv), "new rows\n");
    EXPECT_EQ(slurp(out), "new output");
    // The second target's folder is gone: neither written, no temporary left.
    const std::string gone = path + ".gone/out.bin";
    try {
        cw::commit_files({pending(csv, "CSV file", "newer rows\n"), pending(gone, "output file", "x")});
        ADD_FAILURE() << "a commit into a missing folder succeeded";
    } catch (const cw::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot write output file '" + gone + "'"), std::string::npos) << e.what();
    }
    EXPECT_EQ(slurp(csv), "new rows\n");
    EXPECT_FALSE(temporaries_left(csv));
    // The second rename fails (its target became a non-empty folder): the first is put back,
    // an existing file as it was and a new one removed.
    const std::string folder = path + ".dir";
    ASSERT_EQ(mkdir(folder.c_str(), 0700), 0);
    std::ofstream(folder + "/keep") << "x";
    const std::string fresh = path + ".fresh";
    EXPECT_THROW(cw::commit_files({pending(csv, "CSV file", "newest\n"), pending(fresh, "output file", "y"),
                                   pending(folder, "output file", "z")}),
                 cw::UsageError);
    EXPECT_EQ(slurp(csv), "new rows\n");
    EXPECT_NE(access(fresh.c_str(), F_OK), 0);
    EXPECT_FALSE(temporaries_left(csv));
    EXPECT_FALSE(temporaries_left(fresh));
    EXPECT_FALSE(temporaries_left(folder));
    std::remove((folder + "/keep").c_str());
    rmdir(folder.c_str());
    std::remove(csv.c_str());
    std::remove(out.c_str());
}

using Csv = TempFile;

TEST_F(Csv, HeaderCheckReadsABoundedPrefix) {
    // A large file with no newline: only the first bytes are read.
    ASSERT_EQ(truncate(path.c_str(), 0), -1);  // absent
    { std::ofstream(path.c_str()); }
    ASSERT_EQ(truncate(path.c_str(), 1LL << 30), 0);
    EXPECT_EQ(cw::csv_file_header(path, 4), std::string(4, '\0'));
    EXPECT_THROW(cw::check_csv_file(path, "x,y"), cw::UsageError);
    std::ofstream(path.c_str()) << "x,y\n1,2\n";
    EXPECT_EQ(cw::csv_file_header(path, 4), "x,y");
    EXPECT_NO_THROW(cw::check_csv_file(path, "x,y"));
    EXPECT_THROW(cw::check_csv_file(path, "x"), cw::UsageError);
}

cw::CsvRow row(const char* version, long long n, double ms) {
    cw::CsvRow r;
    r.add("version", version).add("n", n).add("kernel_ms", ms).add("result_ok", true);
    return r;
}

TEST_F(Csv, RowsOfARunAreAppendedTogetherHeaderOnce) {
    cw::CsvSink sink(path);
    sink.add(row("1", 31, 0.125));
    sink.add(row("cub", 32, 0.5));
    EXPECT_NE(access(path.c_str(), F_OK), 0);  // nothing before commit
    sink.commit();
    cw::CsvSink again(path);
    again.add(row("2", 33, 1.0));
    again.commit();
    EXPECT_EQ(slurp(path), "version,n,kernel_ms,result_ok\n1,31,0.125,1\ncub,32,0.5,1\n2,33,1,1\n");
}

TEST_F(Csv, AnExistingFileIsAppendedToAndCutBackWhenTheCommitFails) {
    // A last line without its newline gets one before the rows.
    std::ofstream(path) << "version,n,kernel_ms,result_ok\n0,1,2,1";
    cw::CsvSink sink(path);
    sink.add(row("1", 31, 0.125));
    cw::PendingFile file;
    ASSERT_TRUE(sink.prepare(&file));
    EXPECT_TRUE(file.append);
    EXPECT_EQ(file.prefix, "\n");
    sink.commit();
    const std::string before = "version,n,kernel_ms,result_ok\n0,1,2,1\n1,31,0.125,1\n";
    EXPECT_EQ(slurp(path), before);
    // The second file of the commit cannot be written: the rows appended are cut off again.
    cw::CsvSink again(path);
    again.add(row("2", 33, 1.0));
    std::vector<cw::PendingFile> files(1);
    ASSERT_TRUE(again.prepare(&files[0]));
    files.push_back(cw::PendingFile());
    files[1].path = path + ".gone/out.bin", files[1].what = "output file";
    EXPECT_THROW(cw::commit_files(files), cw::UsageError);
    EXPECT_EQ(slurp(path), before);
    EXPECT_FALSE(temporaries_left(path));
    // A 1 GiB file (sparse, past its header) is appended to without being read or copied.
    ASSERT_EQ(truncate(path.c_str(), 1LL << 30), 0);
    cw::CsvSink big(path);
    big.add(row("3", 34, 2.0));
    big.commit();
    struct stat st;
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_size, (1LL << 30) + 1 + static_cast<long long>(std::string("3,34,2,1\n").size()));
    EXPECT_EQ(cw::csv_file_header(path, 64), "version,n,kernel_ms,result_ok");
}

TEST_F(Csv, EmptyExistingFileGetsAHeaderAndOtherColumnsAreRefused) {
    write_bytes(0);
    cw::CsvSink sink(path);
    cw::CsvRow a;
    a.add("x", 1);
    sink.add(a);
    sink.commit();
    EXPECT_EQ(slurp(path), "x\n1\n");
    cw::CsvSink other(path);
    cw::CsvRow b;
    b.add("y", 1);
    other.add(b);
    EXPECT_THROW(other.commit(), cw::UsageError);
    EXPECT_EQ(slurp(path), "x\n1\n");
}

TEST_F(Csv, CheckBeforeGpuWorkCreatesNothing) {
    EXPECT_NO_THROW(cw::check_csv_file(path, "x,y"));
    EXPECT_NE(access(path.c_str(), F_OK), 0);
    std::ofstream(path) << "x\n1\n";
    EXPECT_THROW(cw::check_csv_file(path, "x,y"), cw::UsageError);
    EXPECT_NO_THROW(cw::check_csv_file(path, "x"));
    EXPECT_EQ(slurp(path), "x\n1\n");
    EXPECT_THROW(cw::check_csv_file("/nonexistent-dir/r.csv", "x"), cw::UsageError);
}

TEST(CsvRow, QuotesAndNotApplicableIsEmpty) {
    cw::CsvRow r;
    r.add("device", "GPU, \"big\"").add("a", NAN).add_value("b", NAN).add("c", INFINITY).add("d", 1e-20, 3).add_na("e");
    EXPECT_EQ(r.header(), "device,a,b,c,d,e");
    EXPECT_EQ(r.values(), "\"GPU, \"\"big\"\"\",,nan,inf,1e-20,");
}

TEST(CsvRow, CoreColumnsComeFirstInTheirOrder) {
    cw::CoreRow c;
    c.assignment = "scan";
    c.version = "cub";
    c.is_baseline = true;
    c.sizes = {{"n", 1000}};
    c.kernel_ms = 0.5;
    c.bytes = 8000.0;
    c.copy_bw_GBps = 0.032;
    c.baseline_ms = 0.5;
    c.result_ok = true;
    const cw::CsvRow r = cw::core_row(cw::DeviceColumns{"GPU", "9.0", "13.0", "13.0"}, c);
    EXPECT_EQ(r.header(),
              "assignment,version,validated,is_baseline,device,compute_capability,driver,runtime,n,threads,blocks,"
              "kernel_ms,kernel_ms_scope,bandwidth_GBps,pct_of_copy_bw,baseline_ms,speedup_vs_baseline,result_ok");
    EXPECT_EQ(r.values(), "scan,cub,1,1,GPU,9.0,13.0,13.0,1000,,,0.5,kernels,0.016,50,0.5,1,1");
    cw::CoreRow none;
    none.sizes = {{"n", 1}};
    const std::string v = cw::core_row(cw::DeviceColumns(), none).values();
    EXPECT_EQ(v, ",,1,0,,,,,1,,,,,,,,,0");  // nothing measured: every measurement empty
}

TEST(Validate, ExactCompareCountsAndLocatesMismatches) {
    const int want[] = {1, 2, 3, 4};
    const int got[] = {1, 5, 3, 6};
    const cw::ExactComparison c = cw::compare_exact(got, want, 4);
    EXPECT_FALSE(c.ok());
    EXPECT_EQ(c.mismatches, 2u);
    EXPECT_EQ(c.first_mismatch, 1u);
    EXPECT_TRUE(cw::compare_exact(want, want, 4).ok());
}

TEST(Validate, ExactCompareOfFloatsTreatsNaNAsEqualToNaNOnly) {
    const float a[] = {NAN, 1.0f, -0.0f};
    const float b[] = {NAN, 1.0f, 0.0f};
    EXPECT_TRUE(cw::compare_exact(a, b, 3).ok());  // -0 == +0
    const float c[] = {1.0f};
    const float d[] = {NAN};
    EXPECT_FALSE(cw::compare_exact(c, d, 1).ok());
}

TEST(Validate, ErrorMeasuresOnHandComputedCases) {
    const double want[] = {1.0, -2.0, 0.0, 4.0};
    const float got[] = {1.5f, -2.0f, 0.25f, 3.0f};
    EXPECT_DOUBLE_EQ(cw::max_abs_error(got, want, 4), 1.0);
    EXPECT_DOUBLE_EQ(cw::max_rel_error(got, want, 4), 0.5);                  // 0.5 / 1
    EXPECT_DOUBLE_EQ(cw::mean_squared_error(got, want, 4), (0.25 + 0 + 0.0625 + 1.0) / 4);
    EXPECT_DOUBLE_EQ(cw::mean_squared_error(got, want, 0), 0.0);
    EXPECT_TRUE(cw::within_tolerance(got, want, 4, 0.25, 0.5));
    EXPECT_FALSE(cw::within_tolerance(got, want, 4, 0.0, 0.9));
    const double bad[] = {NAN};
    const double one[] = {1.0};
    EXPECT_TRUE(std::isnan(cw::max_abs_error(bad, one, 1)));
    EXPECT_FALSE(cw::within_tolerance(bad, one, 1, 1e9, 1e9));
}

TEST(Validate, ResultBookPrintsGreppableLinesAndExitStatus) {
    cw::ResultBook book("prog");
    testing::internal::CaptureStdout();
    book.record("1", true, "n=31");
    book.record("2", false);
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(out, "prog version=1 n=31: Result = PASS\nprog version=2: Result = FAIL\n");
    EXPECT_EQ(book.failed(), 1);
    EXPECT_EQ(book.exit_status(), cw::kExitWrongResult);
    cw::ResultBook good("prog");
    testing::internal::CaptureStdout();
    good.record("1", true);
    good.demonstration("5-unfixed", "racy");
    const std::string demo = testing::internal::GetCapturedStdout();
    EXPECT_NE(demo.find("prog version=5-unfixed racy: demonstration, not validated"), std::string::npos);
    EXPECT_EQ(good.exit_status(), cw::kExitOk);
    EXPECT_EQ(good.demonstrations(), 1);
    EXPECT_EQ(good.checked(), 1);
}

TEST(Timing, MedianOfOddAndEvenCounts) {
    EXPECT_DOUBLE_EQ(cw::median({5.0, 1.0, 3.0}), 3.0);
    EXPECT_DOUBLE_EQ(cw::median({4.0, 1.0, 3.0, 2.0}), 2.5);
    EXPECT_DOUBLE_EQ(cw::median({7.0}), 7.0);
    EXPECT_THROW(cw::median({}), std::invalid_argument);
}

TEST(Timing, TimeHostRunsWarmupPlusRepeat) {
    int calls = 0;
    const cw::Timing t = cw::time_host(2, 5, [&]() { ++calls; });
    EXPECT_EQ(calls, 7);
    EXPECT_EQ(t.samples_ms.size(), 5u);
    EXPECT_GE(t.min_ms(), 0.0);
    EXPECT_DOUBLE_EQ(cw::gigabytes_per_second(2e9, 1000.0), 2.0);
}

TEST(Data, SameSeedSameNumbersAndOpenInterval) {
    const std::vector<float> a = cw_test::expect_seeded<float>(
        [](float* p, std::size_t n, std::uint64_t seed) { cw::fill_uniform(p, n, -1.0, 1.0, seed); }, 10000, 42);
    double mean = 0;
    for (float v : a) {
        EXPECT_GT(v, -1.0f);
        EXPECT_LT(v, 1.0f);
        mean += v;
    }
    EXPECT_NEAR(mean / a.size(), 0.0, 0.05);
    EXPECT_EQ(cw::Rng(1).next_u64(), 0x910A2DEC89025CC1ULL);  // SplitMix64 reference value for seed 1
}

TEST(Data, IntegersCoverTheirRangeInclusive) {
    std::vector<int> v(20000);
    cw::fill_uniform_int(v.data(), v.size(), -3, 3, 7);
    int lo = 0, hi = 0;
    for (int x : v) {
        EXPECT_GE(x, -3);
        EXPECT_LE(x, 3);
        lo = std::min(lo, x);
        hi = std::max(hi, x);
    }
    EXPECT_EQ(lo, -3);
    EXPECT_EQ(hi, 3);
}

}  // namespace
