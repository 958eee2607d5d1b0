// pplab-sim-rewrite: turns one .cu file into C++ the sim can compile, keeping every
// line where it was so compiler errors and diagnostics name the user's lines.
//
//   pplab-sim-rewrite input.cu output.cpp
//
// The rewrites, all outside comments and string/char/raw-string literals:
//   K<<<grid, block[, smem[, stream]]>>>(args)   (also `K << < grid, block >> > (args)`)
//     -> ::pplab::sim::make_launcher("K", __FILE__, __LINE__,
//            [&](const auto&... a) { K(a...); }, grid, block[, smem[, stream]])
//            .typed([](auto tag) -> decltype(kernel_parameters<decltype(tag)>(K)) {...})(args)
//   extern __shared__ [__align__(n)] T name[];
//     -> T* const name = (T*)::pplab::sim::dynamic_smem();        (in a function)
//     -> static thread_local T* const name = (T*)...dynamic_smem(); (namespace scope)
//   __shared__ T name[N];  (in a function)
//     -> static thread_local T pplab_sim_shared_name[N]; ... auto& name = ::pplab::sim::shared_static(...);
//        (the array lives in the block's checked shared memory: pplab/sim/shared_check.h)
//   __shared__ T name[N];  (at namespace scope)
//     -> static thread_local T pplab_sim_shared_name[N];
//        static thread_local auto& name = ::pplab::sim::shared_namespace(...);
//   extern T __shared__ name[];  (the qualifier after the type: the same)
//   __global__ void k(params) { ... }  (not a template; in files that call
//   cudaLaunchKernel or cudaLaunchCooperativeKernel)
//     -> the same, followed on its last line by a registration of k, so that
//        cudaLaunchKernel((void*)k, ...) can call it with its parameter types
//   cudaMemcpy(args)  (and each runtime function that can copy to host memory: kCopyCalls)
//     -> (::pplab::sim::CopyCall("cudaMemcpy", __FILE__, <its line>), cudaMemcpy(args))
//        so the runtime counts the bytes it copies to the host against that line
//        (pplab/sim/runtime.h); only a call of the plain (or ::) name, not a member's
//        or another namespace's, nor a declaration
// Newlines inside a rewritten span are emitted after the replacement, so each line
// keeps its number; the output starts with #line 1 "<absolute path of input>".
// A .cu file also gets nvcc's implicit `#include <cuda_runtime.h>` first.
// In device-only places, __CUDA_ARCH__ is spelled PPLAB_SIM_CUDA_ARCH (device_arch.h), and
// a file with such places tells the runtime its architecture after its last line.
//
// Headers: a quoted #include that resolves next to the including file is followed.
// A header that needs a rewrite (it launches, declares extern __shared__ or defines
// kernels, or includes such a header) is rewritten into OUTPUT.inc/ the same way, and
// the #include names the rewritten copy; its own quoted includes name absolute paths.
// `--depfile F` writes every header followed, for the build system.
#include <algorithm>
#include <cstring>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "device_arch.h"
#include "tokens.h"

namespace {

using pplab_sim_rewrite::has_word;
using pplab_sim_rewrite::ident_char;

// Copy of src with comments and literal contents replaced by spaces (newlines
// kept), so searches see only code. Quote characters themselves are kept.
std::string blank_non_code(const std::string& s) {
  std::string out = s;
  size_t i = 0, n = s.size();
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < n; ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  while (i < n) {
    char c = s[i];
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      size_t e = s.find('\n', i);
      // A backslash-newline continues a // comment.
      while (e != std::string::npos && e > 0 && s[e - 1] == '\\') e = s.find('\n', e + 1);
      if (e == std::string::npos) e = n;
      blank(i, e);
      i = e;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      size_t e = s.find("*/", i + 2);
      e = e == std::string::npos ? n : e + 2;
      blank(i, e);
      i = e;
    } else if (c == 'R' && i + 1 < n && s[i + 1] == '"' &&
               (i == 0 || !ident_char(s[i - 1]) || s[i - 1] == '8' || s[i - 1] == 'u' || s[i - 1] == 'U' ||
                s[i - 1] == 'L')) {
      size_t open = s.find('(', i + 2);
      if (open == std::string::npos) break;
      std::string delim = ")" + s.substr(i + 2, open - (i + 2)) + "\"";
      size_t e = s.find(delim, open + 1);
      e = e == std::string::npos ? n : e + delim.size();
      blank(i + 2, e - 1);
      i = e;
    } else if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < n && s[j] != c && s[j] != '\n') j += (s[j] == '\\') ? 2 : 1;
      blank(i + 1, j);
      i = j + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c)) && (i == 0 || !ident_char(s[i - 1]))) {
      // pp-number: may contain digit separators (1'000) that are not char literals.
      size_t j = i + 1;
      while (j < n && (ident_char(s[j]) || s[j] == '.' || (s[j] == '\'' && j + 1 < n && ident_char(s[j + 1])) ||
                       ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E' || s[j - 1] == 'p' ||
                                                         s[j - 1] == 'P'))))
        ++j;
      i = j;
    } else if (ident_char(c)) {
      while (i < n && ident_char(s[i])) ++i;
    } else {
      ++i;
    }
  }
  return out;
}

