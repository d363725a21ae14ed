// Unit tests of the host side of common/ (no GPU): options, binary input/output, CSV,
// validation helpers, timing's median and the seeded data.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "common.h"

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

struct SharedConfig : cw::SharedOptions {
    long long n = 5;
    SharedConfig() { seed = 7; }
};

TEST(Options, SharedOptionsKeepTheProgramsDefaultsAndParse) {
    SharedConfig c;
    cw::Options opts("prog", "summary");
    opts.add_int("n", &c.n, 1, 100, "n");
    cw::SharedOptionsHelp help;
    help.seed_max = 1000;
    help.csv = "one row per version";
    cw::add_shared_options(opts, c, help);
    const char* argv[] = {"prog", "--repeat=4", "--only=a,b", "--pinned", "--csv=r.csv"};
    ASSERT_TRUE(opts.parse(5, argv));
    EXPECT_EQ(c.repeat, 4);
    EXPECT_EQ(c.warmup, 3);
    EXPECT_EQ(c.seed, 7);
    EXPECT_EQ(c.only, "a,b");
    EXPECT_TRUE(c.pinned);
    EXPECT_EQ(c.csv, "r.csv");
    const std::string help_text = opts.help_text();
    EXPECT_NE(help_text.find("one row per version"), std::string::npos);
    EXPECT_NE(help_text.find("(default: 7)"), std::string::npos);
    SharedConfig d;
    cw::Options again("prog", "summary");
    cw::add_shared_options(again, d, help);
    const char* too_big[] = {"prog", "--seed=1001"};
    EXPECT_THROW(again.parse(2, too_big), cw::UsageError);
}

TEST(Format, PrintfIntoAString) {
    EXPECT_EQ(cw::format("%.4f ms", 0.125), "0.1250 ms");
    EXPECT_EQ(cw::format("%s=%d", "n", 33), "n=33");
    EXPECT_EQ(cw::format("%s", ""), "");
    const std::string long_text(300, 'x');
    EXPECT_EQ(cw::format("%s!", long_text.c_str()), long_text + "!");
}

TEST(Options, ParseOrExitExitsTwoWithOneLine) {
    long long n = 1;
    cw::Options o("prog", "x");
    o.add_int("n", &n, 1, 10, "n");
    const char* argv[] = {"prog", "--n=11"};
    EXPECT_EXIT(o.parse_or_exit(2, argv), ::testing::ExitedWithCode(2), "^prog: error: option --n=11 is out of range \\[1, 10\\]\n$");
}

TEST(VersionFilter, SelectsKnownLabelsAndRejectsOthers) {
    cw::VersionFilter all("", {"1", "2", "cub"});
    EXPECT_TRUE(all.wants("1"));
    EXPECT_TRUE(all.wants("cub"));
    cw::VersionFilter some("2,cub", {"1", "2", "cub"});
    EXPECT_FALSE(some.wants("1"));
    EXPECT_TRUE(some.wants("2"));
    EXPECT_THROW(cw::VersionFilter("3", {"1", "2"}), cw::UsageError);
}

class TempFile : public ::testing::Test {
  protected:
    std::string path = ::testing::TempDir() + "cw_common_test_" +
                       ::testing::UnitTest::GetInstance()->current_test_info()->name();
    void TearDown() override { std::remove(path.c_str()); }
    void write_bytes(std::size_t n) {
        std::ofstream f(path, std::ios::binary);
        for (std::size_t i = 0; i < n; ++i) f.put(static_cast<char>(i));
    }
};

using BinaryIo = TempFile;

TEST_F(BinaryIo, RoundTripsFloats) {
    const std::vector<float> data = {1.5f, -2.25f, 3.0f};
    cw::write_binary(path, data.data(), data.size());
    EXPECT_EQ(cw::read_binary<float>(path), data);
    EXPECT_EQ(cw::read_binary<float>(path, 3), data);
}

TEST_F(BinaryIo, MissingFileIsAUsageError) {
    try {
        cw::read_binary<float>(path + ".missing");
        FAIL() << "no error";
    } catch (const cw::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot open input file"), std::string::npos);
    }
}

TEST_F(BinaryIo, EmptyFileIsAUsageError) {
    write_bytes(0);
    EXPECT_THROW(cw::read_binary<int>(path), cw::UsageError);
}

