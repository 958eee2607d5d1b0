#include "staging.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <stdexcept>

#include "descriptor.h"

namespace pplab::cli {
namespace fs = std::filesystem;

namespace {

std::string relative_text(const fs::path& path, const fs::path& base) {
  // Lexical: fs::relative would resolve links, naming what a link points to.
  return path.lexically_relative(base).generic_string();
}

// Why a link or a special file costs its lab.
const std::string kOnlyRegularFiles = "only the submission's own regular files are collected, and no link is followed";

// What a file of this mode is, in words.
std::string kind_words(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a folder";
  return "not a regular file";
}

// "a symbolic link (to TARGET)" for the link `name` in the folder `dir`.
std::string link_words_at(int dir, const char* name) {
  char target[4096];
  const ssize_t length = ::readlinkat(dir, name, target, sizeof target - 1);
  return length < 0 ? "a symbolic link" : "a symbolic link (to " + std::string(target, std::size_t(length)) + ")";
}
std::string link_words(const fs::path& path) { return link_words_at(AT_FDCWD, path.c_str()); }

// What an entry the walk did not collect is (a link with its target), never following it.
std::string entry_kind(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return "unreadable";
  return S_ISLNK(st.st_mode) ? link_words(path) : kind_words(st.st_mode);
}

// A lab file opened inside a student's folder, or why not.
struct OpenedFile {
  enum class Outcome { missing, regular, refused } outcome = Outcome::missing;
  Descriptor fd;             // regular: open for reading
  struct stat st {};         // regular: the open file's fstat
  std::string reason;        // refused: what the path is ("01_saxpy/saxpy.cu is a FIFO")
  std::string refused_path;  // refused: the entry refused, relative to the folder
  std::string what;          // refused: what that entry is ("a FIFO")
};

// Opens folder/relative one component at a time, each with O_NOFOLLOW from the folder
// before it: a link on the way or at the end is refused, never followed, and a path
// cannot be swapped for a link between the look and the open.
OpenedFile open_in_submission(const fs::path& folder, const fs::path& relative) {
  OpenedFile result;
  Descriptor dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!dir) return result;
  const std::vector<fs::path> parts(relative.begin(), relative.end());
  fs::path so_far;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const std::string name = parts[k].string();
    so_far /= parts[k];
    const bool last = k + 1 == parts.size();
    struct stat st {};
    if (::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return result;  // missing
    const auto refuse = [&](const std::string& what) {
      result.outcome = OpenedFile::Outcome::refused;
      result.refused_path = so_far.generic_string();
      result.what = what;
      result.reason = result.refused_path + " is " + what +
                      (last ? "" : " (on the way to " + relative.generic_string() + ")");
      return std::move(result);
    };
    if (S_ISLNK(st.st_mode)) {
      // A linked folder on the way matters only where the lab's file lies beyond it (the
      // look follows the link, and reads nothing); a link named as the file always does.
      std::error_code error;
      if (!last && !fs::exists(folder / relative, error)) return result;
      return refuse(link_words_at(dir.get(), name.c_str()));
    }
    if (S_ISDIR(st.st_mode) != !last) {
      if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) return result;  // a folder named x.cu, a file named NN_x
      return refuse(kind_words(st.st_mode));
    }
    if (last && !S_ISREG(st.st_mode)) return refuse(kind_words(st.st_mode));
    Descriptor next(::openat(dir.get(), name.c_str(),
                             O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY)));
    struct stat opened {};
    if (!next || ::fstat(next.get(), &opened) != 0) {
      if (errno == ELOOP) return refuse("a symbolic link");
      return result;
    }
    if (opened.st_dev != st.st_dev || opened.st_ino != st.st_ino || (last && !S_ISREG(opened.st_mode)))
      return refuse("changing while it is read (" + kind_words(opened.st_mode) + ")");
    if (last) {
      result.outcome = OpenedFile::Outcome::regular;
      result.st = opened;
      result.fd = std::move(next);
      return result;
    }
    dir = std::move(next);
  }
  return result;
}

