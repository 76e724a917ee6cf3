# SPDX-License-Identifier: MIT
# End-to-end tests of the hitscan tool: hitscan_fixtures writes the input files, the expected
# results (derived by hand, see fixtures.c) and one malformed file per error case; every test
# runs the tool through expect.cmake, which checks the exit status exactly, stderr / stdout,
# and byte-compares result files.
add_executable(hitscan_fixtures fixtures.c)
target_link_libraries(hitscan_fixtures PRIVATE hitscan_io)

set(HS_CLI_DIR ${CMAKE_CURRENT_BINARY_DIR}/cli_files)
file(MAKE_DIRECTORY ${HS_CLI_DIR})
add_test(NAME cli_fixtures COMMAND hitscan_fixtures ${HS_CLI_DIR})
set_tests_properties(cli_fixtures PROPERTIES FIXTURES_SETUP hs_cli_files)

# hs_cli(NAME ARGS1 a b.. [RC1 n] [ERR1 re] [OUT1 re] [ARGS2 ..] [ARGS3 ..] [SAME f1 f2 ..])
function(hs_cli name)
  cmake_parse_arguments(T "" "RC1;ERR1;OUT1;RC2;ERR2;OUT2;RC3;ERR3;OUT3"
                        "ARGS1;ARGS2;ARGS3;SAME" ${ARGN})
  set(defs)
  foreach(k 1 2 3)
    if(T_ARGS${k})
      string(JOIN "^" joined ${T_ARGS${k}})
      list(APPEND defs "-DARGS${k}=${joined}")
    endif()
    foreach(v RC ERR OUT)
      if(DEFINED T_${v}${k})
        list(APPEND defs "-D${v}${k}=${T_${v}${k}}")
      endif()
    endforeach()
  endforeach()
  if(T_SAME)
    string(JOIN "^" joined ${T_SAME})
    list(APPEND defs "-DSAME=${joined}")
  endif()
  add_test(NAME cli_${name}
           COMMAND ${CMAKE_COMMAND} -DTOOL=$<TARGET_FILE:hitscan_cli> -DWORKDIR=${HS_CLI_DIR}
                   ${defs} -P ${CMAKE_CURRENT_SOURCE_DIR}/expect.cmake)
  set_tests_properties(cli_${name} PROPERTIES FIXTURES_REQUIRED hs_cli_files TIMEOUT 300)
endfunction()

set(C_CSV --circles good_circles.csv --queries good_queries.csv)
set(C_NPY --circles good_circles.npy --queries good_queries.npy)
set(NUM "[0-9]+(\\.[0-9]+)?")
# the summary line's last fields: read, write and total times
set(TIMES "read_ms=${NUM} write_ms=${NUM} total_ms=${NUM}")

# ---- results on the hand-checked scene: every mode, both engines, both formats ------------
hs_cli(closest_csv ARGS1 ${C_CSV} --out r_closest.csv
       ERR1 "^hitscan: mode=closest kind=segment engine=grid N=5 M=5 isa=[a-z0-9]+ threads=[0-9]+ build_ms=${NUM} query_ms=${NUM} queries_per_s=[0-9]+ hits=4 ${TIMES}\n$"
       SAME r_closest.csv exp_closest.csv)
hs_cli(closest_npy_brute ARGS1 ${C_NPY} --brute --out r_closest_b.npy
       ERR1 "engine=brute N=5 M=5 .* hits=4"
       SAME r_closest_b.npy exp_closest.npy)
hs_cli(closest_scalar_threads3 ARGS1 ${C_NPY} --isa scalar --threads 3 --out r_closest_s.out --format csv
       ERR1 "isa=scalar threads=3 " SAME r_closest_s.out exp_closest.csv)
hs_cli(any ARGS1 ${C_CSV} --mode any --out r_any.npy
       ARGS2 ${C_NPY} --mode=any --brute --out=r_any_b.csv
       SAME r_any.npy exp_any.npy r_any_b.csv exp_any.csv)
hs_cli(any_boundary ARGS1 ${C_NPY} --mode any --boundary --out r_anyb.csv
       ARGS2 ${C_NPY} --mode any --boundary --brute --out r_anyb_b.npy
       SAME r_anyb.csv exp_any_boundary.csv r_anyb_b.npy exp_any_boundary.npy)
