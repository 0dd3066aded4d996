# cmake -P script: install PL_BUILD_DIR into a fresh prefix under
# PL_WORK_DIR, then build and run the consumer project against it.
foreach(var PL_BUILD_DIR PL_WORK_DIR PL_CONSUMER_SOURCE PL_GENERATOR PL_CXX_COMPILER PL_CLANGD)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer.cmake: ${var} is not set")
  endif()
endforeach()

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${what} failed (${result}):\n${out}\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

set(prefix ${PL_WORK_DIR}/prefix)
set(build ${PL_WORK_DIR}/build)
file(REMOVE_RECURSE ${PL_WORK_DIR})

run_step("cmake --install" ${CMAKE_COMMAND} --install ${PL_BUILD_DIR} --prefix ${prefix})
foreach(installed include/pl/pl.h include/placelint/rule_ids.h)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "the install is missing ${installed}")
  endif()
endforeach()

if(PL_CLANGD)
  # clangd looks for clang's built-in headers beside its executable, where
  # this prefix has none: the installed placelint-clangd must name them.
  set(source ${PL_WORK_DIR}/builtin_headers.cpp)
  file(WRITE ${source} "#include <stddef.h>\n#include <stdarg.h>\nsize_t n;\n")
  # Its own flags: clangd would otherwise infer a command from the build
  # tree's compile database above this directory.
  file(WRITE ${PL_WORK_DIR}/compile_flags.txt "-xc++\n")
  run_step("placelint-clangd --check" ${prefix}/bin/placelint-clangd --check=${source})
  string(REGEX MATCH "ommand (from CDB )?is: [^\n]* -resource-dir=([^ \n]+)" named "${step_output}")
  set(resource_dir "${CMAKE_MATCH_2}")
  if(NOT named OR NOT EXISTS "${resource_dir}/include/stddef.h"
     OR NOT step_output MATCHES "All checks completed, 0 errors")
    message(FATAL_ERROR "the installed placelint-clangd did not find clang's built-in headers:\n${step_output}")
  endif()
endif()

run_step("configuring the consumer" ${CMAKE_COMMAND} -S ${PL_CONSUMER_SOURCE} -B ${build}
  -G ${PL_GENERATOR} -DCMAKE_CXX_COMPILER=${PL_CXX_COMPILER} "-DCMAKE_CXX_FLAGS=${PL_CXX_FLAGS}"
  -DCMAKE_PREFIX_PATH=${prefix} -DPL_EXPECT_CLANGD=${PL_CLANGD})
run_step("building the consumer" ${CMAKE_COMMAND} --build ${build})
run_step("running the consumer" ${build}/app)
message(STATUS "${step_output}")
