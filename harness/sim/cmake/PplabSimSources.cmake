# pplab_sim_add_sources: how a .cu file is compiled for the CPU emulator. Included by
# harness/sim/CMakeLists.txt, and by a student's build in class grading
# (harness/student_build), where pplab-sim-rewrite and pplab::sim come from the
# workbook's build (its grading kit).

# pplab_sim_add_sources(<target> <file.cu>...)
# Rewrites each .cu into the build tree (the rewrite keeps line numbers and points
# #line at the real file), adds the result to <target>, adds the .cu's directory
# to the include path (so its quoted includes resolve as under nvcc) and links pplab::sim.
function(pplab_sim_add_sources target)
  foreach(cu IN LISTS ARGN)
    get_filename_component(abs "${cu}" ABSOLUTE)
    get_filename_component(dir "${abs}" DIRECTORY)
    get_filename_component(stem "${abs}" NAME)
    string(MD5 hash "${abs}")
    string(SUBSTRING "${hash}" 0 8 hash)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/pplab_sim_gen/${target}/${stem}.${hash}.cpp")
    add_custom_command(
      OUTPUT "${out}"
      COMMAND pplab-sim-rewrite "${abs}" "${out}" --depfile "${out}.d"
      DEPENDS pplab-sim-rewrite "${abs}"
      # The headers the rewriter followed (rewritten copies depend on them too).
      DEPFILE "${out}.d"
      COMMENT "Rewriting ${stem} for the CPU emulator"
      VERBATIM)
    target_sources(${target} PRIVATE "${out}")
    # Line tables let fault reports name the faulting line (addr2line). The
    # thread-sanitizer instrumentation calls the sim's own hooks before every load
    # and store (src/shared_check.cpp: checked shared memory); libtsan is not linked.
    # -Wno-tsan: GCC warns that it cannot instrument std::atomic_thread_fence, which
    # the hooks do not need (a block's threads share one OS thread).
    # -O1 outside Debug: a lab's file is compiled again at every edit, and GCC's -O3 took
    # a third longer on it (lab 03's 96 kernels: 3.9 s against 2.6 s) for checks that run
    # about as fast (the emulator's time goes to its runtime, built -O3 on its own).
    # DWARF 4 line tables: in DWARF 5 the compiled file (the rewritten .cpp) is file 0
    # and the .cu its #line names is file 1, and binutils 2.40's addr2line answered some
    # addresses with file 0's name (seen at -O1), so a report named the generated file.
    set_source_files_properties("${out}" PROPERTIES
      COMPILE_OPTIONS "-gdwarf-4;$<$<NOT:$<CONFIG:Debug,RelWithDebInfo>>:-g1>;$<$<NOT:$<CONFIG:Debug,RelWithDebInfo>>:-O1>;-fsanitize=thread;--param=tsan-instrument-func-entry-exit=0;-Wno-tsan")
    target_include_directories(${target} PRIVATE "${dir}")
  endforeach()
  target_link_libraries(${target} PUBLIC pplab::sim)
endfunction()
