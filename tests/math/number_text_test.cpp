// napkin/text/numbers.hpp and table.hpp: the one number formatter and the one column layout, against
// hand-written expected text.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "napkin/text/numbers.hpp"
#include "napkin/text/table.hpp"

using namespace napkin;

TEST_CASE("fixed and significant digits") {
  CHECK(fixed(0.625, 3) == "0.625");
  CHECK(fixed(2.5, 0) == "2");  // printf rounds half to even
  CHECK(fixed(1.0, 99) == "1.00000000000000000");  // decimals clamped to 17
  CHECK(significant(682.666) == "682.7");
  CHECK(significant(19.9701) == "19.97");
  CHECK(significant(0.625) == "0.6250");
  CHECK(significant(1365.33) == "1365.3");
  CHECK(significant(0) == "0");
  CHECK(significant(-19.9701) == "-19.97");
}

TEST_CASE("percentages") {
  CHECK(percent(81.04) == "81.0%");
  CHECK(percent(81.06) == "81.1%");
  CHECK(percent(5, 0) == "5%");
  CHECK(percent_of(0.8104) == "81.0%");
  CHECK(percent_of(1.0) == "100.0%");
}

TEST_CASE("SI prefixes are decimal") {
  CHECK(si(1.374e11, "FLOP") == "137.4 GFLOP");
  CHECK(si(4.8e12, "B/s") == "4.800 TB/s");
  CHECK(si(1024, "B") == "1.024 kB");  // 1024 B is 1.024 kB, not 1 KiB
  CHECK(si(256, "B") == "256 B");
  // The prefix follows the number as printed: what rounds up to 1000 moves to the next prefix.
  CHECK(si(999999999.9999999, "B/s") == "1.000 GB/s");
  CHECK(si(999.96, "B") == "1.000 kB");
  CHECK(si(999.94, "B") == "999.9 B");
  CHECK(si(-999999.99, "B") == "-1.000 MB");
  CHECK(si(0.5, "s") == "0.5000 s");
}

TEST_CASE("durations pick their unit") {
  CHECK(duration(2.779e-3) == "2.78 ms");
  CHECK(duration(179.74e-6) == "179.74 us");
  CHECK(duration(42e-9) == "42 ns");
  CHECK(duration(1.5) == "1.50 s");
}

TEST_CASE("estimated durations keep four significant digits") {
  // The napkin CLI's times: 2·4096³ / 989.4e12 = 138.9 µs; 100.7 MB / 3.35 TB/s = 30.05 µs.
  CHECK(estimate_duration(138.91e-6) == "138.9 µs");
  CHECK(estimate_duration(30.048e-6) == "30.05 µs");
  CHECK(estimate_duration(2.779e-3) == "2.779 ms");
  CHECK(estimate_duration(1.5) == "1.500 s");
  CHECK(estimate_duration(42e-9) == "42.00 ns");
  CHECK(estimate_duration(0) == "0 ns");
}

TEST_CASE("general: printf's %g for values quoted in messages") {
  CHECK(general(-1) == "-1");
  CHECK(general(0.5) == "0.5");
  CHECK(general(1e306) == "1e+306");
  CHECK(general(2.5e-7) == "2.5e-07");
}

TEST_CASE("non-finite values say so") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(fixed(nan, 2) == "nan");
  CHECK(percent(inf) == "inf");
  CHECK(significant(-inf) == "-inf");
  CHECK(si(inf, "B/s") == "inf B/s");
  CHECK(duration(nan) == "nan s");
  CHECK(estimate_duration(inf) == "inf s");
  CHECK(general(-inf) == "-inf");
  CHECK(general(nan) == "nan");
  CHECK(fixed(std::numeric_limits<double>::max(), 17).size() > 300);  // no truncation, no overflow
}

