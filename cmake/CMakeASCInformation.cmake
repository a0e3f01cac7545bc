# How the ASC language compiles and links: every rule runs `ascendc cxx` with the product and host
# branch find_package(ASC) chose; the wrapper passes everything else to the C++ compiler. No
# header dependency files are written (a source with `<<<>>>` launches is compiled from a
# rewritten temporary copy): after editing a header, rebuild with `make clean && make`.
set(_asc_wrapper "cxx --product=${ASCENDC_SIM_PRODUCT} --run-mode=${ASCENDC_SIM_RUN_MODE}")

set(CMAKE_ASC_OUTPUT_EXTENSION .o)
set(CMAKE_INCLUDE_FLAG_ASC "-I")
set(CMAKE_INCLUDE_SYSTEM_FLAG_ASC "-isystem ")
set(CMAKE_ASC_FLAGS_DEBUG_INIT "-g")
set(CMAKE_ASC_FLAGS_RELEASE_INIT "-O2 -DNDEBUG")
set(CMAKE_ASC_FLAGS_RELWITHDEBINFO_INIT "-O2 -g -DNDEBUG")
set(CMAKE_ASC_FLAGS_MINSIZEREL_INIT "-Os -DNDEBUG")
set(CMAKE_ASC_FLAGS_INIT "$ENV{ASCFLAGS} ${CMAKE_ASC_FLAGS_INIT}")
include(CMakeInitializeConfigs)
cmake_initialize_per_config_variable(CMAKE_ASC_FLAGS "Flags used by the ASC compiler")
include(CMakeCommonLanguageInclude)

set(CMAKE_SHARED_LIBRARY_ASC_FLAGS "-fPIC")
set(CMAKE_ASC_COMPILE_OPTIONS_PIC "-fPIC")
set(CMAKE_ASC_COMPILE_OPTIONS_PIE "-fPIE")
set(CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS "-shared")
set(CMAKE_SHARED_LIBRARY_SONAME_ASC_FLAG "-Wl,-soname,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG_SEP ":")

set(CMAKE_ASC_COMPILE_OBJECT
    "<CMAKE_ASC_COMPILER> ${_asc_wrapper} <DEFINES> <INCLUDES> <FLAGS> -o <OBJECT> -c <SOURCE>")
set(CMAKE_ASC_LINK_EXECUTABLE
    "<CMAKE_ASC_COMPILER> ${_asc_wrapper} <FLAGS> <CMAKE_ASC_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(CMAKE_ASC_CREATE_SHARED_LIBRARY
    "<CMAKE_ASC_COMPILER> ${_asc_wrapper} <CMAKE_SHARED_LIBRARY_ASC_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
set(CMAKE_ASC_CREATE_SHARED_MODULE "${CMAKE_ASC_CREATE_SHARED_LIBRARY}")
set(CMAKE_ASC_ARCHIVE_CREATE "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_ASC_ARCHIVE_APPEND "<CMAKE_AR> q <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_ASC_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")

set(CMAKE_ASC_INFORMATION_LOADED 1)
