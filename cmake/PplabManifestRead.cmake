# Reading the lab manifest (labs.json; its layout is in PplabManifest.cmake) from the
# tests' cmake -P scripts, so that a lab is looked up by its folder in one place.

# pplab_manifest_folders(<manifest> <var>): the folders of the labs that the manifest's
# text lists, in its order.
function(pplab_manifest_folders manifest var)
  string(JSON count LENGTH "${manifest}" labs)
  set(folders "")
  if(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON folder GET "${manifest}" labs ${i} folder)
      list(APPEND folders ${folder})
    endforeach()
  endif()
  set(${var} "${folders}" PARENT_SCOPE)
endfunction()

# pplab_manifest_lab(<manifest> <folder> <var>): the lab object (JSON text) of the lab in
# <folder>, or "" when the manifest lists no such lab.
function(pplab_manifest_lab manifest folder var)
  pplab_manifest_folders("${manifest}" folders)
  list(FIND folders "${folder}" i)
  set(lab "")
  if(i GREATER -1)
    string(JSON lab GET "${manifest}" labs ${i})
  endif()
  set(${var} "${lab}" PARENT_SCOPE)
endfunction()