using pplab_sim_rewrite::Edit;

std::string newlines_in(const std::string& s, size_t b, size_t e) {
  std::string nl;
  for (size_t k = b; k < e; ++k)
    if (s[k] == '\n') nl += '\n';
  return nl;
}

std::string collapse_ws(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
    } else {
      if (space) out += ' ';
      space = false;
      out += c;
    }
  }
  return out;
}

size_t skip_ws_back(const std::string& code, size_t i) {  // i: one past; returns one past last non-ws
  while (i > 0 && std::isspace(static_cast<unsigned char>(code[i - 1]))) --i;
  return i;
}

// Start of the kernel expression ending just before `end` (e.g. ns::kern<T, Op<int>>).
size_t kernel_begin(const std::string& code, size_t end) {
  size_t i = skip_ws_back(code, end);
  for (;;) {
    if (i > 0 && code[i - 1] == '>') {  // template arguments: match angle brackets backwards
      int depth = 0;
      size_t k = i;
      while (k > 0) {
        char c = code[--k];
        if (c == '>' || c == ')' || c == ']') ++depth;
        else if (c == '<' || c == '(' || c == '[') {
          if (--depth == 0) break;
        }
      }
      i = skip_ws_back(code, k);
    }
    size_t k = i;
    while (k > 0 && ident_char(code[k - 1])) --k;
    if (k == i) return i;  // no identifier: give up here
    i = k;
    size_t p = skip_ws_back(code, i);
    if (p >= 2 && code[p - 1] == ':' && code[p - 2] == ':') {
      i = skip_ws_back(code, p - 2);
      if (i == 0 || !(ident_char(code[i - 1]) || code[i - 1] == '>')) return p - 2;  // leading ::
      continue;
    }
    return i;
  }
}

// One past the third of three `c` characters starting at i, with any blanks and line
// breaks between them, as nvcc reads `<<<`, `<< <` and `>> >`; npos if there are not
// three. No other C++ puts three `<` in a row, or three `>` at the top level of a
// launch's configuration.
size_t chevrons_end(const std::string& code, size_t i, char c) {
  for (int k = 0; k < 3; ++k) {
    if (k > 0)
      while (i < code.size() && std::isspace(static_cast<unsigned char>(code[i]))) ++i;
    if (i >= code.size() || code[i] != c) return std::string::npos;
    ++i;
  }
  return i;
}

// Index of the `>>>` closing the launch configuration that starts at `from`.
size_t config_end(const std::string& code, size_t from) {
  int depth = 0;
  for (size_t i = from; i < code.size(); ++i) {
    char c = code[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (depth == 0 && c == '>' && chevrons_end(code, i, '>') != std::string::npos) return i;
  }
  return std::string::npos;
}

bool namespace_scope(const std::vector<bool>& braces) {
  for (bool ns : braces)
    if (!ns) return false;
  return true;
}

// The declarators of `spec d1, d2;`, split at top-level commas.
std::vector<std::string> split_declarators(const std::string& s) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t from = 0;
  for (size_t k = 0; k < s.size(); ++k) {
    char c = s[k];
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    else if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(s.substr(from, k - from));
      from = k + 1;
    }
  }
  parts.push_back(s.substr(from));
  return parts;
}