# --skip-start: query 1 starts at circle 2's centre (heading out counts from there), query 4
# inside circle 0 heading in (still a hit)
hs_cli(count_skip_start ARGS1 ${C_CSV} --mode count --skip-start --out - --format csv
       OUT1 "^query,count\r?\n0,1\r?\n1,0\r?\n2,0\r?\n3,1\r?\n4,1\r?\n$"
       ARGS2 ${C_NPY} --mode count --skip-start --boundary --brute --out - --format csv
       OUT2 "^query,count\r?\n0,1\r?\n1,0\r?\n2,0\r?\n3,1\r?\n4,0\r?\n$")
# --origin: the hit point in world coordinates, exact where float world coordinates lose it
hs_cli(origin ARGS1 --circles far_circles.csv --queries far_queries.csv --origin 12345600,-9876500 --out - --format csv
       OUT1 "^query,idx,t,px,py,nx,ny\r?\n0,0,0.3[0-9]*,12345676.25,-9876543.5,-1,0\r?\n$"
       ARGS2 --circles far_circles.csv --queries far_queries.csv --out - --format csv
       OUT2 "^query,idx,t,px,py,nx,ny\r?\n0,0,0.3[0-9]*,12345676,-9876544,-1,0\r?\n$"
       ARGS3 --scene uniform --n 10 --m 10 --origin 1,2 RC3 2 ERR3 "not --scene")
# --mode pairs: none of the circles overlap; with --displacements circles 0 and 1 touch at 0.75
hs_cli(pairs ARGS1 --circles good_circles.csv --mode pairs --out r_pairs.csv
       ERR1 "^hitscan: mode=pairs kind=segment engine=grid N=5 M=0 isa=[a-z0-9]+ threads=[0-9]+ build_ms=${NUM} query_ms=${NUM} circles_per_s=[0-9]+ hits=0 ${TIMES}\n$"
       ARGS2 --circles good_circles.npy --mode pairs --displacements good_displacements.csv --out -
       OUT2 "^i,j,t,nx,ny,overlapping\r?\n0,1,0.75,1,0,0\r?\n$" ERR2 "mode=pairs .* hits=1 "
       ARGS3 --circles good_circles.csv --mode pairs --displacements good_displacements.npy --threads 2 --out r_swept.npy
       SAME r_pairs.csv exp_pairs.csv r_swept.npy exp_swept.npy)
# --walls (good_walls.csv, see fixtures.c): query 0 meets wall 0 at t 0.25 before circle 0
# (kind 1, index 0), query 3 wall 2 after the point circle; the same from a '<f8' (K, 6) and a
# '<f4' (K, 4) .npy, whose rows the CSV's are
hs_cli(walls ARGS1 ${C_CSV} --walls good_walls.csv --out r_closest_w.csv
       ERR1 "mode=closest .* hits=4 ${TIMES} walls=3\n$"
       ARGS2 ${C_NPY} --walls good_walls.npy --mode all --threads 2 --out r_all_w.npy
       ARGS3 ${C_CSV} --walls good_walls4.npy --out - --format csv
       OUT3 "^query,idx,t,px,py,nx,ny,kind\r?\n0,0,0.25,4,-?0,-1,-?0,1\r?\n1,2,0,0,10,-0,-1,0\r?\n2,-1,nan,nan,nan,nan,nan,0\r?\n"
       SAME r_closest_w.csv exp_closest_walls.csv r_all_w.npy exp_all_walls.npy)
hs_cli(walls_formats ARGS1 ${C_NPY} --walls good_walls4.csv --out r_closest_w.npy
       ARGS2 ${C_CSV} --walls good_walls.csv --mode all --out r_all_w.csv
       ARGS3 ${C_CSV} --walls good_walls.csv --mode count --out -
       OUT3 "^query,count\r?\n0,2\r?\n1,1\r?\n2,0\r?\n3,2\r?\n4,1\r?\n$"
       SAME r_closest_w.npy exp_closest_walls.npy r_all_w.csv exp_all_walls.csv)