// A document's number for people, by its member's unit suffix (napkin diff's old and new columns).
TEST_CASE("named_number: the unit the name ends with") {
  CHECK(named_number(6.69e13, "flop_per_s") == "66.90 TFLOP/s");
  CHECK(named_number(0.00205439, "lower_bound_s") == "2.05 ms");
  CHECK(named_number(2054390, "duration_ns") == "2.05 ms");
  CHECK(named_number(732864, "duration_ns") == "732.86 us");
  CHECK(named_number(42, "min_ns") == "42 ns");
  CHECK(named_number(3.614e12, "dram_bytes_per_s") == "3.614 TB/s");
  CHECK(named_number(2.5e12, "bytes_per_s") == "2.500 TB/s");
  CHECK(named_number(5e5, "launches_per_s") == "500.0 k/s");
  CHECK(named_number(81.04, "sm_pct") == "81.0%");
  CHECK(named_number(1.98e9, "sm_hz") == "1.980 GHz");
  CHECK(named_number(4096, "dram_bytes") == "4.096 kB");
  CHECK(named_number(256, "bytes") == "256 B");
  CHECK(named_number(2e6, "bytes_read") == "2.000 MB");
  CHECK(named_number(1.1e12, "flop") == "1.100 TFLOP");
  CHECK(named_number(8.2, "intensity_flop_per_byte") == "8.200 FLOP/B");
  CHECK(named_number(1446750, "elapsed_cycles") == "1.44675e+06");  // no unit: six digits
  CHECK(named_number(3, "passes") == "3");
  CHECK(named_number(0.5, "communication_fraction") == "0.5");
  CHECK(named_number(std::nan(""), "duration_ns") == "nan s");
  // A flattened path: the last name's unit, else the holding object's; bytes named in the middle.
  CHECK(named_number(0.8125, "cost.total_s") == "812.50 ms");
  CHECK(named_number(137438953472, "workload.flop") == "137.4 GFLOP");
  CHECK(named_number(9.894e14, "peak_flop_per_s.fp16-tc") == "989.4 TFLOP/s");
  CHECK(named_number(295.343, "ridge_flop_per_byte.fp16-tc") == "295.3 FLOP/B");
  CHECK(named_number(465353238.46, "max_bytes_for_compute_bound") == "465.4 MB");
  CHECK(named_number(8, "blocks_by.registers") == "8");
}

TEST_CASE("padding and the column table count characters, not bytes") {
  CHECK(pad_right("gemm", 6) == "gemm  ");
  CHECK(pad_left("2.05 ms", 9) == "  2.05 ms");
  CHECK(pad_left("138.9 µs", 9) == " 138.9 µs");  // µ is two bytes, one column
  CHECK(pad_right("too long", 3) == "too long");
  text_table t;
  t.column("entity", text_table::align::left);
  t.column("old");
  t.column("status", text_table::align::left);
  t.row({"gemm", "2.05 ms", "worse"});
  t.row({"a", "1.00 us", ""});
  // entity: 6 wide (its header), old: 7 ("2.05 ms"), status last: trailing spaces cut.
  CHECK(t.text("  ") == "  entity      old  status\n"
                        "  gemm    2.05 ms  worse\n"
                        "  a       1.00 us\n");
}

TEST_CASE("text_table: least widths, notes between rows, no header") {
  text_table t;
  t.column("name", text_table::align::left, 8);
  t.column("n", text_table::align::right, 4);
  t.note("a-name-longer-than-its-column");
  t.row({"", "1"});
  t.row({"b", "12345"});  // wider than the least width: the column grows
  t.note("    a remark, no part of any width   ");
  CHECK_FALSE(t.empty());
  CHECK(t.text("  ") == "  name          n\n"
                        "  a-name-longer-than-its-column\n"
                        "                1\n"
                        "  b         12345\n"
                        "      a remark, no part of any width\n");
  CHECK(t.text("", false) == "a-name-longer-than-its-column\n"
                             "              1\n"
                             "b         12345\n"
                             "    a remark, no part of any width\n");
  text_table notes_only;
  notes_only.column("x");
  notes_only.note("only a note");
  CHECK(notes_only.empty());  // no rows
}
