// __CUDA_ARCH__ in device-only places (device_arch.h says which and why).
#include "device_arch.h"

#include "tokens.h"

#include <cstring>

namespace pplab_sim_rewrite {
namespace {

const char* const kArch = "__CUDA_ARCH__";
const char* const kSimArch = "PPLAB_SIM_CUDA_ARCH";

// The head of a brace (the text since the last `;`, `{` or `}`) opens a function body
// when it has a parameter list and is not a namespace, class or enum.
bool is_function_head(const std::string& code, std::size_t from, std::size_t to) {
  if (code.find(')', from) >= to) return false;
  for (const char* word : {"namespace", "class", "struct", "union", "enum"})
    if (has_word(code, from, to, word) && code.find(word, from) < code.find('(', from)) return false;
  return true;
}

bool device_only_head(const std::string& code, std::size_t from, std::size_t to) {
  return (has_word(code, from, to, "__device__") || has_word(code, from, to, "__global__")) &&
         !has_word(code, from, to, "__host__");
}

// The end of the preprocessor line starting at `i` (continuations included).
std::size_t line_end(const std::string& code, std::size_t i) {
  while (i < code.size() && code[i] != '\n') i += (code[i] == '\\' && i + 1 < code.size()) ? 2 : 1;
  return i;
}

// Whether the `#` at `i` starts a preprocessor line (only blanks before it).
bool starts_directive(const std::string& code, std::size_t i) {
  std::size_t b = i;
  while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t')) --b;
  return b == 0 || code[b - 1] == '\n';
}

// The directive's name (if, ifdef, elif, endif, ...) and where it starts.
std::string directive_name(const std::string& code, std::size_t hash, std::size_t end, std::size_t& at) {
  at = hash + 1;
  while (at < end && (code[at] == ' ' || code[at] == '\t')) ++at;
  std::size_t e = at;
  while (e < end && ident_char(code[e])) ++e;
  return code.substr(at, e - at);
}

// A conditional group outside functions is device code when what it declares is:
// __device__ or __global__ things, nothing __host__, no function defined without them.
bool device_only_group(const std::string& code, std::size_t from, std::size_t to) {
  if (!device_only_head(code, from, to)) return false;
  int depth = 0;
  std::size_t head = from;
  for (std::size_t i = from; i < to; ++i) {
    const char c = code[i];
    if (c == '#' && starts_directive(code, i)) {
      i = line_end(code, i);
      head = i;
    } else if (c == '{') {
      if (depth++ == 0 && is_function_head(code, head, i) && !device_only_head(code, head, i)) return false;
      head = i + 1;
    } else if (c == '}' || c == ';') {
      if (c == '}') --depth;
      head = i + 1;
    }
  }
  return true;
}

// The edits that make one #if/#elif/#ifdef/#ifndef line test the sim's device.
void edit_directive(const std::string& code, std::size_t hash, std::size_t end, std::vector<Edit>& edits) {
  std::size_t at = 0;
  const std::string name = directive_name(code, hash, end, at);
  if (name == "ifdef" || name == "elifdef") edits.push_back({at, at + name.size(), name.substr(0, name.size() - 3)});
  if (name == "ifndef" || name == "elifndef")
    edits.push_back({at, at + name.size(), name.substr(0, name.size() - 4) + " !"});
  const bool tests_value = name == "if" || name == "elif";
  const std::size_t len = std::strlen(kArch);
  for (std::size_t p = code.find(kArch, at); p != std::string::npos && p < end; p = code.find(kArch, p + len)) {
    if ((p > 0 && ident_char(code[p - 1])) || ident_char(code[p + len])) continue;
    // defined(__CUDA_ARCH__) and defined __CUDA_ARCH__ are true on the device.
    std::size_t b = p;
    while (b > at && (code[b - 1] == ' ' || code[b - 1] == '\t' || code[b - 1] == '(')) --b;
    const bool parenthesised = code.find('(', b) < p;
    if (tests_value && b >= 7 && code.compare(b - 7, 7, "defined") == 0 && (b == 7 || !ident_char(code[b - 8]))) {
      std::size_t e = p + len;
      if (parenthesised) e = code.find(')', e) + 1;
      edits.push_back({b - 7, e, "1"});
    } else {
      edits.push_back({p, p + len, kSimArch});
    }
  }
}

struct Scope {
  bool function;  // in a function body (its own or an enclosing one)
  bool device;    // in the body of a device-only function
};

struct Group {
  Scope scope;                    // where its #if stands
  std::size_t content_begin;      // after its #if line
  std::vector<std::size_t> lines;  // the # of each of its lines that names __CUDA_ARCH__
};

}  // namespace

std::vector<Edit> device_arch_edits(const std::string& code) {
  std::vector<Edit> edits;
  if (!has_word(code, 0, code.size(), kArch)) return edits;
  std::vector<Scope> scopes;
  std::vector<Group> groups;
  const auto here = [&] { return scopes.empty() ? Scope{false, false} : scopes.back(); };
  std::size_t head = 0;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '#' && starts_directive(code, i)) {
      const std::size_t end = line_end(code, i);
      std::size_t at = 0;
      const std::string name = directive_name(code, i, end, at);
      const bool names_arch = has_word(code, at, end, kArch);
      if (name == "if" || name == "ifdef" || name == "ifndef") {
        groups.push_back({here(), end, {}});
        if (names_arch) groups.back().lines.push_back(i);
      } else if (name.rfind("el", 0) == 0 && !groups.empty()) {
        if (names_arch) groups.back().lines.push_back(i);
      } else if (name == "endif" && !groups.empty()) {
        const Group group = groups.back();
        groups.pop_back();
        const bool device =
            group.scope.device || (!group.scope.function && device_only_group(code, group.content_begin, i));
        if (device)
          for (std::size_t line : group.lines) edit_directive(code, line, line_end(code, line), edits);
      }
      i = end;
      head = end;
    } else if (ident_char(c) && (i == 0 || !ident_char(code[i - 1]))) {
      std::size_t e = i;
      while (e < code.size() && ident_char(code[e])) ++e;
      if (here().device && code.compare(i, e - i, kArch) == 0) edits.push_back({i, e, kSimArch});
      i = e - 1;
    } else if (c == '{') {
      const Scope parent = here();
      const bool function = is_function_head(code, head, i);
      scopes.push_back({parent.function || function, parent.device || (function && device_only_head(code, head, i))});
      head = i + 1;
    } else if (c == '}' || c == ';') {
      if (c == '}' && !scopes.empty()) scopes.pop_back();
      head = i + 1;
    }
  }
  return edits;
}

}  // namespace pplab_sim_rewrite
