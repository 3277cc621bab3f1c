# Fails when a generated doc differs from what `cidsim params ARGS` prints.
#   cmake -DBIN=.../cidsim -DARGS="--metrics;--format;markdown" -DDOC=.../docs/metrics.md
#         -P check_generated_doc.cmake
execute_process(COMMAND "${BIN}" params ${ARGS} RESULT_VARIABLE rc
                OUTPUT_VARIABLE generated ERROR_VARIABLE err)
string(REPLACE ";" " " shown "${ARGS}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cidsim params ${shown} failed (${rc}): ${err}")
endif()
file(READ "${DOC}" committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${DOC} is out of date with the descriptions in the code; regenerate it:\n"
                      "  build/cidsim params ${shown} > ${DOC}")
endif()