# a wall of mask 0 meets no query (the tool's queries have every bit); an empty wall file
# gives the plain answers with a kind column of circles
hs_cli(walls_masked ARGS1 ${C_CSV} --walls masked_walls.csv --mode all --out -
       OUT1 "^query,idx,t,kind\r?\n0,0,0.5,0\r?\n1,2,0,0\r?\n3,3,0.5,0\r?\n4,0,0,0\r?\n$"
       ARGS2 ${C_CSV} --walls empty_walls.csv --mode all --out -
       OUT2 "^query,idx,t,kind\r?\n0,0,0.5,0\r?\n1,2,0,0\r?\n3,3,0.5,0\r?\n4,0,0,0\r?\n$"
       ERR2 "hits=4 ${TIMES} walls=0\n$"
       ARGS3 ${C_CSV} --walls empty_walls.csv --mode any --out -
       OUT3 "^query,hit\r?\n0,1\r?\n1,1\r?\n2,0\r?\n3,1\r?\n4,1\r?\n$")
hs_cli(walls_errors ARGS1 ${C_CSV} --walls bad_walls_nan.csv RC1 1
       ERR1 "^hitscan: error: bad_walls_nan.csv: row 1 .line 2.: non-finite value .NaN or Inf. .ax=1, ay=2, bx=nan, by=4, thickness=0.\n$"
       ARGS2 ${C_CSV} --walls bad_walls_thickness.csv RC2 1
       ERR2 "^hitscan: error: bad_walls_thickness.csv: row 1 .line 4.: negative thickness .ax=1, ay=2, bx=3, by=4, thickness=-0.5.\n$"
       ARGS3 ${C_CSV} --walls bad_walls_fields.csv RC3 1
       ERR3 "bad_walls_fields.csv: row 1 .line 2.: 5 fields, expected 4, as the first line\n$")
hs_cli(walls_errors2 ARGS1 ${C_CSV} --walls bad_walls_mask.csv RC1 1
       ERR1 "bad_walls_mask.csv: row 0 .line 1., column 6: '-1' is not a mask"
       ARGS2 ${C_CSV} --walls bad_walls_shape.npy RC2 1
       ERR2 "bad_walls_shape.npy: shape .4, 3. is not .N, 4. to .N, 6."
       ARGS3 ${C_CSV} --walls bad_dtype_be.npy RC3 1
       ERR3 "need little-endian float32 '<f4' or float64 '<f8'")
hs_cli(walls_usage ARGS1 ${C_CSV} --walls good_walls.csv --brute RC1 2
       ERR1 "--walls needs the grid; it has no --brute .hitscan --help"
       ARGS2 --circles good_circles.csv --mode pairs --walls good_walls.csv RC2 2
       ERR2 "--walls goes with the query modes"
       ARGS3 --circles box_circles.csv --mode pairs --box 0,0,16,8 --walls good_walls.csv RC3 2
       ERR3 "--walls: a periodic box .--box. takes no walls")
hs_cli(scene_too_big ARGS1 --scene uniform --n 4294967294 --m 4294967294 RC1 1 ERR1 "needs about [0-9.]+ GB; this machine has")
# queries against moving circles: circle 1 closes on queries 0 and 4 (at t 0.75 and 17/18)
hs_cli(moving ARGS1 --circles good_circles.csv --queries good_queries.csv --mode count
       --displacements good_displacements.csv --out - --format csv
       OUT1 "^query,count\r?\n0,2\r?\n1,1\r?\n2,0\r?\n3,1\r?\n4,2\r?\n$"
       ARGS2 --circles good_circles.csv --queries good_queries.csv --mode all
       --displacements good_displacements.npy --out - --format csv
       OUT2 "^query,idx,t\r?\n0,0,0.5\r?\n0,1,0.75\r?\n1,2,0\r?\n3,3,0.5\r?\n4,0,0\r?\n4,1,0.94[0-9]*\r?\n$"
       ARGS3 ${C_CSV} --displacements good_displacements.csv --brute RC3 2 ERR3 "no --brute")
hs_cli(pairs_errors ARGS1 --circles good_circles.csv --mode pairs --displacements nan_displacements.csv --brute RC1 2 ERR1 "no --brute"
       ARGS2 --circles good_circles.csv --mode pairs --brute RC2 2 ERR2 "no --brute"
       ARGS3 --circles good_circles.csv --mode pairs --displacements short_displacements.csv RC3 1 ERR3 "2 rows, but there are 5 circles")
