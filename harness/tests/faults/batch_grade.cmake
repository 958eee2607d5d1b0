# A class graded in one batch (labs 01 and 02): the reference solutions (ada), the
# skeletons (sam), a lab that does not compile beside a correct one (cole), and lab code
# that forges report files beside a lab right only for one block (rex). The ranking must
# be ada > cole > rex > sam, every student gets every report file, the compile error and
# the forger each get their verdict, and no forged file lands among the reports.
# -DPPLAB -DROOT -DWORK (the cases come from ROOT/harness/labs/NN_<lab>/wrong/<case>)
include(${ROOT}/harness/grading/tests/common.cmake)
set(class ${WORK}/class)
set(cases_of_lab01 ${ROOT}/harness/labs/01_saxpy/wrong)
set(cases_of_lab02 ${ROOT}/harness/labs/02_dot_product/wrong)
set(out ${WORK}/out)
file(REMOVE_RECURSE ${WORK})

file(COPY ${ROOT}/solutions/01_saxpy/saxpy.cu ${ROOT}/solutions/02_dot_product/dot_product.cu DESTINATION ${class}/ada)
file(COPY ${ROOT}/labs/01_saxpy/saxpy.cu ${ROOT}/labs/02_dot_product/dot_product.cu DESTINATION ${class}/sam)
file(COPY ${cases_of_lab01}/compile_error/saxpy.cu DESTINATION ${class}/cole/01_saxpy)
file(COPY ${ROOT}/solutions/02_dot_product/dot_product.cu DESTINATION ${class}/cole/02_dot_product)
file(COPY ${cases_of_lab01}/writes_reports/saxpy.cu DESTINATION ${class}/rex/01_saxpy)
file(COPY ${cases_of_lab02}/one_block/dot_product.cu DESTINATION ${class}/rex/02_dot_product)

# Lab code runs in a scratch folder under TMPDIR: keep whatever it writes inside WORK.
file(MAKE_DIRECTORY ${WORK}/tmp)
set(ENV{TMPDIR} ${WORK}/tmp)
run_pplab(result output grade --submissions ${class} --out ${out} --labs 01,02 --seed 5 --case-limit 60)
message("${output}")
expect("pplab grade exits 0 when every report was written (got ${result})" result EQUAL 0)
foreach(file gradebook.csv summary.md)
  expect("${out}/${file} is written" EXISTS ${out}/${file})
endforeach()
foreach(student ada sam cole rex)
  expect_report_files(${out}/${student})
endforeach()

read_gradebook(${out}/gradebook.csv)
message("totals: ada=${total_ada} cole=${total_cole} rex=${total_rex} sam=${total_sam} (max ${max_ada})")
expect("ada (the references) earns every point" total_ada EQUAL max_ada)
expect("cole's lab 02 is still graded: full points (got '${lab02_cole}')" lab02_cole EQUAL 10)
if(NOT lab01_cole EQUAL 0 OR NOT notes_cole MATCHES "01_saxpy: compile error")
  message(FATAL_ERROR "cole's lab 01 must score 0 with 'compile error' in the notes, got '${lab01_cole}', '${notes_cole}'")
endif()
expect("the ranking ada > cole > rex > sam" total_ada GREATER total_cole AND total_cole GREATER total_rex
       AND total_rex GREATER total_sam)
expect("sam (the skeletons) earns nothing" total_sam EQUAL 0)

# Each batch case's verdict and message, from its expect.txt, in its student's report.
function(expect_batch_case folder student)
  pplab_case_identity(${folder} number case_name)   # 01_compile_error -> cases_of_lab01, compile_error
  file(STRINGS ${cases_of_lab${number}}/${case_name}/expect.txt lines)
  file(READ ${out}/${student}/report.md report)
  foreach(line IN LISTS lines)
    if(line MATCHES "^(verdict|message): (.*)$")
      set(kind "${CMAKE_MATCH_1}")
      set(regex "${CMAKE_MATCH_2}")
      if(NOT report MATCHES "${regex}")
        message(FATAL_ERROR "${student}'s report does not show ${folder}'s ${kind} '${regex}'")
      endif()
      message("ok: ${student}'s report shows ${folder}'s ${kind} '${regex}'")
    endif()
  endforeach()
endfunction()
expect_batch_case(01_compile_error cole)
expect_batch_case(01_writes_reports rex)

# The forger's files never replace the grader's.
json_get(rex_score ${out}/rex/results.json score)
expect("rex's results.json holds pplab's score ${total_rex} (got ${rex_score})" rex_score MATCHES "^${total_rex}")
file(GLOB_RECURSE reports ${out}/*.json ${out}/*.md ${out}/*.xml ${out}/*.csv ${out}/*.html)
foreach(file IN LISTS reports)
  file(READ ${file} text)
  if(text MATCHES "FORGED")
    message(FATAL_ERROR "a file written by lab code lies among the reports: ${file}")
  endif()
endforeach()
file(GLOB_RECURSE forged ${WORK}/tmp/*)
list(LENGTH forged count)
message("lab code's forged files stayed in the scratch folders: ${count} left in ${WORK}/tmp")
