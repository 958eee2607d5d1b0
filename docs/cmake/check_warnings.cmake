# cmake -DLOG=<doxygen warning log> -P check_warnings.cmake
# Fails, printing every warning, when Doxygen wrote any.
if(NOT EXISTS ${LOG})
  message(FATAL_ERROR "no Doxygen warning log at ${LOG}: did Doxygen run?")
endif()
file(READ ${LOG} warnings)
string(STRIP "${warnings}" warnings)
if(NOT warnings STREQUAL "")
  string(REGEX MATCHALL "\n" lines "\n${warnings}")
  list(LENGTH lines count)
  message(FATAL_ERROR "Doxygen wrote ${count} warning line(s); the site must build without any:\n${warnings}")
endif()