// [begin, end) of the declared name in one declarator: the identifier before its
// first '[' (an array), else its last identifier.
bool declarator_name(const std::string& d, size_t& nb, size_t& ne) {
  size_t lb = d.find('[');
  ne = skip_ws_back(d, lb == std::string::npos ? d.size() : lb);
  nb = ne;
  while (nb > 0 && ident_char(d[nb - 1])) --nb;
  return nb < ne && !std::isdigit(static_cast<unsigned char>(d[nb]));
}

// A `[qualifiers] __shared__ spec name[dims], ...;` (the text of the statement,
// with __shared__ at `at`) as arrays in the block's shared-memory arena
// (pplab/sim/shared_check.h). In a function each name is a reference found anew in
// each block; at namespace scope (`at_namespace`) a thread_local reference bound
// once per worker to a place of its own in the arena. Empty: leave the statement alone.
std::string rewrite_static_shared(std::string decl, size_t at, bool at_namespace) {
  decl.replace(at, 10, "");
  if (decl.find('=') != std::string::npos) return "";  // CUDA has no initialisers on __shared__
  std::vector<std::string> parts = split_declarators(decl);
  size_t nb, ne;
  if (!declarator_name(parts[0], nb, ne)) return "";
  std::string spec = parts[0].substr(0, nb);
  // "static" is implied (the thread_local stand-in is static already).
  for (size_t p; (p = spec.find("static")) != std::string::npos &&
                 (p == 0 || !ident_char(spec[p - 1])) && (p + 6 >= spec.size() || !ident_char(spec[p + 6]));)
    spec.replace(p, 6, "");
  // Pointer and reference marks belong to each declarator, not to the shared type.
  size_t cut = spec.find_last_not_of(" \t\n*&");
  cut = cut == std::string::npos ? 0 : cut + 1;
  const std::string base = collapse_ws(spec.substr(0, cut));
  parts[0] = spec.substr(cut) + parts[0].substr(nb);
  std::string out;
  for (const std::string& d : parts) {
    if (!declarator_name(d, nb, ne)) return "";
    const std::string name = d.substr(nb, ne - nb);
    const std::string proto = "pplab_sim_shared_" + name, slot = "pplab_sim_slot_" + name;
    out += "static thread_local " + base + " " + collapse_ws(d.substr(0, nb)) + proto + collapse_ws(d.substr(ne)) + "; ";
    if (at_namespace)
      out += "static thread_local auto& " + name + " = ::pplab::sim::shared_namespace(" + proto + ", __alignof__(" +
             proto + "), \"" + name + "\", __FILE__, __LINE__); ";
    else
      out += "static thread_local ::pplab::sim::SharedSlot " + slot + "; auto& " + name +
             " = ::pplab::sim::shared_static(" + proto + ", " + slot + ", __alignof__(" + proto + "), \"" + name +
             "\", __FILE__, __LINE__); ";
  }
  return out;
}


// After `__global__` at `from`: for a kernel definition, "<offset> <text>" with the
// registration to insert just after its closing brace; "" for a declaration.
std::string kernel_registration(const std::string& code, size_t from, int& counter) {
  size_t n = code.size(), i = from;
  std::string name;
  size_t popen = std::string::npos;
  while (i < n) {
    char c = code[i];
    if (c == ';' || c == '{' || c == '}') return "";
    if (ident_char(c)) {
      size_t b = i;
      while (i < n && ident_char(code[i])) ++i;
      name = code.substr(b, i - b);
      continue;
    }
    if (c == '(') {
      size_t q = i;
      int depth = 0;
      for (; q < n; ++q) {
        if (code[q] == '(') ++depth;
        else if (code[q] == ')' && --depth == 0) break;
      }
      if (q >= n) return "";
      if (name == "__launch_bounds__" || name == "__attribute__" || name == "__align__" || name == "alignas" ||
          name == "__declspec") {
        i = q + 1;
        name.clear();
        continue;
      }
      popen = i;
      i = q + 1;
      break;
    }
    if (c == ':' || c == '<' || c == '>' || c == ',' || c == '=') return "";  // qualified, template, ...
    ++i;
  }
  if (popen == std::string::npos || name.empty()) return "";
  std::string params = collapse_ws(code.substr(popen + 1, i - 1 - (popen + 1)));
  while (i < n && std::isspace(static_cast<unsigned char>(code[i]))) ++i;
  if (i >= n || code[i] != '{') return "";
  int depth = 0;
  size_t e = i;
  for (; e < n; ++e) {
    if (code[e] == '{') ++depth;
    else if (code[e] == '}' && --depth == 0) break;
  }
  if (e >= n) return "";
  std::string fn = params.find('=') == std::string::npos && params.find("...") == std::string::npos
                       ? "static_cast<void (*)(" + params + ")>(" + name + ")"
                       : name;
  return std::to_string(e + 1) + " static ::pplab::sim::KernelReg pplab_sim_kernel_reg_" + std::to_string(counter++) +
         "_{" + fn + ", \"" + name + "\"};";
}

