# A lab's runner: the program that holds the lab's code and a runtime, and nothing else
# (harness/remote). Both the workbook's build (PplabLab.cmake) and a student's build in
# class grading (harness/student_build) make runners with these functions, so a student's
# runner is compiled exactly as the workbook's own.
#
# Needs pplab::runner_main, and on the emulator pplab_sim_add_sources
# (harness/sim/cmake/PplabSimSources.cmake); PPLAB_BACKEND says which backend.

# The workbook's root: this file lives in <root>/cmake.
get_filename_component(PPLAB_RUNNER_ROOT ${CMAKE_CURRENT_LIST_DIR} DIRECTORY)

# pplab_cuda_sources(<target> <file.cu>...): CUDA sources for the configured backend,
# compiled by nvcc (gpu) or rewritten and compiled by g++ (sim).
function(pplab_cuda_sources target)
  if(PPLAB_BACKEND STREQUAL "gpu")
    target_sources(${target} PRIVATE ${ARGN})
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)
    target_link_libraries(${target} PRIVATE CUDA::cudart)
  else()
    pplab_sim_add_sources(${target} ${ARGN})
  endif()
endfunction()

# pplab_add_runner_program(<runner target> <lab folder> <kernel .cu>): the runner of the
# lab in <lab folder>, holding <kernel .cu> and the runner's table of the lab's entry
# points (harness/remote/runner_entries.cpp with the lab's entries.h).
function(pplab_add_runner_program runner lab_folder kernel_file)
  add_executable(${runner} ${PPLAB_RUNNER_ROOT}/harness/remote/runner_entries.cpp)
  pplab_cuda_sources(${runner} ${kernel_file})
  target_include_directories(${runner} PRIVATE ${PPLAB_RUNNER_ROOT}/labs/${lab_folder}
                                                ${PPLAB_RUNNER_ROOT}/harness/labs/${lab_folder})
  target_link_libraries(${runner} PRIVATE pplab::runner_main)
  target_compile_definitions(${runner} PRIVATE PPLAB_REMOTE_RUNNER)
endfunction()
