// Calls that copy to host memory, wrapped to name their line (copy_calls.h says why).
#include "copy_calls.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <string>
#include <vector>

#include "source_text.h"
#include "tokens.h"

namespace pplab_sim_rewrite {
namespace {

// The runtime functions that can copy into host memory, whose calls name their line.
const char* const kCopyCalls[] = {"cudaMemcpy",          "cudaMemcpyAsync",           "cudaMemcpy2D",
                                  "cudaMemcpy2DAsync",   "cudaMemcpy2DFromArray",     "cudaMemcpy2DFromArrayAsync",
                                  "cudaMemcpyFromArray", "cudaMemcpyFromArrayAsync",  "cudaMemcpy3D",
                                  "cudaMemcpy3DAsync",   "cudaMemcpyFromSymbol",      "cudaMemcpyFromSymbolAsync",
                                  "cudaMemcpyPeer",      "cudaMemcpyPeerAsync"};

}  // namespace

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

}  // namespace pplab_sim_rewrite