// The runtime functions that can copy into host memory, whose calls name their line.
const char* const kCopyCalls[] = {"cudaMemcpy",          "cudaMemcpyAsync",           "cudaMemcpy2D",
                                  "cudaMemcpy2DAsync",   "cudaMemcpy2DFromArray",     "cudaMemcpy2DFromArrayAsync",
                                  "cudaMemcpyFromArray", "cudaMemcpyFromArrayAsync",  "cudaMemcpy3D",
                                  "cudaMemcpy3DAsync",   "cudaMemcpyFromSymbol",      "cudaMemcpyFromSymbolAsync",
                                  "cudaMemcpyPeer",      "cudaMemcpyPeerAsync"};

// For a call of a copy function whose name is code[b, e): the two insertions that wrap
// the call so the runtime knows its line (empty: not such a call). A member call
// (x.cudaMemcpy), another namespace's function (ns::cudaMemcpy) or a declaration
// (cudaError_t cudaMemcpy(...)) is left alone.
std::vector<Edit> copy_call_edits(const std::string& code, size_t b, size_t e, size_t line) {
  const std::string name = code.substr(b, e - b);
  if (std::none_of(std::begin(kCopyCalls), std::end(kCopyCalls), [&](const char* f) { return name == f; })) return {};
  size_t open = e;
  while (open < code.size() && std::isspace(static_cast<unsigned char>(code[open]))) ++open;
  if (open >= code.size() || code[open] != '(') return {};
  size_t begin = b;
  size_t p = skip_ws_back(code, b);
  if (p >= 2 && code[p - 1] == ':' && code[p - 2] == ':') {  // ::cudaMemcpy, not ns::cudaMemcpy
    const size_t q = skip_ws_back(code, p - 2);
    if (q > 0 && (ident_char(code[q - 1]) || code[q - 1] == '>')) return {};
    begin = p - 2;
    p = q;
  } else if (p >= 1 && (code[p - 1] == '.' || (p >= 2 && code[p - 1] == '>' && code[p - 2] == '-'))) {
    return {};
  } else if (p >= 1 && ident_char(code[p - 1])) {  // a declaration, unless a keyword leads to the call
    size_t w = p;
    while (w > 0 && ident_char(code[w - 1])) --w;
    const std::string word = code.substr(w, p - w);
    if (word != "return" && word != "else" && word != "do" && word != "case" && word != "throw" &&
        word != "co_return" && word != "co_await")
      return {};
  }
  int depth = 0;
  size_t close = open;
  for (; close < code.size(); ++close) {
    if (code[close] == '(') ++depth;
    else if (code[close] == ')' && --depth == 0) break;
  }
  if (close >= code.size()) return {};
  return {{begin, begin, "(::pplab::sim::CopyCall(\"" + name + "\", __FILE__, " + std::to_string(line) + "), "},
          {close + 1, close + 1, ")"}};
}

struct Context {
  std::string inc_dir;                       // where rewritten headers go
  std::map<std::string, std::string> done;  // header -> its rewritten copy ("": none needed)
  std::set<std::string> active;              // headers being rewritten (include cycles)
  std::set<std::string> deps;                // every header followed
  int kernels = 0;                           // registrations emitted (unique names)
  bool arch_dependent = false;               // some device code here tests __CUDA_ARCH__
};

std::string escape_quoted(const std::string& path) {
  std::string escaped;
  for (char ch : path) {
    if (ch == '\\' || ch == '"') escaped += '\\';
    escaped += ch;
  }
  return escaped;
}

bool has_token(const std::string& code, const char* tok) { return has_word(code, 0, code.size(), tok); }

int rewrite_file(const std::string& in_path, const std::string& out_path, Context& ctx, bool is_header,
                 bool* needed);

