# `harness bench --quick`: the benchmark cases run and bench.csv is
# well-formed (a header, every case once, numbers where measured). Not a
# timing test: --quick timings mean nothing.
set(bench_work "${CMAKE_CURRENT_BINARY_DIR}/bench_work")
add_test(NAME harness_bench_quick
  COMMAND sh -c "rm -rf \"${bench_work}\" && \"$<TARGET_FILE:harness>\" bench --quick --no-plot --out \"${bench_work}\" --json \"${bench_work}/bench.json\" && /usr/bin/python3 -c \"
import csv, json, sys
rows = list(csv.DictReader(open('${bench_work}/bench.csv')))
need = ['case','solver','isa','bones','tails','iterations','cpu_ns_per_joint_step','real_ns_per_joint_step','cpu_ms_per_frame','target_ns_per_joint_step','target_ms_per_frame','pass','note']
assert rows and list(rows[0].keys()) == need, rows[:1]
names = [r['case'] for r in rows]
assert len(set(names)) == len(names) and len(names) >= 7, names
for r in rows:
    if r['note']: continue
    assert int(r['iterations']) >= 1 and float(r['cpu_ns_per_joint_step']) > 0 and float(r['cpu_ms_per_frame']) > 0, r
    assert r['pass'] in ('yes', 'no', ''), r
assert any(r['solver'] == 'batch' and r['target_ms_per_frame'] == '4' for r in rows)
assert len(json.load(open('${bench_work}/bench.json'))['cases']) == len(rows)
print('bench.csv ok:', len(rows), 'cases')
\"")
set_tests_properties(harness_bench_quick PROPERTIES TIMEOUT 300)
