# cmake -DBINARY=<lab check binary> -DLAB=<NN> -P check_skeleton_fails.cmake
# An untouched skeleton must compile, run to the end, fail (exit status 1: checks
# failed, not a crash or a timeout), and name one of its lab's TODO steps.
execute_process(COMMAND ${BINARY} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 500)
if(NOT status STREQUAL "1")
  message(FATAL_ERROR "expected the skeleton's checks to fail with status 1, got '${status}'\n${out}\n${err}")
endif()
if(NOT "${out}${err}" MATCHES "TODO\\(${LAB}\\.")
  message(FATAL_ERROR "the skeleton's failures do not name a TODO(${LAB}.x) step\n${out}\n${err}")
endif()
message(STATUS "skeleton fails cleanly and names TODO(${LAB}.x)")
