# expect_in_order(<program> <output> <a|b|...>): fails unless <output>, what <program>
# printed, shows each "|"-separated text in that order. The texts are split at each "|"
# by hand, not as a CMake list: a list would keep "y[0…3] = ...|T0: ..." together,
# because brackets hide the separator inside them.
function(expect_in_order program output expected)
  set(rest "${output}")
  set(pending "${expected}")
  while(NOT pending STREQUAL "")
    string(FIND "${pending}" "|" bar)
    if(bar EQUAL -1)
      set(line "${pending}")
      set(pending "")
    else()
      string(SUBSTRING "${pending}" 0 ${bar} line)
      math(EXPR after "${bar} + 1")
      string(SUBSTRING "${pending}" ${after} -1 pending)
    endif()
    string(FIND "${rest}" "${line}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${program} does not show, in order: '${line}'\nIt printed:\n${output}")
    endif()
    string(SUBSTRING "${rest}" ${at} -1 rest)
  endwhile()
endfunction()
