# The watched shared array of each lab whose kernel does not call it `shared`
# (see CMakeLists.txt): set(pplab_trace_array_NN <name as the kernel spells it>).
set(pplab_trace_array_05 buffer)
set(pplab_trace_array_06 tile)
set(pplab_trace_array_11 keys)
set(pplab_trace_array_12 buffers)
set(pplab_trace_array_09 window)
