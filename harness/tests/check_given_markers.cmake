# cmake -DROOT=<repo> -P check_given_markers.cmake
# In every student file labs/NN_x/<name>.cu, each stretch of code outside the TODO
# regions starts with the line "// given: do not edit" (indented like the code), so a
# student sees which lines are theirs to change. The file's opening comment, its title,
# comes before the first marker. Fails naming the file and line of each unmarked stretch.
cmake_policy(SET CMP0007 NEW)  # keep blank lines: they count for line numbers

# The file's lines as a CMake list, one element per line: ';', '[' and ']' are replaced
# first, since a list would split at the one and join lines between the others.
function(read_lines file out_var)
  file(READ ${file} text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REPLACE "[" "<open>" text "${text}")
  string(REPLACE "]" "<close>" text "${text}")
  string(REPLACE "\n" ";" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

set(marker "^[ \t]*// given: do not edit$")
file(GLOB skeletons ${ROOT}/labs/[0-9][0-9]_*/*.cu)
set(unmarked 0)
set(stretches 0)
foreach(skeleton IN LISTS skeletons)
  file(RELATIVE_PATH relative ${ROOT} ${skeleton})
  read_lines(${skeleton} lines)
  set(number 0)
  set(state title)   # title: the opening comment; start: a stretch of given lines begins;
                     # given: inside a marked stretch; todo: inside a TODO region
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(state STREQUAL "todo")
      if(line MATCHES "TODO\\([^)]*\\) *end")
        set(state start)
      endif()
    elseif(line MATCHES "TODO\\([^)]*\\) *begin")
      set(state todo)
    elseif(line MATCHES "^[ \t]*$")
      # blank lines need no marker
    elseif(state STREQUAL "title" AND line MATCHES "^[ \t]*//" AND NOT line MATCHES "${marker}")
      # the file's opening comment
    elseif(state STREQUAL "title" OR state STREQUAL "start")
      math(EXPR stretches "${stretches} + 1")
      if(NOT line MATCHES "${marker}")
        string(REPLACE "<semicolon>" ";" line "${line}")
        string(REPLACE "<open>" "[" line "${line}")
        string(REPLACE "<close>" "]" line "${line}")
        message(SEND_ERROR "${relative}:${number}: given code without '// given: do not edit' above it: ${line}")
        math(EXPR unmarked "${unmarked} + 1")
      endif()
      set(state given)
    endif()
  endforeach()
endforeach()
list(LENGTH skeletons files)
if(files EQUAL 0)
  message(FATAL_ERROR "no lab files found under ${ROOT}/labs")
endif()
message(STATUS "${files} student files, ${stretches} stretches of given code, ${unmarked} unmarked")
