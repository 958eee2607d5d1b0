// __shared__ declarations as the block's shared memory (shared_memory.h says how and why).
#include "shared_memory.h"

#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "source_text.h"
#include "tokens.h"

namespace pplab_sim_rewrite {
namespace {

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


}  // namespace

std::optional<Edit> static_shared_edit(const std::string& src, const std::string& code, size_t stmt_start, size_t at,
                                       bool at_namespace) {
  size_t semi = code.find(';', at);
  if (semi == std::string::npos) return std::nullopt;
  size_t begin = stmt_start;
  while (begin < at && std::isspace(static_cast<unsigned char>(code[begin]))) ++begin;
  std::string decl = code.substr(begin, semi - begin);
  // `extern T __shared__ x[]` is dynamic shared memory, not an array of its own.
  bool is_extern = false;
  for (size_t p = decl.find("extern"); p != std::string::npos; p = decl.find("extern", p + 1))
    if ((p == 0 || !ident_char(decl[p - 1])) && (p + 6 >= decl.size() || !ident_char(decl[p + 6]))) is_extern = true;
  std::string text = is_extern ? "" : rewrite_static_shared(decl, at - begin, at_namespace);
  if (text.empty()) return std::nullopt;
  text += newlines_in(src, begin, semi + 1);
  return Edit{begin, semi + 1, text};
}

std::optional<Edit> dynamic_shared_edit(const std::string& src, const std::string& code, size_t at,
                                        bool at_namespace) {
  const size_t n = code.size();
  size_t j = at + 6;
  while (j < n && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
  size_t semi = code.find(';', j);
  if (semi == std::string::npos) return std::nullopt;
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
    if (q == std::string::npos || stmt.find_first_of("\"({}") < q) return std::nullopt;
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
  if (lb == std::string::npos) return std::nullopt;
  size_t ne = skip_ws_back(decl, lb);
  size_t nb = ne;
  while (nb > 0 && ident_char(decl[nb - 1])) --nb;
  std::string name = decl.substr(nb, ne - nb);
  std::string type = collapse_ws(decl.substr(0, nb));
  std::string text = std::string(at_namespace ? "static thread_local " : "") + type + "* const " +
                     name + " = (" + type + "*)::pplab::sim::dynamic_smem();";
  text += newlines_in(src, at, semi + 1);
  return Edit{at, semi + 1, text};
}

}  // namespace pplab_sim_rewrite
