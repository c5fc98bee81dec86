# `harness bench --quick`: the benchmark cases run and bench.csv is
# well-formed (a header, every case once, numbers where measured). Not a
# timing test: --quick timings mean nothing.
set(bench_work "${CMAKE_CURRENT_BINARY_DIR}/bench_work")
add_test(NAME harness_bench_quick
  COMMAND sh -c "rm -rf \"${bench_work}\" && \"$<TARGET_FILE:harness>\" bench --quick --no-plot --out \"${bench_work}\" --json \"${bench_work}/bench.json\" && /usr/bin/python3 -c \"
import csv, json, sys
rows = list(csv.DictReader(open('${bench_work}/bench.csv')))
need = ['case','solver','isa','bones','tails','threads','iterations','cpu_ns_per_joint_step','real_ns_per_joint_step','cpu_ms_per_frame','thread_ms_per_frame','target_ns_per_joint_step','target_ms_per_frame','pass','note','reference_ns_per_point','ratio_to_reference','capsules_per_tail','relative_to','ratio_to_relative','target_ratio_to_relative']
assert rows and list(rows[0].keys()) == need, rows[:1]
names = [r['case'] for r in rows]
assert len(set(names)) == len(names) and len(names) >= 7, names
for r in rows:
    if r['note']: continue
    assert int(r['iterations']) >= 1 and float(r['cpu_ns_per_joint_step']) > 0 and float(r['cpu_ms_per_frame']) > 0, r
    assert r['pass'] in ('yes', 'no', ''), r
    assert float(r['reference_ns_per_point']) > 0 and float(r['ratio_to_reference']) > 0, r
assert any(r['solver'] == 'batch' and r['target_ms_per_frame'] == '4.0' for r in rows)
crowd = [r for r in rows if r['tails'] == '100000']
assert len(crowd) == 1 and crowd[0]['threads'] == '2' and crowd[0]['target_ms_per_frame'] == '16.6', crowd
assert crowd[0]['note'] or float(crowd[0]['thread_ms_per_frame']) > 0, crowd
caps = [r for r in rows if r['capsules_per_tail'] == '4']
assert len(caps) == 1 and caps[0]['relative_to'] in names and caps[0]['target_ratio_to_relative'] == '1.30', caps
assert caps[0]['note'] or float(caps[0]['ratio_to_relative']) > 0, caps
j = json.load(open('${bench_work}/bench.json'))
assert len(j['cases']) == len(rows)
assert j['reference']['cpu_ns_per_point'] > 0 and j['machine']['batch_isa'] in ('baseline', 'avx2', 'avx512'), j['machine']
assert all(c['ratio_to_reference'] > 0 for c in j['cases'] if c['ran'])
print('bench.csv ok:', len(rows), 'cases')
\"")
set_tests_properties(harness_bench_quick PROPERTIES TIMEOUT 300)

# `harness bench --detect --quick`: the detection-at-scale cases run (a chain
# grown in each, so the timed fix does real work), bench_detect.csv is
# well-formed and the 1 M targets say "not measured" rather than pass. Not a
# timing test.
set(bench_detect_work "${CMAKE_CURRENT_BINARY_DIR}/bench_detect_work")
add_test(NAME harness_bench_detect_quick
  COMMAND sh -c "rm -rf \"${bench_detect_work}\" && \"$<TARGET_FILE:harness>\" bench --detect --quick --no-plot --out \"${bench_detect_work}\" --json \"${bench_detect_work}/bench_detect.json\" > \"${bench_detect_work}.log\" && cat \"${bench_detect_work}.log\" && grep -q 'harness fix command at 1M .*not measured' \"${bench_detect_work}.log\" && /usr/bin/python3 -c \"
import csv, json
rows = list(csv.DictReader(open('${bench_detect_work}/bench_detect.csv')))
assert len(rows) == 2, rows
for r in rows:
    assert not r['error'] and int(r['chains']) == 1, r
    assert int(r['vertices']) > 1000 and int(r['iterations']) >= 1, r
    for k in ('load_cpu_s', 'fix_cpu_s', 'save_cpu_s', 'command_cpu_s'):
        assert float(r[k]) > 0, (k, r)
j = json.load(open('${bench_detect_work}/bench_detect.json'))
assert len(j['cases']) == 2 and all(not t['ran'] for t in j['targets']), j['targets']
assert 'allocator' in j['machine']
print('bench_detect.csv ok')
\"")
set_tests_properties(harness_bench_detect_quick PROPERTIES TIMEOUT 300)

# `harness bench --filter`: only the matching cases run, with the case a
# ratio is held to; a filter that matches nothing is a usage error (exit 2).
set(bench_filter_work "${CMAKE_CURRENT_BINARY_DIR}/bench_filter_work")
add_test(NAME harness_bench_filter
  COMMAND sh -c "rm -rf \"${bench_filter_work}\" && \"$<TARGET_FILE:harness>\" bench --quick --no-plot --filter +4caps --out \"${bench_filter_work}\" && /usr/bin/python3 -c \"
import csv
rows = list(csv.DictReader(open('${bench_filter_work}/bench.csv')))
names = [r['case'] for r in rows]
assert len(rows) == 2 and names[1].endswith('+4caps') and names[0] == rows[1]['relative_to'], names
print('filter ok:', names)
\" && \"$<TARGET_FILE:harness>\" bench --quick --no-plot --filter no-such-case --out \"${bench_filter_work}\"; test $? -eq 2")
set_tests_properties(harness_bench_filter PROPERTIES TIMEOUT 120)
