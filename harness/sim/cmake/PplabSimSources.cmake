# pplab_sim_add_sources: how a .cu file is compiled for the CPU emulator. Included by
# harness/sim/CMakeLists.txt, and by a student's build in class grading
# (harness/student_build), where pplab-sim-rewrite and pplab::sim come from the
# workbook's build (its grading kit).

# The precompiled header's folder: this build's own, made with the first rewritten file,
# unless a student's build in class grading names the workbook build's (its grading kit
# does, cmake/PplabKit.cmake).
if(NOT DEFINED PPLAB_SIM_PCH_DIR)
  set(PPLAB_SIM_PCH_DIR ${CMAKE_BINARY_DIR}/pplab_sim_pch CACHE INTERNAL "the emulator's precompiled header")
endif()

# pplab_sim_source_options(<variable>): the options a rewritten file is compiled with,
# beyond the build's own.
# Line tables let fault reports name the faulting line (addr2line). The
# thread-sanitizer instrumentation calls the sim's own hooks before every load
# and store (src/shared_hooks.cpp: checked shared memory); libtsan is not linked.
# -Wno-tsan: GCC warns that it cannot instrument std::atomic_thread_fence, which
# the hooks do not need (a block's threads share one OS thread).
# -O1 outside Debug: a lab's file is compiled again at every edit, and GCC's -O3 took
# a third longer on it (lab 03's 96 kernels: 3.9 s against 2.6 s) for checks that run
# about as fast (the emulator's time goes to its runtime, built -O3 on its own).
# DWARF 4 line tables: in DWARF 5 the compiled file (the rewritten .cpp) is file 0
# and the .cu its #line names is file 1, and binutils 2.40's addr2line answered some
# addresses with file 0's name (seen at -O1), so a report named the generated file.
function(pplab_sim_source_options variable)
  set(${variable}
      -gdwarf-4 $<$<NOT:$<CONFIG:Debug,RelWithDebInfo>>:-g1> $<$<NOT:$<CONFIG:Debug,RelWithDebInfo>>:-O1>
      -fsanitize=thread --param=tsan-instrument-func-entry-exit=0 -Wno-tsan
      PARENT_SCOPE)
endfunction()

# pplab_sim_precompiled_header(<folder>): precompiles the emulator's <cuda_runtime.h> into
# <folder>, once per build, with the options of a rewritten file. A lab's file is compiled
# again at every edit, and parsing the emulator's headers was a quarter of that (lab 10:
# 1.50 s, 1.16 s with the header precompiled, on a 2-core machine).
# GCC looks for <name>.gch in each include folder before <name>, so <folder> goes first
# on a rewritten file's include path and holds a header of that name: where the
# precompiled one does not fit (other options, or not the first include), GCC reads the
# header instead, which includes the real one, and the result is the same. The header
# has a guard of its own, since GCC does not carry #pragma once of a precompiled header
# over to later includes of it. -Winvalid-pch on rewritten files says when it does not fit.
function(pplab_sim_precompiled_header folder)
  set(runtime_header ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../include/cuda_runtime.h)
  file(CONFIGURE OUTPUT ${folder}/cuda_runtime.h CONTENT [=[
// Written by the build (harness/sim/cmake/PplabSimSources.cmake): see there.
#ifndef PPLAB_SIM_PRECOMPILED_CUDA_RUNTIME_H
#define PPLAB_SIM_PRECOMPILED_CUDA_RUNTIME_H
#include "@runtime_header@"
#endif
]=] @ONLY)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
  separate_arguments(build_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${config}}")
  set(definitions "$<TARGET_PROPERTY:pplab::sim,INTERFACE_COMPILE_DEFINITIONS>")
  set(includes "$<TARGET_PROPERTY:pplab::sim,INTERFACE_INCLUDE_DIRECTORIES>")
  pplab_sim_source_options(source_options)
  add_custom_command(
    OUTPUT ${folder}/cuda_runtime.h.gch
    COMMAND ${CMAKE_CXX_COMPILER} ${build_flags} ${CMAKE_CXX20_EXTENSION_COMPILE_OPTION}
            "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},;-D>>"
            "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
            ${source_options}
            -MD -MT ${folder}/cuda_runtime.h.gch -MF ${folder}/cuda_runtime.h.gch.d
            -x c++-header -c ${folder}/cuda_runtime.h -o ${folder}/cuda_runtime.h.gch
    DEPENDS ${folder}/cuda_runtime.h
    DEPFILE ${folder}/cuda_runtime.h.gch.d
    COMMENT "Precompiling the emulator's cuda_runtime.h"
    COMMAND_EXPAND_LISTS
    VERBATIM)
  add_custom_target(pplab_sim_precompiled_header DEPENDS ${folder}/cuda_runtime.h.gch)
endfunction()

# pplab_sim_add_sources(<target> <file.cu>...)
# Rewrites each .cu into the build tree (the rewrite keeps line numbers and points
# #line at the real file), adds the result to <target>, adds the .cu's directory
# to the include path (so its quoted includes resolve as under nvcc) and links pplab::sim.
function(pplab_sim_add_sources target)
  set(pch ${PPLAB_SIM_PCH_DIR}/cuda_runtime.h.gch)
  if(PPLAB_SIM_PCH_DIR STREQUAL "${CMAKE_BINARY_DIR}/pplab_sim_pch")
    if(NOT TARGET pplab_sim_precompiled_header)
      pplab_sim_precompiled_header(${PPLAB_SIM_PCH_DIR})
    endif()
    add_dependencies(${target} pplab_sim_precompiled_header)
  elseif(NOT EXISTS ${pch})
    set(pch "")  # a kit without one: the headers are parsed as they are
  endif()
  pplab_sim_source_options(source_options)
  # A precompiled header that no longer fits (the options drifted) fails the workbook's
  # own build (CI) instead of quietly costing every recheck its time.
  set(pch_check $<IF:$<BOOL:${PPLAB_BUILD_SELF_TESTS}>,-Werror=invalid-pch,-Winvalid-pch>)
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
    set_source_files_properties("${out}" PROPERTIES
      COMPILE_OPTIONS "${source_options};${pch_check}"
      OBJECT_DEPENDS "${pch}")
    target_include_directories(${target} PRIVATE "${dir}")
  endforeach()
  if(pch)
    target_include_directories(${target} BEFORE PRIVATE ${PPLAB_SIM_PCH_DIR})
  endif()
  target_link_libraries(${target} PUBLIC pplab::sim)
endfunction()