# --box: box_circles in [0, 16) x [0, 8); 0 and 1 touch across the left edge, 4 is given
# outside the box (wrapped), 2 and 3 are 1.25 apart across the bottom edge (--skin 0.25)
hs_cli(pairs_box ARGS1 --circles box_circles.csv --mode pairs --box 0,0,16,8 --out r_box.csv
       ARGS2 --circles box_circles.csv --mode pairs --box=0,0,16,8 --periodic x --threads 2 --out r_box.npy
       ARGS3 --circles box_circles.csv --mode pairs --box 0,0,16,8 --skin 0.25 --out - --format csv
       OUT3 "^i,j,sx,sy\r?\n0,1,-1,0\r?\n2,3,0,-1\r?\n4,5,0,0\r?\n$" ERR3 "hits=3 "
       SAME r_box.csv exp_box_pairs.csv r_box.npy exp_box_pairs.npy)
hs_cli(pairs_box_swept ARGS1 --circles box_circles.csv --mode pairs --box 0,0,16,8 --displacements box_displacements.csv --out -
       OUT1 "^i,j,t,nx,ny,overlapping,sx,sy\r?\n0,1,0,-1,0,1,-1,0\r?\n4,5,0,-1,0,1,0,0\r?\n$")
hs_cli(pairs_box_errors ARGS1 --circles box_circles.csv --mode pairs --box 0,0,16,8 --periodic y
       RC1 1 ERR1 "box_circles.csv: row 4 .line 6.: outside the box on an axis that is not periodic"
       ARGS2 --circles box_circles.csv --mode pairs --box 0,0,16 RC2 2 ERR2 "--box must be four finite numbers"
       ARGS3 --circles box_circles.csv --mode pairs --periodic xy RC3 2 ERR3 "--periodic needs --box")
hs_cli(pairs_box_usage ARGS1 ${C_CSV} --box 0,0,16,8 RC1 2 ERR1 "--box and --skin go with --mode pairs"
       ARGS2 --circles box_circles.csv --mode pairs --box 0,0,16,8 --periodic z RC2 2 ERR2 "--periodic must be x, y or xy"
       ARGS3 --circles box_circles.csv --mode pairs --skin 1 --displacements box_displacements.csv RC3 2 ERR3 "--skin goes with overlap pairs")
hs_cli(pairs_box_small ARGS1 --circles box_circles.csv --mode pairs --box 0,0,1.5,8 RC1 1
       ERR1 "row 0 .line 2.: .* a diameter not below half a period")
hs_cli(pairs_bad_displacement ARGS1 --circles good_circles.csv --mode pairs --displacements nan_displacements.csv
       RC1 1 ERR1 "nan_displacements.csv: row 2: not finite \\(dx=0, dy=nan\\)")
hs_cli(count ARGS1 ${C_CSV} --mode count --out r_count.npy
       ARGS2 ${C_CSV} --mode count --brute --out r_count_b.csv
       SAME r_count.npy exp_count.npy r_count_b.csv exp_count.csv)
hs_cli(count_ray ARGS1 ${C_NPY} --mode count --kind ray --out r_count_ray.csv
       SAME r_count_ray.csv exp_count_ray.csv)
hs_cli(count_line ARGS1 ${C_NPY} --mode count --kind line --out r_count_line.csv
       ARGS2 ${C_NPY} --mode count --kind line --brute --out r_count_line_b.csv
       SAME r_count_line.csv exp_count_line.csv r_count_line_b.csv exp_count_line.csv)
hs_cli(count_thick ARGS1 ${C_NPY} --mode count --thickness 4 --out r_count_thick.csv
       ARGS2 ${C_CSV} --mode count --thickness 4 --brute --out r_count_thick_b.npy
       SAME r_count_thick.csv exp_count_thick.csv r_count_thick_b.npy exp_count_thick.npy)
hs_cli(all ARGS1 ${C_CSV} --mode all --out r_all.csv
       ARGS2 ${C_NPY} --mode all --brute --out r_all_b.npy
       ERR2 "hits=4 ${TIMES}\n"
       SAME r_all.csv exp_all.csv r_all_b.npy exp_all.npy)
hs_cli(all_ray ARGS1 ${C_NPY} --mode all --kind ray --out r_all_ray.npy
       ERR1 "hits=6 ${TIMES}\n" SAME r_all_ray.npy exp_all_ray.npy)
hs_cli(stdout ARGS1 ${C_CSV} --mode count --out -
       OUT1 "^query,count\n0,1\n1,1\n2,0\n3,1\n4,1\n$")
