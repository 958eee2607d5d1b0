// pplab: check, time and grade the Parallel Primitives Lab workbook.
#include <iostream>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"pplab " PPLAB_VERSION ": check, time and grade the Parallel Primitives Lab labs.\n"
               "Run from any folder; pplab finds its build from its own location."};
  app.require_subcommand(1);
  pplab::cli::add_test_command(app);
  pplab::cli::add_bench_command(app);
  pplab::cli::add_grade_command(app);
  pplab::cli::add_release_command(app);
  pplab::cli::add_trace_command(app);
  if (argc > 1 && argv[1][0] != '-') {
    try {
      app.get_subcommand(argv[1]);
    } catch (const CLI::OptionNotFound&) {
      std::cerr << "pplab: error: no command '" << argv[1]
                << "'; the commands are test, bench, grade, release and trace (pplab --help)\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const std::exception& error) {
    std::cerr << "pplab: error: " << error.what() << "\n";
    return 2;
  }
  return 0;
}
