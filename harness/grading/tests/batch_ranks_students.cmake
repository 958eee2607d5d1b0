# A class folder graded in one batch: the reference solutions score full correctness
# points, the skeletons zero, a mix in between; empty and misnamed submissions cost
# their student only, with a note saying why; every student gets every report file.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
set(class ${WORK}/class)
set(out ${WORK}/class-grades)
file(REMOVE_RECURSE ${class} ${out})

# ada: the reference solutions, lab folders at the top.
file(COPY ${ROOT}/solutions/01_saxpy/saxpy.cu DESTINATION ${class}/ada/01_saxpy)
file(COPY ${ROOT}/solutions/02_dot_product/dot_product.cu DESTINATION ${class}/ada/02_dot_product)
# bob: a labs/ copy, lab 01 solved, lab 02 the skeleton, and a file that is not graded.
file(COPY ${ROOT}/solutions/01_saxpy/saxpy.cu DESTINATION ${class}/bob/labs/01_saxpy)
file(COPY ${ROOT}/labs/02_dot_product/dot_product.cu DESTINATION ${class}/bob/labs/02_dot_product)
file(WRITE ${class}/bob/labs/02_dot_product/dot_product.cuh "// a changed contract is never used\n")
# cy: the skeletons, flat (as Gradescope uploads them).
file(COPY ${ROOT}/labs/01_saxpy/saxpy.cu ${ROOT}/labs/02_dot_product/dot_product.cu DESTINATION ${class}/cy)
# dee: an empty folder. eve: a misnamed file.
file(MAKE_DIRECTORY ${class}/dee)
file(MAKE_DIRECTORY ${class}/eve/02_dot_product)
file(COPY_FILE ${ROOT}/solutions/02_dot_product/dot_product.cu ${class}/eve/02_dot_product/dot.cu)

run_pplab(result output grade --submissions ${class} --out ${out} --labs 01,02 --seed 11)
message("${output}")
expect("pplab grade exits 0 when every report was written" result EQUAL 0)
expect("the gradebook exists" EXISTS ${out}/gradebook.csv)
foreach(student ada bob cy dee eve)
  expect_report_files(${out}/${student})
endforeach()

# gradebook.csv: student,total,max,01_saxpy,02_dot_product,notes
file(STRINGS ${out}/gradebook.csv rows)
list(GET rows 0 header)
expect("the gradebook header (got '${header}')" header MATCHES "^student,total,max,01_saxpy,02_dot_product,notes$")
read_gradebook(${out}/gradebook.csv)
message("totals: ada=${total_ada} bob=${total_bob} cy=${total_cy} dee=${total_dee} eve=${total_eve} (max ${max_ada})")
expect("ada (the reference) earns every correctness point" total_ada EQUAL 20 AND max_ada EQUAL 20)
expect("bob (lab 01 solved) earns lab 01's points" total_bob EQUAL 10)
expect("cy (the skeletons) earns nothing" total_cy EQUAL 0)
expect("dee (empty) earns nothing" total_dee EQUAL 0)
expect("eve (misnamed) earns nothing" total_eve EQUAL 0)
expect("ranking ada > bob > cy" total_ada GREATER total_bob AND total_bob GREATER total_cy)

json_get(ada_score ${out}/ada/results.json score)
expect("ada's results.json scores 20 (got ${ada_score})" ada_score EQUAL 20)
file(READ ${out}/dee/report.md dee_md)
expect("dee's report says the submission is empty" dee_md MATCHES "empty submission")
file(READ ${out}/eve/report.md eve_md)
expect("eve's report names the misnamed file" eve_md MATCHES "dot\\.cu")
file(READ ${out}/bob/report.md bob_md)
expect("bob's report lists the ignored header" bob_md MATCHES "ignored.*dot_product\\.cuh")