hs_cli(empty_queries ARGS1 --circles good_circles.csv --queries empty_queries.csv --out -
       OUT1 "^query,idx,t,px,py,nx,ny\n$" ERR1 "M=0 .*hits=0")

# ---- built-in scenes: --write-scene files give the same answers as the scene itself, and
# the grid the same as brute force ------------------------------------------------------
# (the distribution suite's smaller: point's segments hit every circle)
foreach(kind uniform clustered mixed outlier twoclusters twoclusters_near blob blob_alone filament
        filament_axis powerlaw point)
  set(n 3000)
  set(m 2000)
  if(NOT kind MATCHES "^(uniform|clustered|mixed)$")
    set(n 1000)
    set(m 500)
  endif()
  set(S --scene ${kind} --n ${n} --m ${m} --seed 7)
  hs_cli(scene_${kind}
         ARGS1 ${S} --write-scene sc_${kind}
         OUT1 "wrote sc_${kind}_circles.npy .${n}, 3. float32\nhitscan: wrote sc_${kind}_queries.npy .${m}, 4."
         ARGS2 ${S} --mode all --out sc_${kind}_scene.npy
         OUT2 "${kind} scene .seed 7.: N = ${n} circles, M = ${m} segments"
         ARGS3 --circles sc_${kind}_circles.npy --queries sc_${kind}_queries.npy --mode all --brute --out sc_${kind}_files.npy
         SAME sc_${kind}_scene.npy sc_${kind}_files.npy)
endforeach()
hs_cli(scene_unknown ARGS1 --scene galaxy RC1 2 ERR1 "--scene must be a scene of .*powerlaw or point .got 'galaxy'.")
# --repeat: the same answers as one call (sorted scene batches through one workspace), the
# summary line's two added fields, and the human summary's note
hs_cli(repeat_closest
       ARGS1 --scene uniform --n 40000 --m 40000 --out rep_cl_1.npy
       ARGS2 --scene uniform --n 40000 --m 40000 --repeat 3 --out rep_cl_3.npy
       ERR2 " hits=[0-9]+ repeat=3 first_ms=${NUM} ${TIMES}\n$"
       OUT2 "median of 3 calls through one workspace. the first took ${NUM} ms"
       SAME rep_cl_1.npy rep_cl_3.npy)
hs_cli(repeat_all
       ARGS1 --scene mixed --n 40000 --m 40000 --mode all --out rep_all_1.npy
       ARGS2 --scene mixed --n 40000 --m 40000 --mode all --repeat 2 --threads 2 --out rep_all_2.npy
       ARGS3 ${C_CSV} --mode all --repeat 4 --out r_all_rep.csv
       ERR3 "hits=4 repeat=4 first_ms=${NUM} ${TIMES}\n$"
       SAME rep_all_1.npy rep_all_2.npy r_all_rep.csv exp_all.csv)
hs_cli(scene_closest_grid_vs_brute
       ARGS1 --scene mixed --n 4000 --m 4000 --kind ray --out sc_cl_grid.npy
       ARGS2 --scene mixed --n 4000 --m 4000 --kind ray --brute --out sc_cl_brute.npy
       ARGS3 --scene clustered --n 4000 --m 4000 --mode count --thickness 0.5 --out sc_cnt.npy
       OUT3 "hits .* per query"
       SAME sc_cl_grid.npy sc_cl_brute.npy)

# ---- malformed input: exit status 1 and a message naming the problem --------------------
macro(hs_cli_bad name file re)
  hs_cli(bad_${name} ARGS1 --circles ${file} --queries good_queries.csv RC1 1
         ERR1 "^hitscan: error: ${file}: ${re}")