// The whole of an opened regular file into `text`; false when it is larger than `limit`.
bool read_whole(const OpenedFile& file, std::uintmax_t limit, std::string& text) {
  if (std::uintmax_t(file.st.st_size) > limit) return false;
  text.clear();
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(file.fd.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw std::runtime_error("cannot read a submitted file: " + std::string(std::strerror(errno)));
    if (got == 0) return true;
    text.append(buffer, std::size_t(got));
    if (text.size() > limit) return false;
  }
}

}  // namespace

std::vector<fs::path> list_student_folders(const fs::path& dir, const std::vector<Lab>& labs) {
  if (!fs::exists(dir)) throw std::invalid_argument("--submissions: no folder " + dir.string());
  if (!fs::is_directory(dir)) throw std::invalid_argument("--submissions: " + dir.string() + " is not a folder");
  std::vector<fs::path> students;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    if (entry.is_directory()) students.push_back(entry.path());
  }
  std::sort(students.begin(), students.end());
  for (const auto& folder : students) {
    const std::string name = folder.filename().string();
    for (const auto& lab : labs)
      if (name == lab.folder || name == "labs")
        throw std::invalid_argument("--submissions: " + dir.string() + " looks like one submission (it holds " +
                                    name + "/), not a folder of students. Put it in a folder of its own, "
                                    "e.g. DIR/alice/" + name + "/, and pass DIR.");
  }
  if (students.empty())
    throw std::invalid_argument("--submissions: " + dir.string() +
                                " holds no student folders (expected DIR/<student>/NN_lab/<name>.cu)");
  return students;
}

