# What a lab's trace watches and must show: each lab keeps it in its room,
# harness/labs/NN_name/trace.cmake, beside its trace program trace.cpp. Read by
# harness/trace/CMakeLists.txt (the watched array; a test per trace in a build whose traces
# run the reference) and docs/tests/CMakeLists.txt (the handout page shows the example).
#
# A lab's trace.cmake sets:
#   set(trace_array <name>)                     the watched shared array, as the kernel
#                                               spells it (default: shared)
#   set(trace_expect "<text>" "<text>" ...)    the reference trace's text, in order: the
#                                               handout's worked example, step by step (the
#                                               handout's numbers, set beside the steps the
#                                               kernel ran)
#   set(trace_page "<on the page>|...")         what the handout page must show (docs)
# No ";" in a text (CMake's list separator); "|" inside one splits it into two pieces that
# must appear in order (docs/tests/check_trace.cmake). A lab without trace_expect has no
# worked-example test.

# pplab_read_lab_trace(<lab folder>): sets trace_array, trace_expect and trace_page in the
# caller's scope from harness/labs/<lab folder>/trace.cmake (the defaults where it has none).
macro(pplab_read_lab_trace pplab_trace_lab_folder)
  set(trace_array shared)
  set(trace_expect "")
  set(trace_page "")
  set(pplab_trace_facts ${PROJECT_SOURCE_DIR}/harness/labs/${pplab_trace_lab_folder}/trace.cmake)
  if(EXISTS ${pplab_trace_facts})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${pplab_trace_facts})
    include(${pplab_trace_facts})
  endif()
endmacro()
