# cmake -DPROGRAM=<trace program> -DSTATUS=<exit status> -DEXPECT=<a|b|...> -DREJECT=<regex> -P check_wrong_trace.cmake
# A trace of a known-wrong kernel runs to its end (exit STATUS: 1 when the answer is
# wrong, never a crash), prints each of EXPECT in that order, and nothing matching REJECT
# (a handout step named where it did not happen).
include(${CMAKE_CURRENT_LIST_DIR}/expect_in_order.cmake)
execute_process(COMMAND ${PROGRAM} OUTPUT_VARIABLE text ERROR_VARIABLE errors RESULT_VARIABLE status)
if(NOT "${status}" STREQUAL "${STATUS}")
  message(FATAL_ERROR "${PROGRAM} ended with '${status}', not ${STATUS}:\n${text}${errors}")
endif()
expect_in_order(${PROGRAM} "${text}" "${EXPECT}")
if(text MATCHES "${REJECT}")
  message(FATAL_ERROR "${PROGRAM} shows '${CMAKE_MATCH_0}', a handout step that did not happen:\n${text}")
endif()
