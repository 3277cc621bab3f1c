# Fails when docs/metrics.md differs from `cidsim params --metrics --format markdown`.
#   cmake -DBIN=.../cidsim -DDOC=.../docs/metrics.md -P check_metrics_doc.cmake
execute_process(COMMAND "${BIN}" params --metrics --format markdown RESULT_VARIABLE rc
                OUTPUT_VARIABLE generated ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cidsim params --metrics --format markdown failed (${rc}): ${err}")
endif()
file(READ "${DOC}" committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${DOC} is out of date with the metric descriptions; regenerate it:\n"
                      "  build/cidsim params --metrics --format markdown > docs/metrics.md")
endif()
