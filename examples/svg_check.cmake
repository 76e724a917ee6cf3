# SPDX-License-Identifier: MIT
# ctest script: runs an example that writes SVG pictures and checks them.
#   -DPROGRAM=<exe> -DMODE=demo|frames -DOUTDIR=<dir> -DXMLLINT=<xmllint or empty>
# demo:   `demo --svg OUTDIR/demo.svg`; one rock per asteroid, one wall per wall, and as many hit
#         points and normals as the lasers its stdout reports a hit for (on a rock or a wall;
#         at least one of each).
# frames: `frame_loop --frames OUTDIR`; eight frames, each with particles and hit points.
# Every file must be well-formed XML (xmllint --noout) with an <svg> root.
cmake_minimum_required(VERSION 3.20)

function(count_of text pattern out)
  string(REGEX MATCHALL "${pattern}" found "${text}")
  list(LENGTH found n)
  set(${out} ${n} PARENT_SCOPE)
endfunction()

function(check_svg file)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "${file} was not written")
  endif()
  if(NOT XMLLINT)
    message(FATAL_ERROR "xmllint not found: apt-get install libxml2-utils (scripts/install-deps.sh)")
  endif()
  execute_process(COMMAND ${XMLLINT} --noout "${file}" RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${file} is not well-formed XML:\n${err}")
  endif()
  file(READ "${file}" text)
  if(NOT text MATCHES "^<\\?xml[^>]*>\n<svg xmlns=\"http://www.w3.org/2000/svg\"" OR
     NOT text MATCHES "</svg>\n$")
    message(FATAL_ERROR "${file} has no <svg> root")
  endif()
  set(svg_text "${text}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${OUTDIR}")
file(MAKE_DIRECTORY "${OUTDIR}")
if(MODE STREQUAL "demo")
  set(out "${OUTDIR}/demo.svg")
  execute_process(COMMAND ${PROGRAM} --svg "${out}" RESULT_VARIABLE rc OUTPUT_VARIABLE stdout)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "demo --svg exited with ${rc}:\n${stdout}")
  endif()
  if(NOT stdout MATCHES "^hitscan demo: ([0-9]+) asteroids, ([0-9]+) walls, ([0-9]+) lasers")
    message(FATAL_ERROR "unexpected demo output:\n${stdout}")
  endif()
  set(rocks ${CMAKE_MATCH_1})
  set(walls ${CMAKE_MATCH_2})
  count_of("${stdout}" "\n  [^\n]* rock [0-9]+ at t=" rock_hits)
  count_of("${stdout}" "\n  [^\n]* wall [0-9]+ at t=" wall_hits)
  math(EXPR hits "${rock_hits} + ${wall_hits}")
  check_svg("${out}")
  count_of("${svg_text}" "class=\"rock\"" drawn_rocks)
  count_of("${svg_text}" "class=\"wall\"" drawn_walls)
  count_of("${svg_text}" "class=\"hit\"" drawn_hits)
  count_of("${svg_text}" "class=\"normal\"" drawn_normals)
  if(NOT drawn_rocks EQUAL rocks OR NOT drawn_walls EQUAL walls OR NOT drawn_hits EQUAL hits OR
     NOT drawn_normals EQUAL hits OR rock_hits EQUAL 0 OR wall_hits EQUAL 0 OR walls EQUAL 0)
    message(FATAL_ERROR "demo.svg draws ${drawn_rocks} rocks, ${drawn_walls} walls, "
                        "${drawn_hits} hits, ${drawn_normals} normals; stdout reports ${rocks} "
                        "rocks, ${walls} walls, ${rock_hits} + ${wall_hits} hits")
  endif()
elseif(MODE STREQUAL "frames")
  execute_process(COMMAND ${PROGRAM} --frames "${OUTDIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE stdout)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "frame_loop --frames exited with ${rc}:\n${stdout}")
  endif()
  foreach(f RANGE 0 7)
    set(out "${OUTDIR}/frame_00${f}.svg")
    check_svg("${out}")
    count_of("${svg_text}" "class=\"particle\"" particles)
    count_of("${svg_text}" "class=\"hit\"" hits)
    if(particles LESS 100 OR hits LESS 10)
      message(FATAL_ERROR "${out}: ${particles} particles and ${hits} hits drawn")
    endif()
  endforeach()
else()
  message(FATAL_ERROR "MODE must be demo or frames")
endif()
