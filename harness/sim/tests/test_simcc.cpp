// simcc and the rewriter it runs, used as nvcc is: a standalone program and its errors,
// the implicit runtime header, launches and __shared__ declarations in an included
// header, nvcc's spellings of a launch, __CUDA_ARCH__ in device code only, copy calls
// named by their line (and nothing else), the depfile, --version and --help, thrust,
// a C file calling the runtime, nvcc's include rules and object names, and a note on a
// missing `template` keyword.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "test_support.h"

using namespace simtest::support;

TEST_CASE("the rewriter names the line of copy calls only, not members, other namespaces or declarations") {
  const std::string src = std::string(PPLAB_SIM_TEST_TMP_DIR) + "/copy_calls_probe.cu";
  const std::string out = src + ".cpp";
  {
    std::ofstream file(src);
    file << "cudaError_t cudaMemcpy(void*, const void*, size_t, cudaMemcpyKind);\n"  // 1: a declaration
            "struct Copier { int cudaMemcpy(int) { return 0; } };\n"
            "namespace mine { int cudaMemcpy(int) { return 1; } }\n"
            "int f(Copier& c, Copier* p, float* h, const float* d) {\n"
            "  const char* text = \"cudaMemcpy(h, d)\";  // cudaMemcpy(h, d) in a comment\n"  // 5
            "  if (cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;\n"
            "  c.cudaMemcpy(1); p->cudaMemcpy(2); mine::cudaMemcpy(3);\n"
            "  return cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, 0);\n"  // 8
            "}\n";
  }
  const RunResult rewritten = run(std::string(PPLAB_SIM_REWRITE) + " " + src + " " + out);
  REQUIRE(rewritten.status == 0);
  std::ifstream file(out);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  INFO(text);
  expect_contains(text, {"cudaError_t cudaMemcpy(void*, const void*, size_t, cudaMemcpyKind);\n",
                         "int cudaMemcpy(int) { return 0; }",
                         "\"cudaMemcpy(h, d)\";  // cudaMemcpy(h, d) in a comment\n",
                         "  if ((::pplab::sim::CopyCall(\"cudaMemcpy\", __FILE__, 6), cudaMemcpy(h, d, 4, "
                         "cudaMemcpyDeviceToHost)) != cudaSuccess) return 1;\n",
                         "  c.cudaMemcpy(1); p->cudaMemcpy(2); mine::cudaMemcpy(3);\n",
                         "  return (::pplab::sim::CopyCall(\"cudaMemcpyAsync\", __FILE__, 8), cudaMemcpyAsync(h, d, 4, "
                         "cudaMemcpyDeviceToHost, 0));\n"});
  CHECK(std::count(text.begin(), text.end(), '\n') == 2 + 9);  // the runtime header and #line, then the 9 lines
}

TEST_CASE("simcc compiles a standalone .cu program and its errors name the .cu line") {
  std::string dir = PPLAB_SIM_TEST_TMP_DIR;
  auto ok = run(std::string(PPLAB_SIM_SIMCC) + " -O2 " + PPLAB_SIM_TEST_SRC_DIR + "/programs/hello.cu -o " + dir +
                "/simcc_hello && " + dir + "/simcc_hello");
  INFO(ok.output);
  CHECK(ok.status == 0);
  CHECK(contains(ok.output, "hello from block 0 thread 0 value 10"));
  auto bad = run(std::string(PPLAB_SIM_SIMCC) + " " + PPLAB_SIM_TEST_SRC_DIR + "/programs/broken.cu -o " + dir +
                 "/simcc_broken");
  INFO(bad.output);
  CHECK(bad.status != 0);
  CHECK(contains(bad.output, "programs/broken.cu:6"));
}

TEST_CASE("a .cu file without includes gets the runtime header, as under nvcc") {
  expect_run(simcc_run("implicit"), Exit::cleanly,
             {"implicit include: h[99] = 297, CUDART_VERSION = 13000"});
}

TEST_CASE("launches and extern T __shared__ in an included .cuh are rewritten with their lines kept") {
  expect_run(simcc_run("header_launch"), Exit::cleanly,
             {"header line 10\n",
              "launch in a header: reversed, main line 14"});
}

TEST_CASE("__CUDA_ARCH__ is the sim's device in code only a GPU compiles, and undefined in host code") {
  expect_run(simcc_run("cuda_arch"), Exit::cleanly,
             {"arch: sum_path 800, device_body 900, both_sides 1, kernel 90, lambda 7, host_group 1, host_body 10\n"});
}

TEST_CASE("the rewriter's depfile names its input, so a build does not redo the rewrite of a file without headers") {
  // An empty depfile is, to ninja, a missing one: it reran such a rewrite, and every
  // compile after it, on each build.
  const std::string src = std::string(PPLAB_SIM_TEST_SRC_DIR) + "/programs/nvcc_like/ub_shuffle.cu";
  const std::string out = std::string(PPLAB_SIM_TEST_TMP_DIR) + "/depfile_probe.cpp";
  const RunResult rewritten = run(std::string(PPLAB_SIM_REWRITE) + " " + src + " " + out + " --depfile " + out + ".d");
  REQUIRE(rewritten.status == 0);
  std::ifstream depfile(out + ".d");
  const std::string text((std::istreambuf_iterator<char>(depfile)), std::istreambuf_iterator<char>());
  INFO(text);
  CHECK(text.rfind(out + ": ", 0) == 0);
  CHECK(contains(text, "nvcc_like/ub_shuffle.cu"));
}