// The rewritten copy of header `path` ("" when it needs none), rewriting it on first use.
std::string follow_header(const std::string& path, Context& ctx, int* status) {
  auto it = ctx.done.find(path);
  if (it != ctx.done.end()) return it->second;
  if (ctx.active.count(path)) return "";  // a cycle: its guard or #pragma once ends it
  ctx.active.insert(path);
  ctx.deps.insert(path);
  std::string stem = std::filesystem::path(path).filename().string();
  std::string out = ctx.inc_dir + "/" + std::to_string(ctx.done.size()) + "_" + stem;
  bool needed = false;
  std::filesystem::create_directories(ctx.inc_dir);
  if (int rc = rewrite_file(path, out, ctx, true, &needed)) *status = rc;
  if (!needed) std::filesystem::remove(out);
  ctx.active.erase(path);
  return ctx.done[path] = needed ? out : "";
}

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
      size_t kb = kernel_begin(code, i);
      size_t ce = config_end(code, open_end);
      if (kb == i || ce == std::string::npos) {
        std::fprintf(stderr, "%s: pplab-sim-rewrite: cannot parse the kernel launch here (line %zu)\n", in_name,
                     static_cast<size_t>(std::count(src.begin(), src.begin() + static_cast<long>(i), '\n') + 1));
        return 1;
      }
      std::string kernel = src.substr(kb, skip_ws_back(code, i) - kb);
      std::string name = collapse_ws(kernel);
      const size_t close_end = chevrons_end(code, ce, '>');
      std::string cfg = src.substr(open_end, ce - open_end);
      // .typed(...) gives the launcher the kernel's parameter types where its name alone
      // says them (a function, or a template with all its arguments), so the arguments
      // convert to them as in a call: a literal 0 to a pointer, an int to a float.
      std::string text = "::pplab::sim::make_launcher(\"" + name +
                         "\", __FILE__, __LINE__, [&](const auto&... pplab_sim_args_) { " + name +
                         "(pplab_sim_args_...); }, " + cfg + ").typed([](auto pplab_sim_tag_) -> decltype(" +
                         "::pplab::sim::kernel_parameters<decltype(pplab_sim_tag_)>(" + name + ")) { return {}; })";
      // The line breaks between the name and <<<, and inside the chevrons (cfg keeps its own).
      text += newlines_in(src, kb, open_end) + newlines_in(src, ce, close_end);
      edits.push_back({kb, close_end, text});
      i = close_end - 1;
    } else if (c == '_' && code.compare(i, 10, "__shared__") == 0 && (i == 0 || !ident_char(code[i - 1])) &&
               (i + 10 >= n || !ident_char(code[i + 10]))) {
      size_t semi = code.find(';', i);
      if (semi == std::string::npos) continue;
      size_t begin = stmt_start;
      while (begin < i && std::isspace(static_cast<unsigned char>(code[begin]))) ++begin;
      std::string decl = code.substr(begin, semi - begin);
      // `extern T __shared__ x[]` is dynamic shared memory, not an array of its own.
      bool is_extern = false;
      for (size_t p = decl.find("extern"); p != std::string::npos; p = decl.find("extern", p + 1))
        if ((p == 0 || !ident_char(decl[p - 1])) && (p + 6 >= decl.size() || !ident_char(decl[p + 6]))) is_extern = true;
      std::string text = is_extern ? "" : rewrite_static_shared(decl, i - begin, namespace_scope(braces));
      if (text.empty()) continue;
      text += newlines_in(src, begin, semi + 1);
      edits.push_back({begin, semi + 1, text});
      i = semi;
      stmt_start = semi + 1;
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
      size_t j = i + 6;
      while (j < n && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
      size_t semi = code.find(';', j);
      if (semi == std::string::npos) continue;
      std::string decl;
      if (code.compare(j, 10, "__shared__") == 0 && !(j + 10 < n && ident_char(code[j + 10]))) {
        decl = code.substr(j + 10, semi - (j + 10));
      } else {
        // `extern float __shared__ smem[];`: the qualifier after the type, within one
        // plain declaration (not `extern "C" ...` or a function).
        std::string stmt = code.substr(j, semi - j);
        size_t q = std::string::npos;
        for (size_t p = stmt.find("__shared__"); p != std::string::npos; p = stmt.find("__shared__", p + 1))
          if ((p == 0 || !ident_char(stmt[p - 1])) && (p + 10 >= stmt.size() || !ident_char(stmt[p + 10]))) {
            q = p;
            break;
          }
        if (q == std::string::npos || stmt.find_first_of("\"({}") < q) continue;
        decl = stmt.substr(0, q) + std::string(10, ' ') + stmt.substr(q + 10);
      }
      // Drop alignment specifiers: the buffer is 256-byte aligned anyway.
      for (const char* spec : {"__align__", "alignas", "__attribute__"}) {
        size_t p;
        while ((p = decl.find(spec)) != std::string::npos) {
          size_t open = decl.find('(', p);
          int depth = 0;
          size_t q = open;
          for (; q < decl.size(); ++q) {
            if (decl[q] == '(') ++depth;
            else if (decl[q] == ')' && --depth == 0) break;
          }
          decl.replace(p, q + 1 - p, std::string(q + 1 - p, ' '));
        }
      }
      size_t lb = decl.rfind('[');
      if (lb == std::string::npos) continue;
      size_t ne = skip_ws_back(decl, lb);
      size_t nb = ne;
      while (nb > 0 && ident_char(decl[nb - 1])) --nb;
      std::string name = decl.substr(nb, ne - nb);
      std::string type = collapse_ws(decl.substr(0, nb));
      std::string text = std::string(namespace_scope(braces) ? "static thread_local " : "") + type + "* const " +
                         name + " = (" + type + "*)::pplab::sim::dynamic_smem();";
      text += newlines_in(src, i, semi + 1);
      edits.push_back({i, semi + 1, text});
      i = semi;
      stmt_start = semi + 1;
    }
  }

  // Quoted includes found next to this file: follow them; name the rewritten copy,
  // or (from a rewritten header, which lives elsewhere) the original's absolute path.
  const std::filesystem::path dir = std::filesystem::absolute(in_path).parent_path();
  const std::vector<Edit> arch_edits = pplab_sim_rewrite::device_arch_edits(code);
  edits.insert(edits.end(), arch_edits.begin(), arch_edits.end());
  if (!arch_edits.empty()) ctx.arch_dependent = true;
  bool need = has_token(code, "__global__") || has_token(code, "__shared__") || code.find("<<<") != std::string::npos ||
              !arch_edits.empty() || copy_calls > 0;
  int status = 0;
  std::vector<Edit> inc_edits;
  for (const Edit& inc : includes) {
    std::filesystem::path target = (dir / inc.text).lexically_normal();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(target, ec)) continue;
    std::string copy = follow_header(target.string(), ctx, &status);
    if (!copy.empty()) {
      need = true;
      inc_edits.push_back({inc.begin, inc.end, escape_quoted(copy)});
    } else if (is_header) {
      inc_edits.push_back({inc.begin, inc.end, escape_quoted(target.string())});
    }
  }
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

}  // namespace

