// What a report shows of a failed build (compiler_output.h): the student's own lines
// quoted, other files' messages without their lines, and none of ninja's noise.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>

#include "compiler_output.h"

using pplab::cli::compiler_messages;

namespace {

const std::string kSubmission = "/grade/out/work/ada/submission";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("g++: the submission's lines are quoted, a header's message stays without its line") {
  const std::string output =
      "[1/3] Rewriting saxpy.cu for the CPU emulator\n"
      "[2/3] Building CXX object labs/CMakeFiles/lab01.dir/saxpy.cu.o\n"
      "FAILED: labs/CMakeFiles/lab01.dir/saxpy.cu.o\n"
      "/usr/bin/g++ -DSECRET_FLAG -I/opt/instructor -c /grade/out/work/ada/submission/01_saxpy/saxpy.cu -o x.o\n"
      "In file included from /workbook/harness/labs/01_saxpy/saxpy.cuh:3,\n"
      "                 from /grade/out/work/ada/submission/01_saxpy/saxpy.cu:1:\n"
      "/workbook/private.h:7:1: error: 'root' does not name a type\n"
      "    7 | root:x:0:0:root:/root:/bin/bash\n"
      "      | ^~~~\n"
      "/grade/out/work/ada/submission/01_saxpy/saxpy.cu: In function 'void f()':\n"
      "/grade/out/work/ada/submission/01_saxpy/saxpy.cu:12:3: error: 'foo' was not declared in this scope\n"
      "   12 |   foo();\n"
      "      |   ^~~\n"
      "ninja: build stopped: subcommand failed.\n";
  const std::string shown = compiler_messages(output, kSubmission);
  CHECK(has(shown, "01_saxpy/saxpy.cu:12:3: error: 'foo' was not declared in this scope\n   12 |   foo();\n      |   ^~~\n"));
  CHECK(has(shown, "/workbook/private.h:7:1: error: 'root' does not name a type\n"));
  CHECK_FALSE(has(shown, "/root:/bin/bash"));
  CHECK(has(shown, "from 01_saxpy/saxpy.cu:1:"));
  CHECK_FALSE(has(shown, kSubmission));
  CHECK_FALSE(has(shown, "SECRET_FLAG"));
  CHECK_FALSE(has(shown, "FAILED"));
  CHECK_FALSE(has(shown, "ninja"));
  CHECK_FALSE(has(shown, "Building"));
  CHECK_FALSE(has(shown, "Rewriting"));
}

TEST_CASE("nvcc: the same rule for its file(line) form") {
  const std::string output =
      "/workbook/private.cuh(2): error: identifier \"secret_answer_42\" is undefined\n"
      "  inline int k() { return secret_answer_42 * hidden_weight; }\n"
      "                          ^\n"
      "\n"
      "/grade/out/work/ada/submission/02_dot_product/dot.cu(9): error: identifier \"also_missing\" is undefined\n"
      "  int z() { return also_missing; }\n"
      "                   ^\n"
      "\n"
      "2 errors detected in the compilation of \"/grade/out/work/ada/submission/02_dot_product/dot.cu\".\n";
  const std::string shown = compiler_messages(output, kSubmission);
  CHECK_FALSE(has(shown, "hidden_weight"));
  CHECK(has(shown, "02_dot_product/dot.cu(9): error: identifier \"also_missing\" is undefined\n"
                   "  int z() { return also_missing; }\n"));
  CHECK(has(shown, "2 errors detected in the compilation of \"02_dot_product/dot.cu\"."));
}

TEST_CASE("a tool's own message keeps its indented lines") {
  const std::string output =
      "CMake Error at /workbook/harness/student_build/CMakeLists.txt:12 (message):\n"
      "  the request names no lab\n"
      "/usr/bin/ld: saxpy.cu.o: in function `f()':\n"
      "saxpy.cu:(.text+0x5): undefined reference to `g()'\n"
      "collect2: error: ld returned 1 exit status\n";
  const std::string shown = compiler_messages(output, kSubmission);
  CHECK(shown == output);
}

TEST_CASE("without a submission every quote stays, for the instructor's own build") {
  const std::string output =
      "/workbook/harness/src/bench.cpp:7:1: error: expected ';'\n"
      "    7 | int x\n"
      "      |      ^\n";
  CHECK(compiler_messages(output) == output);
}

TEST_CASE("a submission's #line cannot bring another file's lines back, and long output is cut") {
  // A #line naming the submission's own folder only relabels the student's own lines; a
  // diagnostic located elsewhere still loses its quotes.
  const std::string output = "/etc/shadow:1:1: error: x\n    1 | root:$6$hash\n";
  CHECK_FALSE(has(compiler_messages(output, kSubmission), "$6$hash"));
  const std::string many(50000, 'x');
  const std::string shown = compiler_messages(many + "\n", kSubmission, 100);
  CHECK(shown.size() < 200);
  CHECK(has(shown, "(cut)"));
}
