# The layer check must refuse an upward include: a copy of src/ with one
# injected (model/base including model/x86) must fail it, naming the file.
#   cmake -DSRC=<source dir>/src -DCHECK=<check_layers.cmake> -DWORK=<scratch> -P ...
file(REMOVE_RECURSE ${WORK})
file(COPY ${SRC}/model ${SRC}/kernel DESTINATION ${WORK}/src)
file(APPEND ${WORK}/src/model/base/stats.h "#include \"model/x86/cpu_core.h\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -DSRC=${WORK}/src -P ${CHECK}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
file(REMOVE_RECURSE ${WORK})
if(rc EQUAL 0)
  message(FATAL_ERROR "the layer check passed an upward include (model/base -> model/x86)")
endif()
string(REGEX REPLACE "[ \n]+" " " err "${err}")  # CMake wraps the message
if(NOT err MATCHES "base/stats.h: #include \"model/x86/cpu_core.h\": model/base may include only")
  message(FATAL_ERROR "the layer check failed without naming the upward include:\n${err}")
endif()