StagedSubmission stage_submission(const fs::path& folder, const std::vector<Lab>& labs, const fs::path& staged) {
  StagedSubmission submission;
  submission.student = folder.filename().string();
  submission.folder = folder;
  submission.staged = staged;
  fs::remove_all(staged);
  fs::create_directories(staged);

  // The student's folder itself a link (to a classmate's, say): nothing in it is taken.
  std::error_code error;
  if (fs::is_symlink(fs::symlink_status(folder, error))) {
    const std::string reason = "the folder " + submission.student + " is " + link_words(folder) +
                               ": links are never followed, so nothing in it was collected";
    submission.notes.push_back("refused: " + reason);
    for (const auto& lab : labs) submission.refused[lab.folder] = reason;
    return submission;
  }

  // Every entry seen without following links: the regular files (with each one's
  // identity, to count its hard links), and the links and special files, never collected.
  std::vector<fs::path> files;
  std::map<std::pair<dev_t, ino_t>, nlink_t> names_here;
  std::vector<std::string> not_collected;
  for (auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, error);
       it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;
    const std::string name = it->path().filename().string();
    const auto status = it->symlink_status(error);  // the entry itself, not what a link names
    if (error) break;
    if (!name.empty() && name[0] == '.') {  // .git, .DS_Store, editor files
      if (fs::is_directory(status)) it.disable_recursion_pending();
      continue;
    }
    if (fs::is_directory(status)) continue;  // walked into; a link to a folder is not
    struct stat st {};
    if (fs::is_regular_file(status) && ::lstat(it->path().c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      files.push_back(it->path());
      ++names_here[{st.st_dev, st.st_ino}];
    } else {
      not_collected.push_back(relative_text(it->path(), folder) + " (" + entry_kind(it->path()) + ")");
    }
    if (files.size() + not_collected.size() > 5000) {
      submission.notes.push_back("more than 5000 files: only the first 5000 were looked at");
      break;
    }
  }
  if (files.empty() && not_collected.empty()) {
    submission.notes.push_back("empty submission: " + folder.string() + " holds no files");
    return submission;
  }

  // A copy of labs/ (a link named labs is looked through, and so refused, not skipped).
  const auto labs_status = fs::symlink_status(folder / "labs", error);
  const fs::path root = fs::is_directory(labs_status) || fs::is_symlink(labs_status) ? fs::path("labs") : fs::path();
  std::set<fs::path> used;
  std::map<std::string, std::pair<std::string, std::string>> refusals;  // path -> what it is, the labs it costs
  for (const auto& lab : labs) {
    const std::string file_name = lab.name + ".cu";
    const fs::path in_folder = root / lab.folder / file_name;
    fs::path chosen = in_folder;
    OpenedFile opened = open_in_submission(folder, in_folder);
    if (opened.outcome == OpenedFile::Outcome::missing) {
      chosen = file_name;  // the .cu files flat
      opened = open_in_submission(folder, chosen);
    }
    if (opened.outcome == OpenedFile::Outcome::regular && opened.st.st_nlink > 1) {
      const auto here = names_here.find({opened.st.st_dev, opened.st.st_ino});
      const nlink_t inside = here == names_here.end() ? 0 : here->second;
      if (inside < opened.st.st_nlink) {
        opened.outcome = OpenedFile::Outcome::refused;
        opened.refused_path = chosen.generic_string();
        opened.what = "a hard link to a file outside the submission (" + std::to_string(opened.st.st_nlink) +
                      " names, " + std::to_string(inside) + " of them in this folder)";
        opened.reason = opened.refused_path + " is " + opened.what;
      }
    }
    if (opened.outcome == OpenedFile::Outcome::refused) {
      submission.refused[lab.folder] = opened.reason + ": " + kOnlyRegularFiles;
      auto& [what, refused_labs] = refusals[opened.refused_path];
      if (refused_labs.empty()) what = opened.what;
      refused_labs += (refused_labs.empty() ? "" : ", ") + lab.folder;
      used.insert(folder / chosen);
      continue;
    }
    if (opened.outcome == OpenedFile::Outcome::missing) {
      const fs::path lab_dir = folder / root / lab.folder;
      if (fs::is_directory(fs::symlink_status(lab_dir, error))) {
        std::string found;
        for (const auto& entry : fs::directory_iterator(lab_dir, error))
          if (fs::is_regular_file(entry.symlink_status(error))) {
            found += (found.empty() ? "" : ", ") + entry.path().filename().string();
            used.insert(entry.path());  // named in this note; not listed again as ignored
          }
        submission.notes.push_back(lab.folder + ": no " + file_name + " in " + relative_text(lab_dir, folder) +
                                   "/" + (found.empty() ? "" : " (found " + found + "; only " + file_name +
                                                                   " is graded: rename it)"));
      }
      continue;
    }
    used.insert(folder / chosen);
    std::string text;
    if (!read_whole(opened, std::uintmax_t{2} << 20, text)) {
      submission.notes.push_back(lab.folder + ": " + chosen.generic_string() + " is larger than 2 MiB: not graded");
      continue;
    }
    fs::create_directories(staged / lab.folder);
    const fs::path target = staged / lab.folder / file_name;
    {
      std::ofstream out(target, std::ios::binary | std::ios::trunc);
      out << text;
      if (!out) throw std::runtime_error("cannot write " + target.string());
    }
    submission.files[lab.folder] = target;
  }
  std::vector<std::string> ignored;
  for (const auto& file : files)
    if (!used.count(file)) ignored.push_back(relative_text(file, folder));
  if (!ignored.empty()) {
    std::string list;
    for (std::size_t i = 0; i < ignored.size() && i < 12; ++i) list += (i ? ", " : "") + ignored[i];
    if (ignored.size() > 12) list += ", ... (" + std::to_string(ignored.size() - 12) + " more)";
    submission.notes.push_back("ignored (only each lab's <name>.cu is graded; everything else comes from the clean "
                               "workbook): " + list);
  }
  // One note per refused path, however many labs' files lie beyond it.
  for (const auto& [path, refusal] : refusals)
    submission.notes.push_back("refused: " + path + " is " + refusal.first +
                               ": " + kOnlyRegularFiles + "; graded as not submitted: " + refusal.second);
  std::string refused_list;
  std::size_t listed = 0;
  for (const auto& entry : not_collected) {
    if (refusals.count(entry.substr(0, entry.find(" (")))) continue;
    if (listed++ < 12) refused_list += (refused_list.empty() ? "" : ", ") + entry;
  }
  if (listed > 12) refused_list += ", ... (" + std::to_string(listed - 12) + " more)";
  if (!refused_list.empty())
    submission.notes.push_back("not collected (" + kOnlyRegularFiles + "): " + refused_list);
  if (submission.files.empty() && submission.refused.empty())
    submission.notes.push_back("no lab file found: expected e.g. " + submission.student + "/" +
                               (labs.empty() ? "NN_lab/<name>.cu" : labs.front().folder + "/" + labs.front().name + ".cu"));
  return submission;
}

}  // namespace pplab::cli
