// Pairs a benchmark row with its library row by the words of their variant names.
#include "library_match.h"

#include <cctype>
#include <string>
#include <vector>

namespace pplab::cli {
namespace {

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The words of a variant that say what it is: runs of letters, three or more of them
// ("int", "pairs", "exclusive"). Numbers ("32-key") and short words carry no meaning
// a library's name would repeat.
std::vector<std::string> naming_words(const std::string& variant) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : lowercase(variant) + " ") {
    if (std::isalpha(static_cast<unsigned char>(c))) {
      word += c;
      continue;
    }
    if (word.size() >= 3) words.push_back(word);
    word.clear();
  }
  return words;
}

}  // namespace

const nlohmann::json* matching_library_row(const nlohmann::json& rows, const nlohmann::json& row) {
  const std::vector<std::string> words = naming_words(row["variant"].get<std::string>());
  const nlohmann::json* best = nullptr;
  int best_score = -1;
  for (const auto& other : rows) {
    const std::string impl = other["impl"].get<std::string>();
    if ((impl != "cub" && impl != "thrust") || other["lab"] != row["lab"] || other["n"] != row["n"]) continue;
    // Library names run words together ("SortPairs", "ExclusiveSum"): look for each
    // word inside the whole name.
    const std::string name = lowercase(other["variant"].get<std::string>());
    int score = 0;
    for (const auto& word : words) score += name.find(word) != std::string::npos;
    if (score > best_score) best = &other, best_score = score;  // strictly more: ties keep the first
  }
  return best;
}

}  // namespace pplab::cli
