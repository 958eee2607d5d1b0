# Red team, the reports: students whose text tries to forge a report line, raw HTML or a
# spreadsheet formula, graded as one class beside an honest student (ada, the reference).
# Their text reaches the reports through a #line file name (in g++'s messages and in the
# emulator's fault report), an exception message with bare carriage returns, file names
# and folder names with line breaks, HTML and formulas. Each attack earns 0 with its
# reason, ada keeps every point, and check_reports.py finds every report file of every
# student well-formed: no heading, list or fence that pplab did not write, no raw HTML,
# no control character, no live formula in gradebook.csv, one line per row.
# -DPPLAB -DROOT -DPYTHON -DWORK
include(${ROOT}/harness/grading/tests/common.cmake)
get_filename_component(WORK "${WORK}" ABSOLUTE)
set(here ${ROOT}/harness/tests/redteam/reports)
set(class ${WORK}/class)
set(out ${WORK}/out)
file(REMOVE_RECURSE ${WORK})

file(COPY ${ROOT}/solutions/01_saxpy/saxpy.cu DESTINATION ${class}/ada/01_saxpy)
# The attacks in lab code: line_directive_compile, line_directive_fault, carriage_return.
file(GLOB attacks RELATIVE ${here} ${here}/*.cu)
set(coded "")
foreach(file IN LISTS attacks)
  get_filename_component(attack ${file} NAME_WE)
  configure_file(${here}/${file} ${class}/${attack}/01_saxpy/saxpy.cu COPYONLY)
  list(APPEND coded ${attack})
endforeach()
# File names: misnamed lab files whose names hold line breaks, a forged heading and HTML
# (the notes name them).
# (No '/' in them: a file name cannot hold one.)
set(forged_name "saxpy\n## 01_saxpy 10 of 10\n<img src=x onerror=alert(1)>INJECTED.cu")
file(WRITE "${class}/file_names/01_saxpy/${forged_name}" "int x;\n")
file(WRITE "${class}/file_names/01_saxpy/saxpy\r## 01_saxpy 10 of 10\r.cu" "int x;\n")
file(WRITE "${class}/file_names/=HYPERLINK(\"https:x.invalid\",\"INJECTED\").cu" "int x;\n")
# Folder names: formulas for gradebook.csv, line breaks and HTML for every report.
foreach(name
    "=HYPERLINK(\"https:x.invalid\",\"10 of 10\")"
    "+1+1"
    "-1+1"
    "@SUM(1+1)"
    "\tformula after a tab"
    "mallory\n## 01_saxpy 10 of 10\n<img src=x onerror=alert(1)>INJECTED")
  file(WRITE "${class}/${name}/README.txt" "=1+1\n")
endforeach()

file(MAKE_DIRECTORY ${WORK}/tmp)
set(ENV{TMPDIR} ${WORK}/tmp)
run_pplab(result output grade --submissions ${class} --out ${out} --labs 01 --seed 5 --case-limit 60)
message("${output}")
expect("pplab grade exits 0 when every report was written (got ${result})" result EQUAL 0)

read_gradebook(${out}/gradebook.csv)
expect("ada (the reference) keeps every point (got '${total_ada}' of '${max_ada}')"
       DEFINED total_ada AND total_ada EQUAL max_ada AND max_ada GREATER 0)
# What each attack in lab code must be told, beyond its 0.
set(reason_line_directive_compile "compile error")
set(reason_line_directive_fault "out-of-bounds")
set(reason_carriage_return "threw")
set(reason_file_names "not submitted")
foreach(attack IN LISTS coded ITEMS file_names)
  expect("${attack} earns nothing (got '${total_${attack}}')" DEFINED total_${attack} AND total_${attack} EQUAL 0)
  file(READ ${out}/${attack}/report.md report)
  if(NOT report MATCHES "${reason_${attack}}")
    message(FATAL_ERROR "${attack}'s report does not say '${reason_${attack}}':\n${report}")
  endif()
  message("ok: ${attack} earns 0: ${reason_${attack}}")
endforeach()
# The attacks' text is in the reports, shown, not obeyed: the forged heading as text.
file(READ ${out}/file_names/report.md report)
string(FIND "${report}" "saxpy\\n## 01_saxpy 10 of 10\\n&lt;img src=x onerror=alert(1)&gt;INJECTED.cu" at)
expect("file_names' report names the forged file, its line breaks shown as \\n and its HTML as text:\n${report}"
       at GREATER -1)

# Every report file of every student, the odd names' included, is well-formed.
execute_process(COMMAND ${PYTHON} ${here}/check_reports.py --out ${out} --class ${class} --honest ada
                RESULT_VARIABLE checked)
expect("every report file is well-formed and every attack earns 0 (check_reports.py, above)" checked EQUAL 0)
message("ok: ${CMAKE_CURRENT_LIST_FILE}")