endmacro()
hs_cli_bad(magic bad_magic.npy "not a .npy file .bad magic")
hs_cli_bad(version bad_version.npy "unsupported .npy format version 9.0")
hs_cli_bad(dtype_f8 bad_dtype_f8.npy "dtype '<f8' is not supported: need little-endian float32")
hs_cli_bad(dtype_be bad_dtype_be.npy "dtype '>f4' is not supported")
hs_cli_bad(fortran bad_fortran.npy "fortran_order is True")
hs_cli_bad(shape bad_shape.npy "shape .6, 2. is not .N, 3.")
hs_cli_bad(shape1d bad_shape1d.npy "shape .12,. is not .N, 3.")
hs_cli_bad(truncated truncated.npy "truncated data: shape .4, 3. needs 48 bytes after the header, file holds 42")
hs_cli_bad(trailing trailing.npy "file is longer than shape .4, 3. needs")
hs_cli_bad(header_garbage header_garbage.npy "bad .npy header: not a dictionary")
hs_cli_bad(header_short header_short.npy "truncated .npy header")
hs_cli_bad(nan nan_circles.npy "row 2: non-finite value .NaN or Inf. .x=9, y=nan, r=1.")
hs_cli_bad(neg_radius neg_radius.csv "row 1 .line 4.: negative radius .x=3, y=3, r=-0.5.")
hs_cli_bad(cols bad_cols.csv "row 1 .line 3.: 2 fields, expected 3")
hs_cli_bad(number bad_number.csv "row 1 .line 2., column 2: 'five' is not a number")
hs_cli_bad(empty_csv empty.csv "empty file")
hs_cli_bad(blank_csv blank.csv "empty file")
hs_cli_bad(empty_npy empty.npy "empty file")
hs_cli_bad(extension circles.txt "unknown file type")
hs_cli_bad(missing no_such_file.npy "cannot open: No such file")
hs_cli(bad_inf_query ARGS1 --circles good_circles.npy --queries inf_query.csv RC1 1
       ERR1 "inf_query.csv: row 1 .line 2.: bx is inf: query coordinates must be finite")
hs_cli(bad_overflow_query ARGS1 --circles good_circles.npy --queries overflow_query.csv RC1 1
       ERR1 "overflow_query.csv: row 1 .line 4.: B - A overflows float32")
hs_cli(bad_neg_radius_brute ARGS1 --circles neg_radius.csv --queries good_queries.npy --brute RC1 1
       ERR1 "neg_radius.csv: row 1 .line 4.: negative radius")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|i.86)$")
  set(HS_CLI_MISSING_ISA neon)
else()
  set(HS_CLI_MISSING_ISA avx2)
endif()
hs_cli(bad_isa ARGS1 ${C_CSV} --isa ${HS_CLI_MISSING_ISA} RC1 1
       ERR1 "--isa ${HS_CLI_MISSING_ISA} is not available on this CPU")
hs_cli(bad_query_shape ARGS1 --circles good_circles.npy --queries good_circles.npy RC1 1
       ERR1 "good_circles.npy: shape .5, 3. is not .N, 4.")

# ---- command line: exit status 2 -------------------------------------------------------
hs_cli(help ARGS1 --help OUT1 "usage: hitscan --circles FILE --queries FILE")
hs_cli(usage_none ARGS1 --mode any RC1 2 ERR1 "need --circles FILE and --queries FILE")
hs_cli(usage_unknown ARGS1 ${C_CSV} --frobnicate RC1 2 ERR1 "unknown option '--frobnicate'")
hs_cli(usage_mode ARGS1 ${C_CSV} --mode nearest RC1 2 ERR1 "--mode must be closest, any, count, all or pairs")
hs_cli(usage_thickness ARGS1 ${C_CSV} --thickness -1 RC1 2 ERR1 "--thickness must be a finite number >= 0")
hs_cli(usage_value ARGS1 ${C_CSV} --threads RC1 2 ERR1 "option --threads needs a value")
hs_cli(usage_repeat ARGS1 ${C_CSV} --repeat 0 RC1 2 ERR1 "--repeat must be an integer in 1..1000 \\(got '0'\\)"
       ARGS2 ${C_CSV} --repeat 1001 RC2 2 ERR2 "--repeat must be an integer in 1..1000"
       ARGS3 ${C_CSV} --repeat=x RC3 2 ERR3 "--repeat must be an integer")
hs_cli(usage_out ARGS1 ${C_CSV} --out result.bin RC1 2 ERR1 "cannot tell the output format")
hs_cli(usage_brute_cell ARGS1 ${C_CSV} --brute --cell-size 2 RC1 2 ERR1 "--cell-size is a grid option")
hs_cli(usage_scene_mix ARGS1 --scene uniform ${C_CSV} RC1 2 ERR1 "--scene replaces")
# every message, a bad command line's too, starts with one prefix
hs_cli(usage_prefix ARGS1 ${C_CSV} --frobnicate RC1 2
       ERR1 "^hitscan: error: unknown option '--frobnicate' .hitscan --help lists the options.\n$"
       ARGS2 --scene uniform --n 10 --m 10 --kind arc RC2 2
       ERR2 "^hitscan: error: --kind must be segment, ray or line .got 'arc'. .hitscan --help lists the options.\n$"
       ARGS3 --circles no_such_file.npy --queries good_queries.csv RC3 1
       ERR3 "^hitscan: error: no_such_file.npy: cannot open: No such file or directory\n$")
