# cmake -DPAGE=<html/perf.html> -DIMAGE=<html/summary.svg> -P check_perf_page.cmake
# The measured speed (docs/perf/README.md) is a page of the site, with its figure.
if(NOT EXISTS "${PAGE}")
  message(FATAL_ERROR "no measured speed page at ${PAGE}")
endif()
if(NOT EXISTS "${IMAGE}")
  message(FATAL_ERROR "the speed figure was not copied to ${IMAGE}")
endif()
file(READ "${PAGE}" html)
if(NOT html MATCHES "summary.svg")
  message(FATAL_ERROR "${PAGE} does not show summary.svg")
endif()
