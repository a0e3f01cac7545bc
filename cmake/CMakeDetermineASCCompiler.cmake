# The ASC compiler: the `ascendc` command find_package(ASC) located; its `cxx` subcommand compiles
# and links ASC sources (see CMakeASCInformation.cmake).
if(NOT ASCENDC_EXECUTABLE)
  message(FATAL_ERROR "The ASC language needs find_package(ASC) before project(... LANGUAGES ASC)")
endif()
set(CMAKE_ASC_COMPILER "${ASCENDC_EXECUTABLE}")
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
# Static libraries are archived with the binutils of the C++ toolchain.
find_program(CMAKE_AR NAMES ar)
find_program(CMAKE_RANLIB NAMES ranlib)
file(WRITE "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake"
  "set(CMAKE_ASC_COMPILER \"${CMAKE_ASC_COMPILER}\")\n"
  "set(CMAKE_ASC_COMPILER_ID \"ascendc-sim\")\n"
  "set(CMAKE_ASC_COMPILER_LOADED 1)\n"
  "set(CMAKE_ASC_COMPILER_ENV_VAR \"ASC\")\n"
  "set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)\n"
  "set(CMAKE_ASC_IGNORE_EXTENSIONS inl;h;hpp;HPP;H;o;O)\n"
  "set(CMAKE_ASC_OUTPUT_EXTENSION .o)\n"
  # Above C++ (30): a target mixing ASC and C++ sources links with ascendc, which adds the
  # simulator library.
  "set(CMAKE_ASC_LINKER_PREFERENCE 40)\n"
  "set(CMAKE_ASC_LINKER_PREFERENCE_PROPAGATES 1)\n")
