# pplab_add_lab(<name> [EXTRA_SOURCES <cpp>...] [SANITIZER_LARGE_N <n>])
#
# SANITIZER_LARGE_N: the size of the large-input checks when the grader runs them under
# compute-sanitizer (PPLAB_LARGE_N there; default 65536, several tiles of every lab). A
# lab whose work grows faster than n asks for less, so that racecheck finishes.
#
# Called once from labs/NN_<name>/CMakeLists.txt. For every tree in PPLAB_SOURCES
# (labs = the student's file, solutions = the reference) it builds:
#   labNN_<name>[_ref]        doctest checks (the checker): test_<name>.cpp, judging
#   labNN_<name>[_ref]_runner the lab's code: <tree>/NN_<name>/<name>.cu, run by the checker
#   labNN_<name>_bench        the student's benchmark: a trusted timer (linked like the
#                             checker) that times the student's code in labNN_<name>_runner
#   labNN_<name>_ref_bench    the reference's benchmark, in process, beside the library
#                             rows (CUB, Thrust, the device copy) on a GPU
#   labNN_<name>_ref_bench_split  the reference timed like the student's code, through its
#                             runner: beside _ref_bench it measures the runner's overhead
# The benchmarks come from harness/labs/NN_<name>/bench.cpp (the lab's own cases) and
# bench_library.cu (the library rows); they are built on a GPU, and on the emulator
# when the build has its self tests (PPLAB_BUILD_SELF_TESTS).
# and registers the checks with CTest under the label labNN (student) or labNN-ref
# (reference); `ctest -L labNN` is a regular expression, so it runs both.
# The .cu file is compiled by nvcc (gpu) or rewritten and compiled by g++ (sim).
# Everything it decides (files, targets) goes into the lab manifest, labs.json
# (PplabManifest.cmake), which is where `pplab` learns it.
include(PplabManifest)
include(PplabRunner)   # pplab_cuda_sources, pplab_add_runner_program
include(PplabKit)      # pplab_grading_kit

# PPLAB_STUDENT_DIR (set by `pplab grade --submissions`): a folder laid out as
# NN_<name>/<name>.cu holding one student's kernel files. When set, the student targets
# take their .cu from there and everything else (tests, headers, harness) from this tree;
# a lab without a file there is skipped.
set(PPLAB_STUDENT_DIR "" CACHE PATH "Folder with a submission's NN_<name>/<name>.cu files (grading only)")

# A lab's checks run as two programs (harness/remote): the checker, which holds the test
# file and judges, and the runner, which holds the lab's code and a runtime and nothing
# else. The checker starts <checker>_runner from its own folder unless the grader says
# otherwise (PPLAB_RUNNER_COMMAND, used to put the runner in a sandbox).

# pplab_add_checker(<target> <lab folder> <sources>...): the checker of one lab.
function(pplab_add_checker target lab_folder)
  add_executable(${target} ${ARGN} ${PROJECT_SOURCE_DIR}/harness/remote/checker_entries.cpp)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/labs/${lab_folder}
                                                ${PROJECT_SOURCE_DIR}/harness/labs/${lab_folder})
  target_link_libraries(${target} PRIVATE pplab::doctest_main pplab::checker)
  target_compile_definitions(${target} PRIVATE PPLAB_REMOTE_CHECKER PPLAB_LAB="${lab_folder}")
endfunction()

# pplab_add_runner(<checker target> <lab folder> <kernel .cu>): <checker target>_runner,
# built whenever the checker is.
function(pplab_add_runner checker lab_folder kernel_file)
  set(runner ${checker}_runner)
  pplab_add_runner_program(${runner} ${lab_folder} ${kernel_file})
  get_target_property(checker_dir ${checker} RUNTIME_OUTPUT_DIRECTORY)
  if(checker_dir)
    set_target_properties(${runner} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${checker_dir})
  endif()
  add_dependencies(${checker} ${runner})
endfunction()

# pplab_add_in_process_bench(<target> <lab folder> <tree> <kernel .cu>): the lab's cases
# and the lab's code in one process, timed with CUDA events; on a GPU, with the library
# rows of bench_library.cu beside them.
function(pplab_add_in_process_bench target lab_folder tree kernel_file)
  set(room ${PROJECT_SOURCE_DIR}/harness/labs/${lab_folder})
  add_executable(${target} ${room}/bench.cpp ${PROJECT_SOURCE_DIR}/harness/src/bench_main.cpp)
  set(cuda_files ${kernel_file})
  if(PPLAB_BACKEND STREQUAL "gpu" AND EXISTS ${room}/bench_library.cu)
    list(APPEND cuda_files ${room}/bench_library.cu)
    target_compile_definitions(${target} PRIVATE PPLAB_BENCH_LIBRARY)
  endif()
  pplab_cuda_sources(${target} ${cuda_files})
  if(PPLAB_BACKEND STREQUAL "gpu")
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${PPLAB_BENCH_CUDA_ARCHITECTURES}")
  endif()
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/labs/${lab_folder} ${room})
  target_link_libraries(${target} PRIVATE pplab::bench_in_process)
  target_compile_definitions(${target} PRIVATE PPLAB_LAB="${lab_folder}" PPLAB_TREE="${tree}")