int main(int argc, char** argv) {
  std::string depfile;
  std::vector<std::string> files;
  for (int a = 1; a < argc; ++a) {
    std::string arg = argv[a];
    if (arg == "--depfile" && a + 1 < argc) depfile = argv[++a];
    else files.push_back(arg);
  }
  if (files.size() != 2) {
    std::fprintf(stderr, "usage: pplab-sim-rewrite input.cu output.cpp [--depfile output.d]\n");
    return 2;
  }
  Context ctx;
  ctx.inc_dir = std::filesystem::absolute(files[1]).lexically_normal().string() + ".inc";
  int rc = rewrite_file(files[0], files[1], ctx, false, nullptr);
  if (!depfile.empty()) {
    std::ofstream d(depfile);
    // The input itself is listed too: a depfile with no prerequisites becomes an empty
    // file in CMake's Ninja build, which ninja takes for a missing one, and reruns the
    // rewrite (and every compile after it) on each build.
    const auto prerequisite = [&](const std::string& path) {
      d << " ";
      for (char ch : path) {
        if (ch == ' ') d << '\\';
        d << ch;
      }
    };
    d << files[1] << ":";
    prerequisite(std::filesystem::absolute(files[0]).lexically_normal().string());
    for (const std::string& h : ctx.deps) prerequisite(h);
    d << "\n";
  }
  return rc;
}
