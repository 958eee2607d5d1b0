# Helpers for the grader's self-tests (cmake -P scripts).

# run_pplab(<result-var> <output-var> ARGS...)
function(run_pplab result_var output_var)
  execute_process(COMMAND ${PPLAB} ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${result_var} "${result}" PARENT_SCOPE)
  set(${output_var} "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect condition_text)
  if(NOT ${ARGN})
    message(FATAL_ERROR "expected: ${condition_text}")
  endif()
endfunction()

# Fails unless every report file is in `dir`.
function(expect_report_files dir)
  foreach(file report.md report.html results.json junit.xml)
    if(NOT EXISTS ${dir}/${file})
      message(FATAL_ERROR "missing ${dir}/${file}")
    endif()
  endforeach()
endfunction()

# json_number(<var> <file> <key>...): a number from a JSON file.
function(json_get var file)
  file(READ ${file} text)
  string(JSON value GET "${text}" ${ARGN})
  set(${var} "${value}" PARENT_SCOPE)
endfunction()

# Sum of max_score over the tests of a results.json.
function(results_max var file)
  file(READ ${file} text)
  string(JSON count LENGTH "${text}" tests)
  set(total 0)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON m GET "${text}" tests ${i} max_score)
    string(REGEX REPLACE "\\..*" "" m "${m}")
    math(EXPR total "${total} + ${m}")
  endforeach()
  set(${var} ${total} PARENT_SCOPE)
endfunction()