# counts: whole numbers with an exponent or a fraction are taken, exactly; others refused
hs_cli(count_exponent
       ARGS1 --scene uniform --n 2.5e3 --m 1E3 --mode count --out sc_exp.npy
       OUT1 "N = 2500 circles, M = 1000 segments"
       ERR1 " N=2500 M=1000 "
       ARGS2 --scene uniform --n 2500 --m 1000 --mode count --out sc_plain.npy
       ARGS3 --scene uniform --n=0.25e4 --m 1000.0 --threads 2e0 --repeat 1e0 --mode count --out sc_exp2.npy
       ERR3 " N=2500 M=1000 .* threads=2 .* repeat=1 "
       SAME sc_exp.npy sc_plain.npy sc_exp2.npy sc_plain.npy)
hs_cli(count_refused
       ARGS1 --scene uniform --n 1.5 RC1 2
       ERR1 "^hitscan: error: --n must be an integer in 0..4294967294: '1.5' is not a whole number .hitscan --help lists the options.\n$"
       ARGS2 --scene uniform --m 1e30 RC2 2
       ERR2 "^hitscan: error: --m must be an integer in 0..4294967294: '1e30' is too large .hitscan --help lists the options.\n$"
       ARGS3 --scene uniform --n 4294967295 RC3 2
       ERR3 "--n must be an integer in 0..4294967294: '4294967295' is too large")
hs_cli(count_refused_syntax
       ARGS1 --scene uniform --n 1e RC1 2 ERR1 "--n must be an integer in 0..4294967294 .got '1e'."
       ARGS2 --scene uniform --n -1 RC2 2 ERR2 "--n must be an integer in 0..4294967294 .got '-1'."
       ARGS3 ${C_CSV} --threads 2.5 RC3 2 ERR3 "--threads must be an integer in 1..4096: '2.5' is not a whole number")

# ---- the CSV header rule: a first row is a header only if no field of it is empty or
# (starts like) a number; a byte order mark is skipped; --header / --no-header say so --------
hs_cli(csv_bom_no_header
       ARGS1 --circles bom_circles.csv --queries good_queries.csv --out r_bom.csv ERR1 " N=5 M=5 "
       ARGS2 --circles bom_header_circles.csv --queries good_queries.csv --out r_bom_h.csv
       SAME r_bom.csv exp_closest.csv r_bom_h.csv exp_closest.csv)
hs_cli_bad(first_empty first_empty.csv "row 0 .line 1., column 1: empty field\n$")
hs_cli_bad(first_range first_range.csv "row 0 .line 1., column 1: '1e39' is out of float32 range\n$")
hs_cli_bad(first_long first_long.csv "row 0 .line 1., column 1: field longer than 127 characters\n$")
hs_cli_bad(first_typo first_typo.csv
           "row 0 .line 1., column 1: '1O' is not a number .if this line is a header, give --header.\n$")
hs_cli_bad(utf16 utf16.csv "UTF-16 text is not supported")
hs_cli(csv_header_flags
       ARGS1 --circles good_circles.csv --queries numeric_header_queries.csv --header --out r_hdr.csv
       ARGS2 --circles bom_circles.csv --queries good_queries.csv --no-header --out r_nohdr.csv
       ARGS3 --circles good_circles.csv --queries good_queries.csv --header --no-header RC3 1
       ERR3 "^hitscan: error: good_circles.csv: row 0 .line 1., column 1: 'x' is not a number\n$"
       SAME r_hdr.csv exp_closest.csv r_nohdr.csv exp_closest.csv)
hs_cli(usage_header_scene ARGS1 --scene uniform --header RC1 2 ERR1 "--header and --no-header are about CSV")

