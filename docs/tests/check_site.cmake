# cmake -DLOG=<warning log> -DHTML=<site> -DHANDOUTS=<a|b|...> -DGENERATED=<dir> -P check_site.cmake
# The docs test: the last Doxygen run wrote no warnings, the main page exists, every
# lab handout has its page, and every generated trace is shown on its handout's page.
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/check_warnings.cmake)  # the build step's own gate
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/PplabIdentity.cmake)  # pplab_lab_identity
if(NOT EXISTS ${HTML}/index.html)
  message(FATAL_ERROR "no main page at ${HTML}/index.html")
endif()
string(REPLACE "|" ";" handouts "${HANDOUTS}")
set(problems "")
foreach(handout IN LISTS handouts)
  get_filename_component(dir ${handout} DIRECTORY)
  get_filename_component(folder ${dir} NAME)            # 02_dot_product
  pplab_lab_identity(${folder} number lab_name)
  # The page is named by the handout's {#labNN} anchor, or by Doxygen after the file.
  set(page "")
  foreach(candidate ${HTML}/lab${number}.html ${HTML}/md_labs_${folder}_README.html)
    if(EXISTS ${candidate})
      set(page ${candidate})
    endif()
  endforeach()
  if(NOT page)
    list(APPEND problems "${folder}: no handout page (expected lab${number}.html)")
    continue()
  endif()
  if(EXISTS ${GENERATED}/trace_${folder}.md)
    file(READ ${page} html)
    if(NOT html MATCHES "active threads")
      list(APPEND problems "${folder}: the handout page lacks the generated trace table")
    endif()
  endif()
endforeach()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "The site is incomplete:\n  ${text}")
endif()
