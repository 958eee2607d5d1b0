# cmake -DPROGRAM=<exe> [-DARGS=<arg;...>] -DOUTPUT=<file> -P run_to_file.cmake
# Runs PROGRAM and writes its standard output to OUTPUT; fails (and removes OUTPUT)
# when the program fails, so a broken trace never reaches the site.
execute_process(COMMAND ${PROGRAM} ${ARGS}
  OUTPUT_FILE ${OUTPUT}.tmp
  ERROR_VARIABLE errors
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(REMOVE ${OUTPUT}.tmp)
  message(FATAL_ERROR "${PROGRAM} ${ARGS} failed (${status}):\n${errors}")
endif()
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