# ---- --out naming an input (by name, a symbolic link, a hard link, stdout): refused with
# exit status 2 before anything is written; the input is left as it was -------------------
hs_cli(out_is_input
       ARGS1 --circles same_circles.csv --queries good_queries.csv --out same_circles.csv RC1 2
       ERR1 "^hitscan: error: --out same_circles.csv is the same file as --circles same_circles.csv"
       ARGS2 --circles same_circles.csv --queries good_queries.csv --out same_circles_symlink.csv RC2 2
       ERR2 "is the same file as --circles same_circles.csv"
       ARGS3 --circles good_circles.csv --queries same_queries.csv --mode count --out same_queries_hardlink.csv RC3 2
       ERR3 "--out same_queries_hardlink.csv is the same file as --queries same_queries.csv"
       SAME same_circles.csv same_circles_ref.csv same_queries.csv same_queries_ref.csv)

# ---- messages: one line, non-printable bytes escaped, bad values named by row -----------
hs_cli(escape_npy_dtype ARGS1 --circles escape_dtype.npy --queries good_queries.csv RC1 1
       ERR1 "^hitscan: error: escape_dtype.npy: dtype '<\\\\x1b\\[2J' is not supported[^\n]*\n$")
hs_cli(escape_npy_key ARGS1 --circles newline_key.npy --queries good_queries.csv RC1 1
       ERR1 "^hitscan: error: newline_key.npy: bad .npy header: unexpected key 'a\\\\x0ab'\n$")
hs_cli(escape_csv_field ARGS1 --circles escape_field.csv --queries good_queries.csv RC1 1
       ERR1 "^hitscan: error: escape_field.csv: row 1 .line 3., column 2: '\\\\x1b\\]0.pwned\\\\x07\\\\xff' is not a number\n$")
hs_cli(escape_argument ARGS1 ${C_CSV} "--mode=near\nest" RC1 2
       ERR1 "^hitscan: error: --mode must be closest, any, count, all or pairs .got 'near\\\\x0aest'. .hitscan --help lists the options.\n$")
hs_cli(bad_range_circle
       ARGS1 --circles range_circles.csv --queries good_queries.csv RC1 1
       ERR1 "^hitscan: error: range_circles.csv: row 1 .line 4.: .x., .y. or r above 1e.18 .x=2e.18, y=0, r=1.\n$"
       ARGS2 --circles range_circles.csv --queries good_queries.csv --brute RC2 1
       ERR2 "range_circles.csv: row 1 .line 4.: .x., .y. or r above 1e.18")
hs_cli(bad_range_query ARGS1 --circles good_circles.csv --queries range_queries.csv RC1 1
       ERR1 "^hitscan: error: range_queries.csv: row 1 .line 2.: invalid query: out of range [^\n]* .ax=2e.18, ay=0, B - A=.0, 1.. 1 invalid in all.\n$")

# ---- outputs appear whole or not at all: a write error (full device, file-size limit) or a
# signal leaves no partial file under the final name and the older file as it was ----------
hs_cli(out_dev_full ARGS1 ${C_CSV} --mode count --out /dev/full --format csv RC1 1
       ERR1 "^hitscan: error: /dev/full: write failed: No space left on device\n$")
hs_cli(out_missing_folder ARGS1 ${C_CSV} --out no_such_folder/r.csv RC1 1
       ERR1 "^hitscan: error: no_such_folder/r.csv: cannot create a temporary file in the output's folder: No such file or directory\n$")
foreach(case full_disk signal_pause signal_writing)
  add_test(NAME cli_out_${case}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/out_file_test.sh $<TARGET_FILE:hitscan_cli>
                   ${HS_CLI_DIR} ${case})
  set_tests_properties(cli_out_${case} PROPERTIES FIXTURES_REQUIRED hs_cli_files TIMEOUT 120)
endforeach()

# ---- the tool's sources form layers: no two files depend on each other, directly or through
# a third (includes and hsio_* calls, checked with grep and tsort) ---------------------------
add_test(NAME cli_io_layers COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/check_layers.sh
                                    ${CMAKE_CURRENT_SOURCE_DIR})

# ---- the summary's read / write / total times, the progress line (on a terminal only), and
# the README against --help --------------------------------------------------------------
foreach(case times progress_pipe progress_tty readme)
  add_test(NAME cli_summary_${case}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/summary_test.sh $<TARGET_FILE:hitscan_cli>
                   ${HS_CLI_DIR} ${case})
  set_tests_properties(cli_summary_${case} PROPERTIES FIXTURES_REQUIRED hs_cli_files TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endforeach()
