# Checks that `ascendc cxx` compiles and links an ASC source for the chosen product.
if(NOT CMAKE_ASC_COMPILER_WORKS)
  set(_asc_test_dir "${CMAKE_BINARY_DIR}${CMAKE_FILES_DIRECTORY}/CMakeScratch/TestASC")
  file(MAKE_DIRECTORY "${_asc_test_dir}")
  file(WRITE "${_asc_test_dir}/test.asc" "int main() { return 0; }\n")
  message(CHECK_START "Check for working ASC compiler: ${CMAKE_ASC_COMPILER} cxx")
  execute_process(
    COMMAND "${CMAKE_ASC_COMPILER}" cxx --product=${ASCENDC_SIM_PRODUCT} --run-mode=${ASCENDC_SIM_RUN_MODE}
            test.asc -o test_asc
    WORKING_DIRECTORY "${_asc_test_dir}"
    OUTPUT_VARIABLE _asc_out ERROR_VARIABLE _asc_out RESULT_VARIABLE _asc_rc)
  if(NOT _asc_rc EQUAL 0)
    message(CHECK_FAIL "broken")
    message(FATAL_ERROR "The ASC compiler (${CMAKE_ASC_COMPILER} cxx) cannot build a program:\n${_asc_out}")
  endif()
  message(CHECK_PASS "works")
  set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
endif()