TEST_CASE("simcc --version and --help say what is supported") {
  auto v = run(std::string(PPLAB_SIM_SIMCC) + " --version");
  CHECK(v.status == 0);
  CHECK(contains(v.output, "simcc (pplab CPU emulator): CUDA runtime API 13.0 subset"));
  auto h = run(std::string(PPLAB_SIM_SIMCC) + " --help");
  CHECK(h.status == 0);
  expect_contains(h.output, {"cooperative groups",
                             "Not supported: dynamic parallelism"});
}

TEST_CASE("thrust's device_vector, sort_by_key and copy run on its C++ back end") {
  expect_run(simcc_run("thrust_sort"), Exit::cleanly,
             {"thrust sort_by_key: sorted, values follow"});
}

TEST_CASE("launches take nvcc's spellings, and their arguments convert to the kernel's parameter types") {
  expect_run(simcc_run("launch_arguments"), Exit::cleanly,
             {"spaced launch, default argument: 5\n", "null pointers: 5\n", "converted: 11.5\n",
              "templates: 7.0 4\n", "through a pointer: 9, cudaSuccess\n"});
}

namespace {
// A fresh folder under the test's build folder, for builds that write where they run.
std::string fresh_dir(const std::string& name) {
  const std::string dir = std::string(PPLAB_SIM_TEST_TMP_DIR) + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}
const std::string nvcc_like_dir = std::string(PPLAB_SIM_TEST_SRC_DIR) + "/programs/nvcc_like/";
}  // namespace

TEST_CASE("a C file calls the runtime API: compiled by simcc, or by gcc against the sim's headers, it links") {
  const std::string dir = fresh_dir("c_caller");
  const std::string src = nvcc_like_dir + "c_caller/";
  const std::string expected = "from C: 1 device, warp 32, host[255] = 510\n";
  // One simcc command for both files, as `nvcc main.c scale.cu` would.
  expect_run(run(std::string("cd ") + dir + " && " + PPLAB_SIM_SIMCC + " " + src + "main.c " + src +
                 "scale.cu -o both && ./both"),
             Exit::cleanly, {expected, "cudaSetDevice(7): cudaErrorInvalidDevice (invalid device ordinal)\n"});
  // A Makefile's way: the C file by the C compiler, the .cu by simcc -c (no -o: scale.o), linked by simcc.
  const std::string sim_include = std::string(PPLAB_SIM_TEST_SRC_DIR) + "/../include";
  expect_run(run(std::string("cd ") + dir + " && cc -std=c99 -Wall -Werror -I" + sim_include + " -c " + src +
                 "main.c -o main.o && " + PPLAB_SIM_SIMCC + " -c " + src + "scale.cu && " + PPLAB_SIM_SIMCC +
                 " main.o scale.o -o apart && ./apart"),
             Exit::cleanly, {expected});
}

TEST_CASE("simcc follows nvcc's include rules and names objects as nvcc does") {
  const std::string dir = fresh_dir("include_rules");
  const RunResult r = expect_run(run(std::string("cd ") + dir + " && " + PPLAB_SIM_SIMCC + " -c " + nvcc_like_dir +
                                     "include_rules/main.cu && " + PPLAB_SIM_SIMCC + " main.o -o prog && ./prog"),
                                 Exit::cleanly, {"include rules: 42, pid positive\n"});
  CHECK(!contains(r.output, "the local unistd.h was read"));
  // -c with -o and two sources cannot name both objects.
  expect_run(run(std::string("cd ") + dir + " && " + PPLAB_SIM_SIMCC + " -c " + nvcc_like_dir + "c_caller/main.c " +
                 nvcc_like_dir + "c_caller/scale.cu -o one.o"),
             Exit::with_error, {"simcc: error: -c with -o takes one source file"});
  // nvcc's steps that have no counterpart here are refused by name.
  expect_run(run(std::string(PPLAB_SIM_SIMCC) + " -cuda " + nvcc_like_dir + "c_caller/scale.cu"), Exit::with_error,
             {"simcc: error: -cuda asks nvcc for one step of its GPU pipeline"});
}

TEST_CASE("a dependent member template without `template`: simcc names the line and the fix") {
  const RunResult r = run(std::string(PPLAB_SIM_SIMCC) + " " + nvcc_like_dir + "missing_template_keyword.cu -o " +
                          PPLAB_SIM_TEST_TMP_DIR + "/missing_template_keyword");
  INFO(r.output);
  CHECK(r.status != 0);
  expect_contains(r.output, {"missing_template_keyword.cu:10:", "simcc: note: nvcc accepts a member template",
                             "write t.template f<1>(x)"});
}