TEST_F(BinaryIo, PartialElementIsAUsageError) {
    write_bytes(10);
    try {
        cw::read_binary<double>(path);
        FAIL() << "no error";
    } catch (const cw::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("not a whole number of 8-byte elements"), std::string::npos);
    }
}

TEST_F(BinaryIo, WrongShapeIsAUsageError) {
    write_bytes(24);
    EXPECT_EQ(cw::read_binary<double>(path).size(), 3u);
    try {
        cw::read_binary<double>(path, 4);
        FAIL() << "no error";
    } catch (const cw::UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("holds 3 8-byte elements, expected 4"), std::string::npos);
    }
}

TEST_F(BinaryIo, DirectoryIsAUsageError) {
    EXPECT_THROW(cw::read_binary<int>(::testing::TempDir()), cw::UsageError);
}

TEST_F(BinaryIo, UnwritableOutputIsAUsageError) {
    const int x = 1;
    EXPECT_THROW(cw::write_binary("/nonexistent-dir/out.bin", &x, 1), cw::UsageError);
    EXPECT_THROW(cw::check_writable("/nonexistent-dir/out.bin"), cw::UsageError);
}

using Csv = TempFile;

std::string slurp(const std::string& path) {
    std::ifstream f(path);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

TEST_F(Csv, HeaderOnceThenRows) {
    cw::CsvRow a;
    a.add("version", "1").add("n", 31LL).add("kernel_ms", 0.125).add("result_ok", true);
    cw::csv_append(path, a);
    cw::CsvRow b;
    b.add("version", "cub").add("n", 32LL).add("kernel_ms", 2.0 / 3.0, 4).add("result_ok", false);
    cw::csv_append(path, b);
    EXPECT_EQ(slurp(path), "version,n,kernel_ms,result_ok\n1,31,0.125,1\ncub,32,0.6667,0\n");
}

TEST_F(Csv, EmptyExistingFileGetsAHeader) {
    write_bytes(0);
    cw::CsvRow a;
    a.add("x", 1);
    cw::csv_append(path, a);
    EXPECT_EQ(slurp(path), "x\n1\n");
}

TEST_F(Csv, DifferentColumnsAreRefused) {
    cw::CsvRow a;
    a.add("x", 1);
    cw::csv_append(path, a);
    cw::CsvRow b;
    b.add("y", 1);
    EXPECT_THROW(cw::csv_append(path, b), cw::UsageError);
    EXPECT_EQ(slurp(path), "x\n1\n");
}

TEST_F(Csv, CheckBeforeGpuWorkAcceptsNewMatchingAndEmptyFiles) {
    EXPECT_NO_THROW(cw::check_csv_file(path, "x,y"));  // missing: created empty, appendable
    EXPECT_EQ(slurp(path), "");
    cw::CsvRow a;
    a.add("x", 1).add("y", 2);
    cw::csv_append(path, a);
    EXPECT_NO_THROW(cw::check_csv_file(path, a.header()));
}

TEST_F(Csv, CheckBeforeGpuWorkRefusesOtherColumnsAndUnwritablePaths) {
    cw::CsvRow a;
    a.add("x", 1);
    cw::csv_append(path, a);
    EXPECT_THROW(cw::check_csv_file(path, "x,y"), cw::UsageError);
    EXPECT_EQ(slurp(path), "x\n1\n");
    EXPECT_THROW(cw::check_csv_file("/nonexistent-dir/r.csv", "x"), cw::UsageError);
}

TEST(CsvRow, QuotesAndSpecialValues) {
    cw::CsvRow r;
    r.add("device", "GPU, \"big\"").add("a", NAN).add("b", NAN, 6, true).add("c", INFINITY).add("d", 1e-20, 3);
    EXPECT_EQ(r.header(), "device,a,b,c,d");
    EXPECT_EQ(r.values(), "\"GPU, \"\"big\"\"\",nan,,inf,1e-20");
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
    testing::internal::GetCapturedStdout();
    EXPECT_EQ(good.exit_status(), cw::kExitOk);
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
    std::vector<float> a(10000), b(10000), c(10000);
    cw::fill_uniform(a.data(), a.size(), -1.0, 1.0, 42);
    cw::fill_uniform(b.data(), b.size(), -1.0, 1.0, 42);
    cw::fill_uniform(c.data(), c.size(), -1.0, 1.0, 43);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
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
