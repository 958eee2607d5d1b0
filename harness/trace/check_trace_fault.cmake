# cmake -DPPLAB=<pplab> -DMANIFEST=<the build's labs.json> -DLAB=<NN_name> -DPROGRAM=<trace program>
#       -DKERNEL=<its kernel file> -DWORK=<scratch folder> -DWHAT=<regex> -DWHERE=<regex> -P check_trace_fault.cmake
# `pplab trace NN` on a student's kernel that faults in its trace. pplab runs in a build of
# its own (WORK: a copy of pplab in WORK/bin, beside a manifest whose one lab is LAB with
# KERNEL as the student's file and PROGRAM as its trace), as in a student's sim build. It
# must end with a status of 1, not a crash, and print a report like a failed check's:
# what happened (WHAT), where (WHERE), a step: line naming the kernel file's TODOs, and
# one reproduce: line that, pasted into a shell, reports the same fault again.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/bin)
file(COPY_FILE ${PPLAB} ${WORK}/bin/pplab)   # pplab finds its manifest beside its own bin/
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/PplabManifestRead.cmake)
file(READ ${MANIFEST} manifest)
pplab_manifest_lab("${manifest}" ${LAB} lab)
if(NOT lab)
  message(FATAL_ERROR "${MANIFEST} has no lab ${LAB}")
endif()
string(JSON number GET "${lab}" number)
string(JSON lab SET "${lab}" student_file "\"${KERNEL}\"")
string(JSON lab SET "${lab}" reference_file "\"\"")
string(JSON lab SET "${lab}" trace "{\"target\": \"trace\", \"file\": \"${PROGRAM}\", \"tree\": \"labs\"}")
string(JSON manifest SET "${manifest}" build_dir "\"${WORK}\"")
string(JSON manifest SET "${manifest}" labs "[${lab}]")
file(WRITE ${WORK}/labs.json "${manifest}")

# pplab's own watchdog setting (PPLAB_SIM_TIMEOUT unset: 10 s), whatever the caller's.
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=PPLAB_SIM_TIMEOUT ${WORK}/bin/pplab trace ${number}
                RESULT_VARIABLE status
                OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 200)
set(all "${out}${err}")
if(NOT status STREQUAL "1")
  message(FATAL_ERROR "pplab trace ${number} ended with '${status}', not 1 (a fault in the trace):\n${all}")
endif()
# The step: line lists the kernel file's TODO regions ("reduce.cu: 03.1 lines 71-80, ...").
foreach(wanted "trace failed: ${LAB} on its worked example: " "${WHAT}" "${WHERE}"
               "\n  while: pplab trace ${number}" "\n  step: [^\n]*[0-9][0-9][.][0-9] lines")
  if(NOT all MATCHES "${wanted}")
    message(FATAL_ERROR "pplab trace ${number}'s report does not show '${wanted}':\n${all}")
  endif()
endforeach()

# One reproduce: line, a command that reports the same fault when pasted into sh.
string(REGEX MATCHALL "\n  reproduce: [^\n]*" lines "${all}")
list(LENGTH lines reproduce_lines)
if(NOT reproduce_lines EQUAL 1)
  message(FATAL_ERROR "pplab trace ${number} printed ${reproduce_lines} reproduce: lines, not 1:\n${all}")
endif()
string(REGEX REPLACE "^\n  reproduce: " "" command "${lines}")
# The same fault: the emulator's first line, else the exception's message, else the
# trace program's own line for an end it did not reach.
string(REGEX MATCH "pplab-sim: error: [^\n]*" fault "${all}")
if(NOT fault)
  string(REGEX MATCH "what[(][)]: [^\n]*" fault "${all}")
endif()
if(NOT fault)
  string(REGEX MATCH "pplab-trace: error: [^\n]*" fault "${all}")
endif()
if(NOT fault)
  message(FATAL_ERROR "pplab trace ${number}'s report quotes neither the emulator, an exception nor the trace's end:\n${all}")
endif()
find_program(SH sh REQUIRED)
execute_process(COMMAND ${SH} -c "${command}" RESULT_VARIABLE again_status
                OUTPUT_VARIABLE again ERROR_VARIABLE again_err TIMEOUT 200)
# Numbers may differ between the runs (the seconds a watchdog waited, addresses).
string(REGEX REPLACE "[0-9]+" "N" fault_shape "${fault}")
string(REGEX REPLACE "[0-9]+" "N" again_shape "${again}${again_err}")
string(FIND "${again_shape}" "${fault_shape}" same)
if(same EQUAL -1 OR again_status EQUAL 0)
  message(FATAL_ERROR "pasted into sh, '${command}' (status ${again_status}) did not report '${fault}':\n${again}${again_err}")
endif()
message("pplab trace ${number} reports the fault and exits with 1; its reproduce line, pasted into sh, reports it again:\n${err}")
