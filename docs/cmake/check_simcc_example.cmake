# cmake -DSIMCC=<simcc> -DSOURCE=<reverse_in_shared.cu> -DWORK=<dir> -P check_simcc_example.cmake
# The student guide's simcc example builds, the kernel with a barrier reverses the
# array under every schedule, and the one without fails under at least one of them.
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${SIMCC} -O1 ${SOURCE} -o ${WORK}/reverse_in_shared
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "simcc failed (${status}):\n${out}${err}")
endif()
set(broken_somewhere FALSE)
foreach(schedule forward reverse random:7)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PPLAB_SIM_SCHEDULE=${schedule} ${WORK}/reverse_in_shared
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
