// One file's rewrite: the pass over its code and the rewritten file (rewrite_file.h).
#include "rewrite_file.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "copy_calls.h"
#include "device_arch.h"
#include "edit.h"
#include "includes.h"
#include "launches.h"
#include "shared_memory.h"
#include "source_text.h"
#include "tokens.h"

namespace pplab_sim_rewrite {
namespace {

// Whether a statement inside `braces` (true: a namespace or linkage-spec body) is at
// namespace scope.
bool namespace_scope(const std::vector<bool>& braces) {
  for (bool ns : braces)
    if (!ns) return false;
  return true;
}

// Whether `tok` stands whole anywhere in `code`.
bool has_token(const std::string& code, const char* tok) { return has_word(code, 0, code.size(), tok); }

}  // namespace

int rewrite_file(const std::string& in_path, const std::string& out_path, Context& ctx, bool is_header,
                 bool* needed) {
  const char* in_name = in_path.c_str();
  std::ifstream in(in_path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "pplab-sim-rewrite: cannot read %s\n", in_name);
    return 1;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string src = buf.str();
  const std::string code = blank_non_code(src);
  std::vector<Edit> edits;
  std::vector<Edit> includes;  // quoted #include names: begin, end, the name
  const bool by_address = has_token(code, "cudaLaunchKernel") || has_token(code, "cudaLaunchCooperativeKernel");

  // Brace kinds (true: namespace or linkage-spec body) to tell namespace scope apart.
  std::vector<bool> braces;
  size_t stmt_start = 0;
  int copy_calls = 0;  // calls of copy functions wrapped
  const size_t n = code.size();
  for (size_t i = 0; i < n; ++i) {
    char c = code[i];
    if (c == '#' ) {  // preprocessor line: skip it (with continuations)
      size_t b = i;  // only blanks (not newlines) may precede the # on its line
      while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t')) --b;
      if (b == 0 || code[b - 1] == '\n') {
        size_t e = i;
        while (e < n && code[e] != '\n') {
          if (code[e] == '\\' && e + 1 < n && code[e + 1] == '\n') ++e;
          ++e;
        }
        std::string line = collapse_ws(code.substr(i + 1, e - i - 1));
        size_t q = code.find('"', i);
        if (line.rfind("include \"", 0) == 0 && q < e) {
          size_t q2 = code.find('"', q + 1);
          if (q2 < e) includes.push_back({q + 1, q2, src.substr(q + 1, q2 - q - 1)});
        }
        i = e;
        stmt_start = e;
        continue;
      }
    }
    if (c == '{') {
      std::string head = collapse_ws(code.substr(stmt_start, i - stmt_start));
      bool ns = head.rfind("namespace", 0) == 0 || head.rfind("inline namespace", 0) == 0 ||
                (head.rfind("extern", 0) == 0 && head.find('(') == std::string::npos);
      braces.push_back(ns);
      stmt_start = i + 1;
    } else if (c == '}') {
      if (!braces.empty()) braces.pop_back();
      stmt_start = i + 1;
    } else if (c == ';') {
      stmt_start = i + 1;
    } else if (size_t open_end; c == '<' && (open_end = chevrons_end(code, i, '<')) != std::string::npos) {
      const std::optional<Edit> launch = launch_edit(src, code, i, open_end);
      if (!launch) {
        std::fprintf(stderr, "%s: pplab-sim-rewrite: cannot parse the kernel launch here (line %zu)\n", in_name,
                     static_cast<size_t>(std::count(src.begin(), src.begin() + static_cast<long>(i), '\n') + 1));
        return 1;
      }
      edits.push_back(*launch);
      i = launch->end - 1;
    } else if (c == '_' && code.compare(i, 10, "__shared__") == 0 && (i == 0 || !ident_char(code[i - 1])) &&
               (i + 10 >= n || !ident_char(code[i + 10]))) {
      const std::optional<Edit> shared = static_shared_edit(src, code, stmt_start, i, namespace_scope(braces));
      if (!shared) continue;
      edits.push_back(*shared);
      i = shared->end - 1;
      stmt_start = shared->end;
    } else if (c == '_' && code.compare(i, 10, "__global__") == 0 && (i == 0 || !ident_char(code[i - 1])) &&
               i + 10 < n && !ident_char(code[i + 10])) {
      // Only files that launch by address need registrations; elsewhere they would only
      // take kernels' addresses (which, with DWARF 5 line tables, made addr2line name
      // the generated file instead of the .cu in fault reports).
      if (!by_address) continue;
      if (code.substr(stmt_start, i - stmt_start).find("template") != std::string::npos) continue;
      if (std::string reg = kernel_registration(code, i + 10, ctx.kernels); !reg.empty()) {
        size_t at = std::stoul(reg.substr(0, reg.find(' ')));
        edits.push_back({at, at, reg.substr(reg.find(' '))});
      }
    } else if (c == 'c' && code.compare(i, 10, "cudaMemcpy") == 0 && (i == 0 || !ident_char(code[i - 1]))) {
      size_t e = i;
      while (e < n && ident_char(code[e])) ++e;
      const size_t line = static_cast<size_t>(std::count(src.begin(), src.begin() + static_cast<long>(i), '\n') + 1);
      const std::vector<Edit> wrap = copy_call_edits(code, i, e, line);
      edits.insert(edits.end(), wrap.begin(), wrap.end());
      copy_calls += wrap.empty() ? 0 : 1;
      i = e - 1;
    } else if (c == 'e' && code.compare(i, 6, "extern") == 0 && (i == 0 || !ident_char(code[i - 1])) &&
               i + 6 < n && !ident_char(code[i + 6])) {
      const std::optional<Edit> dynamic = dynamic_shared_edit(src, code, i, namespace_scope(braces));
      if (!dynamic) continue;
      edits.push_back(*dynamic);
      i = dynamic->end - 1;
      stmt_start = dynamic->end;
    }
  }

  const std::vector<Edit> arch_edits = device_arch_edits(code);
  edits.insert(edits.end(), arch_edits.begin(), arch_edits.end());
  if (!arch_edits.empty()) ctx.arch_dependent = true;
  bool need = has_token(code, "__global__") || has_token(code, "__shared__") || code.find("<<<") != std::string::npos ||
              !arch_edits.empty() || copy_calls > 0;
  int status = 0;
  const std::vector<Edit> inc_edits = include_edits(in_path, includes, ctx, is_header, need, &status);
  if (needed) *needed = need;
  if (is_header && !need) return status;
  edits.insert(edits.end(), inc_edits.begin(), inc_edits.end());
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& x, const Edit& y) { return x.begin < y.begin; });

  std::ofstream out(out_path, std::ios::binary);
  if (!out) {
    std::fprintf(stderr, "pplab-sim-rewrite: cannot write %s\n", out_path.c_str());
    return 1;
  }
  std::string path = std::filesystem::absolute(in_path).lexically_normal().string();
  // nvcc includes the runtime header before every .cu file.
  if (!is_header) out << "#include <cuda_runtime.h>\n";
  out << "#line 1 \"" << escape_quoted(path) << "\"\n";
  size_t pos = 0;
  for (const Edit& e : edits) {
    out.write(src.data() + pos, static_cast<std::streamsize>(e.begin - pos));
    out << e.text;
    pos = e.end;
  }
  out.write(src.data() + pos, static_cast<std::streamsize>(src.size() - pos));
  // Device code that tests __CUDA_ARCH__ was compiled for one architecture: the runtime
  // is told, after the file's last line (a constant the runtime finds, no code run before
  // main: pplab/sim/devices.h), so that a device without it refuses to run it.
  if (!is_header && ctx.arch_dependent)
    out << "\n[[gnu::used, gnu::section(\"pplab_sim_arch_notes\")]] static const ::pplab::sim::ArchNote "
           "pplab_sim_arch_note_ = {__FILE__, PPLAB_SIM_CUDA_ARCH};\n";
  return out ? status : 1;
}

}  // namespace pplab_sim_rewrite
