#include "grade_request.h"

#include <fstream>
#include <stdexcept>

#include "files.h"

namespace pplab::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

GradeRequest task_request(GradeRequest request, std::uint64_t seed, bool seed_given) {
  if (!request.submissions.empty()) request.submissions = fs::absolute(request.submissions).lexically_normal().string();
  if (!request.points.empty()) request.points = fs::absolute(request.points).lexically_normal().string();
  request.seed = seed_given ? std::to_string(seed) : std::string();
  request.hidden_seed = seed_given ? std::string() : std::to_string(seed);
  request.out.clear();
  request.students.clear();
  return request;
}

void write_request(const GradeRequest& request, const fs::path& path) {
  write_text_file(path, json(request).dump(2) + "\n");
}

GradeRequest read_request(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("--task: cannot read " + path.string());
  try {
    const json record = json::parse(in);
    // Every key must be one a request has: a request written by another version of
    // pplab, or edited by hand, is refused rather than graded with options left out.
    const json known = json(GradeRequest{});
    for (const auto& [key, value] : record.items())
      if (!known.contains(key)) throw std::invalid_argument("--task: " + path.string() + " has an unknown option '" + key + "'");
    return record.get<GradeRequest>();
  } catch (const json::exception& error) {
    throw std::invalid_argument("--task: " + path.string() + " is not a grade request: " + error.what());
  }
}

}  // namespace pplab::cli
