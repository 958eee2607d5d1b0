/// \file
/// \brief What of a build's output a report shows: the compiler's messages, with the
/// student's own source lines quoted and nobody else's.
///
/// A compiler quotes the line of every diagnostic, whichever file it is in. A student can
/// steer a diagnostic into any file the build reads (an `#include` of it, a template that
/// fails inside it), so a report that kept every quote would print other people's files
/// line by line. The messages themselves stay, so a student still learns what went wrong
/// and where; only the quoted lines of files outside the submission go.
#pragma once
#include <filesystem>
#include <string>

namespace pplab::cli {

/// `output` of a build less ninja's progress, its FAILED lines and the command lines after
/// them. With a `submission` folder: a path under it is shown relative to it
/// (`01_saxpy/saxpy.cu:12:3: error: ...`), and the quoted source and caret lines of a
/// diagnostic are kept only when that diagnostic is in the submission. Without one (the
/// instructor's own build), every quote stays. At most `limit` characters, then "(cut)".
std::string compiler_messages(const std::string& output, const std::filesystem::path& submission = {},
                              std::size_t limit = 20000);

}  // namespace pplab::cli
