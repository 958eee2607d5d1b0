# cmake -DPROGRAM=<lab02_dot_product_trace> -P check_trace_02.cmake
# The dot-product seed, step by step: the products 2 2 6 4 10 6 14 8, then the tree
# with strides 4, 2, 1 (T0: 2 + 10 = 12 ... T0: 32 + 20 = 52), and the result 52.
execute_process(COMMAND ${PROGRAM} OUTPUT_VARIABLE text ERROR_VARIABLE errors RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed (${status}):\n${text}${errors}")
endif()
set(expected
  "shared afterwards: 2 2 6 4 10 6 14 8"
  "the tree, stride 4"
  "T0: 2 + 10 = 12 | T1: 2 + 6 = 8 | T2: 6 + 14 = 20 | T3: 4 + 8 = 12"
  "shared afterwards: 12 8 20 12 10 6 14 8"
  "the tree, stride 2"
  "active threads: T0 T1\n"
  "T0: 12 + 20 = 32 | T1: 8 + 12 = 20"
  "shared afterwards: 32 20 20 12 10 6 14 8"
  "the tree, stride 1"
  "T0: 32 + 20 = 52\n"
  "shared afterwards: 52 20 20 12 10 6 14 8"
  "result = 52")
set(rest "${text}")
foreach(line IN LISTS expected)
  string(FIND "${rest}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the lab 02 trace does not show, in order: '${line}'\nIt printed:\n${text}")
  endif()
  string(SUBSTRING "${rest}" ${at} -1 rest)
endforeach()
