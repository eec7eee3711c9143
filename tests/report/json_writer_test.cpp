// json_writer.hpp: escaping, UTF-8, numbers that round-trip, no NaN or infinity, layout. Expected texts
// are written by hand from RFC 8259 and RFC 3629; the doubles' shortest forms are Python's repr().
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "napkin/document/json_writer.hpp"

using napkin::json_value;
using napkin::write_json;

namespace {
std::string one_line(const json_value& v) { return write_json(v, -1); }
std::string str(const std::string& s) { return one_line(json_value::string(s)); }
std::string num(double d) { return one_line(json_value::number(d)); }
}  // namespace

TEST_CASE("strings: quotes, backslashes and control characters are escaped") {
  CHECK(str("plain") == "\"plain\"\n");
  CHECK(str("a\"b\\c") == "\"a\\\"b\\\\c\"\n");
  CHECK(str("\n\r\t\b\f") == "\"\\n\\r\\t\\b\\f\"\n");
  CHECK(str(std::string("\x01\x1f", 2)) == "\"\\u0001\\u001f\"\n");
  CHECK(str(std::string("nul\0byte", 8)) == "\"nul\\u0000byte\"\n");
  CHECK(str("\x7f") == "\"\x7f\"\n");  // DEL is not a control character for JSON
  CHECK(str("/") == "\"/\"\n");
}

TEST_CASE("strings: UTF-8 passes through, invalid bytes become U+FFFD") {
  CHECK(str("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80") == "\"caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80\"\n");
  CHECK(str("\xff") == "\"\\ufffd\"\n");                           // never a UTF-8 byte
  CHECK(str("end\xc3") == "\"end\\ufffd\"\n");                     // truncated sequence
  CHECK(str("\xc0\xaf") == "\"\\ufffd\\ufffd\"\n");                // overlong '/'
  CHECK(str("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\"\n");     // a UTF-16 surrogate
  CHECK(str("\xf4\x90\x80\x80") == "\"\\ufffd\\ufffd\\ufffd\\ufffd\"\n");  // above U+10FFFF
}

TEST_CASE("numbers: the shortest text that reads back exactly") {
  CHECK(num(0) == "0\n");
  CHECK(num(-0.0) == "-0\n");
  CHECK(num(0.1) == "0.1\n");
  CHECK(num(0.1 + 0.2) == "0.30000000000000004\n");
  CHECK(num(1.0 / 3.0) == "0.3333333333333333\n");
  CHECK(num(2.5e12) == "2500000000000\n");
  CHECK(num(1e21) == "1e+21\n");
  CHECK(num(-1.5e-7) == "-1.5e-07\n");
  CHECK(num(std::numeric_limits<double>::max()) == "1.7976931348623157e+308\n");
  CHECK(one_line(json_value::count(9007199254740993ull)) == "9007199254740993\n");  // 2^53 + 1, exact
  CHECK(one_line(json_value::count(18446744073709551615ull)) == "18446744073709551615\n");
}

TEST_CASE("numbers: NaN and infinities are null") {
  CHECK(num(std::numeric_limits<double>::quiet_NaN()) == "null\n");
  CHECK(num(std::numeric_limits<double>::infinity()) == "null\n");
  CHECK(num(-std::numeric_limits<double>::infinity()) == "null\n");
  CHECK(json_value::number(std::numeric_limits<double>::quiet_NaN()).is_null());
}

TEST_CASE("objects keep their order; set() replaces; pretty and one-line layouts") {
  json_value o = json_value::object();
  o.set("b", json_value::count(1));
  o.set("a", json_value::boolean(true));
  json_value list = json_value::array();
  list.push(json_value::null());
  list.push(json_value::string("x"));
  o.set("list", list);
  o.set("empty", json_value::object());
  o.set("b", json_value::count(2));
  CHECK(one_line(o) == "{\"b\":2,\"a\":true,\"list\":[null,\"x\"],\"empty\":{}}\n");
  CHECK(write_json(o) ==
        "{\n"
        "  \"b\": 2,\n"
        "  \"a\": true,\n"
        "  \"list\": [\n"
        "    null,\n"
        "    \"x\"\n"
        "  ],\n"
        "  \"empty\": {}\n"
        "}\n");
  REQUIRE(o.find("list") != nullptr);
  CHECK(o.find("list")->items().size() == 2);
  CHECK(o.find("missing") == nullptr);
  CHECK(list.find("x") == nullptr);  // not an object
}
