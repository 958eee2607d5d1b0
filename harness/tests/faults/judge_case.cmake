# Judges one known-wrong solution with the grader's own code and compares the verdict
# with its expect.txt. -DPPLAB -DLAB -DBINARY -DEXPECT -DWORK
#
# expect.txt:  verdict: <what pplab must say>       (passed, wrong answer, fault, ...)
#              message: <regex>   (repeatable)      must match the first failure's reason
#              case: <test case name> (repeatable)  run only these checks (default: all)
#              limit: <seconds>                     per test case (default 30)
#              passes under: <order> (repeatable)   run again in only that thread order
#              fails under: <order> (repeatable)    (PPLAB_SIM_SCHEDULE): every check passes,
#                                                   or the same verdict, reason and messages
# The last two hold the order a report names to the order that ran: a case that fails in
# one order alone fails again when its report's order is asked for, and passes in another.
file(STRINGS ${EXPECT} lines)
set(verdict "")
set(messages "")
set(cases "")
set(limit 30)
set(passes_under "")
set(fails_under "")
foreach(line IN LISTS lines)
  if(line MATCHES "^verdict: (.*)$")
    set(verdict "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^message: (.*)$")
    list(APPEND messages "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^case: (.*)$")
    list(APPEND cases --case "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^limit: ([0-9]+)$")
    set(limit ${CMAKE_MATCH_1})
  elseif(line MATCHES "^passes under: (.*)$")
    list(APPEND passes_under "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^fails under: (.*)$")
    list(APPEND fails_under "${CMAKE_MATCH_1}")
  endif()
endforeach()
if(verdict STREQUAL "")
  message(FATAL_ERROR "${EXPECT}: no 'verdict:' line")
endif()

# The case's own file is the one judged, so its TODO regions name a fault's step, as the
# grader names a student's (PPLAB_KERNEL_FILE, pplab/testing.h).
get_filename_component(case_dir ${EXPECT} DIRECTORY)
file(GLOB case_file ${case_dir}/*.cu)
if(case_file)
  set(ENV{PPLAB_KERNEL_FILE} "${case_file}")
endif()

# judge(<verdict> <order>): runs the checks, in the orders they choose (<order> empty) or
# in <order> alone, and fails unless the first failure has <verdict> and the messages.
function(judge verdict order)
  if(order STREQUAL "")
    unset(ENV{PPLAB_SIM_SCHEDULE})
    set(order "the checks' own")
    set(WORK ${WORK}/own)
  else()
    set(ENV{PPLAB_SIM_SCHEDULE} "${order}")
    set(WORK ${WORK}/${order})
  endif()
  message("-- in ${order} order")
  file(REMOVE_RECURSE ${WORK})
  file(MAKE_DIRECTORY ${WORK})
  execute_process(COMMAND ${PPLAB} test ${LAB} --binary ${BINARY} ${cases} --case-limit ${limit}
                          --json ${WORK}/verdicts.json
                  WORKING_DIRECTORY ${WORK}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}")
  if(NOT EXISTS ${WORK}/verdicts.json)
    message(FATAL_ERROR "pplab test wrote no verdicts (exit ${status}):\n${err}")
  endif()
  file(READ ${WORK}/verdicts.json json)
  string(JSON count LENGTH "${json}" labs 0 cases)
  if(count EQUAL 0)
    message(FATAL_ERROR "no check ran")
  endif()

  # The first check that did not pass (or the last one, when every check passed).
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON got GET "${json}" labs 0 cases ${i} verdict)
    string(JSON reason GET "${json}" labs 0 cases ${i} reason)
    string(JSON detail GET "${json}" labs 0 cases ${i} detail)
    string(JSON name GET "${json}" labs 0 cases ${i} name)
    if(NOT got STREQUAL "passed" AND NOT got STREQUAL "skipped")
      break()
    endif()
  endforeach()

  message("verdict: ${got}\ncheck: ${name}\nreason: ${reason}")
  if(verdict STREQUAL "passed")
    if(NOT got STREQUAL "passed" OR NOT status EQUAL 0)
      message(FATAL_ERROR "expected every check to pass, got '${got}' (exit ${status}): ${reason}")
    endif()
    return()
  endif()
  if(NOT got STREQUAL verdict)
    message(FATAL_ERROR "expected the verdict '${verdict}', got '${got}' on '${name}': ${reason}")
  endif()
  if(status EQUAL 0)
    message(FATAL_ERROR "pplab test exited 0 for a failing submission")
  endif()
  # Every failure a student can act on says which TODO it belongs to and how to rerun it
  # (a compile error and forged reports are judged elsewhere, with their own words).
  if(NOT verdict MATCHES "^(compile error|tampered|no result)$")
    foreach(line "step: " "reproduce: ")
      string(FIND "${reason}\n${detail}" "${line}" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "the report has no '${line}' line:\n${reason}\n${detail}")
      endif()
    endforeach()
  endif()
  foreach(regex IN LISTS messages)
    if(NOT "${reason}\n${detail}" MATCHES "${regex}")
      message(FATAL_ERROR "the reason does not match '${regex}':\n${reason}\n${detail}")
    endif()
  endforeach()
endfunction()

judge("${verdict}" "")
foreach(order IN LISTS passes_under)
  judge("passed" "${order}")
endforeach()
foreach(order IN LISTS fails_under)
  judge("${verdict}" "${order}")
endforeach()
