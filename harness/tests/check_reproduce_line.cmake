# A failed check's "reproduce:" line is one shell command that, pasted as printed, reruns
# that check alone with the same seed and thread order.
#   -DBINARY=<a check binary> -DCASE=<one of its test cases that fails>
#   -DFAULT=ON   the case ends in an emulator fault: the report has a step: line, and the
#                rerun must report the same fault
execute_process(COMMAND ${BINARY} "--test-case=${CASE}" OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "  reproduce: ([^\n]*)" line "${out}${err}")
if(NOT line)
  message(FATAL_ERROR "no reproduce: line in the failure report:\n${out}${err}")
endif()
set(command "${CMAKE_MATCH_1}")
find_program(SH sh REQUIRED)
execute_process(COMMAND ${SH} -c "${command}" OUTPUT_VARIABLE again ERROR_VARIABLE again_err)
set(again "${again}${again_err}")
if(FAULT)
  # A fault names the kernel line; its step: line says which TODO that line belongs to.
  # The report comes from the lab's process, relayed by the checker as "lab> " lines.
  if(NOT "${out}${err}" MATCHES "\n(lab> )?  step: the TODO whose lines hold the kernel line named above")
    message(FATAL_ERROR "the fault report has no step: line:\n${out}${err}")
  endif()
  string(REGEX MATCH "pplab-sim: error: [^\n]*" fault "${out}${err}")
  string(FIND "${again}" "${fault}" same)
  if(NOT fault OR same EQUAL -1)
    message(FATAL_ERROR "pasted into sh, '${command}' did not report the same fault ('${fault}'):\n${again}")
  endif()
  message("pasted as printed, the reproduce line reports the same fault: ${fault}")
  return()
endif()
string(FIND "${again}" "TEST CASE:  ${CASE}" ran)
if(ran EQUAL -1 OR NOT again MATCHES "test cases: +1 \\| +0 passed \\| +1 failed")
  message(FATAL_ERROR "pasted into sh, '${command}' did not rerun that one check:\n${again}")
endif()
string(REGEX MATCH "seed = [0-9]+, schedule = [a-z:0-9]+" first "${out}${err}")
string(REGEX MATCH "seed = [0-9]+, schedule = [a-z:0-9]+" second "${again}")
if(NOT first STREQUAL second)
  message(FATAL_ERROR "the rerun used '${second}', the failure '${first}'")
endif()
message("pasted as printed, the reproduce line reruns the check (${first})")
