// Kernel launches and the registrations of kernels launched by address (launches.h
// says what each rewrite is for).
#include "launches.h"

#include <cctype>
#include <optional>
#include <string>

#include "source_text.h"
#include "tokens.h"

namespace pplab_sim_rewrite {
namespace {

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

}  // namespace

size_t chevrons_end(const std::string& code, size_t i, char c) {
  for (int k = 0; k < 3; ++k) {
    if (k > 0)
      while (i < code.size() && std::isspace(static_cast<unsigned char>(code[i]))) ++i;
    if (i >= code.size() || code[i] != c) return std::string::npos;
    ++i;
  }
  return i;
}

std::optional<Edit> launch_edit(const std::string& src, const std::string& code, size_t at, size_t open_end) {
  size_t kb = kernel_begin(code, at);
  size_t ce = config_end(code, open_end);
  if (kb == at || ce == std::string::npos) return std::nullopt;
  std::string kernel = src.substr(kb, skip_ws_back(code, at) - kb);
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
  return Edit{kb, close_end, text};
}

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

}  // namespace pplab_sim_rewrite
