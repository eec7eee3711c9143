# The `napkin merge` cases of tests/cli/CMakeLists.txt (included there: napkin_cli_case and napkin_cli_shell
# come from it).
# ---- napkin merge: per-rank reports as one cross-rank table (tests/cli/data/merge) --------------------
set(merge ${CMAKE_CURRENT_SOURCE_DIR}/data/merge)
# ranks/: gemm 1000, 1500 + 1500, 2000 ns on ranks 0, 1, 2 (rank 2 from the file name step.rank2.json):
# min 1.00 us, median 2.00 us, max 3.00 us, slowest rank 1, imbalance 3 / 2 = 1.50. The all-reduce 500,
# 100, 600 ns: median 500 ns, slowest rank 2, 600 / 500 = 1.20. Rank 0: 500 of 1500 ns in NCCL = 33.3%.
napkin_cli_case(merge_ranks 0 "3 ranks \\(0, 1, 2\\).*gemm +kernel +3/3 +1\\.00 us +2\\.00 us +3\\.00 us +1 +1\\.50.*kernel +3/3 +100 ns +500 ns +600 ns +2 +1\\.20.*0 +node-a +1\\.50 us +1\\.00 us +500 ns +33\\.3%"
                merge ${merge}/ranks)
# monitor/: step 10 us (8 in NCCL) and 4 us (2 in NCCL): median 7 us, 10 / 7 = 1.43, 10 of 14 us = 71.4%;
# gemm 2 us on both ranks: a tie.
napkin_cli_case(merge_monitor 0 "step +phase +2/2 +4\\.00 us +7\\.00 us +10\\.00 us +0 +1\\.43.*71\\.4% of GPU time in NCCL/NVSHMEM kernels: mostly communication.*slowest ranks tie: 0, 1"
                merge ${merge}/monitor)
napkin_cli_case(merge_json 0 "\"schema\": \"napkin.job\".*\"median_ns\": 2000" merge ${merge}/ranks --format json)
napkin_cli_case(merge_csv 0 "^name,by,rank_count,missing_ranks,min_ns,median_ns,max_ns,imbalance,slowest_ranks.*gemm,kernel,3,,1000,2000,3000,1.5,1,"
                merge ${merge}/ranks --format csv)
napkin_cli_case(merge_duplicate 2 "b\\.json: rank 1 again \\(also in .*a\\.json\\)" merge ${merge}/duplicate)
napkin_cli_case(merge_mixed 2 "rank1\\.json: a phase-reports document among kernel-reports documents: merge one kind at a time"
                merge ${merge}/mixed)
napkin_cli_case(merge_no_rank 2 "first\\.json: no context\\.rank and no rank in the file name" merge ${merge}/no_rank)
napkin_cli_case(merge_disagree 2 "rank3\\.json: context\\.rank is 1 but the file is named for rank 3" merge ${merge}/disagree)
napkin_cli_case(merge_other_kind 2 "rank0\\.json: a document of kind 'estimate'. merge reads one rank per file" merge ${merge}/other_kind)
# A world size of 10^12 would list 10^12 absent ranks: refused, naming the file and the field; files that
# disagree on the world size are refused (not "the larger wins").
napkin_cli_case(merge_huge_world 2 "rank0\\.json: context\\.world_size 1000000000000 is outside 1\\.\\.1048576, napkin's limit"
                merge ${merge}/huge_world)
napkin_cli_case(merge_world_disagree 2 "rank1\\.json: context\\.world_size is 8 but .*rank0\\.json says 4"
                merge ${merge}/disagree_world)
# Only regular files of at most 64 MiB are read: a symlink to /dev/zero, a FIFO (which used to wait for a
# writer forever), a 65 MiB file, /dev/urandom.
napkin_cli_shell(merge_dev_zero 2 "rank0\\.json is not a regular file \\(a character device\\)" special_file dev_zero merge)
napkin_cli_shell(merge_fifo 2 "rank1\\.json is not a regular file \\(a FIFO\\)" special_file fifo merge)
napkin_cli_shell(merge_large 2 "rank0\\.json is larger than 64 MiB, napkin's limit for a document" special_file large merge)
napkin_cli_shell(gpu_file_dev_zero 2 "--gpu: .*zero\\.json is not a regular file \\(a character device\\)" gpu_dev_zero)
napkin_cli_case(report_urandom 2 "/dev/urandom is not a regular file \\(a character device\\)" report /dev/urandom)
# merge reads as `napkin report` reads: the schema version and every member of a monitor report checked.
napkin_cli_case(merge_version 2 "rank0\\.json: unknown schema_version 2 \\(this napkin reads version 1\\)" merge ${merge}/version2)
napkin_cli_case(merge_half_count 2 "rank0\\.json: rows\\[2\\]\\.count: expected a count \\(a whole number >= 0\\)" merge ${merge}/half_count)
# A kernel name with ESC, BEL and a right-to-left override (U+202E) is shown, not sent to the terminal.
napkin_cli_case(merge_escape 0 "gemm\\\\x1bX<U\\+202E>\\\\x07 +kernel" merge ${merge}/escape)
# rank1.JSON is a rank file too (any case of .json), not skipped silently.
napkin_cli_case(merge_upper_case 0 "2 ranks \\(0, 1\\)" merge ${merge}/upper)
napkin_cli_case(merge_broken 2 "rank0\\.json: not valid JSON" merge ${merge}/broken)
napkin_cli_case(merge_missing_dir 2 "no/such/folder: not a folder" merge ${CMAKE_CURRENT_BINARY_DIR}/no/such/folder)
napkin_cli_case(merge_no_dir 2 "merge expects a folder \\(DIR\\)" merge)
set(merge_empty ${CMAKE_CURRENT_BINARY_DIR}/merge_empty)
file(MAKE_DIRECTORY ${merge_empty})
napkin_cli_case(merge_empty 2 "merge_empty: no per-rank report" merge ${merge_empty})
napkin_cli_case(merge_output 0 "^$" merge ${merge}/ranks --format json -o ${CMAKE_CURRENT_BINARY_DIR}/merge_job.json)