endfunction()

# pplab_add_checker_bench(<target> <lab folder> <tree> <runner target>): the lab's cases
# in a trusted timer that holds no lab code; every call goes to <runner target>, started
# from the same folder (or as PPLAB_RUNNER_COMMAND says, in the grader's sandbox).
function(pplab_add_checker_bench target lab_folder tree runner)
  set(room ${PROJECT_SOURCE_DIR}/harness/labs/${lab_folder})
  add_executable(${target} ${room}/bench.cpp ${PROJECT_SOURCE_DIR}/harness/src/bench_main.cpp
                           ${PROJECT_SOURCE_DIR}/harness/remote/checker_entries.cpp)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/labs/${lab_folder} ${room})
  target_link_libraries(${target} PRIVATE pplab::bench_checker)
  target_compile_definitions(${target} PRIVATE PPLAB_REMOTE_CHECKER PPLAB_LAB="${lab_folder}"
                                               PPLAB_TREE="${tree}" PPLAB_BENCH_RUNNER="${runner}")
  add_dependencies(${target} ${runner})
endfunction()

# Every student check binary of this build: `cmake --build <dir> --target pplab_student_checks`.
if(NOT TARGET pplab_student_checks)
  add_custom_target(pplab_student_checks)
endif()
# Every student runner (the student's kernel files, compiled by nvcc in a GPU build):
# `cmake --build <dir> --target pplab_student_runners`, CI's proof that the skeletons
# compile for each GPU architecture.
if(NOT TARGET pplab_student_runners)
  add_custom_target(pplab_student_runners)
endif()
# Every reference check with its runner: `cmake --build <dir> --target pplab_reference_checks`,
# what CI builds to run the references as another GPU.
if(NOT TARGET pplab_reference_checks)
  add_custom_target(pplab_reference_checks)
endif()

