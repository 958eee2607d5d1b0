# The red-team suite: a class of lab 01 submissions, each an attack on the grader, beside
# two honest students (ada and nell, the reference). Every attack must earn 0 with a
# reason, ada and nell keep full points, the gradebook and every report are written, and
# nothing an attack wrote lands among the reports or in a neighbour's folder.
# -DPPLAB -DROOT -DATTACKS -DWORK [-DBACKEND=gpu]
# Today's policies: under the old CMP0053 a quoted "@ROOT@" below would be expanded
# itself, and the attacks' placeholders never replaced.
cmake_minimum_required(VERSION 3.25)
include(${ROOT}/harness/grading/tests/common.cmake)
# TMPDIR below is under WORK: nvcc, started from other folders, needs it absolute.
get_filename_component(WORK "${WORK}" ABSOLUTE)
set(class ${WORK}/class)
set(out ${WORK}/out)
file(REMOVE_RECURSE ${WORK})

file(COPY ${ROOT}/solutions/01_saxpy/saxpy.cu DESTINATION ${class}/ada/01_saxpy)
file(COPY ${ROOT}/solutions/01_saxpy/saxpy.cu DESTINATION ${class}/nell/01_saxpy)
file(GLOB attacks RELATIVE ${ATTACKS} ${ATTACKS}/*.cu)
set(attackers "")
foreach(file IN LISTS attacks)
  get_filename_component(attack ${file} NAME_WE)
  file(READ ${ATTACKS}/${file} text)
  # Attacks name the paths they go after: the workbook, the class folder, the reports.
  string(REPLACE "@ROOT@" "${ROOT}" text "${text}")
  string(REPLACE "@CLASS@" "${class}" text "${text}")
  string(REPLACE "@OUT@" "${out}" text "${text}")
  file(WRITE ${class}/${attack}/01_saxpy/saxpy.cu "${text}")
  list(APPEND attackers ${attack})
endforeach()

file(MAKE_DIRECTORY ${WORK}/tmp)
set(ENV{TMPDIR} ${WORK}/tmp)
# --compile-limit: the constexpr bomb is stopped after 30 CPU seconds, not the default 240.
run_pplab(result output grade --submissions ${class} --out ${out} --labs 01 --seed 5 --case-limit 60
          --compile-limit 30)
message("${output}")
expect("pplab grade exits 0 when every report was written (got ${result})" result EQUAL 0)
# A helper left behind would strike now.
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 4)

foreach(file gradebook.csv summary.md)
  expect("${out}/${file} is written" EXISTS ${out}/${file})
endforeach()
read_gradebook(${out}/gradebook.csv)
foreach(student ada nell)
  expect("${student} (the reference) keeps every point (got '${total_${student}}' of '${max_${student}}')"
         DEFINED total_${student} AND total_${student} EQUAL max_${student} AND max_${student} GREATER 0)
endforeach()
file(READ ${ROOT}/solutions/01_saxpy/saxpy.cu reference)
file(READ ${class}/nell/01_saxpy/saxpy.cu nell_file)
expect("nell's file in the class folder is untouched" nell_file STREQUAL reference)

# What each attack must be told, beyond its 0.
set(reason_forge_channel "compile error")
set(reason_override_harness "outside its namespace")
set(reason_static_constructor "before main")
set(reason_include_reference "include.*solutions/01_saxpy/saxpy.cu")
set(reason_library_does_lab "uses thrust .it includes")
set(reason_crash_in_sandbox "crashed: aborted .abort.. was called")
# A GPU faults on host code that dereferences device memory, and so does the emulator,
# which can say which allocation was read (-DBACKEND=gpu when the grader has a GPU).
if(BACKEND STREQUAL "gpu")
  set(reason_host_reads_device "segmentation fault .a bad host pointer, or device memory read on the host")
else()
  set(reason_host_reads_device "device memory read in host code at 0x[0-9a-f]+ .byte 0 of a [0-9]+-byte cudaMalloc allocation")
endif()
# The build's limits and what it sees: each a compile error of its own lab.
foreach(attack include_dev_zero incbin_instructor quote_host_file constexpr_bomb)
  set(reason_${attack} "compile error")
endforeach()
foreach(attack IN LISTS attackers)
  expect_report_files(${out}/${attack})
  expect("${attack} earns nothing (got '${total_${attack}}')" DEFINED total_${attack} AND total_${attack} EQUAL 0)
  file(READ ${out}/${attack}/report.md report)
  if(DEFINED reason_${attack} AND NOT report MATCHES "${reason_${attack}}")
    message(FATAL_ERROR "${attack}'s report does not say '${reason_${attack}}':\n${report}")
  endif()
  message("ok: ${attack} earns 0")
endforeach()

# The runner's limits held: a few hundred processes at most, and 256 MiB of /tmp. (Each
# match is made here, not inside expect(), whose CMAKE_MATCH_1 would not reach this scope.)
file(READ ${out}/fork_bomb/report.md report)
string(REGEX MATCH "fork bomb: ([0-9]+) processes made" said "${report}")
expect("the fork bomb's report says how many processes it made" said)
expect("the fork bomb made fewer than 1000 processes (made ${CMAKE_MATCH_1})" CMAKE_MATCH_1 LESS 1000)
file(READ ${out}/fill_tmp/report.md report)
string(REGEX MATCH "fill tmp: ([0-9]+) MiB written" said "${report}")
expect("fill_tmp's report says how much it wrote" said)
expect("fill_tmp wrote at most 256 MiB to its /tmp (wrote ${CMAKE_MATCH_1})" CMAKE_MATCH_1 LESS_EQUAL 256)

# Nothing an attack printed or wrote is among the reports: no forged text, no solution,
# no test file, no file of the host or of the workbook's history, and no flood.
file(GLOB_RECURSE reports ${out}/*.json ${out}/*.md ${out}/*.xml ${out}/*.csv ${out}/*.html)
foreach(file IN LISTS reports)
  file(SIZE ${file} size)
  expect("${file} stays small (${size} bytes)" size LESS 2000000)
  file(READ ${file} text)
  if(text MATCHES "FORGED")
    message(FATAL_ERROR "a file written by lab code lies among the reports: ${file}")
  endif()
  # What the lab printed may be quoted, marked "lab> ", never as the grader's own line.
  if(text MATCHES "(^|\n)0000000000000000 1 ")
    message(FATAL_ERROR "a record the lab's code printed appears unquoted in ${file}")
  endif()
  if(text MATCHES "saxpy_vec4_kernel|TEST_CASE\\(")
    message(FATAL_ERROR "the reference solution or the test file reached a report: ${file}")
  endif()
  if(text MATCHES "root:x:0:0|repositoryformatversion")
    message(FATAL_ERROR "a file of the host or the workbook's .git reached a report: ${file}")
  endif()
endforeach()
message("ok: ${CMAKE_CURRENT_LIST_FILE}")
