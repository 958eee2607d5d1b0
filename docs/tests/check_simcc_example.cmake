# cmake -DSIMCC=<simcc> -DSOURCE=<reverse_in_shared.cu> -DWORK=<dir> -P check_simcc_example.cmake
# The student guide's simcc example builds, the kernel with a barrier reverses the
# array under every schedule, and the one without fails under at least one of them
# (with checked shared memory off, to see the values), and with checking on the
# emulator stops it with a data race naming the write and the read.
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${SIMCC} -O1 ${SOURCE} -o ${WORK}/reverse_in_shared
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "simcc failed (${status}):\n${out}${err}")
endif()
set(broken_somewhere FALSE)
foreach(schedule forward reverse random:7)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PPLAB_SIM_CHECK=off PPLAB_SIM_SCHEDULE=${schedule} ${WORK}/reverse_in_shared
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0 OR NOT out MATCHES "with barrier: +8 7 6 5 4 3 2 1\n")
    message(FATAL_ERROR "schedule ${schedule}: the kernel with a barrier did not reverse the array:\n${out}${err}")
  endif()
  if(NOT out MATCHES "without barrier: +8 7 6 5 4 3 2 1\n")
    set(broken_somewhere TRUE)
  endif()
  message(STATUS "PPLAB_SIM_SCHEDULE=${schedule}\n${out}")
endforeach()
if(NOT broken_somewhere)
  message(FATAL_ERROR "the kernel without a barrier passed under every schedule")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env PPLAB_SIM_CHECK=on PPLAB_SIM_SCHEDULE=forward ${WORK}/reverse_in_shared
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 0 OR NOT err MATCHES "data race on shared memory in kernel 'reverse_no_barrier_kernel'"
   OR NOT err MATCHES "thread \\(4,0,0\\) [^\n]* writes tile\\[4\\] at [^\n]*reverse_in_shared.cu:26"
   OR NOT err MATCHES "thread \\(3,0,0\\) [^\n]* read it at [^\n]*reverse_in_shared.cu:27")
  message(FATAL_ERROR "with checking on, the kernel without a barrier was not reported as a data race (${status}):\n${out}${err}")
endif()
message(STATUS "PPLAB_SIM_CHECK=on\n${out}${err}")