function(pplab_add_lab name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SANITIZER_LARGE_N" "EXTRA_SOURCES")
  if(NOT DEFINED arg_SANITIZER_LARGE_N)
    set(arg_SANITIZER_LARGE_N 65536)
  elseif(NOT arg_SANITIZER_LARGE_N MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "pplab_add_lab(${name}): SANITIZER_LARGE_N must be a positive whole number, not '${arg_SANITIZER_LARGE_N}'")
  endif()
  get_filename_component(lab_folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)   # 02_dot_product
  pplab_lab_identity(${lab_folder} lab_number folder_name)
  if(NOT folder_name STREQUAL name)
    message(FATAL_ERROR "${lab_folder}: pplab_add_lab(${name}) must name the folder's lab, ${folder_name}")
  endif()
  set(label lab${lab_number})
  set(tree_root ${PROJECT_SOURCE_DIR})
  set(bench_file ${PROJECT_SOURCE_DIR}/harness/labs/${lab_folder}/bench.cpp)
  if(NOT EXISTS ${bench_file})
    set(bench_file "")
  endif()
  set(build_benches OFF)
  if(bench_file AND (PPLAB_BACKEND STREQUAL "gpu" OR PPLAB_BUILD_SELF_TESTS))
    set(build_benches ON)
  endif()
  set(handout ${CMAKE_CURRENT_SOURCE_DIR}/README.md)
  pplab_manifest_set_text(${lab_folder} folder ${lab_folder})
  pplab_manifest_set_text(${lab_folder} number ${lab_number})
  pplab_manifest_set_text(${lab_folder} name ${name})
  pplab_manifest_set_text(${lab_folder} label ${label})
  pplab_manifest_set_text(${lab_folder} handout ${handout})
  pplab_manifest_set_text(${lab_folder} contract ${CMAKE_CURRENT_SOURCE_DIR}/${name}.cuh)
  pplab_manifest_set_text(${lab_folder} test_source ${CMAKE_CURRENT_SOURCE_DIR}/test_${name}.cpp)
  pplab_manifest_set_text(${lab_folder} bench_source "${bench_file}")
  pplab_manifest_set(${lab_folder} sanitizer_large_n ${arg_SANITIZER_LARGE_N})
  pplab_manifest_set_text(${lab_folder} student_file "")
  pplab_manifest_set_text(${lab_folder} reference_file "")

  foreach(tree IN LISTS PPLAB_SOURCES)
    set(kernel_file ${tree_root}/${tree}/${lab_folder}/${name}.cu)
    if(tree STREQUAL "labs" AND PPLAB_STUDENT_DIR)
      set(kernel_file ${PPLAB_STUDENT_DIR}/${lab_folder}/${name}.cu)
      if(NOT EXISTS ${kernel_file})
        message(STATUS "${lab_folder}: not in the submission (${kernel_file})")
        continue()
      endif()
    endif()
    if(NOT EXISTS ${kernel_file})
      if(tree STREQUAL "solutions")
        continue()   # a student release ships without solutions/
      endif()
      message(FATAL_ERROR "${lab_folder}: missing ${kernel_file}")
    endif()
    set(target lab${lab_number}_${name})
    set(prefix "${label}: ")
    set(test_label ${label})          # ctest -L lab02 matches both lab02 and lab02-ref
    if(tree STREQUAL "solutions")
      string(APPEND target "_ref")
      set(prefix "${label} ref: ")
      set(test_label ${label}-ref)
    endif()

    pplab_add_checker(${target} ${lab_folder} ${CMAKE_CURRENT_SOURCE_DIR}/test_${name}.cpp ${arg_EXTRA_SOURCES})
    # The checker names the student's TODO regions in fault reports (pplab/todo_regions.h).
    target_compile_definitions(${target} PRIVATE PPLAB_TREE="${tree}" PPLAB_KERNEL_FILE="${kernel_file}")
    pplab_add_runner(${target} ${lab_folder} ${kernel_file})
    if(tree STREQUAL "labs")
      add_dependencies(pplab_student_checks ${target})
      add_dependencies(pplab_grading_kit ${target})  # every student is judged by this checker
      add_dependencies(pplab_student_runners ${target}_runner)
    else()
      add_dependencies(pplab_reference_checks ${target})  # its runner comes with it
    endif()
    doctest_discover_tests(${target}
      TEST_PREFIX "${prefix}"
      PROPERTIES LABELS ${test_label} TIMEOUT 300  # doctest flattens lists: one label only
                 SKIP_REGULAR_EXPRESSION "pplab: check skipped: ")  # pplab::skip_check

    if(PPLAB_CHECK_SKELETONS AND tree STREQUAL "labs")
      # An untouched skeleton must run, fail its checks, and say which TODO to fill in.
      add_test(NAME "${label}: the skeleton fails its checks naming a TODO"
        COMMAND ${CMAKE_COMMAND} -DBINARY=$<TARGET_FILE:${target}> -DLAB=${lab_number}
                -P ${PROJECT_SOURCE_DIR}/harness/tests/check_skeleton_fails.cmake)
      set_tests_properties("${label}: the skeleton fails its checks naming a TODO"
        PROPERTIES LABELS "${label};skeleton" TIMEOUT 600)
    endif()

    set(role student)
    if(tree STREQUAL "solutions")
      set(role reference)
    endif()
    pplab_manifest_set_text(${lab_folder} ${role}_file ${kernel_file})
    pplab_manifest_set_target(${lab_folder} "${role};checks" ${target})
    pplab_manifest_set_target(${lab_folder} "${role};runner" ${target}_runner)
    pplab_manifest_set(${lab_folder} "${role};bench" null)
    if(build_benches)
      if(tree STREQUAL "solutions")
        pplab_add_in_process_bench(${target}_bench ${lab_folder} ${tree} ${kernel_file})
        pplab_add_checker_bench(${target}_bench_split ${lab_folder} ${tree} ${target}_runner)
      else()
        pplab_add_checker_bench(${target}_bench ${lab_folder} ${tree} ${target}_runner)
        add_dependencies(pplab_grading_kit ${target}_bench)  # and timed by this timer
      endif()
      # Speed is graded on a GPU only: an emulator build's manifest lists no benchmark.
      if(PPLAB_BACKEND STREQUAL "gpu")
        pplab_manifest_set_target(${lab_folder} "${role};bench" ${target}_bench)
        # The grader times the reference as it times a student, through its runner,
        # so that what the runner costs is on both sides of the speed ratio.
        if(tree STREQUAL "solutions")
          pplab_manifest_set_target(${lab_folder} "${role};timer" ${target}_bench_split)
        endif()
      endif()
    endif()
  endforeach()
endfunction()
