# cmake -P script: install PL_BUILD_DIR into a fresh prefix under
# PL_WORK_DIR, then build and run the consumer project against it.
foreach(var PL_BUILD_DIR PL_WORK_DIR PL_CONSUMER_SOURCE PL_GENERATOR PL_CXX_COMPILER)
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

run_step("configuring the consumer" ${CMAKE_COMMAND} -S ${PL_CONSUMER_SOURCE} -B ${build}
  -G ${PL_GENERATOR} -DCMAKE_CXX_COMPILER=${PL_CXX_COMPILER} "-DCMAKE_CXX_FLAGS=${PL_CXX_FLAGS}"
  -DCMAKE_PREFIX_PATH=${prefix})
run_step("building the consumer" ${CMAKE_COMMAND} --build ${build})
run_step("running the consumer" ${build}/app)
message(STATUS "${step_output}")
