# Traces of lab 02's known-wrong kernels (the workbook's own tests, label trace): included
# by harness/trace/CMakeLists.txt, which says what pplab_trace_wrong_case and
# pplab_trace_fault_case check.
pplab_trace_fault_case(02_deadlock "kernel 'dot_product_kernel<BLOCK_THREADS>' still running after 1[0-9] s [^\n]*a deadlock"
  "launched at [^\n]*dot_product[.]cu:[0-9]+[)][^\n]*\n[^\n]*worker 0: block [(]0,0,0[)][^\n]*thread [(]0,0,0[)]")
pplab_trace_fault_case(02_divergent_syncthreads "barrier divergence"
  "wait at __syncthreads[(][)] at [^\n]*dot_product[.]cu:69")
