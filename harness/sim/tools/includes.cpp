// Quoted headers followed and rewritten, and the depfile that lists them (includes.h
// says why).
#include "includes.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "source_text.h"

namespace pplab_sim_rewrite {
namespace {

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

}  // namespace

std::vector<Edit> include_edits(const std::string& in_path, const std::vector<Edit>& includes, Context& ctx,
                                bool is_header, bool& need, int* status) {
  const std::filesystem::path dir = std::filesystem::absolute(in_path).parent_path();
  std::vector<Edit> inc_edits;
  for (const Edit& inc : includes) {
    std::filesystem::path target = (dir / inc.text).lexically_normal();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(target, ec)) continue;
    std::string copy = follow_header(target.string(), ctx, status);
    if (!copy.empty()) {
      need = true;
      inc_edits.push_back({inc.begin, inc.end, escape_quoted(copy)});
    } else if (is_header) {
      inc_edits.push_back({inc.begin, inc.end, escape_quoted(target.string())});
    }
  }
  return inc_edits;
}

void write_depfile(const std::string& depfile, const std::string& output, const std::string& input,
                   const std::set<std::string>& headers) {
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
  d << output << ":";
  prerequisite(std::filesystem::absolute(input).lexically_normal().string());
  for (const std::string& h : headers) prerequisite(h);
  d << "\n";
}

}  // namespace pplab_sim_rewrite
