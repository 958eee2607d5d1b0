# Red team, collecting files: students whose lab file is not a file of their own but a
# way to someone else's, graded as one class beside an honest student (ada, the
# reference). Symbolic links to the reference solution and to ada's file, a linked lab
# folder, a linked labs/ copy, a student folder that is a link to ada's, a hard link to a
# copy of the reference outside the class, and a FIFO. No link is followed: each earns 0
# with the reason in its report (its lab "not submitted"), ada keeps every point, and no
# report names a file it was not handed (check_reports.py, when Python is here).
# -DPPLAB -DROOT -DWORK [-DPYTHON]
include(${ROOT}/harness/grading/tests/common.cmake)
get_filename_component(WORK "${WORK}" ABSOLUTE)
set(class ${WORK}/class)
set(out ${WORK}/out)
set(reference ${ROOT}/solutions/01_saxpy/saxpy.cu)
file(REMOVE_RECURSE ${WORK})

file(COPY ${reference} DESTINATION ${class}/ada/01_saxpy)
file(MAKE_DIRECTORY ${class}/link_to_reference/01_saxpy ${class}/link_to_classmate/01_saxpy
     ${class}/flat_link ${class}/linked_lab_folder ${class}/linked_labs ${class}/hard_link/01_saxpy
     ${class}/fifo/01_saxpy)
file(CREATE_LINK ${reference} ${class}/link_to_reference/01_saxpy/saxpy.cu SYMBOLIC)
file(CREATE_LINK ../../ada/01_saxpy/saxpy.cu ${class}/link_to_classmate/01_saxpy/saxpy.cu SYMBOLIC)
file(CREATE_LINK ${reference} ${class}/flat_link/saxpy.cu SYMBOLIC)
file(CREATE_LINK ${ROOT}/solutions/01_saxpy ${class}/linked_lab_folder/01_saxpy SYMBOLIC)
file(CREATE_LINK ${ROOT}/solutions ${class}/linked_labs/labs SYMBOLIC)
file(CREATE_LINK ada ${class}/linked_student_folder SYMBOLIC)
# A hard link: another name of a file outside the class (the reference's copy), so the
# workbook's own file is left alone.
file(COPY ${reference} DESTINATION ${WORK}/outside)
file(CREATE_LINK ${WORK}/outside/saxpy.cu ${class}/hard_link/01_saxpy/saxpy.cu)
execute_process(COMMAND mkfifo ${class}/fifo/01_saxpy/saxpy.cu RESULT_VARIABLE made)
expect("mkfifo makes the FIFO (got ${made})" made EQUAL 0)

file(MAKE_DIRECTORY ${WORK}/tmp)
set(ENV{TMPDIR} ${WORK}/tmp)
run_pplab(result output grade --submissions ${class} --out ${out} --labs 01 --seed 5 --case-limit 60)
message("${output}")
expect("pplab grade exits 0 when every report was written (got ${result})" result EQUAL 0)

read_gradebook(${out}/gradebook.csv)
file(READ ${out}/gradebook.csv gradebook)
expect("ada (the reference) keeps every point (got '${total_ada}' of '${max_ada}')"
       DEFINED total_ada AND total_ada EQUAL max_ada AND max_ada GREATER 0)
# What each attack's report must say about the file it handed in.
set(reason_link_to_reference "01_saxpy/saxpy.cu is a symbolic link")
set(reason_link_to_classmate "01_saxpy/saxpy.cu is a symbolic link")
set(reason_flat_link "saxpy.cu is a symbolic link")
set(reason_linked_lab_folder "01_saxpy is a symbolic link")
set(reason_linked_labs "labs is a symbolic link")
set(reason_linked_student_folder "the folder linked_student_folder is a symbolic link")
set(reason_hard_link "01_saxpy/saxpy.cu is a hard link to a file outside the submission")
set(reason_fifo "01_saxpy/saxpy.cu is a FIFO")
foreach(attack link_to_reference link_to_classmate flat_link linked_lab_folder linked_labs
               linked_student_folder hard_link fifo)
  expect_report_files(${out}/${attack})
  expect("${attack} earns nothing (got '${total_${attack}}')" DEFINED total_${attack} AND total_${attack} EQUAL 0)
  file(READ ${out}/${attack}/report.md report)
  string(FIND "${report}" "${reason_${attack}}" at)
  if(at EQUAL -1 OR NOT report MATCHES "not submitted")
    message(FATAL_ERROR "${attack}'s report does not say '${reason_${attack}}' and 'not submitted':\n${report}")
  endif()
  expect("${attack}'s notes in the gradebook say it was refused:\n${gradebook}"
         gradebook MATCHES "\n${attack},0,[0-9.]+,0,\"[^\n]*refused: ")
  message("ok: ${attack} earns 0: ${reason_${attack}}")
endforeach()
file(READ ${reference} reference_text)
file(READ ${class}/ada/01_saxpy/saxpy.cu ada_text)
expect("ada's file in the class folder is untouched" ada_text STREQUAL reference_text)

if(PYTHON)
  execute_process(COMMAND ${PYTHON} ${ROOT}/harness/tests/redteam/reports/check_reports.py --out ${out}
                          --class ${class} --honest ada
                  RESULT_VARIABLE checked)
  expect("every report file is well-formed and every attack earns 0 (check_reports.py, above)" checked EQUAL 0)
endif()
message("ok: ${CMAKE_CURRENT_LIST_FILE}")
