# Fails when docs/parameters.md differs from `cidsim params --format markdown`.
#   cmake -DBIN=.../cidsim -DDOC=.../docs/parameters.md -P check_params_doc.cmake
execute_process(COMMAND "${BIN}" params --format markdown RESULT_VARIABLE rc
                OUTPUT_VARIABLE generated ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cidsim params --format markdown failed (${rc}): ${err}")
endif()
file(READ "${DOC}" committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${DOC} is out of date with the parameter descriptions; regenerate it:\n"
                      "  build/cidsim params --format markdown > docs/parameters.md")
endif()
