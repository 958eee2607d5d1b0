# With PPLAB_REPORTS=first (the sim and gpu test presets), a test case that fails many
# times prints its first report whole, with its reproduce: line, and each later failure
# as one line; without it, every report whole.
#   -DBINARY=<a check binary> -DCASE=<one of its test cases that fails more than once>
foreach(mode first all)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PPLAB_REPORTS=${mode} ${BINARY} "--test-case=${CASE}"
    OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCHALL "\n  reproduce: " reports "${out}${err}")
  # (one-line failures read "and: check failed: <check>; size n = ..."; a ';' would split the list)
  string(REGEX MATCHALL "\n  and: check failed: " folded "${out}${err}")
  if(folded AND NOT "${out}${err}" MATCHES "\n  and: check failed: [^\n]*. size n = [0-9]+, seed = ")
    message(FATAL_ERROR "a one-line failure lacks its size and seed:\n${out}${err}")
  endif()
  list(LENGTH reports reports)
  list(LENGTH folded folded)
  set(${mode}_reports ${reports})
  set(${mode}_folded ${folded})
  set(${mode}_lines "${out}${err}")
endforeach()
if(NOT first_reports EQUAL 1 OR first_folded LESS 1)
  message(FATAL_ERROR "PPLAB_REPORTS=first: expected 1 whole report and one line for each later failure, "
                      "got ${first_reports} reports and ${first_folded} one-line failures:\n${first_lines}")
endif()
math(EXPR failures "${first_folded} + 1")
if(NOT all_reports EQUAL failures OR NOT all_folded EQUAL 0)
  message(FATAL_ERROR "PPLAB_REPORTS=all: expected every one of the ${first_folded} + 1 failures whole, got "
                      "${all_reports} reports:\n${all_lines}")
endif()
message("PPLAB_REPORTS=first: 1 whole report and ${first_folded} one-line failures; all: ${all_reports} reports")
