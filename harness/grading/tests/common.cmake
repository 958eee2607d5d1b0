# Helpers for the grader's self-tests (cmake -P scripts).
include(${CMAKE_CURRENT_LIST_DIR}/../../../cmake/PplabIdentity.cmake)  # pplab_lab_identity

# run_pplab(<result-var> <output-var> ARGS...)
function(run_pplab result_var output_var)
  execute_process(COMMAND ${PPLAB} ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${result_var} "${result}" PARENT_SCOPE)
  set(${output_var} "${out}${err}" PARENT_SCOPE)
endfunction()

# expect(<what> <condition>...): fails with <what> unless the condition holds. The test
# is if(<condition>) with an else, not if(NOT <condition>): NOT binds tighter than AND,
# so NOT would negate only the first term of "a AND b".
function(expect condition_text)
  if(${ARGN})
  else()
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

# read_gradebook(<gradebook.csv>): for each student's row (student,total,max,<one column
# per lab>,notes) sets total_<student>, max_<student>, lab<NN>_<student> for each lab
# column and notes_<student>, in the caller's scope.
function(read_gradebook file)
  # Notes hold semicolons, which a CMake list would split on: each one stands in as
  # <semicolon> until a row is taken apart.
  file(READ ${file} text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REPLACE "\n" ";" rows "${text}")
  list(FILTER rows EXCLUDE REGEX "^$")
  list(POP_FRONT rows header)
  string(REPLACE "," ";" columns "${header}")
  list(LENGTH columns count)
  math(EXPR lab_count "${count} - 4")
  list(SUBLIST columns 3 ${lab_count} labs)
  foreach(row IN LISTS rows)
    if(NOT row MATCHES "^([a-z_]+),([0-9.]+),([0-9.]+),(.*)$")
      continue()
    endif()
    set(student ${CMAKE_MATCH_1})
    set(total_${student} ${CMAKE_MATCH_2} PARENT_SCOPE)
    set(max_${student} ${CMAKE_MATCH_3} PARENT_SCOPE)
    set(rest "${CMAKE_MATCH_4}")
    foreach(lab IN LISTS labs)
      pplab_lab_identity(${lab} number lab_name)
      if(rest MATCHES "^([^,]*),(.*)$")
        set(lab${number}_${student} "${CMAKE_MATCH_1}" PARENT_SCOPE)
        set(rest "${CMAKE_MATCH_2}")
      endif()
    endforeach()
    string(REPLACE "<semicolon>" ";" rest "${rest}")
    set(notes_${student} "${rest}" PARENT_SCOPE)
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
